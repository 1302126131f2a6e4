// npm run fuzz [-- --inputs N | --minutes N | --seconds N] [--workers N] [--page-every N] [--compare-every N]
//              [--file NAME] [--no-save] [--smoke]
// A corpus-driven, outcome-guided fuzzer of the decoder, the page's import path, the socket
// tracker, the packet room (capture, dissectors, join, pcapng) and the compare of two traces. Each input is a byte-level or structural mutation of a corpus entry (corpus.ts),
// judged in process by one worker thread per core (pool.ts, thread.ts, judge.ts) under a
// watchdog. An input whose outcome, kinds of damage, decoder or dissector path were not seen
// before joins the corpus; every `compare-every`-th input is diffed against the other entry drawn;
// at the end the corpus is minimised and kept in tests/fuzz/corpus/ (bounded), so the next run
// starts there. A finding (an exception, a disagreement, a broken rule, a hang, too much memory)
// is confirmed in a child process and saved with its provenance in tests/fixtures/hostile/found/,
// which fuzz.test.ts replays. A fault of the harness itself is counted and the campaign goes on.
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { decoderModule } from '../decoder/load.ts';
import { decodeReport } from './check.ts';
import { confirmInChild, RSS_LIMIT } from './child.ts';
import {
	entryName,
	loadKept,
	minimise,
	saveKept,
	seeds,
	MAX_ENTRY_BYTES,
	type Entry,
} from './corpus.ts';
import { FOUND_DIR } from './found.ts';
import { dropInstance, freshInstances, keepInstances } from './instance-cache.ts';
import { features, isFault, judge } from './judge.ts';
import { mutate, mutateStructure, rng } from './mutate.ts';
import { Pool } from './pool.ts';
import { bufferMap, structureMap, type StructureMap } from './structure.ts';

const MAX_FINDING_BYTES = 1 << 20;
/** Entries the corpus holds during a run (the kept part is bounded by bytes when saved). */
const MAX_CORPUS = 2000;
const MAX_ORIGIN = 300;

const args = process.argv.slice(2);
const arg = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const smoke = args.includes('--smoke');
const maxInputs = arg('--inputs') ? Number(arg('--inputs')) : Infinity;
const seconds = arg('--minutes')
	? Number(arg('--minutes')) * 60
	: arg('--seconds')
		? Number(arg('--seconds'))
		: maxInputs < Infinity
			? Infinity
			: 60;
const workers = Number(arg('--workers') ?? availableParallelism());
const pageEvery = Number(arg('--page-every') ?? 4);
const compareEvery = Number(arg('--compare-every') ?? 8);
const only = arg('--file');
// The smoke run (CI) never writes into the checkout.
const save = !args.includes('--no-save') && !smoke;

const module = decoderModule();
// The maps of new entries are made here, one decode each: with a kept instance, as the threads do.
keepInstances();
/**
 * Entries that decode to more than this many records or WASM memory are left out (floods and
 * bombs, which the hostile tests run): each input must stay cheap. Counted, not timed, so the
 * corpus does not depend on the machine's load.
 */
const MAX_ENTRY_RECORDS = 5000;
const MAX_ENTRY_WASM = 24 << 20;
const cheap = (records: number, wasmBytes: number) =>
	records <= MAX_ENTRY_RECORDS && wasmBytes <= MAX_ENTRY_WASM;
const corpus: Entry[] = [];
/**
 * The entries that hold capture events: a share of the inputs is drawn from them, or the few
 * packet traces among hundreds of entries would hardly ever be mutated.
 */
const withPackets: Entry[] = [];
const PACKET_SHARE = 0.25;
for (const e of [...seeds(), ...loadKept()]) {
	if (only && !e.origin.includes(only)) continue;
	try {
		// Judged again: a kept entry's features are what this harness finds in it now (an older
		// run's may name kinds no input reaches any more, and would hold a place in the bound).
		const v = await judge(module, e.bytes, () => true);
		dropInstance(isFault(v.outcome));
		if (!cheap(v.records, v.wasmBytes)) continue;
		const entry =
			e.features === null
				? e
				: { ...e, features: features(v.outcome, v.kinds, v.records, v.paths) };
		corpus.push(entry);
		if (v.frames > 0) withPackets.push(entry);
	} catch {
		// A seed that throws is a finding the workers will report at once.
		dropInstance(true);
		corpus.push(e);
	}
}
if (corpus.length === 0) throw new Error(`no corpus entry named ${only}`);
const maps = new Map<Entry, StructureMap>();
const picks = new Map<Entry, number>();

async function mapOf(e: Entry): Promise<StructureMap> {
	let m = maps.get(e);
	if (!m) {
		try {
			m = await structureMap(module, e.bytes);
			dropInstance(false);
		} catch {
			// An entry whose decode throws is a finding of its own, reported by the workers.
			dropInstance(true);
			m = bufferMap(e.bytes);
		}
		maps.set(e, m);
	}
	return m;
}

const outcomes: Record<string, number> = {};
const count = (o: string) => (outcomes[o] = (outcomes[o] ?? 0) + 1);
/** Outcomes by mutation family (bytes, structure). */
const byFamily: Record<string, Record<string, number>> = { bytes: {}, structure: {} };
const countFamily = (family: string, o: string) =>
	(byFamily[family]![o] = (byFamily[family]![o] ?? 0) + 1);
const seen = new Set<string>(corpus.flatMap((e) => e.features ?? []));
const findings: { name: string; outcome: string; origin: string; confirmed: string }[] = [];
const findingKeys = new Set<string>();
let harnessFaults = 0;
let pageRuns = 0;
let packetInputs = 0;
let compareRuns = 0;
let maxWasm = 0;
let maxHeap = 0;

async function finding(
	bytes: Uint8Array,
	origin: string,
	outcome: string,
	detail: string,
	neighbour: Uint8Array | null,
) {
	const key = `${outcome}:${detail.split('\n')[0]!.replace(/\d+/g, 'N')}`;
	if (findingKeys.has(key)) return;
	findingKeys.add(key);
	const name = entryName(bytes);
	// The child process is the final word: the same judge, the CLI's process bounds.
	const child = await confirmInChild(bytes, neighbour);
	const confirmed =
		'died' in child ? child.outcome : child.rss > RSS_LIMIT ? 'memory' : child.verdict.outcome;
	findings.push({ name, outcome, origin, confirmed });
	console.error(
		`FINDING ${outcome} (child process: ${confirmed}) ${name} (${origin}): ${detail.split('\n').slice(0, 4).join(' | ')}`,
	);
	if (!save || bytes.length > MAX_FINDING_BYTES) return;
	mkdirSync(FOUND_DIR, { recursive: true });
	writeFileSync(join(FOUND_DIR, `${name}.etl`), bytes);
	// The trace it was compared with, when the compare found it (fuzz.test.ts compares them again).
	if (neighbour) writeFileSync(join(FOUND_DIR, `${name}.neighbour`), neighbour);
	writeFileSync(
		join(FOUND_DIR, `${name}.json`),
		JSON.stringify(
			{ origin, outcome, confirmedInChildProcess: confirmed, detail: detail.slice(0, 2000) },
			null,
			'\t',
		) + '\n',
	);
}

const pickRng = rng(Date.now() & 0x7fffffff || 1);
const runSeed = Math.floor(pickRng() * 0x7fffffff);

/** The next input: the smaller of two random entries (small inputs reach as far, and are many more per second), mutated. */
async function nextInput(seed: number): Promise<{
	bytes: Uint8Array;
	origin: string;
	family: string;
	neighbour: Uint8Array | null;
} | null> {
	const from = withPackets.length && pickRng() < PACKET_SHARE ? withPackets : corpus;
	const [a, b] = [0, 0].map(() => from[Math.floor(pickRng() * from.length)]!);
	const base = a!.bytes.length <= b!.bytes.length ? a! : b!;
	// The compare's baseline: the other entry drawn (the larger, or the same one mutated).
	const other = base === a ? b! : a!;
	const neighbour =
		compareEvery > 0 && Math.floor(seed / 2) % compareEvery === 0 ? other.bytes : null;
	picks.set(base, (picks.get(base) ?? 0) + 1);
	const structural = seed % 2 === 0;
	try {
		const bytes = structural
			? mutateStructure(base.bytes, await mapOf(base), seed)
			: mutate(base.bytes, seed);
		const step = `${structural ? 'structure' : 'bytes'} seed ${seed}`;
		const origin =
			base.origin.length > MAX_ORIGIN
				? `${base.origin.slice(0, MAX_ORIGIN / 2)} … → ${step}`
				: `${base.origin} → ${step}`;
		return { bytes, origin, family: structural ? 'structure' : 'bytes', neighbour };
	} catch (e) {
		// A fault of the harness, never the end of the campaign.
		harnessFaults++;
		count('harness');
		if (harnessFaults <= 5)
			console.error(`HARNESS FAULT (seed ${seed}, ${base.origin}): ${(e as Error).stack ?? e}`);
		return null;
	}
}

const started = Date.now();
const deadline = started + seconds * 1000;
let inputs = 0;
let issued = 0;
let lastReport = started;
const pool = new Pool(workers, { pageEvery });
const more = () => issued < maxInputs && Date.now() < deadline;

async function lane(slot: Pool['slots'][number]): Promise<void> {
	while (more()) {
		try {
			await step(slot);
		} catch (e) {
			// A fault of the harness (writing a finding, the child process), never the end of the campaign.
			harnessFaults++;
			count('harness');
			if (harnessFaults <= 5) console.error(`HARNESS FAULT: ${(e as Error).stack ?? e}`);
		}
	}
}

async function step(slot: Pool['slots'][number]): Promise<void> {
	const seed = runSeed + issued++;
	const input = await nextInput(seed);
	if (!input) return;
	const r = await slot.run(seed, input.bytes, input.neighbour);
	inputs++;
	if (!r.ok) {
		count(r.outcome);
		countFamily(input.family, r.outcome);
		await finding(input.bytes, input.origin, r.outcome, r.detail, input.neighbour);
		return;
	}
	const v = r.reply.verdict;
	count(v.outcome);
	countFamily(input.family, v.outcome);
	if (v.page) pageRuns++;
	if (v.frames > 0) packetInputs++;
	if (v.compared) compareRuns++;
	maxWasm = Math.max(maxWasm, v.wasmBytes);
	maxHeap = Math.max(maxHeap, v.heapBytes);
	if (isFault(v.outcome))
		await finding(input.bytes, input.origin, v.outcome, v.detail, input.neighbour);
	const reached = features(v.outcome, v.kinds, v.records, v.paths).filter((f) => !seen.has(f));
	if (reached.length > 0) {
		for (const f of reached) seen.add(f);
		if (
			input.bytes.length <= MAX_ENTRY_BYTES &&
			cheap(v.records, v.wasmBytes) &&
			corpus.length < MAX_CORPUS
		) {
			const e = { bytes: input.bytes, origin: input.origin, features: reached };
			corpus.push(e);
			if (v.frames > 0) withPackets.push(e);
		}
	}
	if (Date.now() - lastReport > 10_000) {
		lastReport = Date.now();
		const s = (lastReport - started) / 1000;
		console.error(
			`${inputs} inputs in ${s.toFixed(0)} s (${(inputs / s).toFixed(0)}/s), corpus ${corpus.length}, features ${seen.size}, findings ${findings.length}`,
		);
	}
}

await Promise.all(pool.slots.map(lane));
await pool.stop();
const elapsed = (Date.now() - started) / 1000;

// The ratio asked of the harness: its time per input against merely decoding (the CLI's path,
// in this process, with a kept instance as the threads have) each unmutated entry as often as it
// was picked; and that decode as the CLI runs it, a fresh instance per file.
async function baseline(): Promise<number> {
	let ms = 0;
	let n = 0;
	for (const [e, k] of picks) {
		const t = performance.now();
		try {
			await decodeReport(module, e.bytes);
		} catch {
			// counted by the campaign already
		}
		ms += (performance.now() - t) * k;
		n += k;
	}
	return n ? ms / n : 0;
}
const baselinePerInput = await baseline();
freshInstances();
const cliPerInput = await baseline();
const perInput = inputs ? (elapsed * 1000 * workers) / inputs : 0;

if (save) {
	const kept = minimise(corpus);
	await saveKept(kept);
	console.error(
		`corpus kept: ${kept.length} entries, ${kept.reduce((n, e) => n + e.bytes.length, 0)} bytes`,
	);
}

const rows = Object.entries(outcomes).sort((a, b) => b[1] - a[1]);
console.log(`\n${inputs} inputs in ${elapsed.toFixed(1)} s on ${workers} worker thread(s)`);
console.log(`${(inputs / elapsed).toFixed(1)} inputs/s`);
console.log(
	`${perInput.toFixed(2)} ms per input per worker, ${baselinePerInput.toFixed(2)} ms to decode the unmutated entry: ratio ${(baselinePerInput ? perInput / baselinePerInput : 0).toFixed(2)}`,
);
console.log(
	`(${cliPerInput.toFixed(2)} ms to decode it as the CLI does, a fresh decoder instance per file: ratio ${(cliPerInput ? perInput / cliPerInput : 0).toFixed(2)})`,
);
console.log(
	`page path on ${pageRuns} inputs, frames dissected and joined in ${packetInputs}, compare on ${compareRuns}; peak WASM memory ${(maxWasm / 2 ** 20).toFixed(1)} MiB, peak thread heap ${(maxHeap / 2 ** 20).toFixed(1)} MiB; threads restarted ${pool.restarts}`,
);
console.log('\noutcome        inputs      share      bytes  structure');
for (const [o, n] of rows)
	console.log(
		`${o.padEnd(14)} ${String(n).padStart(9)}  ${((100 * n) / inputs).toFixed(2).padStart(8)} %  ${String(byFamily.bytes![o] ?? 0).padStart(9)}  ${String(byFamily.structure![o] ?? 0).padStart(9)}`,
	);
console.log(
	JSON.stringify({
		seconds: Number(elapsed.toFixed(1)),
		inputs,
		perSecond: Number((inputs / elapsed).toFixed(1)),
		ratio: Number((baselinePerInput ? perInput / baselinePerInput : 0).toFixed(2)),
		ratioToCli: Number((cliPerInput ? perInput / cliPerInput : 0).toFixed(2)),
		outcomes,
		features: seen.size,
		corpus: corpus.length,
		harnessFaults,
		pageRuns,
		packetInputs,
		compareRuns,
		findings,
	}),
);
process.exitCode = findings.length || harnessFaults ? 1 : 0;
