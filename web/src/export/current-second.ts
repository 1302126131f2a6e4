// The second a run of records falls in: records of one second share their time's text up to the
// second ("2026-03-14T09:26:53.") and their FILETIME's digits up to it ("13417954013"), so a
// writer makes those once per second and writes only each record's seven digits of ticks.
import type { DecodedBuffer } from '../decoder/decoded-buffer.ts';
import { filetimeToIso } from '../decoder/time.ts';
import { utf8Bytes, type ByteSink } from './byte-sink.ts';

const TICKS_PER_SECOND = 10_000_000;

export class CurrentSecond {
	#hi = 0;
	#lo = 0;
	#known = false;
	/** The ISO time up to its second, with the dot: "2026-03-14T09:26:53.". */
	iso: Uint8Array = new Uint8Array(0);
	/** The FILETIME's seconds: its digits but the last seven. */
	seconds = 0n;

	/** Ticks of record i past the start of the current second (`move` made it current). */
	ticks(buf: DecodedBuffer, i: number): number {
		return (buf.timeHi(i) - this.#hi) * 0x100000000 + (buf.timeLo(i) - this.#lo);
	}

	/**
	 * Makes the second of record i's time current: 'same' when it already was, 'moved' when it
	 * changed, null when the time has no ISO form or is below one second (where the FILETIME's
	 * digits are not seconds and seven more).
	 */
	move(buf: DecodedBuffer, i: number): 'same' | 'moved' | null {
		if (this.#known) {
			const t = this.ticks(buf, i);
			if (t >= 0 && t < TICKS_PER_SECOND) return 'same';
		}
		const time = buf.time(i);
		const iso = filetimeToIso(time);
		const seconds = time / BigInt(TICKS_PER_SECOND);
		if (iso === null || seconds === 0n) return null;
		const base = seconds * BigInt(TICKS_PER_SECOND);
		this.#hi = Number(BigInt.asIntN(32, base >> 32n));
		this.#lo = Number(base & 0xffffffffn);
		this.#known = true;
		this.iso = utf8Bytes(iso.slice(0, 20));
		this.seconds = seconds;
		return 'moved';
	}
}

/** The seven digits of ticks (0 ≤ ticks < 10^7), zero-padded. */
export function fraction(sink: ByteSink, ticks: number): void {
	sink.reserve(7);
	const out = sink.bytes;
	let at = sink.length + 7;
	sink.length = at;
	let x = ticks;
	for (let d = 0; d < 7; d++) {
		const q = (x / 10) | 0;
		out[--at] = 48 + (x - q * 10);
		x = q;
	}
}
