// A bounded fuzz run in every `npm test`, through the same judge as `npm run fuzz`: mutated seeds
// (real fixtures cut to a few buffers, made traces with and without captured frames, hostile
// cases), the corpus earlier campaigns kept, and the findings they saved, each of which must now
// be judged fine. The made traces are judged against what they were written with: records,
// frames, owners, sockets.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { KILL_AFTER_MS, RSS_LIMIT, watched } from '../hostile/watchdog.ts';
import { FOUND_DIR } from './found.ts';
import { decoderModule, realFixture } from '../decoder/load.ts';
import { agreementProblems, decodeProblems, decodeReport, kindOf, pageReport } from './check.ts';
import { compareReport } from './check-compare.ts';
import { frameProblems, packetsReport } from './check-packets.ts';
import { firstBuffers, loadKept, minimise, netTraceFile, seeds } from './corpus.ts';
import { PACKET_TRACE, packetTraceFile } from './packet-trace.ts';
import { freshInstances, keepInstances } from './instance-cache.ts';
import { isFault, judge, WASM_LIMIT, type Verdict } from './judge.ts';
import { mutate, mutateStructure, picker, rng, STRUCTURE_MUTATORS } from './mutate.ts';
import { Pool } from './pool.ts';
import { structureMap } from './structure.ts';
import { CLI_PROCESS_MS, WHOLE_FIXTURES_MS } from '../timeouts.ts';
import { EXIT } from '../../web/src/cli/args.ts';

const CASES_PER_SEED = 12;
/** Seeds that decode quickly enough to be mutated in every test run (no floods or bombs). */
const SEEDS = seeds().filter((e) => !/flood|bomb/.test(e.origin));
const all = () => true;
const none = () => false;
const fault = (v: Verdict) => (isFault(v.outcome) ? `${v.outcome}: ${v.detail}` : null);

describe('fuzz: mutated seeds are judged fine', { timeout: WHOLE_FIXTURES_MS }, () => {
	it('has seeds of every family', () => {
		for (const family of ['real/', 'made/', 'hostile/'])
			expect(SEEDS.some((e) => e.origin.startsWith(family))).toBe(true);
	});
	for (const seed of SEEDS)
		it(seed.origin, async () => {
			const module = decoderModule();
			expect(fault(await judge(module, seed.bytes, all))).toBe(null);
			const map = await structureMap(module, seed.bytes);
			expect(map.spots.length).toBeGreaterThan(0);
			for (let k = 1; k <= CASES_PER_SEED; k++) {
				const bytes =
					k % 2 ? mutate(seed.bytes, k * 7919) : mutateStructure(seed.bytes, map, k * 7919);
				expect(fault(await judge(module, bytes, all)), `${seed.origin} case ${k}`).toBe(null);
			}
		});
});

describe('fuzz: the checks', { timeout: WHOLE_FIXTURES_MS }, () => {
	it('name damage outside the input, and a page path that differs from the CLI', async () => {
		const module = decoderModule();
		const bytes = firstBuffers(realFixture('tx-win7-kernel-network'), 3).slice(0, 20_000);
		const cli = await decodeReport(module, bytes);
		expect(cli.entries.length).toBeGreaterThan(0);
		expect(decodeProblems(cli, bytes.length)).toEqual([]);
		expect(decodeProblems(cli, 10)[0]).toMatch(/outside the 10-byte input/);
		const gap = [bytes.length - 100, bytes.length] as const;
		expect(decodeProblems({ ...cli, entries: [], uncovered: [gap] }, bytes.length)).toContain(
			`bytes ${gap[0]} to ${gap[1]} belong to no buffer, and no damage is reported there`,
		);
		const page = await pageReport(module, bytes);
		expect(agreementProblems(cli, page)).toEqual([]);
		expect(agreementProblems(cli, { ...page!, records: page!.records + 1 })[0]).toMatch(
			/^records: the page path has/,
		);
		expect(agreementProblems(cli, { ...page!, damage: [] })[0]).toMatch(/^damage:/);
		expect(page!.rows).toBe(cli.records);
		expect(agreementProblems(cli, { ...page!, rows: page!.rows - 1 })).toEqual([
			`rows: the page path stores ${page!.rows - 1} for ${page!.records} records`,
		]);
		expect(agreementProblems(cli, null)).toEqual(['the page path rejected a file the CLI opened']);
	});

	it('judge a kept decoder instance exactly as fresh ones', async () => {
		const module = decoderModule();
		const inputs = SEEDS.flatMap((e, k) => [
			mutate(e.bytes, k + 1),
			mutate(e.bytes, k + 1000),
			e.bytes,
		]);
		const key = (v: Verdict) => JSON.stringify([v.outcome, v.records, v.kinds, v.paths, v.detail]);
		const fresh = [];
		for (const b of inputs) fresh.push(key(await judge(module, b, all)));
		keepInstances();
		try {
			// In reverse, so each input follows a different one than before.
			for (let i = inputs.length - 1; i >= 0; i--)
				expect(key(await judge(module, inputs[i]!, all)), `input ${i}`).toBe(fresh[i]);
		} finally {
			freshInstances();
		}
	});
});

describe(
	'fuzz: the made traces are judged as they were written',
	{ timeout: WHOLE_FIXTURES_MS },
	() => {
		const P = PACKET_TRACE;
		it('the packet trace: every record, frame, owner and socket', async () => {
			const module = decoderModule();
			const file = packetTraceFile();
			const cli = await decodeReport(module, file.bytes);
			expect(cli).toMatchObject({ opened: true, records: file.records.length, damage: [] });
			expect(cli.captureEvents).toBe(P.ndisEvents + P.pktmonPackets + P.pktmonOther);
			const page = await pageReport(module, file.bytes);
			expect(page).toMatchObject({
				records: file.records.length,
				rows: file.records.length,
				damage: [],
				sockets: P.sockets,
			});
			const packets = (await packetsReport(module, file.bytes))!;
			expect(packets.problems).toEqual([]);
			expect([packets.frames, packets.owned]).toEqual([P.frames, P.owned]);
			const dns = packets.paths.filter((p) => p.startsWith('packet|') && p.endsWith('>DNS'));
			expect(dns).toEqual([
				'packet|ethernet:Ethernet>802.1Q>IPv6>IPv6 extension 0>UDP>DNS',
				'packet|ethernet:Ethernet>IPv4>UDP>DNS',
			]);
			expect(packets.packets.frames.filter((f) => f.dissection.dns).length).toBe(P.dnsFrames);
			expect(packets.packets.frames.filter((f) => f.fragments === 2).length).toBe(1);
			expect(packets.paths).toContain('join|owned|out');
			expect(packets.paths).toContain('join|owned|in');
			const v = await judge(module, file.bytes, all, file.bytes);
			expect(v).toMatchObject({
				outcome: 'clean',
				frames: P.frames,
				owned: P.owned,
				compared: true,
			});
		});

		it('the packet trace maps every packet event to the spots the packet mutations aim at', async () => {
			const map = await structureMap(decoderModule(), packetTraceFile().bytes);
			const n = (kind: string) => map.spots.filter((s) => s.kind === kind).length;
			expect(n('packet-keyword')).toBe(P.ndisEvents);
			// FragmentSize in each NDIS event; LoggedPayloadSize and OriginalPayloadSize in each PktMon one.
			expect(n('packet-size')).toBe(P.ndisEvents + 2 * P.pktmonPackets);
			expect(n('dns')).toBe(P.dnsFrames);
			expect(n('packet-header')).toBeGreaterThan(P.frames);
		});

		it('packet mutations reach fragments without a start, pointer loops and short headers', async () => {
			const module = decoderModule();
			const bytes = packetTraceFile().bytes;
			const map = await structureMap(module, bytes);
			const reached = new Set<string>();
			keepInstances();
			try {
				for (let k = 1; k <= 200; k++) {
					// Spread seeds: xorshift's first draws from small seeds are small.
					const pick = picker(rng(Math.imul(k, 0x9e3779b1)));
					const b = STRUCTURE_MUTATORS.packet!(bytes.slice(), map, pick);
					const v = await judge(module, b, none);
					expect(fault(v), `case ${k}`).toBe(null);
					for (const p of v.paths) reached.add(p);
				}
			} finally {
				freshInstances();
			}
			const has = (re: RegExp) => [...reached].some((p) => re.test(p));
			expect(has(/^capture\|fragment at record N .* has no first fragment/)).toBe(true);
			expect(has(/!DNS name pointer loops or points past the message$/)).toBe(true);
			expect(has(/!DNS label type N unknown$/)).toBe(true);
			expect(has(/!(IPvN|TCP|UDP) .*(below|exceeds|runs past)/)).toBe(true);
		});

		it('the net trace: every record and socket, and no frame', async () => {
			const module = decoderModule();
			const file = netTraceFile(false);
			const v = await judge(module, file.bytes, all);
			expect(v).toMatchObject({ outcome: 'clean', records: file.records.length, frames: 0 });
			const page = await pageReport(module, file.bytes);
			expect(page).toMatchObject({ records: file.records.length, damage: [] });
		});

		it('the compare of the two: no problem, the same sockets as the page, and none against itself', async () => {
			const module = decoderModule();
			const net = netTraceFile(false).bytes;
			const packets = packetTraceFile().bytes;
			const r = (await compareReport(module, packets, net))!;
			expect(r.problems).toEqual([]);
			expect(r.sockets).toBe(P.sockets);
			expect(r.pairs[1]).toBe(1);
			expect(r.changes).toBeGreaterThan(0);
			const self = (await compareReport(module, net, net))!;
			expect([self.problems, self.changes]).toEqual([[], 0]);
			expect(self.sockets).toBe((await pageReport(module, net))!.sockets);
			expect(await compareReport(module, new Uint8Array(10), net)).toBe(null);
		});

		it('name a negative payload, a layer outside its frame, and a misnumbered frame', async () => {
			const packets = (await packetsReport(decoderModule(), packetTraceFile().bytes))!;
			const f = packets.packets.frames[0]!;
			expect(frameProblems(f, 0)).toEqual([]);
			const d = f.dissection;
			const bad = {
				...f,
				dissection: {
					...d,
					payloadBytes: -8,
					layers: [{ ...d.layers[0]!, at: f.bytes.length + 1 }],
				},
			};
			expect(frameProblems(bad, 1)).toEqual([
				'frame 1 is numbered 0',
				'frame 1: -8 bytes of payload',
				`frame 1: layer Ethernet at ${f.bytes.length + 1}, length 14, in ${f.bytes.length} bytes`,
			]);
		});

		it('kinds of damage blank what the message quotes of the file', () => {
			expect(
				kindOf('not an ETL file: the file has 9 bytes; the file starts with the bytes 4f 3a ff'),
			).toBe(kindOf('not an ETL file: the file has 3 bytes; the file starts with the bytes 00'));
			expect(kindOf('record at offset 0x48 (event "a\u00ff" (x(y)) 7): field "q" too long')).toBe(
				'record at offset N (…): field S too long',
			);
			expect(kindOf('record at offset 0x48 (event z\u0001q(')).toBe('record at offset N (…)');
		});
	},
);

describe('fuzz: the kept corpus is minimised', () => {
	it('within its bound, half of it for the packet features', () => {
		const e = (n: number, features: string[]) => ({
			bytes: new Uint8Array(n),
			origin: `${n}`,
			features,
		});
		const [p, b, q, r] = [
			e(1000, ['path|packet|ethernet:Ethernet>IPv4>TCP', 'x']),
			e(5, ['x', 'y']),
			e(100, ['z']),
			e(900, ['w']),
		];
		// Smallest first alone would keep b, q and r, and no trace with frames.
		expect(minimise([p!, b!, q!, r!], 2000).map((x) => x.origin)).toEqual(['1000', '5', '100']);
		expect(minimise([p!, b!, q!, r!], 1900).map((x) => x.origin)).toEqual(['5', '100', '900']);
	});
});

describe('fuzz: a compare does not change the verdict of its input on a kept instance', () => {
	it('kept-instance-after-neighbour', { timeout: WHOLE_FIXTURES_MS }, async () => {
		const at = (f: string) =>
			new Uint8Array(readFileSync(join(import.meta.dirname, 'regressions', f)));
		const bytes = at('kept-instance-after-neighbour.etl');
		const neighbour = at('kept-instance-after-neighbour.neighbour.etl');
		const module = decoderModule();
		const fresh = await judge(module, bytes, all, neighbour);
		expect(fresh).toMatchObject({ outcome: 'damaged', compared: true });
		keepInstances();
		try {
			const kept = await judge(module, bytes, all, neighbour);
			expect([kept.outcome, kept.records, kept.kinds]).toEqual([
				fresh.outcome,
				fresh.records,
				fresh.kinds,
			]);
		} finally {
			freshInstances();
		}
	});
});

describe('fuzz: the in-process pool', { timeout: CLI_PROCESS_MS }, () => {
	const pool = new Pool(1, { pageEvery: 1 }, 1);
	afterAll(() => pool.stop());
	it('kills a thread past its time, reports it, and goes on with a fresh one', async () => {
		// A flood of 52,425 records: far beyond a 1 ms watchdog on any machine.
		const flood = seeds().find((e) => e.origin === 'hostile/record-flood')!;
		const killed = await pool.slots[0]!.run(1, flood.bytes);
		expect(killed).toMatchObject({ ok: false, outcome: 'timeout' });
		const slow = new Pool(1, { pageEvery: 1 });
		try {
			// The fresh thread judges a seed as this process does, its memory within the bounds.
			const seed = SEEDS[0]!;
			const here = await judge(decoderModule(), seed.bytes, all);
			const next = await slow.slots[0]!.run(2, seed.bytes);
			if (!next.ok) throw new Error(`${next.outcome}: ${next.detail}`);
			const v = next.reply.verdict;
			expect([v.outcome, v.records, v.kinds, v.frames, v.owned]).toEqual([
				here.outcome,
				here.records,
				here.kinds,
				here.frames,
				here.owned,
			]);
			expect(v.records).toBeGreaterThan(0);
			expect(v.wasmBytes).toBeGreaterThan(0);
			expect(v.wasmBytes).toBeLessThanOrEqual(WASM_LIMIT);
			expect(v.heapBytes).toBeGreaterThan(0);
			expect(v.heapBytes).toBeLessThan(RSS_LIMIT);
			expect(next.reply.id).toBe(2);
			const empty = await slow.slots[0]!.run(3, new Uint8Array(0));
			expect(empty.ok && [empty.reply.verdict.outcome, empty.reply.verdict.records]).toEqual([
				'rejected',
				0,
			]);
		} finally {
			await slow.stop();
		}
	});
});

// The corpus earlier campaigns kept (tests/fuzz/corpus): every entry judged fine, as it was then.
const kept = loadKept();
describe.runIf(kept.length > 0)('fuzz: the kept corpus is judged fine', () => {
	it(`${kept.length} entries`, { timeout: WHOLE_FIXTURES_MS }, async () => {
		const module = decoderModule();
		for (const e of kept) expect(fault(await judge(module, e.bytes, all)), e.origin).toBe(null);
	});
});

// Inputs the fuzz runner saved as findings (tests/fixtures/hostile/found, with their provenance
// and, for the compare's, the trace they were compared with):
// each must now be judged fine in process and end by itself under the CLI's watchdog, with exit
// code 0, 1 or (a mutation that left no buffer header at offset 0: not an ETL trace) 2, and no stack trace.
const found = existsSync(FOUND_DIR) ? readdirSync(FOUND_DIR).filter((f) => f.endsWith('.etl')) : [];
describe.runIf(found.length > 0)('fuzz findings are fixed', () => {
	for (const f of found)
		it(
			f,
			async () => {
				const bytes = new Uint8Array(readFileSync(join(FOUND_DIR, f)));
				// A finding of the compare is judged again against the trace it was compared with.
				const at = join(FOUND_DIR, f.replace(/\.etl$/, '.neighbour'));
				const neighbour = existsSync(at) ? new Uint8Array(readFileSync(at)) : null;
				expect(fault(await judge(decoderModule(), bytes, all, neighbour))).toBe(null);
				const run = await watched(join(FOUND_DIR, f), ['decode', 'stats']);
				expect(run.killed).toBe(false);
				expect(run.outcomes).not.toBe(null);
				for (const o of run.outcomes!) {
					expect([EXIT.ok, EXIT.damaged, EXIT.notEtl]).toContain(o.code);
					expect(o.stderr).not.toMatch(/\n\s+at /);
					expect(o.peakRss).toBeLessThan(RSS_LIMIT);
				}
			},
			KILL_AFTER_MS * 2,
		);
});
