// Turns raw header values into what a support engineer reads.
import { formatCount, threeDigits, trimZeros } from '../lib/format-size.ts';
import type { Lang } from '../i18n/render.ts';

export { formatBytes, formatCount } from '../lib/format-size.ts';

/** 0x04010001 → "0x04010001": flags read best as 8 hex digits. */
export function formatHex32(n: number): string {
	return `0x${(n >>> 0).toString(16).padStart(8, '0')}`;
}

/** Ticks per second as a frequency: "10000000" → "10 MHz", "2994853" → "2.99 MHz". */
export function formatFrequency(ticksPerSecond: string): string {
	const hz = Number(ticksPerSecond);
	if (!Number.isFinite(hz) || hz <= 0) return 'unknown';
	const [scale, unit] =
		hz >= 1e9 ? [1e9, 'GHz'] : hz >= 1e6 ? [1e6, 'MHz'] : hz >= 1e3 ? [1e3, 'kHz'] : [1, 'Hz'];
	return `${threeDigits(hz / scale)} ${unit}`;
}

/** Decimal string → grouped digits, exact even beyond 2^53 ("10000000" → "10,000,000"). */
export function formatBigCount(decimal: string): string {
	return /^\d+$/.test(decimal) ? formatCount(BigInt(decimal)) : decimal;
}

/** "2023-05-01T12:34:56.1234567Z" → "2023-05-01 12:34:56.1234567" (the label says UTC). */
export function formatUtc(iso: string): string {
	const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2}(?:\.\d+)?)Z$/.exec(iso);
	return m ? `${m[1]} ${m[2]}` : iso;
}

// The units of a span in each language (as sockets/format.ts words them).
const UNITS = {
	en: { ms: 'ms', s: 's', min: 'min', h: 'h' },
	zh: { ms: '毫秒', s: '秒', min: '分', h: '小时' },
} as const;

/**
 * The span between two FILETIMEs (100 ns ticks, decimal strings), or null when the header does
 * not give one (an end of 0 means the session was not stopped cleanly).
 */
export function formatDuration(
	startFiletime: string,
	endFiletime: string,
	lang: Lang = 'en',
): string | null {
	const u = UNITS[lang];
	if (!/^\d+$/.test(startFiletime) || !/^\d+$/.test(endFiletime)) return null;
	const start = BigInt(startFiletime);
	const end = BigInt(endFiletime);
	if (start === 0n || end <= start) return null;
	const ticks = end - start;
	if (ticks < 10_000_000n) return `${trimZeros((Number(ticks) / 1e4).toFixed(3))} ${u.ms}`;
	const totalMs = ticks / 10_000n;
	const hours = totalMs / 3_600_000n;
	const minutes = (totalMs / 60_000n) % 60n;
	const seconds = trimZeros((Number(totalMs % 60_000n) / 1000).toFixed(3));
	if (hours > 0n) return `${hours} ${u.h} ${minutes} ${u.min} ${seconds} ${u.s}`;
	if (minutes > 0n) return `${minutes} ${u.min} ${seconds} ${u.s}`;
	return `${seconds} ${u.s}`;
}

/** TIME_ZONE_INFORMATION.Bias (minutes, UTC = local + bias) → "UTC-08:00". */
export function formatTimeZoneBias(biasMinutes: number): string {
	const offset = -biasMinutes;
	const sign = offset < 0 ? '-' : '+';
	const abs = Math.abs(offset);
	const hh = String(Math.floor(abs / 60)).padStart(2, '0');
	const mm = String(abs % 60).padStart(2, '0');
	return `UTC${sign}${hh}:${mm}`;
}

/** TimerResolution in 100 ns units → "15.625 ms". */
export function formatTimerResolution(hundredNs: number, lang: Lang = 'en'): string {
	return `${trimZeros((hundredNs / 1e4).toFixed(4))} ${UNITS[lang].ms}`;
}

/** 8 → "64-bit"; anything else is shown as found. */
export function describePointerSize(bytes: number): string {
	return bytes === 8 ? '64-bit' : bytes === 4 ? '32-bit' : 'unusual';
}

/** `image (PID)`, `PID n` when the trace names no image, or `none` when there is no PID. */
export function processText(pid: number | null, image: string | null, none = '—'): string {
	if (pid === null) return none;
	return image ? `${image} (${pid})` : `PID ${pid}`;
}
