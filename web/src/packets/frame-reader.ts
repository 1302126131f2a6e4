// Bounded big-endian reads over one frame: a read past the captured bytes throws Short, which
// dissect() turns into a "malformed at offset" result (nothing escapes it).

/** A read ran past the captured bytes, or a header contradicts itself. */
export class Short extends Error {
	constructor(
		readonly at: number,
		readonly what: string,
	) {
		super(what);
	}
}

export class FrameReader {
	constructor(readonly bytes: Uint8Array) {}

	get length(): number {
		return this.bytes.length;
	}

	need(at: number, n: number, what: string): void {
		if (at < 0 || n < 0 || at + n > this.bytes.length)
			throw new Short(
				at,
				`${what}: needs ${n} bytes at offset ${at}, the frame has ${this.bytes.length}`,
			);
	}

	u8(at: number, what: string): number {
		this.need(at, 1, what);
		return this.bytes[at]!;
	}

	u16(at: number, what: string): number {
		this.need(at, 2, what);
		return (this.bytes[at]! << 8) | this.bytes[at + 1]!;
	}

	u32(at: number, what: string): number {
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
