// A decoded record as the plain object printed by `sockscope decode` (one NDJSON line) and shown
// in the details pane: header fields, then named payload fields.
import { PayloadLayout, RecordKind, RecordOut } from '../generated/layouts.ts';
import { PROVIDER_NAMES, PROVIDERS } from '../generated/schemas.ts';
import type { DecodedBuffer } from './decoded-buffer.ts';
import type { OpenTrace } from './etl-file.ts';
import { eventFields, schemaOf } from './event-fields.ts';
import type { Message } from '../lib/message.ts';
import { damageText, describeDamage, key, type DamageInfo } from './messages.ts';
import { filetimeToIso } from './time.ts';
import { decodeTraceLogging, extItems } from './tracelogging.ts';

export const KIND_NAMES = Object.keys(RecordKind) as (keyof typeof RecordKind)[];
const NO_ID = 0xffffffff;

export interface RecordJson {
	kind: string;
	time: string | null;
	filetime: string;
	providerGuid: string | null;
	provider: string | null;
	id: number;
	version: number;
	level: number;
	opcode: number;
	task: number;
	keyword: string;
	pid: number | null;
	tid: number | null;
	cpu: number;
	name: string | null;
	fields: Record<string, unknown>;
	/** Extended data items of an EVENT_HEADER record (stack traces, related activity, …). */
	extended?: { type: number; name: string; size: number }[];
	payload?: string;
	problem?: string;
}

const EXT_TYPE_NAMES: Record<number, string> = {
	1: 'RELATED_ACTIVITYID',
	2: 'SID',
	3: 'TS_ID',
	4: 'INSTANCE_INFO',
	5: 'STACK_TRACE32',
	6: 'STACK_TRACE64',
	7: 'PEBS_INDEX',
	8: 'PMC_COUNTERS',
	9: 'PSM_KEY',
	10: 'EVENT_KEY',
	11: 'EVENT_SCHEMA_TL',
	12: 'PROV_TRAITS',
	13: 'PROCESS_START_KEY',
	14: 'CONTROL_GUID',
	15: 'QPC_DELTA',
	16: 'CONTAINER_ID',
	17: 'STACK_KEY32',
	18: 'STACK_KEY64',
};

const SCHEMA_PROVIDER_NAMES = new Map(PROVIDERS.map((p) => [p.guid, p.name]));

/** Turns provider indexes into GUIDs, following the decoder's table as it grows. */
export class ProviderTable {
	#guids: string[] = [];
	readonly #trace: Pick<OpenTrace, 'decoder'>;
	constructor(trace: Pick<OpenTrace, 'decoder'>) {
		this.#trace = trace;
	}
	guid(index: number): string | null {
		if (index === 0xffff) return null;
		if (index >= this.#guids.length)
			this.#guids.push(...this.#trace.decoder.providers(this.#guids.length));
		return this.#guids[index] ?? null;
	}
}

export function providerName(guid: string | null): string | null {
	if (!guid) return null;
	return SCHEMA_PROVIDER_NAMES.get(guid) ?? PROVIDER_NAMES[guid] ?? null;
}

function hex(b: Uint8Array): string {
	let s = '';
	for (const x of b) s += x.toString(16).padStart(2, '0');
	return s;
}

const WANTED = new WeakMap<ReadonlySet<string>, (name: string) => boolean>();

/** Whether a field is named by `keys`, itself or by its meaning's key (made once per set). */
function wantedBy(keys: ReadonlySet<string>): (name: string) => boolean {
	let want = WANTED.get(keys);
	if (!want) {
		const names = new Set(keys);
		for (const k of keys) if (k.endsWith('Name')) names.add(k.slice(0, -4));
		WANTED.set(keys, (want = (name) => names.has(name)));
	}
	return want;
}

/**
 * A schema-decoded record's fields (each with its meaning, `<name>Name`), and those cut short;
 * with `keys`, only the fields whose name or meaning's key is among them.
 */
function schemaFields(
	buf: DecodedBuffer,
	i: number,
	keys: ReadonlySet<string> | null = null,
): { fields: Record<string, unknown>; missing: string[] } {
	const schema = schemaOf(buf.u16(i, RecordOut.schemaIndex))!;
	const decoded = eventFields(
		buf,
		schema,
		buf.u32(i, RecordOut.fieldStart),
		buf.u16(i, RecordOut.fieldCount),
		keys && wantedBy(keys),
	);
	const fields: Record<string, unknown> = {};
	for (const f of decoded) {
		fields[f.name] = f.value;
		if (f.meaning !== null) fields[`${f.name}Name`] = f.meaning;
	}
	return { fields, missing: decoded.filter((f) => f.missing).map((f) => f.name) };
}

/**
 * The text of a message logged as a string (STRING_ONLY, as EventWriteString logs it), its
 * trailing NULs dropped.
 */
function stringFields(buf: DecodedBuffer, i: number): Record<string, unknown> {
	const at = buf.u32(i, RecordOut.payloadOffset);
	const size = buf.u32(i, RecordOut.payloadSize);
	return {
		text: new TextDecoder('utf-16le').decode(buf.image.subarray(at, at + size)).replace(/\0+$/, ''),
	};
}

/**
 * Record i's `fields`, as recordJson has them, without the rest of its object (no ISO time, no
 * names): what a filter on a payload field tests, for thousands of rows. With `keys`, a
 * schema-decoded record's other fields may be left out (the filter reads only those).
 */
export function recordFields(
	buf: DecodedBuffer,
	i: number,
	trace: Pick<OpenTrace, 'facts'>,
	keys: ReadonlySet<string> | null = null,
): Record<string, unknown> {
	switch (buf.u8(i, RecordOut.layout)) {
		case PayloadLayout.schema:
			return schemaFields(buf, i, keys).fields;
		case PayloadLayout.tracelogging: {
			const at = buf.u32(i, RecordOut.payloadOffset);
			const size = buf.u32(i, RecordOut.payloadSize);
			const items = extItems(
				buf.image,
				buf.u32(i, RecordOut.extOffset),
				buf.u32(i, RecordOut.extSize),
			);
			return decodeTraceLogging(buf.image, items, at, size).fields;
		}
		case PayloadLayout.string:
			return stringFields(buf, i);
		case PayloadLayout.unknownVersion:
			return {};
		default:
			return buf.u8(i, RecordOut.kind) === RecordKind.header ? { ...trace.facts } : {};
	}
}

export function recordJson(
	buf: DecodedBuffer,
	i: number,
	trace: Pick<OpenTrace, 'facts'>,
	providers: ProviderTable,
	/** Filled with the record's problem as a message, for the page (the JSON keeps its English). */
	said?: { problem: Message | null },
): RecordJson {
	const kindCode = buf.u8(i, RecordOut.kind);
	const time = buf.time(i);
	const guid = providers.guid(buf.u16(i, RecordOut.providerIndex));
	const pid = buf.u32(i, RecordOut.pid);
	const tid = buf.u32(i, RecordOut.tid);
	const out: RecordJson = {
		kind: KIND_NAMES[kindCode] ?? 'unknown',
		time: filetimeToIso(time),
		filetime: time.toString(),
		providerGuid: guid,
		provider: providerName(guid),
		id: buf.u16(i, RecordOut.id),
		version: buf.u8(i, RecordOut.version),
		level: buf.u8(i, RecordOut.level),
		opcode: buf.u8(i, RecordOut.opcode),
		task: buf.u16(i, RecordOut.task),
		keyword: '0x' + buf.u64(i, RecordOut.keyword).toString(16),
		pid: pid === NO_ID ? null : pid,
		tid: tid === NO_ID ? null : tid,
		cpu: buf.entry.cpu,
		name: null,
		fields: {},
	};
	if (buf.u16(i, RecordOut.extCount) > 0)
		out.extended = extItems(
			buf.image,
			buf.u32(i, RecordOut.extOffset),
			buf.u32(i, RecordOut.extSize),
		).map((x) => ({ type: x.type, name: EXT_TYPE_NAMES[x.type] ?? 'unknown', size: x.size }));
	const payloadOffset = buf.u32(i, RecordOut.payloadOffset);
	const payloadSize = buf.u32(i, RecordOut.payloadSize);
	const payload = () => hex(buf.image.subarray(payloadOffset, payloadOffset + payloadSize));
	switch (buf.u8(i, RecordOut.layout)) {
		case PayloadLayout.schema: {
			const schema = schemaOf(buf.u16(i, RecordOut.schemaIndex))!;
			out.name = schema.name;
			const { fields, missing } = schemaFields(buf, i);
			out.fields = fields;
			if (missing.length) {
				out.problem = `payload ends before ${missing.join(', ')}`;
				if (said)
					said.problem = key('record-problem.payload-ends', {
						fields: { list: missing, sep: 'enum' },
					});
			}
			break;
		}
		case PayloadLayout.tracelogging: {
			const items = extItems(
				buf.image,
				buf.u32(i, RecordOut.extOffset),
				buf.u32(i, RecordOut.extSize),
			);
			const tl = decodeTraceLogging(buf.image, items, payloadOffset, payloadSize);
			out.provider = tl.provider ?? out.provider;
			out.name = tl.name;
			out.fields = tl.fields;
			if (tl.problem) {
				out.problem = tl.problem;
				if (said) said.problem = tl.problemText ?? null;
				out.payload = payload();
			}
			break;
		}
		case PayloadLayout.string:
			out.fields = stringFields(buf, i);
			break;
		case PayloadLayout.unknownVersion:
			out.problem = `no schema for ${out.provider} event ${out.id} version ${out.version}`;
			if (said)
				said.problem = key('record-problem.no-schema', {
					provider: String(out.provider),
					id: out.id,
					version: out.version,
				});
			out.payload = payload();
			break;
		default:
			if (kindCode === RecordKind.header) {
				out.name = 'TraceLogfileHeader';
				out.fields = { ...trace.facts };
			} else out.payload = payload();
	}
	const damage = buf.u16(i, RecordOut.damage);
	if (damage) {
		const d: DamageInfo = {
			status: damage,
			bufferIndex: buf.entry.index,
			bufferOffset: buf.entry.offset,
			at: buf.u32(i, RecordOut.recordOffset) + buf.offsetBase,
			value: 0,
			limit: 0,
			compressed: buf.entry.compressed,
		};
		out.problem = describeDamage(d);
		if (said) said.problem = damageText(d);
	}
	return out;
}
