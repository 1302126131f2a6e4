// The fuzz corpus: small seeds (the real fixtures cut to a few buffers, the PktMon capture among
// them, small made traces with sockets, DNS and TCP/IP events, captured frames (packet-trace.ts),
// compressed buffers and TraceLogging, the hand-made hostile
// cases) and the inputs earlier campaigns kept (tests/fuzz/corpus/), which reached an outcome or
// kind of damage nothing else had. The kept part is minimised (the smallest input of each
// signature) and bounded in size, and lives in the repository so a run starts where the last ended.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { format, resolveConfig } from 'prettier';
import { filetimeFromIso } from '../builders/bytes.ts';
import { busyEvent } from '../builders/busy-event.ts';
import { EtlWriter, type EtlFile } from '../builders/etl-writer.ts';
import { addSampleNetEvents } from '../builders/sample-net.ts';
import { realFixture } from '../decoder/load.ts';
import { HOSTILE_CASES } from '../fixtures/hostile/cases.ts';
import { realFixturesDir } from '../fixtures/real/sources-table.ts';
import { FOUND_DIR } from './found.ts';
import { bufferStarts } from './mutate.ts';
import { packetTrace } from './packet-trace.ts';

export const CORPUS_DIR = join(import.meta.dirname, 'corpus');
/** The kept corpus in the repository stays under this many bytes. */
export const CORPUS_BYTES = 2 << 20;
/** A seed or kept entry at most this big: each input must stay cheap. */
export const MAX_ENTRY_BYTES = 64 << 10;

export interface Entry {
	readonly bytes: Uint8Array;
	/** Where it came from: a fixture name, then the mutations applied. */
	readonly origin: string;
	/** The features (judge.ts) it reached first (kept entries), or null for a seed. */
	readonly features: readonly string[] | null;
}

/** The first `n` buffers of a trace (buffer 0, the header buffer, included). */
export function firstBuffers(bytes: Uint8Array, n: number): Uint8Array {
	const starts = bufferStarts(bytes);
	return bytes.slice(0, starts[n] ?? bytes.length);
}

const START = filetimeFromIso('2026-03-14T09:26:53.5897932Z');

/** A trace of 4 KiB buffers: AFD socket events on 2 CPUs, with DNS and TCP/IP events. */
export function netTrace(compress: boolean): Uint8Array {
	return netTraceFile(compress).bytes;
}

export function netTraceFile(compress: boolean): EtlFile {
	const w = new EtlWriter({ cpus: 2, bufferSize: 4096, compress });
	let t = START;
	for (let n = 0; n < 40; n++) w.addAfd(busyEvent(n, n % 2, (t += 70n), 50));
	addSampleNetEvents(w, (ms) => START + BigInt(Math.round(ms * 10_000)));
	return w.finish();
}

export function seeds(): Entry[] {
	const out: Entry[] = [];
	const add = (bytes: Uint8Array, origin: string) => {
		if (bytes.length > 0 && bytes.length <= MAX_ENTRY_BYTES)
			out.push({ bytes, origin, features: null });
	};
	for (const f of readdirSync(realFixturesDir).filter((f) => f.endsWith('.etl'))) {
		const name = f.replace(/\.etl$/, '');
		const whole = realFixture(name);
		for (const n of [2, 3, 5]) {
			const cut = firstBuffers(whole, n);
			add(cut, `real/${name} (first ${n} buffers)`);
			if (cut.length === whole.length) break;
		}
	}
	add(netTrace(false), 'made/net-4k');
	add(netTrace(true), 'made/net-4k-compressed');
	add(packetTrace(), 'made/packets-4k');
	for (const c of HOSTILE_CASES)
		if (!c.large) {
			const b = c.bytes();
			add(b.length <= MAX_ENTRY_BYTES ? b : firstBuffers(b, 3), `hostile/${c.name}`);
		}
	if (existsSync(FOUND_DIR))
		for (const f of readdirSync(FOUND_DIR).filter((f) => f.endsWith('.etl')))
			add(new Uint8Array(readFileSync(join(FOUND_DIR, f))), `found/${f}`);
	return out;
}

interface KeptIndex {
	readonly entries: { file: string; origin: string; features: string[] }[];
}

export function loadKept(): Entry[] {
	const at = join(CORPUS_DIR, 'index.json');
	if (!existsSync(at)) return [];
	const index = JSON.parse(readFileSync(at, 'utf8')) as KeptIndex;
	return index.entries
		.filter((e) => existsSync(join(CORPUS_DIR, e.file)))
		.map((e) => ({
			bytes: new Uint8Array(readFileSync(join(CORPUS_DIR, e.file))),
			origin: e.origin,
			features: e.features,
		}));
}

/** Features of the packet room (dissector paths, capture problems, join reasons). */
const PACKET_FEATURE = /^path\|(packet|join|capture)\|/;

/**
 * Corpus minimisation: for each feature, the smallest entry that reaches it; then those entries,
 * smallest first, until the bound (the cheapest inputs reach the most per second). The packet
 * room's features have half the bound of their own: traces with frames are larger than most
 * entries, and smallest first would leave none of them.
 */
export function minimise(entries: readonly Entry[], bound = CORPUS_BYTES): Entry[] {
	const packets = smallestFirst(entries, (f) => PACKET_FEATURE.test(f), new Set(), bound / 2);
	const covered = new Set(packets.flatMap((e) => e.features ?? []));
	const used = packets.reduce((n, e) => n + e.bytes.length, 0);
	return [
		...packets,
		...smallestFirst(entries, (f) => !covered.has(f), new Set(packets), bound - used),
	];
}

function smallestFirst(
	entries: readonly Entry[],
	wanted: (feature: string) => boolean,
	taken: ReadonlySet<Entry>,
	bound: number,
): Entry[] {
	const best = new Map<string, Entry>();
	for (const e of entries)
		for (const f of e.features ?? []) {
			if (taken.has(e) || !wanted(f)) continue;
			const had = best.get(f);
			if (!had || e.bytes.length < had.bytes.length) best.set(f, e);
		}
	const out: Entry[] = [];
	let total = 0;
	for (const e of [...new Set(best.values())].sort((a, b) => a.bytes.length - b.bytes.length)) {
		if (total + e.bytes.length > bound) break;
		total += e.bytes.length;
		out.push(e);
	}
	return out;
}

export const entryName = (bytes: Uint8Array) =>
	createHash('sha256').update(bytes).digest('hex').slice(0, 16);

/** Rewrites tests/fuzz/corpus/ to hold exactly `entries` (minimised already). */
export async function saveKept(entries: readonly Entry[]): Promise<void> {
	if (existsSync(CORPUS_DIR)) for (const f of readdirSync(CORPUS_DIR)) rmSync(join(CORPUS_DIR, f));
	mkdirSync(CORPUS_DIR, { recursive: true });
	const index: KeptIndex = {
		entries: entries.map((e) => {
			const file = `${entryName(e.bytes)}.etl`;
			writeFileSync(join(CORPUS_DIR, file), e.bytes);
			return { file, origin: e.origin, features: [...(e.features ?? [])] };
		}),
	};
	// In the repository's style, so that the check of the checkout passes with it.
	const at = join(CORPUS_DIR, 'index.json');
	const options = { ...(await resolveConfig(at)), parser: 'json' };
	writeFileSync(at, await format(JSON.stringify(index), options));
}
