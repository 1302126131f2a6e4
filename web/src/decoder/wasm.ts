// Binding to the AssemblyScript decoder (assembly/index.ts documents the call order).
// Raw exports, no generated bindings: results are i32/u32 and tables in linear memory, read
// here through views re-made after each call because memory may grow.

interface RawExports {
	memory: WebAssembly.Memory;
	inputPtr(): number;
	bufferOutPtr(): number;
	recordsPtr(): number;
	fieldsPtr(): number;
	providersPtr(): number;
	providerCount(): number;
	reserve(n: number): number;
	readHeader(n: number): number;
	logfilePtr(): number;
	logfileEndPtr(): number;
	logfilePointerSize(): number;
	headerErrorValue(): number;
	frameBuffer(n: number): number;
	openBuffer(n: number, isBuffer0: number): number;
	nextRecords(): number;
	bufferStatus(): number;
	limitImage(end: number): void;
	limitWalk(end: number, max: number): void;
	seekWalk(at: number, index: number, raw: bigint): void;
	walkCursor(): number;
	walkLastRaw(): bigint;
	walkTally(on: number): void;
	resetTally(): number;
	tallyStream(rank: number, latest: bigint): void;
	tallyOutPtr(): number;
	tallyKindSlotsPtr(): number;
	tallyHeaderSlotsPtr(): number;
	tallyProviderSlotsPtr(): number;
	tallyAfdPtr(): number;
}

/** Compiles from a URL, falling back when the server sends the wrong MIME type for .wasm. */
export async function compileDecoderFromUrl(url: string): Promise<WebAssembly.Module> {
	const response = await fetch(url);
	if (!response.ok) throw new Error(`decoder: cannot load ${url}: HTTP ${response.status}`);
	try {
		return await WebAssembly.compileStreaming(response.clone());
	} catch {
		return WebAssembly.compile(await response.arrayBuffer());
	}
}

export class WasmDecoder {
	readonly #x: RawExports;
	readonly input: number;
	readonly bufferOut: number;
	readonly records: number;
	readonly fields: number;
	/** Addresses of TallyOut, of the TallySlots by kind, header type and provider, of the AFD counts. */
	readonly tallyTables: {
		readonly out: number;
		readonly kinds: number;
		readonly headerTypes: number;
		readonly providers: number;
		readonly afd: number;
	};
	readonly module: WebAssembly.Module;
	/**
	 * Counts the calls that change the input or the open buffer: a walk left between slices may
	 * go on only while it is unchanged (nothing else was loaded, framed or opened meanwhile).
	 */
	generation = 0;

	constructor(module: WebAssembly.Module) {
		this.module = module;
		const instance = new WebAssembly.Instance(module, {});
		this.#x = instance.exports as unknown as RawExports;
		// Raw i32 results come back signed: addresses are normalised once here.
		this.input = this.#x.inputPtr() >>> 0;
		this.bufferOut = this.#x.bufferOutPtr() >>> 0;
		this.records = this.#x.recordsPtr() >>> 0;
		this.fields = this.#x.fieldsPtr() >>> 0;
		const x = this.#x;
		this.tallyTables = {
			out: x.tallyOutPtr() >>> 0,
			kinds: x.tallyKindSlotsPtr() >>> 0,
			headerTypes: x.tallyHeaderSlotsPtr() >>> 0,
			providers: x.tallyProviderSlotsPtr() >>> 0,
			afd: x.tallyAfdPtr() >>> 0,
		};
	}

	get memory(): ArrayBuffer {
		return this.#x.memory.buffer;
	}

	bytes(at: number, length: number): Uint8Array {
		return new Uint8Array(this.#x.memory.buffer, at, length);
	}

	view(): DataView {
		return new DataView(this.#x.memory.buffer);
	}

	/** Copies `data` to the input area; false when it exceeds the decoder's buffer limit. */
	load(data: Uint8Array): boolean {
		this.generation++;
		if (!this.#x.reserve(data.length)) return false;
		new Uint8Array(this.#x.memory.buffer, this.input, data.length).set(data);
		return true;
	}

	/** The input area made room for n bytes, to be filled in place; null beyond the limit. */
	inputArea(n: number): Uint8Array | null {
		this.generation++;
		if (!this.#x.reserve(n)) return null;
		return new Uint8Array(this.#x.memory.buffer, this.input, n);
	}

	readHeader(n: number): number {
		this.generation++;
		return this.#x.readHeader(n);
	}
	get logfilePtr(): number {
		return this.#x.logfilePtr() >>> 0;
	}
	get logfileEndPtr(): number {
		return this.#x.logfileEndPtr() >>> 0;
	}
	get logfilePointerSize(): number {
		return this.#x.logfilePointerSize();
	}
	get headerErrorValue(): number {
		return this.#x.headerErrorValue() >>> 0;
	}
	frameBuffer(n: number): number {
		this.generation++;
		return this.#x.frameBuffer(n);
	}
	openBuffer(n: number, isBuffer0: boolean): number {
		this.generation++;
		return this.#x.openBuffer(n, isBuffer0 ? 1 : 0);
	}
	nextRecords(): number {
		return this.#x.nextRecords() >>> 0;
	}
	get bufferStatus(): number {
		return this.#x.bufferStatus();
	}
	/** For the next openBuffer only: decompress the image up to `end`, no further. */
	limitImage(end: number): void {
		this.#x.limitImage(end);
	}
	/** nextRecords stops before a record starting at `end` (an image offset) or later, and after `max` records. */
	limitWalk(end: number, max: number): void {
		this.#x.limitWalk(end, max);
	}
	/** Goes on walking the open buffer at record `index` (image offset `at`). */
	seekWalk(at: number, index: number, lastRaw: bigint): void {
		this.#x.seekWalk(at, index, lastRaw);
	}
	/** Image offset of the next record to walk. */
	get walkCursor(): number {
		return this.#x.walkCursor() >>> 0;
	}
	get walkLastRaw(): bigint {
		return this.#x.walkLastRaw();
	}
	/**
	 * Header-only walks on or off: nextRecords then counts records into the tally tables and
	 * leaves only TraceLogging records in RecordOut (TallyOut.kept of them).
	 */
	walkTally(on: boolean): void {
		this.#x.walkTally(on ? 1 : 0);
	}
	/** Clears the tally tables; false when their memory cannot be had. */
	resetTally(): boolean {
		return this.#x.resetTally() !== 0;
	}
	/** The records walked next are of the stream ranked `rank`, whose latest time so far is `latest`. */
	tallyStream(rank: number, latest: bigint): void {
		this.#x.tallyStream(rank, latest);
	}
	/** Provider GUIDs interned so far, in index order, as lowercase strings without braces. */
	providers(from = 0): string[] {
		const count = this.#x.providerCount() >>> 0;
		const base = this.#x.providersPtr() >>> 0;
		const bytes = new Uint8Array(this.#x.memory.buffer);
		const out: string[] = [];
		for (let i = from; i < count; i++) out.push(guidAt(bytes, base + i * 16));
		return out;
	}
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** A GUID stored little-endian (Data1 u32, Data2 u16, Data3 u16, Data4[8]) as text. */
export function guidAt(b: Uint8Array, p: number): string {
	const h = (i: number) => HEX[b[p + i]!]!;
	return (
		h(3) +
		h(2) +
		h(1) +
		h(0) +
		'-' +
		h(5) +
		h(4) +
		'-' +
		h(7) +
		h(6) +
		'-' +
		h(8) +
		h(9) +
		'-' +
		h(10) +
		h(11) +
		h(12) +
		h(13) +
		h(14) +
		h(15)
	);
}
