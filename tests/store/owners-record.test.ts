// The owners table is stored apart from the sockets and read back alone, equal to what was
// stored; sockets stored before it was (with their owners inside) still give their owners, and
// deleting a trace deletes both records.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { UNKNOWN_OWNER, type EventOwners } from '../../web/src/columns/event-owners.ts';
import type { TrackedTrace } from '../../web/src/sockets/tracker.ts';
import { openStore, type TraceRecord } from '../../web/src/store/db.ts';
import { packOwners, unpackOwners } from '../../web/src/store/owners-record.ts';
import {
	addTrace,
	deleteTrace,
	getOwners,
	getSockets,
	putSockets,
} from '../../web/src/store/trace-store.ts';

const OWNERS: EventOwners = {
	endpoints: new Map([
		['0xffffa001', { first: [3, 90, 4000000000], pid: [1204, UNKNOWN_OWNER, 88] }],
		['0xffffa002', { first: [7], pid: [4] }],
	]),
	tcpRows: Uint32Array.of(5, 6, 91),
	tcpPids: Uint32Array.of(1204, 1204, 88),
};

/** The table with plain arrays, as it is built. */
const plain = (o: EventOwners) => ({
	endpoints: [...o.endpoints].map(([k, e]) => [k, Array.from(e.first), Array.from(e.pid)]),
	tcpRows: Array.from(o.tcpRows),
	tcpPids: Array.from(o.tcpPids),
});

const tracked = (owners?: EventOwners) =>
	({
		origin: '1',
		endTicks: 10,
		afdEvents: 2,
		sockets: [],
		processes: [],
		pollers: [],
		owners,
	}) as unknown as TrackedTrace;

let dbs = 0;
async function withTrace() {
	const db = await openStore(`owners-${++dbs}`);
	const id = await addTrace(db, { name: 't.etl', status: 'complete' } as TraceRecord);
	return { db, id };
}

describe('the stored owners table', () => {
	it('packs and unpacks to the same table', () => {
		expect(plain(unpackOwners(packOwners(OWNERS)))).toEqual(plain(OWNERS));
		const none: EventOwners = {
			endpoints: new Map(),
			tcpRows: new Uint32Array(),
			tcpPids: new Uint32Array(),
		};
		expect(plain(unpackOwners(packOwners(none)))).toEqual(plain(none));
	});

	it('is kept apart from the sockets, read alone or with them, and deleted with the trace', async () => {
		const { db, id } = await withTrace();
		expect(await putSockets(db, id, tracked(OWNERS))).toBe(true);
		const record = await db.get('sockets', id);
		expect(record && 'tracked' in record && record.tracked.owners).toBeUndefined();
		expect(plain((await getOwners(db, id))!)).toEqual(plain(OWNERS));
		expect(plain((await getSockets(db, id))!.owners!)).toEqual(plain(OWNERS));
		await deleteTrace(db, id);
		expect(await db.count('sockets')).toBe(0);
		expect(await getOwners(db, id)).toBeUndefined();
	});

	it('is read from sockets stored with their owners inside', async () => {
		const { db, id } = await withTrace();
		await db.put('sockets', { traceId: id, tracked: tracked(OWNERS) });
		expect(plain((await getOwners(db, id))!)).toEqual(plain(OWNERS));
		expect(plain((await getSockets(db, id))!.owners!)).toEqual(plain(OWNERS));
	});

	it('is dropped when sockets without owners are stored again', async () => {
		const { db, id } = await withTrace();
		await putSockets(db, id, tracked(OWNERS));
		await putSockets(db, id, tracked());
		expect(await db.count('sockets')).toBe(1);
		expect(await getOwners(db, id)).toBeUndefined();
	});
});
