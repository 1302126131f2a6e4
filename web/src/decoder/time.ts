// FILETIME: 100 ns intervals since 1601-01-01 UTC, kept as bigint end to end (they exceed 2^53).

const EPOCH_DIFF_MS = 11644473600000n;
const MAX_MS = 8640000000000000n;

/** The whole second last asked for, and its ISO text up to the seconds (null: work out each). */
let lastSecond = -1n;
let lastPrefix: string | null = null;

/** ISO 8601 UTC with 7 fractional digits, e.g. 2026-03-14T09:26:53.5897932Z; null when out of range. */
export function filetimeToIso(ft: bigint): string | null {
	if (ft < 0n) return null;
	// Records come in time order: the text of their second is made once for all that fall in it.
	const seconds = ft / 10000000n;
	if (seconds !== lastSecond) {
		lastSecond = seconds;
		lastPrefix = secondPrefix(seconds);
	}
	if (lastPrefix === null) return isoOf(ft);
	return [lastPrefix, '.', (ft % 10000000n).toString().padStart(7, '0'), 'Z'].join('');
}

/** …T09:26:53 of a whole second, when every FILETIME in it has text; else null. */
function secondPrefix(seconds: bigint): string | null {
	const first = isoOf(seconds * 10000000n);
	const last = isoOf(seconds * 10000000n + 9999999n);
	return first !== null && last !== null ? first.slice(0, 19) : null;
}

function isoOf(ft: bigint): string | null {
	const ms = ft / 10000n - EPOCH_DIFF_MS;
	if (ms > MAX_MS || ms < -MAX_MS) return null;
	const seconds = ft / 10000000n;
	const fraction = (ft % 10000000n).toString().padStart(7, '0');
	const d = new Date(Number(seconds * 1000n - EPOCH_DIFF_MS));
	const iso = d.toISOString();
	if (iso.length !== 24) return null;
	// One flat string: a template would make a tree of parts that also holds the whole ISO
	// string, several times the memory of the text (a socket's summary keeps about eight).
	return [iso.slice(0, 19), '.', fraction, 'Z'].join('');
}

const TICKS_PER_SECOND = 10_000_000;

/**
 * FILETIMEs at tick offsets from one origin, as text: the same as `String(origin + ticks)` and
 * filetimeToIso, worked out in doubles rather than bigint, and the ISO text of a second made
 * once for the marks that fall in it. A large trace's end makes hundreds of thousands of marks
 * (every socket's first and last event…); through bigint they were most of the time and the
 * memory its sockets' summaries took to make.
 */
export class TickClock {
	readonly origin: bigint;
	readonly #seconds: number;
	readonly #fraction: number;
	#second = NaN;
	#prefix: string | null = null;

	constructor(origin: bigint) {
		this.origin = origin;
		this.#seconds = Number(origin / 10000000n);
		this.#fraction = Number(origin % 10000000n);
	}

	/** origin + ticks as a decimal string. */
	filetime(ticks: number): string {
		const at = this.#split(ticks);
		return at ? [at[0], String(at[1]).padStart(7, '0')].join('') : String(this.#exact(ticks));
	}

	/** filetimeToIso(origin + ticks). */
	iso(ticks: number): string | null {
		const at = this.#split(ticks);
		if (!at) return filetimeToIso(this.#exact(ticks));
		const [second, fraction] = at;
		if (second !== this.#second) {
			this.#second = second;
			const iso = filetimeToIso(BigInt(second) * 10000000n);
			this.#prefix = iso && iso.slice(0, 19);
		}
		return this.#prefix && [this.#prefix, '.', String(fraction).padStart(7, '0'), 'Z'].join('');
	}

	/** The whole seconds and the ticks past them, where doubles hold both exactly (else null). */
	#split(ticks: number): [number, number] | null {
		const t = this.#fraction + ticks;
		// Past 2^53 ticks, or in the first second after 1601 or before it (whose text has no
		// seconds part, or a sign): worked out in bigint.
		if (!Number.isSafeInteger(t) || this.origin < 0n) return null;
		const carry = Math.floor(t / TICKS_PER_SECOND);
		const second = this.#seconds + carry;
		return second >= 1 ? [second, t - carry * TICKS_PER_SECOND] : null;
	}

	#exact(ticks: number): bigint {
		return this.origin + BigInt(ticks);
	}
}

export function filetimeFromIso(iso: string): bigint {
	const m = /^(.*T\d\d:\d\d:\d\d)(?:\.(\d{1,7}))?Z$/.exec(iso);
	if (!m) throw new Error(`not an ISO UTC time: ${iso}`);
	const seconds = BigInt(Date.parse(`${m[1]}Z`) / 1000);
	const fraction = BigInt((m[2] ?? '').padEnd(7, '0'));
	return (seconds * 1000n + EPOCH_DIFF_MS) * 10000n + fraction;
}
