// Filter terms on a decoded payload field by its name (`SocketType == SOCK_DGRAM`, `Backlog > 10`,
// `Option == SO_RCVBUF`): the columns do not hold payloads, so such a term marks the event types
// that carry the field and is tested on each of their records decoded again. A value name is
// checked against the field's value maps (or NTSTATUS names) when the filter is compiled.
import { msg } from '../i18n/render.ts';
import { NTSTATUS } from '../generated/codes.ts';
import { mapNames } from '../decoder/event-fields.ts';
import type { PayloadField } from '../decoder/payload-fields.ts';
import { nearest } from '../lib/nearest.ts';
import { FilterError } from './filter-parser.ts';
import type { Term } from './filter-fields.ts';
import { nameTest } from './filter-fields.ts';
import {
	compare,
	lookup,
	markTypes,
	numberOf,
	numericOp,
	type FilterContext,
	type Node,
} from './filter-nodes.ts';

const NUMBER = /^-?(0x[0-9a-f]+|\d+(\.\d+)?)$/i;

function valueNames(field: PayloadField): string[] {
	const names = field.maps.flatMap(mapNames);
	if (field.status)
		for (const s of Object.values(NTSTATUS)) names.push(s.name, s.name.replace(/^STATUS_/, ''));
	return names;
}

/** Whether a value (or its named meaning) passes `test`, NTSTATUS names also without STATUS_. */
function anyText(v: unknown, meaning: unknown, test: (s: string) => boolean): boolean {
	if (v !== null && v !== undefined && test(String(v))) return true;
	if (typeof meaning !== 'string') return false;
	return test(meaning) || (meaning.startsWith('STATUS_') && test(meaning.slice(7)));
}

export function payloadTerm(field: PayloadField, t: Term | null, ctx: FilterContext): Node {
	const schemas = new Set(field.schemas);
	const types = markTypes(ctx, (x) => schemas.has(x.schema));
	const name = field.name;
	const meaningKey = `${name}Name`;
	// The field alone: its events carry it, so no record needs decoding.
	if (t === null) return lookup(['etype'], types, false);
	let test: (v: unknown, meaning: unknown) => boolean;
	if ((t.op === ':' || t.op === '==' || t.op === '!=') && !NUMBER.test(t.value)) {
		const names = field.named ? valueNames(field) : [];
		const { match } = nameTest({ ...t, op: ':' });
		// A value name the maps do not know is a mistake, not a wish for zero rows.
		if (names.length && !/[*?]/.test(t.value) && !names.some(match)) {
			const near = nearest(t.value, names);
			throw new FilterError(
				near
					? msg('filter.no-value-near', { name, value: t.value, near })
					: msg('filter.no-value', { name, value: t.value }),
				t.valueAt,
			);
		}
		const eq = (v: unknown, m: unknown) => anyText(v, m, match);
		test = t.op === '!=' ? (v, m) => v !== undefined && !eq(v, m) : eq;
	} else if (t.op === 'contains' || t.op === 'matches') {
		const { match } = nameTest(t);
		test = (v, m) => anyText(v, m, match);
	} else {
		const op = numericOp(t.op, t.field, t.at);
		const n = numberOf(t.value, t.valueAt);
		test = (v) => {
			const x =
				typeof v === 'number' ? v : typeof v === 'string' && NUMBER.test(v) ? Number(v) : NaN;
			return !Number.isNaN(x) && compare(op, x, n);
		};
	}
	return {
		cols: ['etype'],
		payload: types,
		payloadKeys: [name, meaningKey],
		make: (c, fields) => {
			const etype = c.etype;
			return (i) => {
				if (types[etype[i]!] !== 1) return false;
				const f = fields(i);
				return f !== null && test(f[name], f[meaningKey]);
			};
		},
	};
}
