// The catalogue over fake IndexedDB: listing (newest first, sweeping copies left without their
// trace), renaming and deleting, with coded failures.
import { describe, expect, it } from 'vitest';
import type { TraceSummary } from '../../web/src/worker/api.ts';
import { SAMPLE_IMPORT_MS } from '../timeouts.ts';
import { library, sampleFile, storedCounts } from './library-harness.ts';

const imported = async (lib: ReturnType<typeof library>, name: string): Promise<TraceSummary> => {
	const r = await lib.api.importFile(new File([await sampleFile().arrayBuffer()], name), () => {});
	if (!r.ok) throw new Error(r.error);
	return r.value;
};

describe('the catalogue', { timeout: SAMPLE_IMPORT_MS }, () => {
	it('lists the traces newest first, renames them and deletes everything stored for one', async () => {
		const lib = library();
		const a = await imported(lib, 'a.etl');
		const b = await imported(lib, 'b.etl');
		const listed = await lib.api.listTraces();
		expect(listed.ok && listed.value.map((t) => t.name)).toEqual(['b.etl', 'a.etl']);

		const renamed = await lib.api.renameTrace(a.id, '  first  ');
		expect(renamed.ok && renamed.value.name).toBe('first');
		const empty = await lib.api.renameTrace(a.id, '   ');
		expect(!empty.ok && empty.code).toBe('invalid');
		const missing = await lib.api.renameTrace(999, 'x');
		expect(!missing.ok && missing.code).toBe('not-found');
		// An opened trace sees its new name.
		const opened = await lib.api.openTrace(a.id);
		expect(opened.ok && opened.value.trace.name).toBe('first');

		const before = await storedCounts(lib);
		expect((await lib.api.deleteTrace(b.id)).ok).toBe(true);
		const after = await storedCounts(lib);
		expect(after).toEqual({
			traces: 1,
			// Its chunks, and the record of their summaries.
			chunks: before.chunks - b.chunks - 1,
			columns: 0,
			buffers: 1,
			// Its sockets and, apart, their owners.
			sockets: 2,
		});
		expect([...lib.files.keys()]).toEqual([a.id]);
		const gone = await lib.api.openTrace(b.id);
		expect(!gone.ok && gone.code).toBe('not-found');
	});

	it('sweeps copies left without their trace, once per session', async () => {
		const lib = library();
		const a = await imported(lib, 'a.etl');
		lib.files.set(0, sampleFile());
		await lib.api.listTraces();
		await Promise.resolve();
		expect([...lib.files.keys()]).toEqual([a.id]);
		lib.files.set(0, sampleFile());
		await lib.api.listTraces();
		expect(lib.files.has(0)).toBe(true);
	});
});
