// Colouring rules and `marked:` over the bundled sample: which rule each row matches first, and
// the marked events a filter selects, checked against the engine's own selections of the same
// filters (and the sample's ground truth for the errors).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ingestToMemory, type MemoryTrace } from '../builders/memory-chunks.ts';
import { QueryEngine } from '../../web/src/query/engine.ts';
import type { FilterContext } from '../../web/src/query/filter-compile.ts';
import { FilterError } from '../../web/src/query/filter-parser.ts';
import { ruleMatches } from '../../web/src/query/rule-match.ts';
import { english, textIn } from '../../web/src/i18n/render.ts';
import { activeFilters, DEFAULT_RULES } from '../../web/src/views/marking/colour-rules.ts';
import type { SampleTruth } from '../builders/sample.ts';
import { open } from '../decoder/load.ts';

const root = join(import.meta.dirname, '../..');
const sample = new Uint8Array(readFileSync(join(root, 'public/sample.etl')));
const truth = JSON.parse(
	readFileSync(join(root, 'tests/fixtures/sample/sample.truth.json'), 'utf8'),
) as SampleTruth;

let mem: MemoryTrace;
let marked = new Set<number>();
let engine: QueryEngine;
const ctx = (): FilterContext => ({ ...mem.context(), marked });

function locate(index: number): { chunk: number; row: number } | null {
	let base = 0;
	for (const c of mem.chunks.chunks()) {
		if (index < base + c.rows) return { chunk: c.index, row: index - base };
		base += c.rows;
	}
	return null;
}

/** Every row's index in the trace, in order. */
const all = () => Array.from({ length: truth.totalRecords }, (_, i) => i);

beforeAll(async () => {
	mem = await ingestToMemory(await open(sample, 'sample.etl'));
	engine = new QueryEngine(mem.chunks, ctx);
});

const indexesOf = async (filter: string) => {
	const sel = await engine.select(filter);
	return new Set(engine.indexes(sel, 0, sel.matched));
};

describe('colouring rules', () => {
	it('gives each row the first rule it matches, as the rules select them', async () => {
		const filters = activeFilters(DEFAULT_RULES);
		expect(filters).toHaveLength(3);
		const { first, errors } = await ruleMatches(engine, ctx(), filters, all(), locate);
		expect(errors).toEqual([null, null, null]);
		const sets = await Promise.all(filters.map(indexesOf));
		all().forEach((i) => {
			const expected = sets.findIndex((s) => s.has(i));
			expect(first[i], `row ${i}`).toBe(expected);
		});
		// The sample's failed sockets have red rows.
		expect(first.filter((k) => k === 0).length).toBeGreaterThanOrEqual(
			truth.sockets.filter((s) => s.error).length,
		);
		expect(first.some((k) => k === 2)).toBe(true);
	});

	it('says which filter does not parse, and tests the others', async () => {
		const { first, errors } = await ruleMatches(
			engine,
			ctx(),
			['rprot:53', 'status:error'],
			all(),
			locate,
		);
		// A message the page renders in the reader's language; in English, the CLI's words.
		expect(english(errors[0]!)).toMatch(/rport/);
		expect(textIn('zh', errors[0]!)).toMatch(/未知字段/);
		expect(errors[1]).toBe(null);
		const errorsSet = await indexesOf('status:error');
		expect(first.filter((k) => k === 1).length).toBe(errorsSet.size);
		expect(first.includes(0)).toBe(false);
	});
});

describe('marked events', () => {
	it('selects the marked events, or the others, and colours them by a rule', async () => {
		marked = new Set([0, 5, truth.totalRecords - 1]);
		expect([...(await indexesOf('marked:yes'))]).toEqual([...marked]);
		expect([...(await indexesOf('marked'))]).toEqual([...marked]);
		expect((await indexesOf('marked:no')).size).toBe(truth.totalRecords - marked.size);
		expect((await indexesOf('marked != yes')).size).toBe(truth.totalRecords - marked.size);
		const { first } = await ruleMatches(engine, ctx(), ['marked:yes'], all(), locate);
		expect(first.flatMap((k, i) => (k === 0 ? [i] : []))).toEqual([...marked]);
	});

	it('is an error without the page, and takes only yes or no', async () => {
		const bare = new QueryEngine(mem.chunks, mem.context);
		await expect(bare.select('marked:yes')).rejects.toThrow(FilterError);
		await expect(engine.select('marked:maybe')).rejects.toThrow(/yes or no/);
	});
});
