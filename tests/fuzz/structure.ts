// A structure map of a trace: where its buffer headers, trace header, records, record header
// fields, payloads, event fields, extended items (TraceLogging metadata), XPRESS streams and, in
// the packet providers' events, the NDIS keywords (fragment and direction flags), the fragment and
// payload sizes, each protocol header of a frame and its DNS messages lie, as file offsets. Found
// by decoding the trace once (the decoder's own record and field tables say where each record and
// field is, the dissectors where each header is) and read against the generated layouts, so the
// structural mutations aim where the format has meaning without repeating its offsets here.
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
import { NDIS_MEDIA, PKTMON_PACKET_TYPES } from '../../web/src/generated/packet-capture.ts';
import { CaptureEvent, NDISCAP_CODE } from '../../web/src/packets/capture-fields.ts';
import { dissect } from '../../web/src/packets/dissect.ts';
import { bufferStarts } from './mutate.ts';

export type SpotKind =
	| 'buffer-header'
	| 'trace-header'
	| 'record'
	| 'record-header'
	| 'payload'
	| 'field'
	| 'extended-item'
	| 'xpress'
	/** An NDIS-PacketCapture event's keyword (8 bytes, little-endian): fragment start/end, direction, medium. */
	| 'packet-keyword'
	/** A packet event's size field (FragmentSize, LoggedPayloadSize, OriginalPayloadSize). */
	| 'packet-size'
	/** One protocol header of a frame (big-endian words). */
	| 'packet-header'
	/** A DNS message in a frame. */
	| 'dns';

/** The kinds the packet mutations aim at; the other structural mutations leave them alone. */
export const PACKET_SPOTS: ReadonlySet<SpotKind> = new Set([
	'packet-keyword',
	'packet-size',
	'packet-header',
	'dns',
]);

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

const FRAME_FIELDS = ['Fragment', 'Payload'];
const SIZE_FIELDS = ['FragmentSize', 'LoggedPayloadSize', 'OriginalPayloadSize'];
const KEYWORD = EVENT_HEADER.fields.find((f) => f.name === 'Keyword')!;

/** The spots of one packet-provider event whose record header is at `record` and image at `base`. */
function packetSpots(
	ev: CaptureEvent,
	base: number,
	record: number,
	header: StructDef | undefined,
): Spot[] {
	const out: Spot[] = [];
	if (ev.provider === NDISCAP_CODE && header === EVENT_HEADER)
		out.push({ kind: 'packet-keyword', at: record + KEYWORD.offset, width: 8 });
	for (const name of SIZE_FIELDS) {
		const at = ev.offset(name);
		if (at !== null)
			out.push({ kind: 'packet-size', at: base + at, width: ev.bytes(name)!.length });
	}
	const field = FRAME_FIELDS.find((f) => ev.bytes(f) !== null);
	if (!field) return out;
	const frame = ev.bytes(field)!.slice();
	const at = base + ev.offset(field)!;
	const link =
		ev.provider === NDISCAP_CODE
			? NDIS_MEDIA.find((m) => m.keyword === null || (ev.keyword & m.keyword) !== 0n)!.link
			: (PKTMON_PACKET_TYPES[ev.num('PacketType') ?? 0] ?? 'ethernet');
	for (const l of dissect(frame, link).layers)
		if (l.length > 0)
			out.push({
				kind: l.name === 'DNS' ? 'dns' : 'packet-header',
				at: at + l.at,
				width: l.length,
			});
	return out;
}

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
	const capture = new CaptureEvent();
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
		if (capture.set(b, i)) spots.push(...packetSpots(capture, base, base + record, header));
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
			const size = b.fieldSize(j);
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
