// Short byte strings (addresses as they sit in a record) → a number, in an open-addressing hash
// table over typed arrays: decoding an address to text once per distinct value rather than once
// per event. Keys are copied into an arena, so the bytes they came from may change afterwards.

const EMPTY = -1;

export class BytesTable {
	#slots = new Int32Array(1024).fill(EMPTY);
	#hash = new Int32Array(1024);
	/** Per entry: where its key starts in the arena, its length and its value. */
	#start = new Int32Array(512);
	#length = new Int32Array(512);
	#value = new Int32Array(512);
	#arena = new Uint8Array(8192);
	#used = 0;
	#count = 0;

	get size(): number {
		return this.#count;
	}

	/** The value kept for bytes[at, at + length), or -1. */
	get(bytes: Uint8Array, at: number, length: number): number {
		const h = hashOf(bytes, at, length);
		const mask = this.#slots.length - 1;
		for (let k = h & mask; ; k = (k + 1) & mask) {
			const e = this.#slots[k]!;
			if (e === EMPTY) return -1;
			if (this.#hash[k] === h && this.#equal(e, bytes, at, length)) return this.#value[e]!;
		}
	}

	/** Keeps `value` for bytes[at, at + length), which must not be there yet. */
	set(bytes: Uint8Array, at: number, length: number, value: number): void {
		const e = this.#count++;
		if (e === this.#value.length) {
			this.#start = grow(this.#start);
			this.#length = grow(this.#length);
			this.#value = grow(this.#value);
		}
		if (this.#used + length > this.#arena.length) {
			const arena = new Uint8Array(Math.max(this.#arena.length * 2, this.#used + length));
			arena.set(this.#arena);
			this.#arena = arena;
		}
		this.#arena.set(bytes.subarray(at, at + length), this.#used);
		this.#start[e] = this.#used;
		this.#length[e] = length;
		this.#value[e] = value;
		this.#used += length;
		if (this.#count * 2 > this.#slots.length) this.#rehash();
		else this.#place(e, hashOf(bytes, at, length));
	}

	#equal(e: number, bytes: Uint8Array, at: number, length: number): boolean {
		if (this.#length[e] !== length) return false;
		const arena = this.#arena;
		const s = this.#start[e]!;
		for (let i = 0; i < length; i++) if (arena[s + i] !== bytes[at + i]) return false;
		return true;
	}

	#place(e: number, h: number): void {
		const mask = this.#slots.length - 1;
		let k = h & mask;
		while (this.#slots[k] !== EMPTY) k = (k + 1) & mask;
		this.#slots[k] = e;
		this.#hash[k] = h;
	}

	#rehash(): void {
		this.#slots = new Int32Array(this.#slots.length * 2).fill(EMPTY);
		this.#hash = new Int32Array(this.#slots.length);
		for (let e = 0; e < this.#count; e++)
			this.#place(e, hashOf(this.#arena, this.#start[e]!, this.#length[e]!));
	}
}

function grow(a: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
	const b = new Int32Array(a.length * 2);
	b.set(a);
	return b;
}

/** FNV-1a over the bytes. */
function hashOf(bytes: Uint8Array, at: number, length: number): number {
	let h = 0x811c9dc5 | 0;
	for (let i = 0; i < length; i++) h = Math.imul(h ^ bytes[at + i]!, 0x01000193);
	return h;
}
