// Time ticks for a span of the trace: round steps (1, 2 or 5 × 10^n seconds, never finer than
// the trace's 100 ns tick), labelled in the table's time mode (seconds since the start, or UTC
// time of day), spaced so that no two labels overlap at the chart's width.
import { filetimeToIso } from '../../decoder/time.ts';

export type TickMode = 'relative' | 'utc';

export interface TimeTick {
	/** Ticks (100 ns) since the trace start. */
	readonly at: number;
	readonly label: string;
}

export interface TickScale {
	/** Ticks between two ticks. */
	readonly step: number;
	readonly ticks: readonly TimeTick[];
}

/** Pixels a label character takes at the axis's font (11 px system-ui digits, rounded up). */
export const CHAR_PX = 7;
/** Room between two labels. */
export const LABEL_GAP_PX = 12;

const TICKS_PER_SECOND = 10_000_000;
const TICKS_PER_DAY = 86_400n * 10_000_000n;

/** The round steps, in ticks, from one tick (100 ns) to 5 × 10^6 s. */
function* steps(): Generator<number> {
	for (let p = 1; p <= 1e14; p *= 10) for (const m of [1, 2, 5]) yield m * p;
}

/** Decimals of seconds a step needs: 2 ms → 3, 5 s → 0. */
export function decimalsOf(step: number): number {
	let d = 0;
	for (let s = step; s < TICKS_PER_SECOND && d < 7; s *= 10) d++;
	return d;
}

function relativeLabel(at: number, decimals: number): string {
	return `${(at / TICKS_PER_SECOND).toFixed(decimals)} s`;
}

/**
 * UTC time of day with the step's decimals; the month and day too when the span is a day or more
 * (a time of day alone would repeat).
 */
function utcLabel(startFiletime: bigint, at: number, decimals: number, withDate: boolean): string {
	const iso = filetimeToIso(startFiletime + BigInt(Math.round(at))) ?? '';
	// "2023-05-01T12:34:56.1234567Z"
	const time = iso.slice(11, decimals > 0 ? 20 + decimals : 19);
	return withDate ? `${iso.slice(5, 10)} ${time}` : time;
}

/** The longest label a step gives over [from, to): the widest text decides the spacing. */
function labelChars(mode: TickMode, from: number, to: number, decimals: number): number {
	if (mode === 'utc') {
		const withDate = to - from >= Number(TICKS_PER_DAY);
		return 8 + (decimals > 0 ? decimals + 1 : 0) + (withDate ? 6 : 0);
	}
	const whole = Math.max(
		1,
		String(Math.floor(Math.max(Math.abs(from), Math.abs(to)) / 1e7)).length,
	);
	const sign = from < 0 ? 1 : 0;
	return sign + whole + (decimals > 0 ? decimals + 1 : 0) + 2;
}

/**
 * The ticks over [from, to) (ticks since the start) for a chart `width` pixels wide: the finest
 * round step whose labels fit between each other. In UTC mode the ticks fall on round times of
 * day, so they sit where the trace's start puts them rather than at multiples from the start.
 */
export function timeTicks(
	from: number,
	to: number,
	width: number,
	mode: TickMode,
	startFiletime: string,
): TickScale {
	const span = Math.max(1, to - from);
	const start = BigInt(startFiletime);
	// Where in its UTC day the trace starts, in ticks (under a day: a safe integer).
	const offset = mode === 'utc' ? Number(start % TICKS_PER_DAY) : 0;
	let step = 1;
	for (const s of steps()) {
		step = s;
		const px = (s / span) * width;
		if (px >= labelChars(mode, from, to, decimalsOf(s)) * CHAR_PX + LABEL_GAP_PX) break;
	}
	const decimals = decimalsOf(step);
	const withDate = mode === 'utc' && span >= Number(TICKS_PER_DAY);
	const ticks: TimeTick[] = [];
	// The first multiple of the step (in the mode's clock) at or after `from`.
	let at = Math.ceil((from + offset) / step) * step - offset;
	for (; at < to && ticks.length < 1000; at += step) {
		ticks.push({
			at,
			label: mode === 'utc' ? utcLabel(start, at, decimals, withDate) : relativeLabel(at, decimals),
		});
	}
	return { step, ticks };
}
