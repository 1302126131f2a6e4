// Simple tests (an event type, a number in a range, a flag; each negated or not) and their
// conjunctions scanned in WASM, sixteen rows at a time (assembly/scan.ts): the columns they read
// are copied into its memory and the rows that pass come back as a selection vector. Three to
// five times the speed of the scan kernels' JavaScript loops over the same rows (25 M events: a
// count fell from 120 ms to 42); a filter with any other test is scanned in JavaScript
// (scan-kernels.ts).

/** An integer column as read: its own type or a narrower one. */
export type IntColumn = Uint8Array | Uint16Array | Uint32Array;

/** A test the WASM scan knows. */
export type ScanTerm =
	/**
	 * `hit[col[i]]` is 1 (with `negate`, is not): a byte column (event types) tested against a
	 * table of its values.
	 */
	| {
			readonly kind: 'lookup';
			readonly col: Uint8Array;
			readonly hit: Uint8Array;
			readonly negate?: boolean;
	  }
	/**
	 * `(col[i] - lo) >>> 0 ≤ span` (with `negate`, is not), and with `need`, `flags[i] & need`.
	 */
	| {
			readonly kind: 'range';
			readonly col: IntColumn;
			readonly lo: number;
			readonly span: number;
			readonly flags: Uint8Array | null;
			readonly need: number;
			readonly negate?: boolean;
	  }
	/** `col[i] & need`. */
	| { readonly kind: 'flag'; readonly col: Uint8Array; readonly need: number };

export interface WasmScan {
	/**
	 * The rows of [from, to) that pass every term, written to the start of `sel`; how many
	 * (`sel` null: only counted).
	 */
	all(terms: readonly ScanTerm[], from: number, to: number, sel: Uint16Array | null): number;
}

/** What scan.ts calls its term kinds, and a term's size in u32 words. */
const LOOKUP8 = 1;
const RANGE8 = 2;
const RANGE16 = 3;
const RANGE32 = 4;
const FLAG = 5;
/** Added to a kind: its test is negated (a range's value test, not its flags). */
const NEGATE = 0x100;
const TERM_WORDS = 6;

/** Terms scanned at once, at most (more: the scan goes on in JavaScript). */
export const MAX_TERMS = 8;
const MAX_ROWS = 1 << 16;
/** Per term: its column (up to 4 bytes a row) and its flags (1), or a lookup's bitmap. */
const TERM_BYTES = MAX_ROWS * 5;
const TERMS_AT = 0;
const BITMAPS_AT = TERMS_AT + MAX_TERMS * TERM_WORDS * 4;
const OUT_AT = BITMAPS_AT + MAX_TERMS * 32;
const COLUMNS_AT = OUT_AT + MAX_ROWS * 2;
/**
 * The scan reads whole sixteen rows: past a column's last row, up to 15 rows of 4 bytes (the
 * next bytes of the area, whose lanes it drops), beyond the last term's too.
 */
const PAST_LAST_ROW = 64;
const AREA = COLUMNS_AT + MAX_TERMS * TERM_BYTES + PAST_LAST_ROW;

interface Exports {
	readonly memory: WebAssembly.Memory;
	reserve(n: number): number;
	areaPtr(): number;
	scanAll(terms: number, count: number, n: number, out: number, first: number): number;
}

let scanner: WasmScan | null = null;

/** The WASM scan from now on, an instance of `module` (build/release/scan.wasm; null: none). */
export function useWasmScan(module: WebAssembly.Module | null): void {
	scanner = module ? wasmScan(module) : null;
}

/** The WASM scan in use, if any. */
export function currentWasmScan(): WasmScan | null {
	return scanner;
}

/** A WASM scan over an instance of `module`; null where it cannot be had. */
export function wasmScan(module: WebAssembly.Module): WasmScan | null {
	let x: Exports;
	try {
		x = new WebAssembly.Instance(module, {}).exports as unknown as Exports;
	} catch {
		return null;
	}
	if (typeof x.scanAll !== 'function' || !x.reserve(AREA)) return null;
	const base = x.areaPtr();
	// The memory does not grow once its area is reserved: the views hold.
	const words = new Uint32Array(x.memory.buffer, base + TERMS_AT, BITMAPS_AT >> 2);
	const bytes = new Uint8Array(x.memory.buffer, base, AREA);
	const out = new Uint16Array(x.memory.buffer, base + OUT_AT, MAX_ROWS);
	return {
		all(terms, from, to, sel) {
			const n = to - from;
			let count = 0;
			for (const [k, t] of terms.entries()) {
				const w = k * TERM_WORDS;
				const at = COLUMNS_AT + k * TERM_BYTES;
				if (t.kind === 'lookup') {
					const map = BITMAPS_AT + k * 32;
					bytes.fill(0, map, map + 32);
					for (let v = 0; v < 256; v++) if (t.hit[v]) bytes[map + (v >> 3)]! |= 1 << (v & 7);
					bytes.set(t.col.subarray(from, to), at);
					words.set([LOOKUP8 | (t.negate ? NEGATE : 0), base + at, base + map, 0, 0, 0], w);
				} else if (t.kind === 'flag') {
					bytes.set(t.col.subarray(from, to), at);
					words.set([FLAG, base + at, 0, 0, 0, t.need], w);
				} else {
					const width = t.col.BYTES_PER_ELEMENT;
					// The range within the column's own values, so that its lanes compare it in
					// their own width. A range above them all is met by no row; negated, by every
					// row (a range over all the column's values).
					const top = width === 4 ? 0xffffffff : (1 << (8 * width)) - 1;
					const above = t.lo > top;
					if (above && !t.negate) return 0;
					const lo = above ? 0 : t.lo;
					const span = above ? top : Math.min(t.lo + t.span, top) - t.lo;
					const negate = t.negate && !above ? NEGATE : 0;
					new (t.col.constructor as Uint8ArrayConstructor)(x.memory.buffer, base + at, n).set(
						t.col.subarray(from, to) as Uint8Array,
					);
					const flags = at + n * width;
					const need = t.flags ? t.need : 0;
					if (need) bytes.set(t.flags!.subarray(from, to), flags);
					const kind = (width === 1 ? RANGE8 : width === 2 ? RANGE16 : RANGE32) | negate;
					words.set([kind, base + at, lo, span, base + flags, need], w);
				}
				count++;
			}
			const m = x.scanAll(base + TERMS_AT, count, n, sel ? base + OUT_AT : 0, from);
			sel?.set(out.subarray(0, m));
			return m;
		},
	};
}
