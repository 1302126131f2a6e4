// Everything about one event for the details pane: header fields, every decoded field with its
// meaning and byte range, and the record's bytes for the hex view.
import { FieldType, PayloadLayout, RecordOut } from '../generated/layouts.ts';
import { eventFields, schemaOf } from '../decoder/event-fields.ts';
import type { OpenTrace } from '../decoder/etl-file.ts';
import { ProviderTable, recordJson } from '../decoder/record-json.ts';
import { decodeRecord } from '../decoder/single-record.ts';
import { explainStatus } from '../decoder/status.ts';
import type { Message } from '../lib/message.ts';
import type { FieldDetail, RecordDetails } from './api.ts';

function shown(value: unknown): string {
	if (value === null || value === undefined) return '';
	if (typeof value === 'object') return JSON.stringify(value);
	return String(value);
}

function wsaOf(status: number): string | null {
	const s = explainStatus(status);
	return s.wsa ? `${s.wsa}${s.wsaCode ? ` (${s.wsaCode})` : ''}` : null;
}

export async function recordDetails(
	decoder: OpenTrace,
	index: number,
	record: Uint8Array,
	cpu: number,
	filetime: bigint,
): Promise<RecordDetails | null> {
	const buf = await decodeRecord(decoder, record, cpu, filetime);
	if (!buf) return null;
	const said: { problem: Message | null } = { problem: null };
	const json = recordJson(buf, 0, decoder, new ProviderTable(decoder), said);
	// Offsets in the decoded buffer count from its 0x48-byte header; the hex view shows the record.
	const recordStart = buf.u32(0, RecordOut.recordOffset);
	const payloadOffset = buf.u32(0, RecordOut.payloadOffset) - recordStart;
	let fields: FieldDetail[];
	if (buf.u8(0, RecordOut.layout) === PayloadLayout.schema) {
		const schema = schemaOf(buf.u16(0, RecordOut.schemaIndex))!;
		fields = eventFields(
			buf,
			schema,
			buf.u32(0, RecordOut.fieldStart),
			buf.u16(0, RecordOut.fieldCount),
		).map((f) => ({
			name: f.name,
			// NTSTATUS values read as hex, the way Windows documents them.
			value:
				f.type === FieldType.NTStatus && typeof f.value === 'number'
					? explainStatus(f.value).hex
					: shown(f.value),
			meaning: f.meaning,
			explanation:
				f.type === FieldType.NTStatus && typeof f.value === 'number'
					? explainStatus(f.value).explanation
					: null,
			wsa: f.type === FieldType.NTStatus && typeof f.value === 'number' ? wsaOf(f.value) : null,
			offset: f.missing ? null : f.offset - recordStart,
			size: f.size,
		}));
	} else {
		fields = Object.entries(json.fields).map(([name, value]) => ({
			name,
			value: shown(value),
			meaning: null,
			explanation: null,
			offset: null,
			size: 0,
		}));
	}
	return { index, json, problemText: said.problem, bytes: record, payloadOffset, fields };
}
