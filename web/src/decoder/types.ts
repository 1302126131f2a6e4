/** Facts from the trace's TRACE_LOGFILE_HEADER, as shown to the user and printed by `sockscope info`. */
export interface TraceFacts {
	readonly fileName: string;
	readonly fileSize: number;
	/** Windows build number (ProviderVersion), e.g. 22621. */
	readonly build: number;
	/** Major.Minor.Sub.SubMinor of the logging session. */
	readonly version: string;
	readonly cpus: number;
	/** 4 or 8: the layout of the header record (SYSTEM32 / SYSTEM64). */
	readonly pointerSize: number;
	/** 1 QPC, 2 system time, 3 CPU cycles (ReservedFlags). */
	readonly clockType: number;
	readonly clockName: string;
	/** Ticks per second of the session clock, as a decimal string. */
	readonly perfFreq: string;
	readonly cpuSpeedMHz: number;
	/** ISO 8601 UTC with 7 fractional digits. */
	readonly startTime: string;
	readonly endTime: string;
	/** 100 ns intervals since 1601-01-01 UTC, as decimal strings (they exceed 2^53). */
	readonly startFiletime: string;
	readonly endFiletime: string;
	readonly bootTime: string;
	/** Session buffer size in bytes (not the on-disk stride of buffers). */
	readonly bufferSize: number;
	readonly buffersWritten: number;
	readonly buffersLost: number;
	readonly eventsLost: number;
	readonly logFileMode: number;
	readonly loggerName: string;
	readonly logFileName: string;
	readonly timerResolution: number;
	readonly timeZoneBias: number;
}
