// The owners table is stored apart from the sockets, its endpoints as indexes into the trace's
// strings, and read back alone answering as what was stored; tables stored by earlier versions
// (endpoints by text, or inside the sockets) still answer, and deleting a trace deletes both
// records.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import {
	UNKNOWN_OWNER,
	type EndpointOwners,
	type EventOwners,
	type OwnerLookup,
} from '../../web/src/columns/event-owners.ts';
import type { TrackedTrace } from '../../web/src/sockets/tracker.ts';
import { openStore, type TraceRecord } from '../../web/src/store/db.ts';
import { packOwners, unpackOwners } from '../../web/src/store/owners-record.ts';
import {
	addTrace,
	deleteTrace,
	getOwners,
	getSockets,
	putSockets,
	putTracked,
} from '../../web/src/store/trace-store.ts';

const OWNERS: EventOwners = {
	endpoints: new Map([
		['0xffffa001', { first: [3, 90, 4000000000], pid: [1204, UNKNOWN_OWNER, 88] }],
		['0xffffa002', { first: [7], pid: [4] }],
		// Named by no row (not among the trace's strings): not stored.
		['0xffffa003', { first: [8], pid: [12] }],
	]),
	tcpRows: Uint32Array.of(5, 6, 91),
	tcpPids: Uint32Array.of(1204, 1204, 88),
};

/** The trace's strings: the Endpoint column's values among others, in no particular order. */
const STRINGS = ['', 'svchost.exe', '0xffffa002', '10.0.0.1', '0xffffa001'];
const STRING_TABLE = {
	indexOf: (t: string) => (STRINGS.includes(t) ? STRINGS.indexOf(t) : undefined),
};

const lists = (e: EndpointOwners | null) => e && [Array.from(e.first), Array.from(e.pid)];

/** What the join sees of a table: each string's endpoint lists, and the TCP rows. */
const asJoined = (o: OwnerLookup) => ({
	endpoints: STRINGS.map((_, k) => lists(o.endpointAt(k, STRINGS))),
	tcpRows: Array.from(o.tcpRows),
	tcpPids: Array.from(o.tcpPids),
});

const EXPECTED = {
	endpoints: [
		null,
		null,
		[[7], [4]],
		null,
		[
			[3, 90, 4000000000],
			[1204, UNKNOWN_OWNER, 88],
		],
	],
	tcpRows: [5, 6, 91],
	tcpPids: [1204, 1204, 88],
};

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
	it('packs by string index and unpacks to the same lists, without the endpoints no row names', () => {
		const packed = packOwners(OWNERS, STRING_TABLE);
		expect(Array.from(packed.endpointStrings)).toEqual([4, 2]);
		expect(asJoined(unpackOwners(packed))).toEqual(EXPECTED);
		const none: EventOwners = {
			endpoints: new Map(),
			tcpRows: new Uint32Array(),
			tcpPids: new Uint32Array(),
		};
		expect(asJoined(unpackOwners(packOwners(none, STRING_TABLE)))).toEqual({
			endpoints: STRINGS.map(() => null),
			tcpRows: [],
			tcpPids: [],
		});
	});

	it('is kept apart from the sockets, read alone, and deleted with the trace', async () => {
		const { db, id } = await withTrace();
		expect(await putSockets(db, id, tracked(OWNERS), packOwners(OWNERS, STRING_TABLE))).toBe(true);
		const record = await db.get('sockets', id);
		expect(record && 'tracked' in record && record.tracked.owners).toBeUndefined();
		expect(asJoined((await getOwners(db, id))!)).toEqual(EXPECTED);
		expect((await getSockets(db, id))!.owners).toBeUndefined();
		await deleteTrace(db, id);
		expect(await db.count('sockets')).toBe(0);
		expect(await getOwners(db, id)).toBeUndefined();
	});

	it('is read as stored by earlier versions: endpoints by text, or inside the sockets', async () => {
		const { db, id } = await withTrace();
		const byText = packOwners(OWNERS, STRING_TABLE);
		const { endpointStrings, ...rest } = byText;
		const endpoints = Array.from(endpointStrings, (k) => STRINGS[k]!);
		await db.put('sockets', { traceId: [id, 'owners'], owners: { ...rest, endpoints } });
		expect(asJoined((await getOwners(db, id))!)).toEqual(EXPECTED);
		const other = await withTrace();
		await other.db.put('sockets', { traceId: other.id, tracked: tracked(OWNERS) });
		expect(asJoined((await getOwners(other.db, other.id))!)).toEqual(EXPECTED);
		// Sockets stored with their owners inside still carry them.
		expect((await getSockets(other.db, other.id))!.owners?.endpoints.size).toBe(3);
	});

	it('is dropped when sockets without owners are stored again', async () => {
		const { db, id } = await withTrace();
		await putSockets(db, id, tracked(), packOwners(OWNERS, STRING_TABLE));
		await putSockets(db, id, tracked(), null);
		expect(await db.count('sockets')).toBe(1);
		expect(await getOwners(db, id)).toBeUndefined();
	});

	it('is stored alone beside sockets the sockets worker stored, in two writes', async () => {
		const { db, id } = await withTrace();
		expect(await putTracked(db, id, tracked(OWNERS))).toBe(true);
		expect(await putSockets(db, id, null, packOwners(OWNERS, STRING_TABLE))).toBe(true);
		expect((await getSockets(db, id))!.afdEvents).toBe(2);
		expect((await getSockets(db, id))!.owners).toBeUndefined();
		expect(asJoined((await getOwners(db, id))!)).toEqual(EXPECTED);
	});

	it('is not stored, nor are the sockets, once the trace has left the library', async () => {
		const { db, id } = await withTrace();
		await deleteTrace(db, id);
		expect(await putTracked(db, id, tracked())).toBe(false);
		expect(await putSockets(db, id, null, packOwners(OWNERS, STRING_TABLE))).toBe(false);
		expect(await db.count('sockets')).toBe(0);
	});
});
