// Hostile and damaged traces (tests/fixtures/hostile/cases.ts): every command ends by itself
// under a watchdog (heap limit, kill timer, peak memory), says what is wrong with an exit code
// and a message, and keeps the good records. The expected records are computed from the
// undamaged files or from what the case is made of, not written down.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { decodeBuffer } from '../../web/src/decoder/decoded-buffer.ts';
import { indexBuffers } from '../../web/src/decoder/etl-file.ts';
import { mergeRecords } from '../../web/src/decoder/merge.ts';
import { open, realFixture, statsOf } from '../decoder/load.ts';
import {
	bufferOffsets,
	FLOOD_RECORD_MAX,
	HOSTILE_CASES,
	REAL_BASE,
} from '../fixtures/hostile/cases.ts';
import type { CommandOutcome } from './run-commands.ts';
import { KILL_AFTER_MS, RSS_LIMIT, watched } from './watchdog.ts';

const COMMANDS = ['decode', 'stats', 'sockets', 'info'] as const;
type Outcomes = Record<(typeof COMMANDS)[number], CommandOutcome>;
const dir = mkdtempSync(join(tmpdir(), 'sockscope-hostile-'));
const hex = (n: number) => '0x' + n.toString(16);
const bytesOf = (name: string) => HOSTILE_CASES.find((c) => c.name === name)!.bytes();

/** The case written to a file and run through every command under the watchdog. */
async function runCase(name: string): Promise<Outcomes> {
	return (await runCaseWith(name, COMMANDS)) as Outcomes;
}

async function runCaseWith(
	name: string,
	commands: readonly string[],
): Promise<Record<string, CommandOutcome>> {
	const file = join(dir, `${name}.etl`);
	writeFileSync(file, bytesOf(name));
	const run = await watched(file, commands);
	expect(run.killed, `${name}: killed by the watchdog after ${KILL_AFTER_MS} ms`).toBe(false);
	expect(
		run.outcomes,
		`${name}: the child died (${run.signal ?? run.exit}): ${run.stderr}`,
	).not.toBe(null);
	const outcomes = Object.fromEntries(run.outcomes!.map((o) => [o.command, o]));
	for (const c of commands)
		expect(outcomes[c]!.peakRss, `${name} ${c}: peak memory`).toBeLessThan(RSS_LIMIT);
	return outcomes;
}

/** Messages a command printed on stderr, without the "sockscope: FILE: " prefix. */
function messages(o: CommandOutcome): string[] {
	return o.stderr
		.split('\n')
		.filter((l) => l !== '')
		.map((l) => l.replace(/^sockscope: [^:]+: /, ''));
}

/** Longer than the watchdog, so that a hang shows as the watchdog's finding. */
const WATCHED = KILL_AFTER_MS * 2;

describe('hostile traces under a watchdog', () => {
	let full: Awaited<ReturnType<typeof statsOf>>;
	let offsets: number[];
	beforeAll(async () => {
		full = await statsOf(realFixture(REAL_BASE));
		offsets = bufferOffsets(realFixture(REAL_BASE));
	});

	it(
		'XPRESS bomb: each buffer that would expand beyond the trace BufferSize is reported and skipped',
		async () => {
			const o = await runCase('xpress-bomb');
			for (const c of COMMANDS) expect(o[c].code, c).toBe(1);
			const m = messages(o.stats);
			expect(m).toHaveLength(24);
			for (const line of m)
				expect(line).toMatch(
					/^buffer \d+ at offset 0x[0-9a-f]+ claims to expand to 0x4000000 bytes \(its Offset\), more than the trace's own BufferSize 0x1000; \d+ bytes skipped to (the next buffer header|the end of the file)/,
				);
			expect(messages(o.decode)).toEqual(m);
			expect(messages(o.info)).toEqual(m);
			// Only the header buffer's records are left.
			const header = await statsOf(bytesOf('xpress-bomb').slice(0, 4096));
			expect(o.decode.lines).toBe(header.records);
		},
		WATCHED,
	);

	it(
		'XPRESS bomb within a 64 MiB BufferSize: expanded, found to hold no records, reported',
		async () => {
			const o = await runCase('xpress-bomb-large-buffers');
			expect(o.decode.code).toBe(1);
			const m = messages(o.decode);
			expect(m).toHaveLength(24);
			for (const line of m)
				expect(line).toMatch(/: no record header at decompressed offset 0x48 \(read 0x0\)$/);
			expect(o.decode.lines).toBe(1);
		},
		WATCHED,
	);

	it(
		'record flood through compression: every record written, memory bounded',
		async () => {
			const o = await runCase('record-flood');
			const perBuffer = Math.floor(((1 << 20) - 0x48) / 0x50);
			expect(o.decode.code).toBe(0);
			expect(o.decode.lines).toBe(1 + 4 * perBuffer);
			expect(o.stats.head[0]).toBe(`records            ${1 + 4 * perBuffer}`);
		},
		WATCHED,
	);

	// Large buffers on several CPUs: the merge holds a slice of each, not each whole. The records
	// are counted by every command that reads them; decode prints none of them (they are not
	// Winsock events), so that the run measures the merge, not the output.
	const FLOODS = [
		{ name: 'record-flood-16m', size: 16 << 20, cpus: 4, record: 0x50 },
		{ name: 'record-flood-64m', size: 64 << 20, cpus: 8, record: FLOOD_RECORD_MAX },
	];
	for (const f of FLOODS)
		it(
			`${f.name}: ${f.cpus} CPUs of ${f.size >> 20} MiB buffers within the CLI's memory bound`,
			async () => {
				const commands = ['decode --provider afd', 'stats', 'sockets', 'findings', 'info'];
				const o = await runCaseWith(f.name, commands);
				for (const c of commands) {
					expect(o[c]!.code, c).toBe(0);
					expect(o[c]!.stderr, c).toBe('');
				}
				const records = 1 + f.cpus * Math.floor((f.size - 0x48) / f.record);
				expect(o.stats!.head[0]).toBe(`records            ${records}`);
				expect(o['decode --provider afd']!.lines).toBe(0);
				expect(o.sockets!.lines).toBe(0);
			},
			WATCHED,
		);

	it('record flood: the merge reaches its checkpoint at least every 16384 records', async () => {
		// No CPU has a next buffer: without checkpoints by count the CLI would hold every line.
		const trace = await open(bytesOf('record-flood'));
		const index = await indexBuffers(trace);
		let since = 0;
		let most = 0;
		let checkpoints = 0;
		await mergeRecords(
			trace,
			index.buffers,
			() => {
				most = Math.max(most, ++since);
			},
			() => {},
			async () => {
				checkpoints++;
				since = 0;
			},
		);
		expect(most).toBeLessThanOrEqual(16384);
		expect(checkpoints).toBeGreaterThan(4 + 1);
	});

	for (const name of ['tl-nested-arrays', 'tl-deep-arrays']) {
		it(
			`${name}: the TraceLogging event stops at its budget, the other records are kept`,
			async () => {
				const o = await runCase(name);
				const m = messages(o.decode);
				expect(m).toHaveLength(3);
				for (const line of m)
					expect(line).toMatch(
						/^buffer \d+ at offset 0x[0-9a-f]+: record at offset 0x[0-9a-f]+ \(Hostile\.Nested Nested\): field "level\d+" would take the event past its budget of \d+ values \(payload of 8 bytes\)$/,
					);
				// Every command that reads the records says the same (info reads buffer headers only).
				for (const c of ['decode', 'stats', 'sockets'] as const) {
					expect(o[c].code, c).toBe(1);
					expect(messages(o[c]), c).toEqual(m);
				}
				expect(o.info.code).toBe(0);
				const s = await statsOf(bytesOf(name));
				expect(o.decode.lines).toBe(s.records);
				expect(s.records).toBe(1 + 6);
			},
			WATCHED,
		);
	}

	it(
		'a bad Offset in one buffer costs that buffer only',
		async () => {
			const o = await runCase('bad-offset');
			const lost = (await decodeBuffer(await open(realFixture(REAL_BASE)), full.index.buffers[3]!))
				.count;
			const m = `buffer 3 at offset ${hex(offsets[3]!)} has Offset (end of data) 0x7fffffff, outside its 0x2000 bytes; 8192 bytes skipped to the next buffer header at offset ${hex(offsets[4]!)}`;
			for (const c of COMMANDS) {
				expect(o[c].code, c).toBe(1);
				expect(messages(o[c]), c).toEqual([m]);
			}
			expect(o.decode.lines).toBe(full.records - lost);
		},
		WATCHED,
	);

	it(
		'a BufferSize of 0: the pass finds the next buffer header',
		async () => {
			const o = await runCase('zero-stride');
			for (const c of COMMANDS) {
				expect(o[c].code, c).toBe(1);
				expect(messages(o[c]), c).toEqual([
					`buffer 5 at offset ${hex(offsets[5]!)} has BufferSize 0x0 (must be at least 0x48 and at most 0x4000000); 8192 bytes skipped to the next buffer header at offset ${hex(offsets[6]!)}`,
				]);
			}
			const lost = (await decodeBuffer(await open(realFixture(REAL_BASE)), full.index.buffers[5]!))
				.count;
			expect(o.decode.lines).toBe(full.records - lost);
		},
		WATCHED,
	);

	it(
		'a duplicated buffer is dropped and reported by every command',
		async () => {
			const o = await runCase('duplicated-buffer');
			const b = full.index.buffers[4]!;
			for (const c of COMMANDS) {
				expect(o[c].code, c).toBe(1);
				expect(messages(o[c]), c).toEqual([
					`the buffer at offset ${hex(offsets[5]!)} repeats buffer 4 at offset ${hex(offsets[4]!)} (CPU ${b.cpu}, sequence number ${b.sequence}): dropped`,
				]);
			}
			expect(o.decode.lines).toBe(full.records);
		},
		WATCHED,
	);

	it(
		'a missing buffer is reported by every command, with the sequence gap',
		async () => {
			const o = await runCase('missing-buffer');
			// Buffer 4 is gone: the buffers after it sit 8 KiB earlier and count one less.
			const gone = full.index.buffers[4]!;
			const moved = (b: (typeof full.index.buffers)[number]) =>
				b.index > 4 ? { index: b.index - 1, offset: b.offset - 8192 } : b;
			const bySeq = (n: bigint) => moved(full.index.buffers.find((b) => b.sequence === n)!);
			const before = bySeq(gone.sequence - 1n);
			const after = bySeq(gone.sequence + 1n);
			for (const c of COMMANDS) {
				expect(o[c].code, c).toBe(1);
				expect(messages(o[c]), c).toEqual([
					`buffer ${after.index} at offset ${hex(after.offset)} (sequence number ${gone.sequence + 1n}): the buffer numbered ${gone.sequence} is missing, after buffer ${before.index} at offset ${hex(before.offset)} (sequence number ${gone.sequence - 1n}); the trace header says ${full.buffers} buffers were written (BuffersWritten), the file holds ${full.buffers - 1}`,
				]);
			}
			const lost = (await decodeBuffer(await open(realFixture(REAL_BASE)), full.index.buffers[4]!))
				.count;
			expect(o.decode.lines).toBe(full.records - lost);
		},
		WATCHED,
	);

	it(
		'trace header fields that contradict the buffers are reported by every command',
		async () => {
			const o = await runCase('header-fields-changed');
			const firstBeyond = full.index.buffers.find((b) => b.index > 0 && b.cpu >= 2)!;
			const expected = [
				`the file ends after buffer ${full.buffers - 1} (offset ${hex(offsets.at(-1)! + 8192)}), but the trace header says 99 buffers were written (BuffersWritten), the file holds ${full.buffers}: ${99 - full.buffers} missing`,
				`buffer ${firstBeyond.index} at offset ${hex(firstBeyond.offset)} is from CPU ${firstBeyond.cpu}, but the trace header counts 2 processors (NumberOfProcessors)`,
				`the trace header names clock type 7 (ReservedFlags), not 1, 2 or 3`,
				expect.stringMatching(/^the trace header's EndTime \(.*\) is before its StartTime \(/),
			];
			for (const c of COMMANDS) {
				expect(o[c].code, c).toBe(1);
				expect(messages(o[c]), c).toEqual(expected);
			}
			expect(o.decode.lines).toBe(full.records);
		},
		WATCHED,
	);

	it(
		'a PerfFreq that stretches record times past the EndTime is reported',
		async () => {
			const o = await runCase('perffreq-changed');
			const facts = (await open(realFixture(REAL_BASE))).facts;
			expect(o.stats.code).toBe(1);
			expect(messages(o.stats)).toEqual([
				expect.stringMatching(
					new RegExp(
						`^records run until \\S+, [\\d.]+ s after the trace header's EndTime \\(${facts.endTime.replace(/[.]/g, '\\.')}\\)$`,
					),
				),
			]);
			expect(o.decode.lines).toBe(full.records);
		},
		WATCHED,
	);
});
