// The worker's Group by, payload values and colouring rules, through the API the page speaks,
// over a trace that logs like Windows (tests/builders/windows-afd.ts): the tree's lines have keys
// unique within it (the view keys its {#each} by them), each group's filter selects its rows,
// applied fields come from the records, and the marks sent with a query are what `marked:` reads.
import { describe, expect, it } from 'vitest';
import { english } from '../../web/src/i18n/render.ts';
import { visibleLines } from '../../web/src/views/stats/pivot-view.ts';
import type { PivotGroup } from '../../web/src/query/pivot.ts';
import { windowsScenario } from '../builders/windows-afd.ts';
import { SAMPLE_IMPORT_MS } from '../timeouts.ts';
import { library } from './library-harness.ts';

const value = <T>(r: { ok: true; value: T } | { ok: false; error: string }): T => {
	if (!r.ok) throw new Error(r.error);
	return r.value;
};

describe(
	'Group by, payload values and rule matches through the worker',
	{ timeout: SAMPLE_IMPORT_MS },
	() => {
		it('answer over a Windows-like trace', async () => {
			const lib = library();
			const bytes = new Uint8Array(windowsScenario().file.bytes);
			const id = value(await lib.api.importFile(new File([bytes], 'windows.etl'), () => {})).id;
			const all = value(await lib.api.query(id, '', null));

			const pivot = value(await lib.api.pivot(all.handle, ['owner', 'socket', 'event'], 2000));
			expect(pivot.groups.length).toBeGreaterThan(1);
			expect(pivot.groups.reduce((n, g) => n + g.count, 0)).toBe(all.matched);
			const every = (gs: readonly PivotGroup[]): PivotGroup[] =>
				gs.flatMap((g) => [g, ...every(g.children ?? [])]);
			const paths = new Set<string>();
			const open = new Set<string>();
			const walk = (gs: readonly PivotGroup[], parent: string) =>
				gs.forEach((g) => {
					const p = parent ? `${parent}/${g.key}` : g.key;
					open.add(p);
					walk(g.children ?? [], p);
				});
			walk(pivot.groups, '');
			const lines = visibleLines(pivot, open);
			for (const l of lines) paths.add(`${l.kind}:${l.path}`);
			expect(paths.size).toBe(lines.length);
			expect(lines.length).toBe(every(pivot.groups).length);
			// A few groups' filters select their rows (a later query supersedes the pivot's handle).
			for (const g of every(pivot.groups).slice(0, 12)) {
				const again = value(await lib.api.query(id, g.filter, null));
				expect(again.matched, g.filter).toBe(g.count);
			}

			const bad = await lib.api.pivot(
				value(await lib.api.query(id, '', null)).handle,
				['nonsense' as 'event'],
				10,
			);
			expect(bad.ok).toBe(false);

			// Applied fields: the creates' SocketType, with its name.
			const creates = value(await lib.api.query(id, 'event:AfdCreate', null, 20));
			const indexes = creates.head!.map((r) => r.index);
			expect(indexes.length).toBeGreaterThan(2);
			const values = value(await lib.api.payloadValues(id, indexes, ['SocketType']));
			expect(values).toHaveLength(indexes.length);
			for (const v of values) expect(v?.SocketType?.meaning).toMatch(/^SOCK_/);

			// Marks go with a query that reads them, and with rules that do.
			const marked = indexes.slice(0, 2);
			const m = value(await lib.api.query(id, 'marked:yes', null, 10, marked));
			expect(m.head!.map((r) => r.index)).toEqual(marked);
			const rules = value(
				await lib.api.ruleMatches(id, ['status:error', 'marked:yes', 'rprot:1'], indexes, marked),
			);
			expect(rules.first.slice(0, 2)).toEqual([1, 1]);
			expect(rules.first.slice(2).every((k) => k === -1 || k === 0)).toBe(true);
			expect(english(rules.errors[2]!)).toMatch(/rport/);
		});
	},
);
