// The rows of a selection whose event type is one of a few: the events the worker decodes again
// for what the columns do not hold (option values, accepted sockets, process names).
import type { QueryEngine } from '../query/engine.ts';
import type { Selection } from '../query/protocol.ts';

export interface RowRef {
	readonly chunk: number;
	readonly row: number;
}

export async function rowsOfTypes(
	engine: QueryEngine,
	sel: Selection,
	types: ReadonlySet<number>,
	limit: number,
): Promise<RowRef[]> {
	const out: RowRef[] = [];
	if (types.size === 0) return out;
	for (const part of sel.parts) {
		const etype = await engine.column(part.chunk, 'etype');
		const visit = (i: number) => {
			if (types.has(etype[i]!)) out.push({ chunk: part.chunk, row: i });
		};
		if (part.rows) for (let k = 0; k < part.count && out.length < limit; k++) visit(part.rows[k]!);
		else for (let i = part.from; i < part.to && out.length < limit; i++) visit(i);
		if (out.length >= limit) break;
	}
	return out;
}

/** Indexes of the event types that pass `test`. */
export function typeIndexes<T>(types: readonly T[], test: (t: T) => boolean): Set<number> {
	const out = new Set<number>();
	types.forEach((t, i) => {
		if (test(t)) out.add(i);
	});
	return out;
}
