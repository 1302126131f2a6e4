// The events table's Process column on Winsock-AFD logged as Windows logs it: a header PID names
// a Process only where it is the caller's, so completions logged in another process's context
// are not filed under that process.
import { describe, expect, it } from 'vitest';
import { ingestToMemory } from '../builders/memory-chunks.ts';
import { QueryEngine } from '../../web/src/query/engine.ts';
import { AFD_PROVIDER, type TruthRecord } from '../builders/etl-writer.ts';
import { windowsScenario } from '../builders/windows-afd.ts';
import { open } from '../decoder/load.ts';

/** The Process field of a 64-bit AFD enter/exit event (after EnterExit and Location). */
const processOf = (r: TruthRecord) =>
	r.provider === AFD_PROVIDER && r.payload.length >= 16
		? new DataView(r.payload.buffer, r.payload.byteOffset, r.payload.length).getBigUint64(8, true)
		: null;

describe('Process column', () => {
	it("files each AFD event under its Process's PID, never under a completion's context", async () => {
		const { file } = windowsScenario();
		const mem = await ingestToMemory(await open(file.bytes, 'windows.etl'));
		const engine = new QueryEngine(mem.chunks, mem.context);
		// msedge.exe (6100) logs completions of old.exe's and ghost.exe's sockets in its context.
		const edge = 0xffffa50c61000080n;
		const own = file.records.filter((r) => processOf(r) === edge).length;
		const inItsContext = file.records.filter(
			(r) => r.provider === AFD_PROVIDER && r.pid === 6100 && processOf(r) !== edge,
		).length;
		expect(inItsContext).toBeGreaterThan(0);
		expect((await engine.select('process:6100')).matched).toBe(own);
	});
});
