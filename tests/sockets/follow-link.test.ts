// Following the sockets on another core (sockets/follow-link.ts → follow-replay.ts, over a real
// MessageChannel with its transfers) gives what following them beside the chunk builder gives:
// the same sockets, owners and names, however the records are cut into messages.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MessageChannel } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import type { OpenTrace } from '../../web/src/decoder/etl-file.ts';
import { ingestTrace } from '../../web/src/ingest/ingest.ts';
import { TraceTables } from '../../web/src/ingest/trace-tables.ts';
import {
	FollowLink,
	localFollower,
	type FollowChannel,
	type FollowLimits,
	type SocketFollower,
} from '../../web/src/sockets/follow-link.ts';
import type { FromFollower, SocketsHome } from '../../web/src/sockets/follow-messages.ts';
import {
	serveFollower,
	type FollowerPort,
	type StoreSockets,
} from '../../web/src/sockets/follow-replay.ts';
import { ownerScript } from '../builders/windows-owners.ts';
import { open } from '../decoder/load.ts';
import { generate } from '../../bench/winsock-trace.ts';

const HOME: SocketsHome = { db: 'library', traceId: 7 };

const sample = () =>
	new Uint8Array(readFileSync(new URL('../../public/sample.etl', import.meta.url)));

/**
 * A link to a replay served on the other end of a MessageChannel, as the worker serves it.
 * `putOff`: the worker starts only when the link wakes it (as the import puts its start off until
 * the first rows are stored): what is sent meanwhile waits. `store`: how the worker stores the
 * sockets (absent: it hands them back).
 */
function linked(
	trace: OpenTrace,
	limits?: FollowLimits,
	putOff = false,
	store?: StoreSockets,
): { link: FollowLink; messages: () => number } {
	const { port1, port2 } = new MessageChannel();
	let messages = 0;
	let queued: [unknown, ArrayBuffer[]][] | null = putOff ? [] : null;
	const post = (m: unknown, transfer: ArrayBuffer[]) => {
		messages++;
		port1.postMessage(m, transfer);
	};
	const wake = () => {
		if (!queued) return;
		serveFollower(port2 as unknown as FollowerPort, () => port2.close(), store);
		for (const [m, transfer] of queued) post(m, transfer);
		queued = null;
	};
	if (!putOff) serveFollower(port2 as unknown as FollowerPort, () => port2.close(), store);
	const channel: FollowChannel = {
		post(m, transfer) {
			if (queued) queued.push([m, transfer as ArrayBuffer[]]);
			else post(m, transfer as ArrayBuffer[]);
		},
		listen(onMessage) {
			port1.on('message', (m: FromFollower) => onMessage(m));
		},
		close: () => port1.close(),
		wake,
	};
	const guidsOf = (from: number) => trace.decoder.providers(from);
	const link = new FollowLink(channel, trace.facts.startFiletime, guidsOf, limits);
	return { link, messages: () => messages };
}

async function follow(trace: OpenTrace, follower: SocketFollower) {
	const tables = new TraceTables();
	const names: { processNames: [number, string][]; hostNames: [string, string[]][] } = {
		processNames: [],
		hostNames: [],
	};
	// The chunks' columns, as bytes: the chunk builder reads each slice while the link sends it.
	const chunks: number[][] = [];
	await ingestTrace(
		trace,
		async (chunk, additions) => {
			chunks.push(
				Object.values(chunk.columns).flatMap((a) => [
					...new Uint8Array(a.buffer, a.byteOffset, chunk.rows * a.BYTES_PER_ELEMENT),
				]),
			);
			names.processNames.push(...additions.processNames);
			names.hostNames.push(...(additions.hostNames ?? []));
		},
		{
			tables,
			observe: (b, i, row) => follower.observe(b, i, row),
			follower,
			beforeCommit: (t) => follower.learnNames(t),
		},
	);
	const { owners, sockets, listed } = await follower.finish(HOME);
	const tracked = { ...sockets, owners };
	return {
		tracked: JSON.parse(JSON.stringify(tracked)) as unknown,
		chunks,
		names,
		stored: !sockets,
		listed,
	};
}

/** What following in place finds, the reference for each case. */
async function inPlace(bytes: Uint8Array) {
	const trace = await open(bytes);
	return follow(trace, localFollower(trace));
}

describe('following the sockets in a worker of their own', () => {
	for (const [name, bytes] of [
		['the bundled sample', sample],
		['Windows-like owners', () => ownerScript().bytes],
	] as const) {
		it(`finds what following them in place finds: ${name}`, async () => {
			const here = await inPlace(bytes());
			const found = here.tracked as { sockets: unknown[]; processes: unknown[] };
			expect(found.sockets.length).toBeGreaterThan(0);
			expect(found.processes.length).toBeGreaterThan(0);
			expect(here.names.processNames.length).toBeGreaterThan(0);
			const trace = await open(bytes());
			const away = await follow(trace, linked(trace).link);
			expect(away.tracked).toEqual(here.tracked);
			expect(away.chunks).toEqual(here.chunks);
			expect(away.names).toEqual(here.names);
		});
	}

	it('finds the same over 8 CPUs, with messages large and small', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'follow-link-'));
		try {
			const path = join(dir, 'winsock.etl');
			generate(path, 3);
			const bytes = new Uint8Array(readFileSync(path));
			const here = await inPlace(bytes);
			const small = { lagRows: 300, sendRows: 200, sendBytes: 1 << 16, namesRows: 1000 };
			for (const limits of [undefined, small]) {
				const trace = await open(bytes);
				const { link, messages } = linked(trace, limits);
				const away = await follow(trace, link);
				expect(away.tracked).toEqual(here.tracked);
				expect(away.chunks).toEqual(here.chunks);
				expect(away.names).toEqual(here.names);
				if (limits) expect(messages()).toBeGreaterThan(50);
			}
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});

	it('finds the same when the records go a few at a time, the decoding waiting on the worker', async () => {
		const here = await inPlace(sample());
		const trace = await open(sample());
		const tiny = { lagRows: 40, sendRows: 16, sendBytes: 4096, namesRows: 64 };
		const { link, messages } = linked(trace, tiny);
		const away = await follow(trace, link);
		// One message per slice at least (the merge's checkpoints come as slices are decoded).
		expect(messages()).toBeGreaterThan(5);
		expect(away.tracked).toEqual(here.tracked);
		// Names may come with another chunk than in place, but the same ones, in the same order.
		expect(away.names).toEqual(here.names);
	});

	it('wakes a worker whose start was put off when it must wait on it (a trace of one chunk)', async () => {
		const here = await inPlace(sample());
		const trace = await open(sample());
		const away = await follow(trace, linked(trace, undefined, true).link);
		expect(away.tracked).toEqual(here.tracked);
		expect(away.names).toEqual(here.names);
	});

	it('stores the sockets in the worker when it can, handing back only the owners', async () => {
		const here = await inPlace(sample());
		const trace = await open(sample());
		const stored: [SocketsHome, unknown][] = [];
		const store: StoreSockets = async (home, sockets) => {
			stored.push([home, JSON.parse(JSON.stringify(sockets))]);
			return true;
		};
		const away = await follow(trace, linked(trace, undefined, false, store).link);
		expect(away.stored).toBe(true);
		expect(away.listed).toBe(true);
		expect(stored.length).toBe(1);
		const { owners, ...sockets } = here.tracked as { owners: unknown };
		expect(stored[0]).toEqual([HOME, sockets]);
		expect((away.tracked as { owners: unknown }).owners).toEqual(owners);
		expect(away.names).toEqual(here.names);
	});

	it('says so when the trace left the library before its sockets could be stored', async () => {
		const trace = await open(sample());
		const away = await follow(trace, linked(trace, undefined, false, async () => false).link);
		expect(away.listed).toBe(false);
	});

	it("fails the import's next wait with the worker's own words", async () => {
		let hear: (m: FromFollower) => void = () => {};
		const channel: FollowChannel = {
			post: () => {},
			listen: (onMessage) => void (hear = onMessage),
			close: () => {},
		};
		const link = new FollowLink(channel, '0', () => []);
		const waiting = link.caughtUp();
		hear({ kind: 'error', message: 'records of slice 7 came before the slice' });
		// Nothing was sent, so it is caught up: the failure meets the next wait, and finish.
		await waiting;
		await expect(link.finish(HOME)).rejects.toThrow('records of slice 7 came before the slice');
		await expect(link.checkpoint()).rejects.toThrow('slice 7');
	});
});
