// The tracker's end of an import (SocketTracker.drain, enrichDrained): the same sockets, in the
// same order and with the same fields, as a snapshot of a tracker fed the same records, and no
// socket state left behind.
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { indexBuffers } from '../../web/src/decoder/etl-file.ts';
import { mergeRecords } from '../../web/src/decoder/merge.ts';
import { ProviderTable } from '../../web/src/decoder/record-json.ts';
import { BufferFeeder } from '../../web/src/sockets/buffer-view.ts';
import { enrich, enrichDrained } from '../../web/src/sockets/enrich.ts';
import { withOwners } from '../../web/src/sockets/owners.ts';
import { SocketTracker } from '../../web/src/sockets/tracker.ts';
import { open } from '../decoder/load.ts';
import { withTransfer } from '../builders/transfer.ts';

const ROOT = new URL('../../', import.meta.url);
const bigints = (_k: string, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v);

describe('a drained tracker', async () => {
	const trace = await open(readFileSync(new URL('public/sample.etl', ROOT)));
	const origin = BigInt(trace.facts.startFiletime);
	const providers = new ProviderTable(trace);
	const follow = () => {
		const tracker = new SocketTracker({ origin, maxEventsPerSocket: 256 });
		return { tracker, feeder: new BufferFeeder(tracker, origin, (p) => providers.guid(p)) };
	};
	const [a, b] = [follow(), follow()];
	let n = 0;
	await mergeRecords(trace, (await indexBuffers(trace)).buffers, (buffer, i) => {
		a.feeder.feed(buffer, i, n);
		b.feeder.feed(buffer, i, n++);
	});
	const sockets = a.tracker.socketCount;
	const snapshot = withOwners(enrich(a.tracker.snapshot(), a.feeder.net), a.feeder.net);
	// Each socket's event indexes are freed as it is drained (detached, as browsers do): its
	// summary must hold a copy made before.
	afterAll(withTransfer());
	const drained = withOwners(
		enrichDrained(b.tracker.overview(), b.tracker.drain(), b.feeder.net),
		b.feeder.net,
	);

	it('gives what a snapshot gives, field for field and in order', () => {
		expect(sockets).toBeGreaterThan(10);
		expect(drained.sockets).toHaveLength(sockets);
		expect(JSON.stringify(drained, bigints)).toBe(JSON.stringify(snapshot, bigints));
	});

	it('holds no socket after', () => {
		expect(b.tracker.socketCount).toBe(0);
		expect([...b.tracker.drain()]).toEqual([]);
	});
});
