// Opening an ETL file: buffer 0 and its TRACE_LOGFILE_HEADER (the trace facts), then an index
// of every buffer (offset, size, CPU, sequence) found by stepping each buffer's own BufferSize.
import {
	BufferOut,
	Status,
	TRACE_LOGFILE_HEADER,
	WMI_BUFFER_HEADER,
} from '../generated/layouts.ts';
import type { Message } from '../lib/message.ts';
import { fail, ok, type Result } from '../lib/result.ts';
import {
	duplicateNote,
	headerFindings,
	headerLimits,
	MAX_BUFFER_SIZE,
	plausibleChain,
	plausibleHeader,
	scanForBuffer,
	type HeaderLimits,
} from './buffer-checks.ts';
import { describeFileStart, fileStartText } from './file-start.ts';
import { damageText, describeDamage, key, type DamageInfo } from './messages.ts';
import { SequentialReader, syncReader, type ByteSource } from './source.ts';
import { readStruct, readUtf16z } from './struct.ts';
import { filetimeToIso } from './time.ts';
import type { TraceFacts } from './types.ts';
import { WasmDecoder } from './wasm.ts';

const HEADER_SIZE = WMI_BUFFER_HEADER.size;
const hex = (n: number) => '0x' + n.toString(16);
const CLOCK_NAMES: Record<number, string> = {
	0: 'raw',
	1: 'QPC',
	2: 'system time',
	3: 'CPU cycles',
};

export interface BufferEntry {
	readonly index: number;
	readonly offset: number;
	readonly size: number;
	/** Bytes of the buffer present in the file (less than size when the file is cut short). */
	readonly available: number;
	readonly cpu: number;
	readonly sequence: bigint;
	readonly flags: number;
	readonly compressed: boolean;
}

export interface BufferIndex {
	readonly buffers: readonly BufferEntry[];
	/**
	 * What the pass found wrong, in file order: buffer headers it could not use (and the bytes it
	 * skipped to go on), a buffer cut short by the end of the file, buffers found twice (dropped),
	 * and what the trace header says that the buffers contradict.
	 */
	readonly damage: readonly DamageInfo[];
	/** Bytes that belong to no buffer found (skipped over while resynchronising). */
	readonly trailingBytes: number;
}

export interface OpenTrace {
	readonly facts: TraceFacts;
	readonly decoder: WasmDecoder;
	readonly source: ByteSource;
	/** The logfile header's pointer size, used for WPP records that do not state theirs. */
	readonly pointerSize: number;
}

function bufferOutDamage(
	d: WasmDecoder,
	status: number,
	index: number,
	offset: number,
): DamageInfo {
	const v = d.view();
	const b = d.bufferOut;
	return {
		status,
		bufferIndex: index,
		bufferOffset: offset,
		at: v.getUint32(b + BufferOut.errorOffset, true),
		value: v.getUint32(b + BufferOut.errorValue, true),
		limit: v.getUint32(b + BufferOut.errorLimit, true),
		compressed: v.getUint8(b + BufferOut.compressed) !== 0,
	};
}

/**
 * How the message of a file that is not an ETL trace begins (code `format`): what follows says
 * what is at offset 0. A file whose first buffer header is sound but whose trace header cannot
 * be read is a damaged trace instead (code `damaged`).
 */
export const NOT_ETL = 'not an ETL file: ';

/** A buffer header anywhere in a trace: the checks the index pass's resynchronising makes. */
const ANY_TRACE: HeaderLimits = { budget: MAX_BUFFER_SIZE, cpus: 0, fileSize: Infinity };

/**
 * Reads buffer 0 and the trace facts. No buffer header at offset 0 means the file is no ETL
 * trace; a buffer header there whose buffer holds no readable trace header, a damaged one.
 */
export async function openTrace(
	source: ByteSource,
	module: WebAssembly.Module,
	fileName: string,
): Promise<Result<OpenTrace>> {
	// Each reason in English (what the CLI prints) and as a message (what the page says).
	type Why = readonly [string, Message];
	const notEtl = ([why, whyText]: Why, head?: Uint8Array) =>
		fail<OpenTrace>(
			'format',
			`${NOT_ETL}${why}${head ? `; the file starts with ${describeFileStart(head)}` : ''}`,
			head
				? key('not-etl.starting-with', { why: whyText, start: fileStartText(head) })
				: key('not-etl.because', { why: whyText }),
		);
	const damage = (d: DamageInfo): Why => [describeDamage(d), damageText(d)!];
	const where = key('damage.where', { buffer: 0, offset: '0x0' });
	if (source.size === 0) return notEtl(['the file is empty', key('not-etl.empty', {})]);
	if (source.size < HEADER_SIZE)
		return notEtl(
			[
				`the file has ${source.size} bytes, fewer than one buffer header (${hex(HEADER_SIZE)} bytes)`,
				key('not-etl.too-small', { bytes: source.size, limit: hex(HEADER_SIZE) }),
			],
			await source.read(0, source.size),
		);
	const decoder = new WasmDecoder(module);
	const head = await source.read(0, HEADER_SIZE);
	decoder.load(head);
	const framed = decoder.frameBuffer(head.length);
	if (framed !== Status.Ok) return notEtl(damage(bufferOutDamage(decoder, framed, 0, 0)), head);
	const size = decoder.view().getUint32(decoder.bufferOut + BufferOut.bufferSize, true);
	const buffer0 = await source.read(0, size);
	if (!decoder.load(buffer0))
		return notEtl(
			[
				`buffer 0 at offset 0x0 has BufferSize ${hex(size)}`,
				key('not-etl.buffer-size', { where, value: hex(size) }),
			],
			head,
		);
	const status = decoder.readHeader(buffer0.length);
	if (status === Status.Ok || status === Status.Truncated)
		return ok({
			facts: readFacts(decoder, fileName, source.size),
			decoder,
			source,
			pointerSize: decoder.logfilePointerSize,
		});
	const why: Why =
		status === Status.BadHeaderBuffer
			? [
					`buffer 0 at offset 0x0 has BufferType ${decoder.headerErrorValue}, not 4 (the trace header buffer)`,
					key('not-etl.buffer-type', { where, value: decoder.headerErrorValue }),
				]
			: status === Status.BadLogfileRecord || status === Status.NoHeader
				? [
						`buffer 0 at offset 0x0 does not start with a trace header record (TRACE_LOGFILE_HEADER) at offset 0x48`,
						key('not-etl.no-trace-header', { where }),
					]
				: damage(bufferOutDamage(decoder, status, 0, 0));
	const view = new DataView(buffer0.buffer, buffer0.byteOffset, buffer0.byteLength);
	if (!plausibleHeader(view, 0, 0, ANY_TRACE)) return notEtl(why, head);
	return fail(
		'damaged',
		`the trace header cannot be read: ${why[0]}`,
		key('not-etl.header-unreadable', { why: why[1] }),
	);
}

/**
 * The same trace opened again with a decoder of its own (over `source`, by default the same
 * bytes): for reading records back while another pass keeps using the first decoder.
 */
export async function reopenTrace(
	trace: OpenTrace,
	source: ByteSource = trace.source,
): Promise<OpenTrace> {
	const again = await openTrace(source, trace.decoder.module, trace.facts.fileName);
	if (!again.ok) throw new Error(`${trace.facts.fileName} cannot be read again: ${again.error}`);
	return again.value;
}

function readFacts(decoder: WasmDecoder, fileName: string, fileSize: number): TraceFacts {
	const at = decoder.logfilePtr;
	const wide = decoder.logfilePointerSize === 8;
	const h = readStruct(decoder.view(), at, TRACE_LOGFILE_HEADER, !wide);
	const n = (k: string) => Number(h[k]);
	const big = (k: string) => BigInt(h[k]!);
	const bytes = new Uint8Array(decoder.memory);
	const stringsAt = at + (wide ? TRACE_LOGFILE_HEADER.size : TRACE_LOGFILE_HEADER.size32!);
	const [loggerName, next] = readUtf16z(bytes, stringsAt, decoder.logfileEndPtr);
	const [logFileName] = readUtf16z(bytes, next, decoder.logfileEndPtr);
	const clockType = n('ReservedFlags');
	return {
		fileName,
		fileSize,
		build: n('ProviderVersion'),
		version: [n('MajorVersion'), n('MinorVersion'), n('SubVersion'), n('SubMinorVersion')].join(
			'.',
		),
		cpus: n('NumberOfProcessors'),
		pointerSize: decoder.logfilePointerSize,
		clockType,
		clockName: CLOCK_NAMES[clockType] ?? `unknown (${clockType})`,
		perfFreq: big('PerfFreq').toString(),
		cpuSpeedMHz: n('CpuSpeedInMHz'),
		startTime: filetimeToIso(big('StartTime')) ?? '',
		endTime: filetimeToIso(big('EndTime')) ?? '',
		startFiletime: big('StartTime').toString(),
		endFiletime: big('EndTime').toString(),
		bootTime: filetimeToIso(big('BootTime')) ?? '',
		bufferSize: n('BufferSize'),
		buffersWritten: n('BuffersWritten'),
		buffersLost: n('BuffersLost'),
		eventsLost: n('EventsLost'),
		logFileMode: n('LogFileMode'),
		loggerName,
		logFileName,
		timerResolution: n('TimerResolution'),
		timeZoneBias: new DataView(decoder.memory).getInt32(
			at + (wide ? TRACE_LOGFILE_HEADER.fields.find((f) => f.name === 'TimeZone')!.offset : 64),
			true,
		),
	};
}

export interface IndexOptions {
	/** Told the file offset reached, every few buffers. */
	readonly onProgress?: (offset: number) => void;
	/** Stops the pass (it throws the signal's reason). */
	readonly signal?: AbortSignal;
	/** Where to read the headers (default: the trace's source), e.g. with more read-ahead. */
	readonly source?: ByteSource;
	/** Told every few buffers of all the buffers found so far (one growing array, file order). */
	readonly onBuffers?: (buffers: readonly BufferEntry[]) => void;
	/** Asked every few buffers: a promise holds the pass until it settles (a consumer behind). */
	readonly pace?: () => Promise<void> | null;
}

/**
 * Steps through the file buffer by buffer (each buffer's own BufferSize is the stride) and
 * records where each one is. A header it cannot use costs that buffer only: the pass steps over
 * it by its BufferSize when a buffer header follows there, else scans forward for the next
 * plausible header. A buffer with the CPU and sequence number of one found before is dropped.
 */
export async function indexBuffers(
	trace: OpenTrace,
	options: IndexOptions = {},
): Promise<BufferIndex> {
	const { decoder } = trace;
	const source = options.source ?? trace.source;
	const buffers: BufferEntry[] = [];
	let offset = 0;
	const damage: DamageInfo[] = [];
	let skippedBytes = 0;
	let dropped = 0;
	/** Unreadable buffer headers stepped over by their own BufferSize: one buffer each. */
	let stepped = 0;
	/** Bytes scanned over, or the file cut short: how many buffers they held is unknown. */
	let uncounted = false;
	const seen = new Map<string, BufferEntry>();
	const limits = headerLimits(trace.facts, source.size);
	// Asynchronous sources (a browser File) pay a round trip per read: scan them in large blocks,
	// three in flight (Chromium reads a File about twice as fast so as one at a time), taking the
	// headers out of the block in hand; the first block is small, so that what the first buffers
	// are is known at once (a decoding may be waiting for them). 8 MiB blocks: the four held
	// while a large import runs were 67 MB at 16 MiB, for no faster import. A source that can read
	// synchronously is read header by header, from the moment it can (a switchable source).
	let scan: SequentialReader | null = null;
	while (offset < source.size) {
		if ((buffers.length & 15) === 0 && buffers.length > 0) {
			options.onBuffers?.(buffers);
			const held = options.pace?.();
			if (held) await held;
		}
		if ((buffers.length & 63) === 0) {
			options.signal?.throwIfAborted();
			options.onProgress?.(offset);
		}
		let length: number;
		const readInto = syncReader(source, offset, HEADER_SIZE);
		if (readInto) {
			// Read on synchronously (the library's copy of an import): the scan, and with it its
			// blocks of the dropped File, is let go rather than held until the pass ends.
			scan = null;
			length = readInto(offset, decoder.inputArea(HEADER_SIZE)!);
		} else {
			scan ??= new SequentialReader(source, 8 << 20, 3, 1 << 20);
			const head = scan.view(offset, HEADER_SIZE) ?? (await scan.read(offset, HEADER_SIZE));
			decoder.load(head);
			length = head.length;
		}
		const status = decoder.frameBuffer(length);
		if (status !== Status.Ok) {
			const found = bufferOutDamage(decoder, status, buffers.length, offset);
			const { at: resumeAt, stride } = await resynchronise(source, offset, limits, options.signal);
			const skipped = (resumeAt ?? source.size) - offset;
			damage.push({ ...found, skipped, resumeAt });
			skippedBytes += skipped;
			if (stride) stepped++;
			else uncounted = true;
			if (resumeAt === null) break;
			offset = resumeAt;
			continue;
		}
		const v = decoder.view();
		const b = decoder.bufferOut;
		const size = v.getUint32(b + BufferOut.bufferSize, true);
		const available = Math.min(size, source.size - offset);
		const entry: BufferEntry = {
			index: buffers.length,
			offset,
			size,
			available,
			cpu: v.getUint16(b + BufferOut.cpu, true),
			sequence: v.getBigInt64(b + BufferOut.sequence, true),
			flags: v.getUint16(b + BufferOut.flags, true),
			compressed: v.getUint8(b + BufferOut.compressed) !== 0,
		};
		const key = `${entry.cpu}:${entry.sequence}`;
		const first = seen.get(key);
		if (first && available === size) {
			damage.push(duplicateNote(entry, first));
			dropped++;
			offset += size;
			continue;
		}
		seen.set(key, entry);
		buffers.push(entry);
		if (available < size) {
			damage.push({
				status: Status.Truncated,
				bufferIndex: buffers.length - 1,
				bufferOffset: offset,
				at: available,
				value: available,
				limit: size,
				compressed: false,
			});
			uncounted = true;
			offset = source.size;
			break;
		}
		offset += size;
	}
	damage.push(...headerFindings(trace.facts, buffers, offset, !uncounted, dropped + stepped));
	return { buffers, damage, trailingBytes: skippedBytes };
}

/**
 * Where the pass goes on after an unusable buffer header at `offset`: one BufferSize on
 * (`stride`), when the size is sane and a buffer header (or the end of the file) is there; else
 * the next plausible buffer header further on; null when there is none.
 */
async function resynchronise(
	source: ByteSource,
	offset: number,
	limits: HeaderLimits,
	signal: AbortSignal | undefined,
): Promise<{ at: number | null; stride: boolean }> {
	const head = await source.read(offset, HEADER_SIZE);
	if (head.length >= 4) {
		const size = new DataView(head.buffer, head.byteOffset, head.byteLength).getUint32(0, true);
		if (size >= HEADER_SIZE && size <= MAX_BUFFER_SIZE) {
			const next = offset + size;
			if (next === source.size) return { at: null, stride: true };
			if (next < source.size && (await plausibleChain(source, next, limits)))
				return { at: next, stride: true };
		}
	}
	return { at: await scanForBuffer(source, offset + 1, limits, signal), stride: false };
}
