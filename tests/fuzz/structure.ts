// A structure map of a trace: where its buffer headers, trace header, records, record header
// fields, payloads, event fields, extended items (TraceLogging metadata) and XPRESS streams lie,
// as file offsets. Found by decoding the trace once (the decoder's own record and field tables
// say where each record and field is) and read against the generated layouts, so the structural
// mutations aim where the format has meaning without repeating its offsets here.
import {
	COMPACT_TRACE_HEADER,
	EVENT_HEADER,
	EVENT_HEADER_EXTENDED_DATA_ITEM,
	EVENT_INSTANCE_GUID_HEADER,
	EVENT_TRACE_HEADER,
	FieldOut,
	MESSAGE_TRACE_HEADER,
	PERFINFO_TRACE_HEADER,
	RecordKind,
	RecordOut,
	SYSTEM_TRACE_HEADER,
	TRACE_LOGFILE_HEADER,
	WMI_BUFFER_HEADER,
	type StructDef,
} from '../../web/src/generated/layouts.ts';
import { indexBuffers, openTrace } from '../../web/src/decoder/etl-file.ts';
import { mergeRecords } from '../../web/src/decoder/merge.ts';
import { memorySource } from '../../web/src/decoder/source.ts';
import { bufferStarts } from './mutate.ts';

export type SpotKind =
	| 'buffer-header'
	| 'trace-header'
	| 'record'
	| 'record-header'
	| 'payload'
	| 'field'
	| 'extended-item'
	| 'xpress';

export interface Spot {
	readonly kind: SpotKind;
	/** File offset. */
	readonly at: number;
	/** A word's width (1 to 8), or a region's length (more than 8). */
	readonly width: number;
}

export interface StructureMap {
	readonly buffers: readonly number[];
	readonly spots: readonly Spot[];
}

/** Spots kept per map: enough to aim at every kind of place, few enough to stay cheap. */
const MAX_SPOTS = 4096;

const WIDTHS: Record<string, number> = { u8: 1, u16: 2, u32: 4, i32: 4, u64: 8, i64: 8, ptr: 8 };

function structSpots(def: StructDef, at: number, kind: SpotKind, wide = true): Spot[] {
	const out: Spot[] = [];
	for (const f of def.fields) {
		const offset = wide ? f.offset : (f.offset32 ?? f.offset);
		const width =
			f.type === 'ptr' && !wide ? 4 : (WIDTHS[f.type] ?? Number(f.type.split(':')[1] ?? 16));
		out.push({ kind, at: at + offset, width });
	}
	return out;
}

const RECORD_HEADERS: Partial<Record<number, StructDef>> = {
	[RecordKind.system]: SYSTEM_TRACE_HEADER,
	[RecordKind.compact]: COMPACT_TRACE_HEADER,
	[RecordKind.perfinfo]: PERFINFO_TRACE_HEADER,
	[RecordKind.classic]: EVENT_TRACE_HEADER,
	[RecordKind.instance]: EVENT_INSTANCE_GUID_HEADER,
	[RecordKind.event]: EVENT_HEADER,
	[RecordKind.wpp]: MESSAGE_TRACE_HEADER,
};

/** The map of the buffers found by stepping BufferSize alone (for bytes that do not open). */
export function bufferMap(bytes: Uint8Array): StructureMap {
	const buffers = bufferStarts(bytes);
	return {
		buffers,
		spots: buffers.flatMap((b) => structSpots(WMI_BUFFER_HEADER, b, 'buffer-header')),
	};
}

export async function structureMap(
	module: WebAssembly.Module,
	bytes: Uint8Array,
): Promise<StructureMap> {
	const opened = await openTrace(memorySource(bytes), module, 'map.etl');
	if (!opened.ok) return bufferMap(bytes);
	const trace = opened.value;
	const index = await indexBuffers(trace);
	const spots: Spot[] = [];
	const buffers = index.buffers.map((e) => e.offset);
	for (const e of index.buffers) {
		spots.push(...structSpots(WMI_BUFFER_HEADER, e.offset, 'buffer-header'));
		if (e.compressed && e.available > WMI_BUFFER_HEADER.size)
			spots.push({
				kind: 'xpress',
				at: e.offset + WMI_BUFFER_HEADER.size,
				width: e.available - WMI_BUFFER_HEADER.size,
			});
	}
	const wide = trace.pointerSize === 8;
	spots.push(
		...structSpots(
			TRACE_LOGFILE_HEADER,
			trace.decoder.logfilePtr - trace.decoder.input,
			'trace-header',
			wide,
		),
	);
	await mergeRecords(trace, index.buffers, (b, i) => {
		// Inside a compressed buffer the record lies in the decompressed image, not in the file.
		if (b.entry.compressed || spots.length > MAX_SPOTS) return;
		const base = b.entry.offset + b.offsetBase;
		const record = b.u32(i, RecordOut.recordOffset);
		const size = b.u32(i, RecordOut.recordSize);
		spots.push({ kind: 'record', at: base + record, width: Math.max(size, 9) });
		const header = RECORD_HEADERS[b.u8(i, RecordOut.kind)];
		const recordWide = b.u8(i, RecordOut.pointerSize) !== 4;
		if (header) spots.push(...structSpots(header, base + record, 'record-header', recordWide));
		const payload = b.u32(i, RecordOut.payloadSize);
		if (payload > 0)
			spots.push({
				kind: 'payload',
				at: base + b.u32(i, RecordOut.payloadOffset),
				width: Math.max(payload, 9),
			});
		const extSize = b.u32(i, RecordOut.extSize);
		if (extSize > 0) {
			const ext = base + b.u32(i, RecordOut.extOffset);
			spots.push(...structSpots(EVENT_HEADER_EXTENDED_DATA_ITEM, ext, 'extended-item'));
			spots.push({ kind: 'extended-item', at: ext, width: Math.max(extSize, 9) });
		}
		const start = b.u32(i, RecordOut.fieldStart);
		for (let j = start, n = start + b.u16(i, RecordOut.fieldCount); j < n; j++) {
			const size = b.fieldU32(j, FieldOut.size);
			if (size > 0)
				spots.push({
					kind: 'field',
					at: b.entry.offset + b.offsetBase + b.fieldU32(j, FieldOut.offset),
					width: size,
				});
		}
	});
	return { buffers, spots: spots.filter((s) => s.at >= 0 && s.at < bytes.length) };
}
