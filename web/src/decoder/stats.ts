// Whole-trace counts: records by kind, events by provider and by Winsock-AFD event id, buffers,
// compressed buffers, damage. Used by `sockscope stats` and the tests against SOURCES.md.
import { BufferFlag, HeaderType, RecordKind, TallySlot } from '../generated/layouts.ts';
import type { BufferIndex, OpenTrace } from './etl-file.ts';
import { tallyRecords } from './tally-merge.ts';
import { TraceChecks } from './trace-checks.ts';
import { KIND_NAMES, ProviderTable, providerName } from './record-json.ts';
import { filetimeToIso } from './time.ts';
import type { WasmDecoder } from './wasm.ts';

export interface TraceStats {
	records: number;
	byKind: Record<string, number>;
	/** Record header types, named as in the ETL format notes (SYSTEM64, EVENT32, …). */
	byHeaderType: Record<string, number>;
	byProvider: Record<string, { name: string | null; events: number }>;
	afdEvents: Record<string, number>;
	buffers: number;
	compressedBuffers: number;
	eventsLost: number;
	buffersLost: number;
	/** Buffers whose BufferFlag says events (0x2) or a buffer (0x4) were lost while logging. */
	buffersFlaggedLoss: number;
	damagedBuffers: number;
	damage: { offset: number; message: string }[];
	firstTime: string | null;
	lastTime: string | null;
}

/** Record header types by their HeaderType value. */
export const HEADER_TYPE_NAMES: Readonly<Record<number, string>> = {
	[HeaderType.System32]: 'SYSTEM32',
	[HeaderType.System64]: 'SYSTEM64',
	[HeaderType.Compact32]: 'COMPACT32',
	[HeaderType.Compact64]: 'COMPACT64',
	[HeaderType.Full32]: 'FULL32',
	[HeaderType.Full64]: 'FULL64',
	[HeaderType.Instance32]: 'INSTANCE32',
	[HeaderType.Instance64]: 'INSTANCE64',
	[HeaderType.Perfinfo32]: 'PERFINFO32',
	[HeaderType.Perfinfo64]: 'PERFINFO64',
	[HeaderType.EventHeader32]: 'EVENT32',
	[HeaderType.EventHeader64]: 'EVENT64',
};

/** A value counted by the tally, and where the merge hands out its first record. */
interface Counted {
	count: number;
	time: bigint;
	order: number;
	sequence: bigint;
}

/**
 * Counts records header-only in WASM (tally-merge.ts), in the merge's order of slices: damage is
 * reported, and each count table lists its keys, in the order a pass through mergeRecords would.
 */
export async function traceStats(trace: OpenTrace, index: BufferIndex): Promise<TraceStats> {
	const { decoder } = trace;
	const providers = new ProviderTable(trace);
	let compressed = 0;
	const checks = new TraceChecks(trace);
	// The tables lie below the input area, which opening the trace reserved: this holds.
	if (!decoder.resetTally()) throw new Error('decoder: no memory for the count tables');
	decoder.walkTally(true);
	let tallied;
	try {
		tallied = await tallyRecords(trace, index.buffers, checks.slice, (b) => {
			if (b.entry.compressed) compressed++;
			checks.buffer(b);
		});
	} finally {
		decoder.walkTally(false);
	}
	checks.finish(index);
	const tables = decoder.tallyTables;
	const kinds = slots(decoder, tables.kinds, 16);
	const byKind = inFirstOrder(kinds, (k) => KIND_NAMES[k] ?? null);
	const headerTypes = slots(decoder, tables.headerTypes, 256);
	// A WPP record is a MESSAGE record: its kind counts its header type.
	const wpp = kinds.get(RecordKind.wpp);
	if (wpp) headerTypes.set(MESSAGE, wpp);
	const byHeaderType = inFirstOrder(headerTypes, (h) =>
		h === MESSAGE ? 'MESSAGE' : (HEADER_TYPE_NAMES[h] ?? 'unknown'),
	);
	const byProvider: TraceStats['byProvider'] = {};
	for (const [guid, events] of Object.entries(
		inFirstOrder(slots(decoder, tables.providers, MAX_PROVIDERS), (p) => providers.guid(p)),
	))
		byProvider[guid] = { name: providerName(guid), events };
	const afdEvents: Record<string, number> = {};
	const afd = new Uint32Array(decoder.memory, tables.afd, 65536);
	for (let id = 0; id < afd.length; id++) if (afd[id]! > 0) afdEvents[id] = afd[id]!;
	return {
		records: tallied.records,
		byKind,
		byHeaderType,
		byProvider,
		afdEvents,
		buffers: index.buffers.length,
		compressedBuffers: compressed,
		eventsLost: trace.facts.eventsLost,
		buffersFlaggedLoss: index.buffers.filter(
			(b) => (b.flags & (BufferFlag.EventsLost | BufferFlag.BufferLost)) !== 0,
		).length,
		buffersLost: trace.facts.buffersLost,
		damagedBuffers: checks.log.buffers,
		// What the CLI prints: each damage's offset and English.
		damage: checks.entries.map(({ offset, message }) => ({ offset, message })),
		firstTime: tallied.firstTime === null ? null : filetimeToIso(tallied.firstTime),
		lastTime: tallied.lastTime === null ? null : filetimeToIso(tallied.lastTime),
	};
}

/** Not a header type (a u8): the slot WPP records are listed under. */
const MESSAGE = 256;
/** Provider indexes the decoder interns (assembly/memory-map.ts MAX_PROVIDERS). */
const MAX_PROVIDERS = 4096;

/** The TallySlots at `at` with records, by value. */
function slots(decoder: WasmDecoder, at: number, n: number): Map<number, Counted> {
	const v = decoder.view();
	const out = new Map<number, Counted>();
	for (let i = 0; i < n; i++) {
		const p = at + i * TallySlot.SIZE;
		const count = v.getUint32(p + TallySlot.count, true);
		if (count > 0)
			out.set(i, {
				count,
				time: v.getBigInt64(p + TallySlot.firstTime, true),
				order: v.getInt32(p + TallySlot.firstOrder, true),
				sequence: v.getBigUint64(p + TallySlot.firstSequence, true),
			});
	}
	return out;
}

/**
 * Counts by name (values without a name are left out), the names in the order the merge hands out
 * their first records: the order a count filled record by record in merge order has its keys in.
 */
function inFirstOrder(
	counted: Map<number, Counted>,
	name: (value: number) => string | null,
): Record<string, number> {
	const byName = new Map<string, Counted>();
	for (const [value, c] of counted) {
		const n = name(value);
		if (n === null) continue;
		const had = byName.get(n);
		if (!had) byName.set(n, { ...c });
		else {
			had.count += c.count;
			if (earlier(c, had)) Object.assign(had, { ...c, count: had.count });
		}
	}
	const out: Record<string, number> = {};
	for (const [n, c] of [...byName].sort(([, a], [, b]) => (earlier(a, b) ? -1 : 1)))
		out[n] = c.count;
	return out;
}

function earlier(a: Counted, b: Counted): boolean {
	if (a.time !== b.time) return a.time < b.time;
	if (a.order !== b.order) return a.order < b.order;
	return a.sequence < b.sequence;
}
