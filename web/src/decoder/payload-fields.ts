// The payload fields that schema-decoded events (Winsock-AFD, WS2HELP) can carry, by name, from
// the generated schemas: for `--columns`, and for filters that name a payload field.
import { FieldType } from '../generated/layouts.ts';
import { EVENT_SCHEMAS } from '../generated/schemas.ts';

export interface PayloadField {
	/** The name as printed in a record's `fields` ("Bytes Indicated", "SocketType"). */
	readonly name: string;
	/** Whether values have a named meaning (a value map or an NTSTATUS), printed as `<name>Name`. */
	readonly named: boolean;
	/** Indexes into EVENT_SCHEMAS of the events that carry it. */
	readonly schemas: readonly number[];
	/** The value maps that name its values, and whether it holds NTSTATUS values. */
	readonly maps: readonly string[];
	readonly status: boolean;
}

/** The form a user types: no spaces, any case. */
export const fieldKey = (name: string) => name.replace(/\s+/g, '').toLowerCase();

function collect(): Map<string, PayloadField> {
	const out = new Map<
		string,
		{ name: string; named: boolean; schemas: number[]; maps: string[]; status: boolean }
	>();
	EVENT_SCHEMAS.forEach((s, index) => {
		for (const f of s.fields) {
			const key = fieldKey(f.name);
			let e = out.get(key);
			if (!e)
				out.set(key, (e = { name: f.name, named: false, schemas: [], maps: [], status: false }));
			if (f.map !== null && !e.maps.includes(f.map)) e.maps.push(f.map);
			if (f.type === FieldType.NTStatus) e.status = true;
			// NTStatus fields are named by the status table, others by their value map.
			if (f.map !== null || f.type === FieldType.NTStatus) e.named = true;
			if (e.schemas.at(-1) !== index) e.schemas.push(index);
		}
	});
	return out;
}

/** Every payload field by fieldKey. */
export const PAYLOAD_FIELDS: ReadonlyMap<string, PayloadField> = collect();

/** The payload field a word names (case and spaces ignored), or undefined. */
export function payloadField(word: string): PayloadField | undefined {
	return PAYLOAD_FIELDS.get(fieldKey(word));
}
