// The events' Owner on Winsock-AFD and TCPIP logged as Windows logs them (tests/builders/
// windows-afd.ts): completions logged in System (PID 4) or in another process's context, and
// TCPIP events whose header PID is System's, are owned by their socket's or connection's process;
// the figures come from the script (which process made each socket), never from the tracker.
import { beforeAll, describe, expect, it } from 'vitest';
import { indexBuffers } from '../../web/src/decoder/etl-file.ts';
import { QueryEngine } from '../../web/src/query/engine.ts';
import type { RowView } from '../../web/src/query/protocol.ts';
import { trackTrace } from '../../web/src/sockets/track-trace.ts';
import type { TrackedTrace } from '../../web/src/sockets/tracker.ts';
import { ingestToMemory, type MemoryTrace } from '../builders/memory-chunks.ts';
import { ownerScript, SYSTEM, type OwnerScript } from '../builders/windows-owners.ts';
import { open } from '../decoder/load.ts';

describe('Owner', () => {
	let s: OwnerScript;
	let mem: MemoryTrace;
	let engine: QueryEngine;
	let tracked: TrackedTrace;
	let rows: RowView[];
	beforeAll(async () => {
		s = ownerScript();
		const trace = await open(s.bytes, 'owners.etl');
		mem = await ingestToMemory(trace);
		tracked = await trackTrace(trace, (await indexBuffers(trace)).buffers);
		// The names the import learns from the process events (sockets/import-tracker.ts).
		for (const p of tracked.processes) if (p.name) mem.tables.processNames.set(p.pid, p.name);
		engine = new QueryEngine(mem.chunks, mem.context);
		engine.setOwners(tracked.owners ?? null);
		const all = await engine.select('');
		rows = await engine.rows(engine.indexes(all, 0, all.matched));
	});

	const afdRows = () => rows.filter((r) => r.provider === 'Microsoft-Windows-Winsock-AFD');

	it("is the socket's process for each Winsock event of a socket whose process is known", () => {
		const known = afdRows().filter((r) => s.ownerOf.get(r.endpoint!) !== null);
		expect(known.length).toBeGreaterThan(0);
		for (const r of known) {
			expect({ owner: r.owner, source: r.ownerSource }, `event ${r.index}`).toEqual({
				owner: s.ownerOf.get(r.endpoint!),
				source: 'socket',
			});
		}
	});

	it("is the socket's process for completions logged under PID 4", () => {
		const inSystem = afdRows().filter(
			(r) => r.pid === SYSTEM && s.ownerOf.get(r.endpoint!) !== null,
		);
		expect(inSystem.length).toBeGreaterThan(0);
		for (const r of inSystem) {
			expect(r.owner).toBe(s.ownerOf.get(r.endpoint!));
			expect(r.owner).not.toBe(SYSTEM);
			expect(r.ownerSource).toBe('socket');
		}
	});

	it("keeps the event's own record where the socket never told its process", () => {
		const unknown = afdRows().filter((r) => s.ownerOf.get(r.endpoint!) === null);
		expect(unknown.length).toBeGreaterThan(0);
		for (const r of unknown) {
			expect(r.owner).toBe(r.process);
			expect(r.ownerSource).toBe(r.process === null ? null : 'header');
		}
	});

	it("is the connection's process for TCPIP events logged in System", () => {
		const tcp = rows.filter((r) => r.provider === 'Microsoft-Windows-TCPIP');
		expect(tcp.every((r) => r.pid === SYSTEM)).toBe(true);
		const edge = tcp.filter((r) => r.owner === s.tcp.pid);
		expect(edge).toHaveLength(s.tcp.events);
		expect(edge.every((r) => r.ownerSource === 'tcpip')).toBe(true);
		const rundown = tcp.filter((r) => r.owner === s.rundown.pid);
		expect(rundown.map((r) => r.ownerSource)).toEqual(['tcpip']);
	});

	it('is filtered on by PID and by name, and apart from the Process column', async () => {
		const edgePid = s.tcp.pid;
		const owned = rows.filter((r) => r.owner === edgePid).length;
		expect((await engine.select(`owner:${edgePid}`)).matched).toBe(owned);
		expect((await engine.select('owner:msedge*')).matched).toBe(owned);
		expect((await engine.select(`process:${edgePid}`)).matched).toBeLessThan(owned);
		expect((await engine.select(`owner:${edgePid} pid:${SYSTEM}`)).matched).toBe(
			rows.filter((r) => r.owner === edgePid && r.pid === SYSTEM).length,
		);
		expect((await engine.select(`!owner:msedge*`)).matched).toBe(rows.length - owned);
		expect((await engine.select('owner')).matched).toBe(
			rows.filter((r) => r.owner !== null).length,
		);
	});

	it("is the record's own process until the sockets are known", async () => {
		const bare = new QueryEngine(mem.chunks, mem.context);
		const all = await bare.select('');
		const before = await bare.rows(bare.indexes(all, 0, all.matched));
		for (const r of before) {
			expect(r.owner).toBe(r.process);
			expect(r.ownerSource).toBe(r.process === null ? null : 'header');
		}
	});
});
