// Filters run as scans over selection vectors keep exactly the rows their row-by-row predicates
// match: random filters (and, or, not, ranges, sets, flags, lookups) over random columns, read in
// their own width and narrowed as storage gives them back; in JavaScript, and with conjunctions
// of the tests it knows scanned in WASM (query/wasm-scan.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
	allocateColumn,
	COLUMN_NAMES,
	FLAG_BYTES,
	FLAG_ERROR,
	FLAG_STATUS,
	narrowColumn,
	NO_PID,
	type Columns,
	type EventType,
	type ReadColumns,
} from '../../web/src/columns/layout.ts';
import { compileFilter, type FilterContext } from '../../web/src/query/filter-compile.ts';
import { parseFilter } from '../../web/src/query/filter-parser.ts';
import { countRange, rowsFrom, scanRange } from '../../web/src/query/scan-kernels.ts';
import { useWasmScan } from '../../web/src/query/wasm-scan.ts';
import { scanModule } from '../decoder/load.ts';
// Seeded, so that a failure is reproduced.
import { rng as random } from '../fuzz/mutate.ts';

const TYPES: EventType[] = Array.from({ length: 12 }, (_, i) => ({
	kind: 0,
	provider: '{e53c6823-7bb8-44bb-90dc-3f86090d48a6}',
	providerName: 'Microsoft-Windows-Winsock-AFD',
	id: 1000 + i,
	version: 0,
	opcode: 0,
	name: ['AfdReceive', 'AfdSend', 'AfdConnect', 'AfdClose'][i % 4]! + (i >= 4 ? String(i) : ''),
	afd: true,
	schema: -1,
}));

const ctx: FilterContext = {
	strings: ['', '10.0.0.1', '10.0.0.2', '192.168.1.7', 'ffffa00012340000'],
	eventTypes: TYPES,
	startFiletime: 0n,
	processNames: new Map([
		[4, 'System'],
		[1234, 'chrome.exe'],
	]),
};

/** Random columns of `rows` rows; `wide` puts values past 2^16 in, so that nothing narrows. */
function chunkColumns(rnd: () => number, rows: number, wide: boolean): Columns {
	const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
	const c = Object.fromEntries(
		COLUMN_NAMES.map((n) => [n, allocateColumn(n, rows)]),
	) as unknown as Columns;
	for (let i = 0; i < rows; i++) {
		c.etype[i] = Math.floor(rnd() * TYPES.length);
		c.bytes[i] = pick([0, 1, 10, 999, 1000, 1001, 1500, 65535, wide ? 70000 : 7, 4294967295]);
		c.flags[i] = pick([0, FLAG_BYTES, FLAG_STATUS, FLAG_STATUS | FLAG_ERROR, FLAG_BYTES | 8]);
		c.pid[i] = pick([4, 1234, 0, NO_PID, wide ? 100000 : 99]);
		c.process[i] = pick([4, 1234, NO_PID]);
		c.tid[i] = Math.floor(rnd() * (wide ? 200000 : 300));
		c.lport[i] = pick([0, 80, 443, 50000]);
		c.rport[i] = pick([0, 80, 443, 50001]);
		c.laddr[i] = pick([0, 1, 2]);
		c.raddr[i] = pick([0, 2, 3]);
		c.endpoint[i] = pick([0, 4]);
		c.status[i] = pick([0, 0xc0000236, 0x103, 0xc000020c]);
		c.level[i] = pick([2, 4, 5]);
		c.cpu[i] = pick([0, 1, wide ? 300 : 3]);
		c.opcode[i] = pick([0, 1, 2]);
		c.time[i] = i * 10.5;
	}
	return c;
}

const TERMS = [
	'event:AfdReceive',
	'event:AfdS*',
	'event!=AfdClose',
	'id:1003',
	'bytes>1000',
	'bytes>=1000',
	'bytes<1000',
	'bytes<=1000.5',
	'bytes:999..1500',
	'bytes!=1000',
	'bytes:65535',
	'bytes>4294967294',
	'bytes',
	'pid:4',
	'pid!=4',
	'pid>1000',
	'pid',
	'tid<100',
	'tid:5..150',
	'process:1234',
	'process:chrome*',
	'port:443',
	'port!=80',
	'lport:80',
	'rport>=50000',
	'status:error',
	'status',
	'level:verbose',
	'level<=4',
	'cpu:1',
	'opcode:1',
	'addr:10.0.0.2',
	'raddr:192.168.0.0/16',
	'endpoint',
	'time>100',
	'time:50..2000',
	'AfdSend',
];

function randomFilter(rnd: () => number, depth = 0): string {
	const r = rnd();
	if (depth > 2 || r < 0.4) {
		const term = TERMS[Math.floor(rnd() * TERMS.length)]!;
		return rnd() < 0.15 ? `-${term}` : term;
	}
	const n = 2 + Math.floor(rnd() * 2);
	const items = Array.from({ length: n }, () => randomFilter(rnd, depth + 1));
	if (r < 0.6) return `(${items.join(' or ')})`;
	if (r < 0.8) return items.join(' ');
	return `not (${items.join(' and ')})`;
}

function narrowed(c: Columns): ReadColumns {
	return Object.fromEntries(
		COLUMN_NAMES.map((n) => [n, narrowColumn(n, c[n])]),
	) as unknown as ReadColumns;
}

for (const wasm of [false, true])
	describe(`filters as scans${wasm ? ', conjunctions in WASM' : ''}`, () => {
		beforeAll(() => useWasmScan(wasm ? scanModule() : null));
		afterAll(() => useWasmScan(null));

		it('keep the rows their predicates match, over rows in any range, narrowed or not', () => {
			const rnd = random(27);
			const chunks = [false, true].flatMap((wide) => {
				const c = chunkColumns(rnd, 3000, wide);
				return [c, narrowed(c)];
			});
			// Both kinds were made: columns that narrowed and columns that could not.
			expect(chunks.some((c) => c.tid instanceof Uint16Array)).toBe(true);
			expect(chunks.some((c) => c.tid instanceof Uint32Array)).toBe(true);
			const sel = new Uint16Array(1 << 16);
			let kept = 0;
			for (let f = 0; f < 400; f++) {
				const filter = randomFilter(rnd);
				const compiled = compileFilter(parseFilter(filter), ctx)!;
				for (const c of chunks) {
					const from = Math.floor(rnd() * 100);
					const to = 3000 - Math.floor(rnd() * 100);
					const test = compiled.bind(c);
					const expected: number[] = [];
					for (let i = from; i < to; i++) if (test(i)) expected.push(i);
					const n = compiled.scan(c)(sel, rowsFrom(sel, from, to));
					expect([...sel.subarray(0, n)], filter).toEqual(expected);
					// The same over the range itself (a scan's first term tests a range of rows).
					const m = scanRange(compiled.scan(c), sel, from, to);
					expect([...sel.subarray(0, m)], `${filter} over [${from}, ${to})`).toEqual(expected);
					expect(countRange(compiled.scan(c), sel, from, to), `${filter} counted`).toBe(n);
					kept += n;
				}
			}
			// Filters that keep something were among them (the test can fail).
			expect(kept).toBeGreaterThan(0);
		});

		it('read a byte column four rows at a time only where its bytes are aligned for it', () => {
			const rnd = random(11);
			const c = narrowed(chunkColumns(rnd, 3001, false));
			expect(c.etype).toBeInstanceOf(Uint8Array);
			// The same event types one byte into a buffer, where 32-bit words cannot be read.
			const shifted = new Uint8Array(c.etype.length + 1).subarray(1);
			shifted.set(c.etype);
			const sel = new Uint16Array(1 << 16);
			for (const filter of [
				'event:AfdReceive',
				'event:AfdS* bytes>1000',
				'bytes>1000 -event:AfdClose',
			])
				for (const etype of [c.etype, shifted]) {
					const columns = { ...c, etype };
					const compiled = compileFilter(parseFilter(filter), ctx)!;
					const test = compiled.bind(columns);
					for (const [from, to] of [
						[0, 3001],
						[1, 3000],
						[2, 7],
						[5, 6],
						[1000, 1000],
					] as const) {
						const expected: number[] = [];
						for (let i = from; i < to; i++) if (test(i)) expected.push(i);
						const n = scanRange(compiled.scan(columns), sel, from, to);
						expect([...sel.subarray(0, n)], `${filter} over [${from}, ${to})`).toEqual(expected);
					}
				}
		});

		it('run at a chunk of 65536 rows, whose last row number fills a selection entry', () => {
			const rnd = random(5);
			const c = chunkColumns(rnd, 1 << 16, false);
			for (const filter of [
				'(event:AfdReceive or bytes>1000) -pid:4',
				'event:AfdReceive bytes>1000 status',
			]) {
				const compiled = compileFilter(parseFilter(filter), ctx)!;
				const test = compiled.bind(c);
				const sel = new Uint16Array(1 << 16);
				const n = compiled.scan(narrowed(c))(sel, rowsFrom(sel, 0, 1 << 16));
				const expected: number[] = [];
				for (let i = 0; i < 1 << 16; i++) if (test(i)) expected.push(i);
				expect([...sel.subarray(0, n)], filter).toEqual(expected);
				const m = scanRange(compiled.scan(narrowed(c)), sel, 0, 1 << 16);
				expect([...sel.subarray(0, m)], filter).toEqual(expected);
				expect(countRange(compiled.scan(narrowed(c)), sel, 0, 1 << 16), filter).toBe(m);
			}
		});

		it('knows as WASM terms the tests of conjunctions of event types, ranges, flags and negations', () => {
			const c = narrowed(chunkColumns(random(3), 100, true));
			for (const filter of [
				'event:AfdS* bytes>1000',
				'bytes:999..1500 status',
				'tid<100 cpu:1',
				'event!=AfdClose bytes!=1000',
				'bytes>1000',
			])
				expect(compileFilter(parseFilter(filter), ctx)!.scan(c).terms, filter).toBeDefined();
			// Any other test keeps the whole filter in JavaScript.
			for (const filter of ['bytes>1000 port:443', 'event:AfdSend or bytes>1000', '-bytes>1000'])
				expect(compileFilter(parseFilter(filter), ctx)!.scan(c).terms, filter).toBeUndefined();
		});
	});
