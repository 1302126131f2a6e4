// One buffer, or one slice of a large one, walked header-only (assembly/tally.ts): its records
// are counted in WASM memory, nothing is copied out but the TraceLogging records, whose payloads
// the record checks read. The buffer is read, opened and sliced exactly as decodeSlice does it,
// so that what a pass over slices sees (damage, slice ends) is the same.
import { BufferOut, RecordOut, Status, TallyOut } from '../generated/layouts.ts';
import {
	DecodedBuffer,
	damageOf,
	damaged,
	sliceNext,
	sliceOpener,
	sliceRecords,
	type SliceStart,
} from './decoded-buffer.ts';
import type { BufferEntry, OpenTrace } from './etl-file.ts';
import type { BufferSink } from './merge.ts';
import type { DamageInfo } from './messages.ts';
import type { WasmDecoder } from './wasm.ts';
import { syncReader } from './source.ts';

export interface TalliedSlice {
	/** Records walked. */
	readonly count: number;
	/** The stream's latest record time after this slice. */
	readonly latest: bigint;
	/** Times of the buffer's first and last records so far (all of its slices up to this one). */
	readonly firstTime: bigint | null;
	readonly lastTime: bigint | null;
	/** Where the buffer's next slice starts; null when this is its last (or only) one. */
	readonly next: SliceStart | null;
	/** The buffer's damage, known at its last slice. */
	readonly damage: DamageInfo | null;
}

/** The stream a slice belongs to: its rank between equal times and its latest time so far. */
export interface TallyStreamState {
	readonly order: number;
	readonly latest: bigint;
}

const EMPTY = new Uint8Array(0);

/**
 * Walks the next part of a buffer header-only (the decoder must be in walkTally mode): from its
 * start (`from` null) or where the slice before stopped, as decodeSlice would decode it. Hands the
 * TraceLogging records walked to `onKept` (views of WASM memory: valid until the next call).
 */
export async function tallySlice(
	trace: OpenTrace,
	entry: BufferEntry,
	from: SliceStart | null,
	sliceBytes: number,
	stream: TallyStreamState,
	onKept: BufferSink,
): Promise<TalliedSlice> {
	const { decoder } = trace;
	let opener = sliceOpener(trace, entry, from, sliceBytes);
	if (opener instanceof Promise) opener = await opener;
	if (opener === null) return tallyWhole(trace, entry, stream, onKept);
	// From here to the end, nothing is awaited: no other pass uses the decoder meanwhile.
	const { status: opened, start, held } = opener();
	if (opened !== Status.Ok) {
		const b = damaged(decoder, entry, opened, from);
		return { ...noRecords(stream, b.firstTime, b.lastTime), damage: b.damage };
	}
	decoder.tallyStream(stream.order, stream.latest);
	decoder.limitWalk(start + sliceBytes, sliceRecords(sliceBytes));
	const n = decoder.nextRecords();
	const out = tallyOut(decoder);
	const status = decoder.bufferStatus;
	const firstTime = from?.firstTime ?? (n > 0 ? out.firstTime : null);
	const lastTime = n > 0 ? out.lastTime : (from?.lastTime ?? null);
	const next = sliceNext(decoder, from, n, held, firstTime, lastTime);
	const damage = next ? null : damageOf(decoder, entry, status);
	if (out.kept > 0) onKept(keptRecords(decoder, entry, out.kept));
	return { count: n, latest: out.latest, firstTime, lastTime, next, damage };
}

/** A buffer walked whole, as decodeBuffer reads and opens it. */
async function tallyWhole(
	trace: OpenTrace,
	entry: BufferEntry,
	stream: TallyStreamState,
	onKept: BufferSink,
): Promise<TalliedSlice> {
	const { decoder, source } = trace;
	const readInto = syncReader(source, entry.offset, entry.available);
	const area = readInto ? decoder.inputArea(entry.available) : null;
	let length: number;
	if (readInto && area) length = readInto(entry.offset, area);
	else {
		const bytes = await source.read(entry.offset, entry.available);
		decoder.load(bytes);
		length = bytes.length;
	}
	// From here to the end, nothing is awaited: no other pass uses the decoder meanwhile.
	const opened = decoder.openBuffer(length, entry.index === 0);
	let count = 0;
	let latest = stream.latest;
	let firstTime: bigint | null = null;
	let lastTime: bigint | null = null;
	if (opened === Status.Ok) {
		decoder.tallyStream(stream.order, stream.latest);
		// A very large buffer takes several calls (batches), as decodeBuffer's walk does.
		for (let n = decoder.nextRecords(); n > 0; n = decoder.nextRecords()) {
			const out = tallyOut(decoder);
			count += n;
			latest = out.latest;
			firstTime ??= out.firstTime;
			lastTime = out.lastTime;
			if (out.kept > 0) onKept(keptRecords(decoder, entry, out.kept));
		}
	}
	const status = opened === Status.Ok ? decoder.bufferStatus : opened;
	return {
		count,
		latest,
		firstTime,
		lastTime,
		next: null,
		damage: damageOf(decoder, entry, status),
	};
}

function noRecords(
	stream: TallyStreamState,
	firstTime: bigint | null,
	lastTime: bigint | null,
): Omit<TalliedSlice, 'damage'> {
	return { count: 0, latest: stream.latest, firstTime, lastTime, next: null };
}

/** What the last nextRecords call left in TallyOut. */
function tallyOut(decoder: WasmDecoder): {
	firstTime: bigint;
	lastTime: bigint;
	latest: bigint;
	kept: number;
} {
	const v = decoder.view();
	const at = decoder.tallyTables.out;
	return {
		firstTime: v.getBigInt64(at + TallyOut.firstTime, true),
		lastTime: v.getBigInt64(at + TallyOut.lastTime, true),
		latest: v.getBigInt64(at + TallyOut.runningMax, true),
		kept: v.getUint32(at + TallyOut.kept, true),
	};
}

/**
 * The TraceLogging records the last call kept in RecordOut, over the buffer's whole image in
 * WASM memory (record offsets are image offsets: offsetBase 0), as the record checks read them.
 */
function keptRecords(decoder: WasmDecoder, entry: BufferEntry, kept: number): DecodedBuffer {
	const v = decoder.view();
	const dataPtr = v.getUint32(decoder.bufferOut + BufferOut.dataPtr, true);
	const dataSize = v.getUint32(decoder.bufferOut + BufferOut.dataSize, true);
	return new DecodedBuffer(
		entry,
		decoder.bytes(dataPtr, dataSize),
		decoder.bytes(decoder.records, kept * RecordOut.SIZE),
		kept,
		EMPTY,
		null,
	);
}
