// A schema's payload fields as the record object keys them: each value under the field's name
// and its meaning under the name and "Name". The fast writers write a schema's records
// themselves only when those keys are one each, as the object path has them.
import type { EventSchema } from '../generated/schemas.ts';

/** The keys, or null when two coincide (two fields of one name, one named like another's meaning). */
export function payloadKeys(schema: EventSchema): Set<string> | null {
	const keys = new Set<string>();
	for (const f of schema.fields) {
		keys.add(f.name);
		keys.add(`${f.name}Name`);
	}
	return keys.size === schema.fields.length * 2 ? keys : null;
}
