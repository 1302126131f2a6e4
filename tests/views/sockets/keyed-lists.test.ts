// Every list the page draws with a keyed {#each} gets keys unique within it, over traces that log
// like Windows: Svelte throws on a repeated key (each_key_duplicate) and the panel then never
// leaves "Counting…". The keys checked are the ones the views key by (`key`, `id`, `remote`,
// `name`), taken from the worker's own answers as the page receives them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { conversationsOf } from '../../../web/src/sockets/conversations.ts';
import { rowOf } from '../../../web/src/views/sockets/socket-list.ts';
import { windowsScenario } from '../../builders/windows-afd.ts';
import { SAMPLE_IMPORT_MS } from '../../timeouts.ts';
import { library } from '../../worker/library-harness.ts';

/** The keys of `list` that occur more than once. */
function repeated(list: readonly string[]): string[] {
	const seen = new Set<string>();
	const twice = new Set<string>();
	for (const k of list) (seen.has(k) ? twice : seen).add(k);
	return [...twice];
}

/** Every keyed list of the Statistics and Sockets panels and the trace facts, by its name. */
async function keyedLists(
	bytes: Uint8Array<ArrayBuffer>,
	name: string,
): Promise<Record<string, string[]>> {
	const lib = library();
	const imported = await lib.api.importFile(new File([bytes], name), () => {});
	if (!imported.ok) throw new Error(imported.error);
	const id = imported.value.id;
	const answer = await lib.api.query(id, '', null);
	if (!answer.ok) throw new Error(answer.error);
	const [stats, tracked, findings, trust] = await Promise.all([
		lib.api.statistics(answer.value.handle),
		lib.api.sockets(id),
		lib.api.findings(id),
		lib.api.trust(id),
	]);
	if (!stats.ok || !tracked.ok || !findings.ok || !trust.ok) throw new Error('an answer failed');
	const s = stats.value;
	const sockets = tracked.value.sockets;
	const lists: Record<string, string[]> = {
		'stats.eventTypes': s.eventTypes.map((r) => r.key),
		'stats.errors': s.errors.map((r) => r.key),
		'stats.processes': s.processes.map((r) => r.key),
		'stats.remotes': s.remotes.map((r) => r.key),
		'stats.options': s.options.map((r) => r.key),
		'sockets.rows': sockets.map((x) => rowOf(x).key),
		'sockets.conversations': conversationsOf(sockets).map((c) => c.key),
		findings: findings.value.map((f) => f.id),
		'trust.counters': trust.value.map((c) => c.name),
	};
	for (const e of s.errors)
		lists[`stats.errors[${e.name}].processes`] = e.processes.map((p) => p.key);
	for (const x of sockets) lists[`socket ${x.key} peers`] = x.peers.map((p) => p.remote);
	return lists;
}

function expectUnique(lists: Record<string, string[]>) {
	const dup = Object.entries(lists)
		.map(([list, keys]) => [list, repeated(keys)] as const)
		.filter(([, keys]) => keys.length > 0);
	expect(Object.fromEntries(dup)).toEqual({});
}

describe('keyed lists of the page', { timeout: SAMPLE_IMPORT_MS }, () => {
	it('have unique keys over the Windows-like builder', async () => {
		const lists = await keyedLists(new Uint8Array(windowsScenario().file.bytes), 'windows.etl');
		// Lists the scenario fills: an empty list would prove nothing.
		for (const l of ['stats.eventTypes', 'stats.processes', 'stats.remotes', 'sockets.rows'])
			expect(lists[l]!.length, l).toBeGreaterThan(1);
		expectUnique(lists);
	});

	it('have unique keys over the trace that made Statistics spin', async () => {
		const bytes = readFileSync(
			join(import.meta.dirname, '../../fixtures/windows-like/statistics-each-key-duplicate.etl'),
		);
		const lists = await keyedLists(new Uint8Array(bytes), 'statistics-each-key-duplicate.etl');
		expect(lists['stats.eventTypes']!.length).toBeGreaterThan(10);
		expectUnique(lists);
	});
});
