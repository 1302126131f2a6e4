// The Sockets panel's exports keep to the sockets its list shows: the sockets table and the
// conversations built from them, in the trace's order; the findings stay whole.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { conversationsOf } from '../../web/src/sockets/conversations.ts';
import { findingsOf } from '../../web/src/sockets/findings.ts';
import { exportSocketTable, type SocketTableName } from '../../web/src/worker/export-tables.ts';
import { trackBytes, type Tracked } from '../sockets/track.ts';

let t: Tracked;
beforeAll(async () => {
	t = await trackBytes(
		new Uint8Array(readFileSync(new URL('../../public/sample.etl', import.meta.url))),
	);
});

async function ndjson(table: SocketTableName, only: readonly string[] | null) {
	const pieces: Uint8Array[] = [];
	const r = await exportSocketTable(t.tracked, table, 'ndjson', only, (piece) => {
		pieces.push(piece);
		return true;
	});
	const text = Buffer.concat(pieces).toString('utf8').trimEnd();
	const rows =
		text === '' ? [] : text.split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
	expect(r).toEqual({ rows: rows.length, complete: true });
	return rows;
}

describe('socket table exports', () => {
	it('write every socket and conversation without a narrowing', async () => {
		expect((await ndjson('sockets', null)).map((r) => r.key)).toEqual(
			t.tracked.sockets.map((s) => s.key),
		);
		expect((await ndjson('conversations', null)).map((r) => r.key)).toEqual(
			conversationsOf(t.tracked.sockets).map((c) => c.key),
		);
	});

	it("keep to the list's sockets, in the trace's order, and their conversations only", async () => {
		const pid = t.tracked.sockets.find((s) => s.pid !== null)!.pid;
		const mine = t.tracked.sockets.filter((s) => s.pid === pid);
		expect(mine.length).toBeLessThan(t.tracked.sockets.length);
		// Handed over in the list's (sorted) order: written in the trace's.
		const only = mine.map((s) => s.key).reverse();
		expect((await ndjson('sockets', only)).map((r) => r.key)).toEqual(mine.map((s) => s.key));
		const conversations = await ndjson('conversations', only);
		expect(conversations.map((r) => r.key)).toEqual(conversationsOf(mine).map((c) => c.key));
		expect(conversations.length).toBeGreaterThan(0);
		for (const c of conversations) expect(c.pid).toBe(pid);
		expect((await ndjson('sockets', [])).length).toBe(0);
	});

	it('write the findings whole', async () => {
		expect((await ndjson('findings', null)).length).toBe(findingsOf(t.tracked).length);
	});
});
