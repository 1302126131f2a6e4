// What the index pass checks beyond one buffer header: where to go on after a header it cannot
// use (resynchronising), buffers found twice, and what the trace header says that the buffers
// contradict (buffer count, CPU count, sizes, clock, times). Findings are DamageInfo notes.
import { BufferFlag, Status, WMI_BUFFER_HEADER } from '../generated/layouts.ts';
import type { Message } from '../lib/message.ts';
import { key, type DamageInfo } from './messages.ts';
import type { ByteSource } from './source.ts';
import { filetimeToIso } from './time.ts';
import type { TraceFacts } from './types.ts';

const HEADER = WMI_BUFFER_HEADER.size;
/** The decoder's own limit on a buffer (assembly/memory-map.ts MAX_BUFFER_SIZE). */
export const MAX_BUFFER_SIZE = 64 << 20;
const FIELD = Object.fromEntries(WMI_BUFFER_HEADER.fields.map((f) => [f.name, f.offset]));
const KNOWN_FLAGS =
	BufferFlag.FlushMarker |
	BufferFlag.EventsLost |
	BufferFlag.BufferLost |
	BufferFlag.RtBackupCorrupt |
	BufferFlag.RtBackup |
	BufferFlag.ProcIndex |
	BufferFlag.Compressed;
/** ETW_BUFFER_TYPE values run 0 (GENERIC) … 7 (DBG_INFO). */
const MAX_BUFFER_TYPE = 7;
const SCAN_BLOCK = 1 << 20;
/** CPUs a scanned header may name even when the trace header counts fewer. */
const MIN_CPU_LIMIT = 64;
const hex = (n: number) => '0x' + n.toString(16);

/** What a buffer header must keep to: from the trace header and the file. */
export interface HeaderLimits {
	/** Largest buffer, on disk or decompressed: the trace's BufferSize when sane. */
	readonly budget: number;
	readonly cpus: number;
	readonly fileSize: number;
}

/**
 * Whether `v` at `at` (file offset `fileAt`) holds a buffer header the decoder would accept and
 * that looks like one: known flags and type, a CPU the trace header counts, a size that fits the
 * trace's BufferSize and the file, a plausible first record. A scan for the next buffer must not
 * stop in the middle of records.
 */
export function plausibleHeader(
	v: DataView,
	at: number,
	fileAt: number,
	limits: HeaderLimits,
): boolean {
	if (at + HEADER > v.byteLength) return false;
	const size = v.getUint32(at + FIELD.BufferSize!, true);
	if (size < HEADER || size > limits.budget || fileAt + size > limits.fileSize) return false;
	const flags = v.getUint16(at + FIELD.BufferFlag!, true);
	if ((flags & ~KNOWN_FLAGS) !== 0) return false;
	if (v.getUint16(at + FIELD.BufferType!, true) > MAX_BUFFER_TYPE) return false;
	const context = v.getUint16(at + FIELD.ProcessorIndex!, true);
	const cpu = (flags & BufferFlag.ProcIndex) !== 0 ? context & 0x7ff : context & 0xff;
	// The header's count may itself be wrong (a hostile case): a little room beyond it.
	if (cpu >= Math.max(limits.cpus, MIN_CPU_LIMIT)) return false;
	const end = v.getUint32(at + FIELD.Offset!, true);
	if (end < HEADER) return false;
	// A compressed buffer claiming more than the budget is still a buffer: it is reported as such.
	if ((flags & BufferFlag.Compressed) !== 0) return end <= MAX_BUFFER_SIZE;
	if (end > size) return false;
	if (end === HEADER || at + HEADER + 4 > v.byteLength) return true;
	const marker = v.getUint32(at + HEADER, true);
	const top = marker >>> 24;
	return marker === 0xffffffff || (top & 0xc0) === 0xc0 || (top & 0xd0) === 0x90;
}

/** A plausible header at `offset` followed by another one (or the end of the file). */
export async function plausibleChain(
	source: ByteSource,
	offset: number,
	limits: HeaderLimits,
): Promise<boolean> {
	const here = await source.read(offset, HEADER + 4);
	const v = new DataView(here.buffer, here.byteOffset, here.byteLength);
	if (!plausibleHeader(v, 0, offset, limits)) return false;
	const next = offset + v.getUint32(FIELD.BufferSize!, true);
	if (next >= source.size) return true;
	const there = await source.read(next, HEADER + 4);
	return plausibleHeader(
		new DataView(there.buffer, there.byteOffset, there.byteLength),
		0,
		next,
		limits,
	);
}

/** The file offset of the next plausible buffer header after `from`, or null. */
export async function scanForBuffer(
	source: ByteSource,
	from: number,
	limits: HeaderLimits,
	signal?: AbortSignal,
): Promise<number | null> {
	for (let start = from; start + HEADER <= source.size; start += SCAN_BLOCK) {
		signal?.throwIfAborted();
		// Overlapping blocks, so that a header across a block boundary is seen whole.
		const block = await source.read(start, SCAN_BLOCK + HEADER + 4);
		const v = new DataView(block.buffer, block.byteOffset, block.byteLength);
		const last = Math.min(SCAN_BLOCK, block.length - HEADER);
		for (let i = 0; i < last; i++)
			if (
				plausibleHeader(v, i, start + i, limits) &&
				(await plausibleChain(source, start + i, limits))
			)
				return start + i;
		if (block.length < SCAN_BLOCK + HEADER) break;
	}
	return null;
}

/** The largest decompressed buffer the decoder accepts: the trace's BufferSize when sane. */
export function headerLimits(facts: TraceFacts, fileSize: number): HeaderLimits {
	return { budget: expansionBudget(facts), cpus: facts.cpus, fileSize };
}

export function expansionBudget(facts: TraceFacts): number {
	return facts.bufferSize >= HEADER && facts.bufferSize <= MAX_BUFFER_SIZE
		? facts.bufferSize
		: MAX_BUFFER_SIZE;
}

interface FoundBuffer {
	readonly index: number;
	readonly offset: number;
	readonly size: number;
	readonly cpu: number;
	readonly sequence: bigint;
	readonly compressed: boolean;
}

/** A buffer and its offset as a message: "buffer 3 at offset 0x6000". */
const bufferAt = (b: { readonly index: number; readonly offset: number }) =>
	key('damage.where', { buffer: b.index, offset: hex(b.offset) });

/** A finding that is no decoder status: its English (the CLI's) and the same as a message. */
function note(
	[message, text]: readonly [string, Message],
	offset: number,
	bufferIndex = -1,
): DamageInfo {
	return {
		status: Status.Ok,
		bufferIndex,
		bufferOffset: offset,
		at: 0,
		value: 0,
		limit: 0,
		compressed: false,
		note: message,
		noteText: text,
		noteOffset: offset,
	};
}

/** A buffer with the same CPU and sequence number as one found before it (a copy): dropped. */
export function duplicateNote(b: FoundBuffer, first: FoundBuffer): DamageInfo {
	return note(
		[
			`the buffer at offset ${hex(b.offset)} repeats buffer ${first.index} at offset ${hex(first.offset)} (CPU ${b.cpu}, sequence number ${b.sequence}): dropped`,
			key('note.duplicate', {
				offset: hex(b.offset),
				first: bufferAt(first),
				cpu: b.cpu,
				sequence: String(b.sequence),
			}),
		],
		b.offset,
	);
}

/**
 * What the trace header says that the buffers found contradict. `unexplained`: whether the
 * buffers the pass could not account for are known: false after a cut or a scan over damaged
 * bytes (how many buffers those held is unknown); `accounted`: buffers found but not listed
 * (repeats dropped, unreadable headers stepped over by their BufferSize).
 */
export function headerFindings(
	facts: TraceFacts,
	buffers: readonly FoundBuffer[],
	endOffset: number,
	countable: boolean,
	accounted: number,
): DamageInfo[] {
	const out: DamageInfo[] = [];
	const written = facts.buffersWritten;
	const found = buffers.length + accounted;
	if (found < written && countable) out.push(...missingBuffers(buffers, written, found, endOffset));
	else if (buffers.length > written) {
		out.push(
			note(
				[
					`the file holds ${buffers.length} buffers, but its header says ${written} were written (BuffersWritten)`,
					key('note.more-buffers', { found: buffers.length, written }),
				],
				0,
			),
		);
	}
	const beyond = buffers.find((b) => b.index > 0 && b.cpu >= facts.cpus);
	if (beyond)
		out.push(
			note(
				[
					`buffer ${beyond.index} at offset ${hex(beyond.offset)} is from CPU ${beyond.cpu}, but the trace header counts ${facts.cpus} processors (NumberOfProcessors)`,
					key('note.cpu-beyond', { where: bufferAt(beyond), cpu: beyond.cpu, cpus: facts.cpus }),
				],
				beyond.offset,
				beyond.index,
			),
		);
	if (facts.bufferSize < HEADER || facts.bufferSize > MAX_BUFFER_SIZE)
		out.push(
			note(
				[
					`the trace header's BufferSize ${hex(facts.bufferSize)} is not a buffer size (0x48 … ${hex(MAX_BUFFER_SIZE)})`,
					key('note.header-buffer-size', {
						value: hex(facts.bufferSize),
						max: hex(MAX_BUFFER_SIZE),
					}),
				],
				0,
			),
		);
	else {
		const larger = buffers.find((b) => !b.compressed && b.size > facts.bufferSize);
		if (larger)
			out.push(
				note(
					[
						`buffer ${larger.index} at offset ${hex(larger.offset)} has ${hex(larger.size)} bytes, more than the trace header's BufferSize ${hex(facts.bufferSize)}`,
						key('note.larger-buffer', {
							where: bufferAt(larger),
							size: hex(larger.size),
							limit: hex(facts.bufferSize),
						}),
					],
					larger.offset,
					larger.index,
				),
			);
	}
	const clock = facts.clockType;
	if (clock < 1 || clock > 3)
		out.push(
			note(
				[
					`the trace header names clock type ${clock} (ReservedFlags), not 1, 2 or 3`,
					key('note.clock-type', { clock }),
				],
				0,
			),
		);
	else if (clock === 1 && BigInt(facts.perfFreq) <= 0n)
		out.push(
			note(
				[
					`the trace header's clock is QPC but its PerfFreq is ${facts.perfFreq}`,
					key('note.qpc-freq', { freq: facts.perfFreq }),
				],
				0,
			),
		);
	else if (clock === 3 && facts.cpuSpeedMHz === 0)
		out.push(
			note(
				[
					`the trace header's clock is CPU cycles but its CpuSpeedInMHz is 0`,
					key('note.cycles-speed', {}),
				],
				0,
			),
		);
	const start = BigInt(facts.startFiletime);
	const end = BigInt(facts.endFiletime);
	if (end !== 0n && end < start)
		out.push(
			note(
				[
					`the trace header's EndTime (${facts.endTime || facts.endFiletime}) is before its StartTime (${facts.startTime || facts.startFiletime})`,
					key('note.end-before-start', {
						end: facts.endTime || facts.endFiletime,
						start: facts.startTime || facts.startFiletime,
					}),
				],
				0,
			),
		);
	return out;
}

/**
 * Buffers the file lacks, which the header's BuffersWritten proves (it counted every buffer in
 * every real file): the sequence numbers say where. Numbers alone prove nothing: a session
 * numbers every buffer it hands out, and one that never reaches the file (one left without
 * records at a flush, as in tx-win7-kernel-process, whose 182 buffers are all there with
 * numbers 175 and 181 unused) leaves a gap. When the gaps are as many as the buffers missing,
 * each is one and is reported at the buffer after it; otherwise the count is reported at the
 * end of the file with the gaps listed.
 */
function missingBuffers(
	buffers: readonly FoundBuffer[],
	written: number,
	found: number,
	endOffset: number,
): DamageInfo[] {
	const missing = written - found;
	const counts = `the trace header says ${written} buffers were written (BuffersWritten), the file holds ${found}`;
	const countsText = key('note.counts', { written, found });
	const gaps = sequenceGaps(buffers);
	const numbers = gaps.reduce((n, g) => n + Number(g.after.sequence - g.before.sequence - 1n), 0);
	if (gaps.length > 0 && numbers === missing)
		return gaps.map(({ before, after }) => {
			const one = after.sequence - before.sequence === 2n;
			const from = String(before.sequence + 1n);
			const lost = one
				? `the buffer numbered ${from} is missing`
				: `the buffers numbered ${from} to ${after.sequence - 1n} are missing`;
			const lostText = one
				? key('note.gap-one', { number: from })
				: key('note.gap-many', { from, to: String(after.sequence - 1n) });
			return note(
				[
					`buffer ${after.index} at offset ${hex(after.offset)} (sequence number ${after.sequence}): ${lost}, after buffer ${before.index} at offset ${hex(before.offset)} (sequence number ${before.sequence}); ${counts}`,
					key('note.gap', {
						after: bufferAt(after),
						sequence: String(after.sequence),
						lost: lostText,
						before: bufferAt(before),
						beforeSequence: String(before.sequence),
						counts: countsText,
					}),
				],
				after.offset,
				after.index,
			);
		});
	const last = buffers.at(-1);
	const where = last ? `the file ends after buffer ${last.index}` : `the file ends`;
	const ends = last
		? key('note.ends-after', { buffer: last.index, offset: hex(endOffset) })
		: key('note.ends', { offset: hex(endOffset) });
	const shown = gaps
		.slice(0, 8)
		.map((g) => `${g.before.sequence} → ${g.after.sequence} at offset ${hex(g.after.offset)}`)
		.join(', ');
	const jumps =
		gaps.length === 0
			? ''
			: ` (sequence numbers jump ${shown}${gaps.length > 8 ? `, … ${gaps.length} jumps` : ''})`;
	const shownText = {
		list: [
			...gaps.slice(0, 8).map((g) =>
				key('note.jump', {
					before: String(g.before.sequence),
					after: String(g.after.sequence),
					offset: hex(g.after.offset),
				}),
			),
			...(gaps.length > 8 ? [key('note.more-jumps', { jumps: gaps.length })] : []),
		],
		sep: 'comma',
	};
	const values = { ends, counts: countsText, missing };
	return [
		note(
			[
				`${where} (offset ${hex(endOffset)}), but ${counts}: ${missing} missing${jumps}`,
				gaps.length === 0
					? key('note.missing', values)
					: key('note.missing-jumps', { ...values, jumps: shownText }),
			],
			endOffset,
		),
	];
}

/** Consecutive buffers (in sequence order, after buffer 0) whose numbers are not consecutive. */
function sequenceGaps(
	buffers: readonly FoundBuffer[],
): { before: FoundBuffer; after: FoundBuffer }[] {
	const numbered = buffers
		.filter((b) => b.index > 0)
		.sort((a, b) => (a.sequence < b.sequence ? -1 : a.sequence > b.sequence ? 1 : 0));
	const gaps: { before: FoundBuffer; after: FoundBuffer }[] = [];
	for (let i = 1; i < numbered.length; i++)
		if (numbered[i]!.sequence > numbered[i - 1]!.sequence + 1n)
			gaps.push({ before: numbered[i - 1]!, after: numbered[i]! });
	return gaps;
}

/**
 * How far records may run past the trace header's EndTime before that counts as a contradiction:
 * relogged files overshoot by seconds (2.5 s in perfview-net452).
 */
const END_SLACK = 60n * 10_000_000n;

/** The span of record times, gathered per buffer (a buffer's records are in time order). */
export class TimeSpan {
	first: bigint | null = null;
	last: bigint | null = null;

	add(first: bigint, last: bigint): void {
		if (this.first === null || first < this.first) this.first = first;
		if (this.last === null || last > this.last) this.last = last;
	}
}

/** Record times that the trace header's StartTime and EndTime contradict. */
export function timeFindings(facts: TraceFacts, span: TimeSpan): DamageInfo[] {
	const start = BigInt(facts.startFiletime);
	const end = BigInt(facts.endFiletime);
	if (span.first === null || span.last === null || end === 0n || end < start) return [];
	const out: DamageInfo[] = [];
	const iso = (t: bigint) => filetimeToIso(t) ?? t.toString();
	if (span.last > end + END_SLACK)
		out.push(
			note(
				[
					`records run until ${iso(span.last)}, ${seconds(span.last - end)} s after the trace header's EndTime (${facts.endTime})`,
					key('note.records-after-end', {
						last: iso(span.last),
						seconds: seconds(span.last - end),
						end: facts.endTime,
					}),
				],
				0,
			),
		);
	if (span.first < start)
		out.push(
			note(
				[
					`records start at ${iso(span.first)}, ${seconds(start - span.first)} s before the trace header's StartTime (${facts.startTime})`,
					key('note.records-before-start', {
						first: iso(span.first),
						seconds: seconds(start - span.first),
						start: facts.startTime,
					}),
				],
				0,
			),
		);
	return out;
}

function seconds(ticks: bigint): string {
	return (Number(ticks / 10_000n) / 1000).toFixed(3);
}
