// A trace opened again (as after a reload) joins its stored owners to its rows from its first
// query on: the owners are read apart from the sockets, beside the trace's own read, and give
// the same rows as the import's own sockets did.
import { describe, expect, it } from 'vitest';
import { windowsScenario } from '../builders/windows-afd.ts';
import { SAMPLE_IMPORT_MS } from '../timeouts.ts';
import { library } from './library-harness.ts';

const value = <T>(r: { ok: true; value: T } | { ok: false; error: string }): T => {
	if (!r.ok) throw new Error(r.error);
	return r.value;
};

describe('owners of a trace opened again', { timeout: SAMPLE_IMPORT_MS }, () => {
	it('are joined to its first rows, as they were after the import', async () => {
		const lib = library();
		const bytes = new Uint8Array(windowsScenario().file.bytes);
		const id = value(await lib.api.importFile(new File([bytes], 'windows.etl'), () => {})).id;
		const rowsOf = async (head: number) => {
			const q = value(await lib.api.query(id, '', null, head));
			return q.head!.map((r) => [r.index, r.owner, r.ownerSource]);
		};
		const all = value(await lib.api.query(id, '', null)).matched;
		const before = await rowsOf(all);
		// Some rows are owned through their socket: the join is what is being compared.
		expect(before.some(([, , source]) => source === 'socket')).toBe(true);
		lib.traces.forget(id);
		value(await lib.api.openTrace(id));
		expect(await rowsOf(all)).toEqual(before);
		// Opened again without openTrace first: the first query reads them itself.
		lib.traces.forget(id);
		expect(await rowsOf(all)).toEqual(before);
	});
});
