// Which of several filters each of some rows matches first: the colouring rules of the events
// table, tested on the rows on screen (by their index in the trace), not on the whole trace.
import { makeColumns, type ColumnName, type ReadColumns } from '../columns/layout.ts';
import { compileFilter, type CompiledFilter, type FilterContext } from './filter-compile.ts';
import { FilterError, parseFilter } from './filter-parser.ts';
import type { Text } from '../i18n/render.ts';
import type { QueryEngine } from './engine.ts';

export interface RuleMatches {
	/** Per row, the index of the first filter it matches, or -1. */
	readonly first: number[];
	/** Per filter, why it cannot be tested (it does not parse), or null: its message and where. */
	readonly errors: (Text | null)[];
}

/**
 * `locate`: where a row of the trace is (chunk and row in it, and the trace index of the chunk's
 * row 0), or null past the trace.
 */
export async function ruleMatches(
	engine: QueryEngine,
	ctx: FilterContext,
	filters: readonly string[],
	indexes: readonly number[],
	locate: (index: number) => { chunk: number; row: number } | null,
): Promise<RuleMatches> {
	const errors: (Text | null)[] = [];
	const compiled: (CompiledFilter | null)[] = filters.map((f) => {
		try {
			const c = compileFilter(parseFilter(f), ctx);
			errors.push(null);
			return c;
		} catch (e) {
			errors.push(e instanceof FilterError ? e.whole : String(e));
			return null;
		}
	});
	const first = indexes.map(() => -1);
	// Rows by chunk: each chunk's columns are read once for all its rows.
	const byChunk = new Map<number, { k: number; row: number; base: number }[]>();
	indexes.forEach((index, k) => {
		const at = locate(index);
		if (!at) return;
		const list = byChunk.get(at.chunk) ?? [];
		list.push({ k, row: at.row, base: index - at.row });
		byChunk.set(at.chunk, list);
	});
	const usable = compiled.flatMap((c, i) => (c ? [{ c, i }] : []));
	// An empty filter (compiled to null) matches every row.
	const all = errors.findIndex((e, i) => e === null && compiled[i] === null);
	for (const [chunk, rows] of byChunk) {
		const names = [...new Set(usable.flatMap(({ c }) => [...c.columns]))] as ColumnName[];
		const loaded = await Promise.all(names.map((n) => engine.column(chunk, n)));
		const columns = makeColumns(names, (n) => loaded[names.indexOf(n)]!) as ReadColumns;
		const owners = usable.some(({ c }) => c.owners) ? await engine.owners(chunk) : undefined;
		const wantFields = usable.some(({ c }) => c.payloadTypes !== null) && engine.recordFields;
		const fields = wantFields
			? await engine.recordFields!(
					chunk,
					rows.map((r) => r.row),
				)
			: [];
		const byRow = new Map(rows.map((r, j) => [r.row, fields[j] ?? null]));
		const base = rows[0]!.base;
		const tests = usable
			.filter(({ i }) => all < 0 || i < all)
			.map(({ c, i }) => ({
				i,
				test: c.bind(columns, (row) => byRow.get(row) ?? null, owners, base),
			}));
		for (const { k, row } of rows) {
			const hit = tests.find(({ test }) => test(row));
			first[k] = hit ? hit.i : all;
		}
	}
	return { first, errors };
}
