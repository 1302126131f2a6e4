// What a reader should know before trusting a trace's numbers, as named counters with a
// severity (Perfetto's stats table is the model): data lost while logging, damage found while
// decoding, and records Sockscope cannot read field by field. Each counter that stands for
// events carries the filter that shows them.
import type { TraceFacts } from '../decoder/types.ts';
import { PROVIDERS } from '../generated/schemas.ts';
import type { EventType } from '../columns/layout.ts';

export type TrustSeverity = 'info' | 'data-loss' | 'error';

export interface TrustCounter {
	/** Stable name (data-counter in the page, the message key's last part). */
	readonly name:
		| 'events-lost'
		| 'buffers-lost'
		| 'damage'
		| 'unknown-providers'
		| 'unknown-versions'
		| 'no-schema';
	readonly severity: TrustSeverity;
	readonly value: number;
	/** The filter that shows the events counted, when there are any and the filter can say so. */
	readonly filter: string | null;
}

/** Event types and how many events of each the trace holds (groupBy on the event column). */
export interface TypeCount {
	readonly type: EventType;
	readonly count: number;
}

const SCHEMA_PROVIDERS = new Set(PROVIDERS.map((p) => p.guid));
const EVENT_KIND = 1;
const quote = (s: string) => (/[\s()"]/.test(s) ? `"${s.replace(/"/g, '\\"')}"` : s);

function either(terms: readonly string[]): string | null {
	const unique = [...new Set(terms)];
	if (unique.length === 0) return null;
	return unique.length === 1 ? unique[0]! : unique.join(' or ');
}

export function trustCounters(
	facts: TraceFacts,
	damage: number,
	types: readonly TypeCount[] | null,
): TrustCounter[] {
	const counters: TrustCounter[] = [
		{ name: 'events-lost', severity: 'data-loss', value: facts.eventsLost, filter: null },
		{ name: 'buffers-lost', severity: 'data-loss', value: facts.buffersLost, filter: null },
		{ name: 'damage', severity: 'error', value: damage, filter: null },
	];
	if (types === null) return counters;
	const sum = (xs: readonly TypeCount[]) => xs.reduce((n, x) => n + x.count, 0);
	// A manifest event whose provider the trace never named and Sockscope does not know.
	const unknownProviders = types.filter(
		(x) => x.type.kind === EVENT_KIND && x.type.provider !== null && x.type.providerName === null,
	);
	// A provider Sockscope has a schema for, in a version (or id) the schema does not hold.
	const unknownVersions = types.filter(
		(x) => x.type.schema < 0 && x.type.provider !== null && SCHEMA_PROVIDERS.has(x.type.provider),
	);
	const noSchema = types.filter((x) => x.type.schema < 0);
	counters.push(
		{
			name: 'unknown-providers',
			severity: 'info',
			value: sum(unknownProviders),
			filter: either(unknownProviders.map((x) => `provider:${x.type.provider}`)),
		},
		{
			name: 'unknown-versions',
			severity: 'data-loss',
			value: sum(unknownVersions),
			filter: either(unknownVersions.map((x) => `event:${quote(x.type.name)}`)),
		},
		{
			name: 'no-schema',
			severity: 'info',
			value: sum(noSchema),
			filter: either(noSchema.map((x) => `event:${quote(x.type.name)}`)),
		},
	);
	return counters.map((c) => (c.value === 0 ? { ...c, filter: null } : c));
}
