// A trace summed up for comparison with another: per pair (process image, remote name or address,
// protocol) the figures two runs of a workload can be set side by side by. Plain data (JSON and
// structured-clone safe), so the diff is a pure function of two of these, testable without a trace.

/** Connect latency of a pair's successful stream connects, in milliseconds. */
export interface LatencyFigures {
	readonly count: number;
	readonly min: number;
	readonly max: number;
	/** Nearest-rank percentiles (as the conversations have them). */
	readonly p50: number;
	readonly p90: number;
}

/** What one trace says about one pair. */
export interface PairFigures {
	/** Sockets (a datagram socket counts once per remote it talked to). */
	readonly connections: number;
	/** Connects (or accepts) that succeeded. */
	readonly connected: number;
	/** Failed sockets by the status name that says why (STATUS_CONNECTION_REFUSED, …). */
	readonly failures: Readonly<Record<string, number>>;
	readonly latency: LatencyFigures | null;
	/**
	 * The connect times behind `latency`, ascending: all of them up to LATENCY_SAMPLE_CAP, past
	 * that an even spread of them (what the rank test reads).
	 */
	readonly latencySample: readonly number[];
	readonly bytesSent: number;
	readonly bytesReceived: number;
	/** How its sockets ended: closed by the application or peer, aborted, still open at the end. */
	readonly closed: number;
	readonly aborted: number;
	readonly open: number;
	readonly datagramsSent: number;
	readonly datagramsReceived: number;
	readonly datagramsDropped: number;
	/** Dropped datagrams by AFD's reason name. */
	readonly dropReasons: Readonly<Record<string, number>>;
	/** The pair's name's lookups in the trace by status (see dnsFigures), empty when unnamed. */
	readonly dns: Readonly<Record<string, number>>;
	/** Connections TCP/IP (or AFD, from the transport) says the peer reset. */
	readonly resets: number;
	readonly synRetransmits: number;
	readonly dataRetransmits: number;
	/** Whether TCP/IP's events described any of its connections. */
	readonly tcpSeen: boolean;
	/** Listening sockets (a server's pair is its listening port). */
	readonly listening: number;
	/** The first socket keys (up to SOCKET_KEY_CAP), to show that pair's sockets in the trace. */
	readonly sockets: readonly string[];
	/** Remote addresses it used (up to REMOTE_CAP). */
	readonly remotes: readonly string[];
	/** Every name known for those addresses. */
	readonly remoteNames: readonly string[];
	/** Ticks (since the trace's start) of its first and last event. */
	readonly firstTicks: number;
	readonly lastTicks: number;
}

export type PairKind = 'remote' | 'listening' | 'none';

/** One pair of one trace. */
export interface PairSummary {
	/** `process|protocol|remote`, all lower case: what matches the pair across traces. */
	readonly key: string;
	/** Image name as the trace spells it. */
	readonly process: string;
	readonly protocol: string;
	readonly kind: PairKind;
	/** The name looked up for the remote (the latest answer, as the sockets read it), or null. */
	readonly remoteName: string | null;
	/** `name:port`, `address:port`, `listening :port`, or `no remote`. */
	readonly remote: string;
	readonly figures: PairFigures;
}

export interface TraceSummary {
	/** The file's name, as messages say it. */
	readonly name: string;
	readonly sockets: number;
	/** In order of their first event. */
	readonly pairs: readonly PairSummary[];
	/** Every name looked up → its lookups by status (see dnsFigures). */
	readonly dns: Readonly<Record<string, Readonly<Record<string, number>>>>;
	/** Ticks of the last event (how long the trace ran). */
	readonly endTicks: number;
}

export const LATENCY_SAMPLE_CAP = 4096;
export const SOCKET_KEY_CAP = 64;
export const REMOTE_CAP = 16;

/** A pair a trace does not have: nothing happened, except what the trace says of its name. */
export function emptyFigures(dns: Readonly<Record<string, number>> = {}): PairFigures {
	return {
		connections: 0,
		connected: 0,
		failures: {},
		latency: null,
		latencySample: [],
		bytesSent: 0,
		bytesReceived: 0,
		closed: 0,
		aborted: 0,
		open: 0,
		datagramsSent: 0,
		datagramsReceived: 0,
		datagramsDropped: 0,
		dropReasons: {},
		dns,
		resets: 0,
		synRetransmits: 0,
		dataRetransmits: 0,
		tcpSeen: false,
		listening: 0,
		sockets: [],
		remotes: [],
		remoteNames: [],
		firstTicks: 0,
		lastTicks: 0,
	};
}

/** The sum of a status table's counts. */
export function total(t: Readonly<Record<string, number>>): number {
	let n = 0;
	for (const v of Object.values(t)) n += v;
	return n;
}

/** Status key of a successful lookup in PairFigures.dns. */
export const DNS_OK = 'ok';
