// Bounded big-endian reads over one frame: a read past the captured bytes throws Short, which
// dissect() turns into a "malformed at offset" result (nothing escapes it). What went wrong is a
// message (its field named by field-names.ts), said in the reader's language.
import { msg, type Msg } from '../i18n/render.ts';

/** A read ran past the captured bytes, or a header contradicts itself. */
export class Short extends Error {
	constructor(
		readonly at: number,
		readonly what: Msg,
	) {
		super(what.key);
	}
}

export class FrameReader {
	constructor(readonly bytes: Uint8Array) {}

	get length(): number {
		return this.bytes.length;
	}

	need(at: number, n: number, what: Msg): void {
		if (at < 0 || n < 0 || at + n > this.bytes.length)
			throw new Short(at, msg('packet.bad.short', { what, n, at, length: this.bytes.length }));
	}

	u8(at: number, what: Msg): number {
		this.need(at, 1, what);
		return this.bytes[at]!;
	}

	u16(at: number, what: Msg): number {
		this.need(at, 2, what);
		return (this.bytes[at]! << 8) | this.bytes[at + 1]!;
	}

	u32(at: number, what: Msg): number {
		this.need(at, 4, what);
		return (
			((this.bytes[at]! << 24) >>> 0) +
			((this.bytes[at + 1]! << 16) | (this.bytes[at + 2]! << 8) | this.bytes[at + 3]!)
		);
	}
}

export function macText(b: Uint8Array, at: number): string {
	let s = '';
	for (let k = 0; k < 6; k++) s += (k ? ':' : '') + b[at + k]!.toString(16).padStart(2, '0');
	return s;
}
