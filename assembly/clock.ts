// Converts record timestamps (the session clock) to UTC FILETIME:
//   FILETIME = StartTime + (ts - T0) * 10^7 / ticksPerSecond
// where T0 is the SystemTime of the logfile-header record and the clock comes from
// TRACE_LOGFILE_HEADER.ReservedFlags: 1 QPC (PerfFreq), 2 system time (already FILETIME),
// 3 CPU cycles (CpuSpeedInMHz * 10^6). Integer math only: FILETIMEs exceed 2^53.

export const CLOCK_QPC: u32 = 1;
export const CLOCK_SYSTEM_TIME: u32 = 2;
export const CLOCK_CPU_CYCLES: u32 = 3;

let startTime: i64 = 0;
let t0: i64 = 0;
let ticksPerSecond: i64 = 0;
let clockType: u32 = 0;

export function setClock(type: u32, start: i64, zero: i64, perfFreq: i64, cpuMHz: u32): void {
	clockType = type;
	startTime = start;
	t0 = zero;
	ticksPerSecond = type == CLOCK_CPU_CYCLES ? <i64>cpuMHz * 1000000 : perfFreq;
}

export function toFiletime(ts: i64): i64 {
	if (clockType == CLOCK_SYSTEM_TIME || ticksPerSecond <= 0) return ts;
	const delta = ts - t0;
	if (ticksPerSecond == 10000000) return startTime + delta;
	// Split to keep delta * 10^7 inside i64 for traces spanning days.
	const whole = delta / ticksPerSecond;
	const rest = delta % ticksPerSecond;
	return startTime + whole * 10000000 + (rest * 10000000) / ticksPerSecond;
}
