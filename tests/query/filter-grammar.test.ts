// The filter grammar Wireshark users type, over the bundled sample: each spelling selects the
// same rows as the short form it stands for; payload fields by name select what the decoded
// records say; the engine (the web app's queries) and `sockscope decode --filter` agree.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { recordDecoder } from '../../web/src/decoder/single-record.ts';
import { ingestToMemory, type MemoryTrace } from '../builders/memory-chunks.ts';
import { QueryEngine } from '../../web/src/query/engine.ts';
import { FilterError, formatFilter, parseFilter } from '../../web/src/query/filter-parser.ts';
import { compileFilter } from '../../web/src/query/filter-compile.ts';
import { RecordReader } from '../../web/src/worker/record-reader.ts';
import { decoderModule, open } from '../decoder/load.ts';
import { sockscope } from '../cli/run.ts';
import { AFD_TEXT_ZH } from '../../web/src/decoder/afd-titles.ts';

const samplePath = join(import.meta.dirname, '../../public/sample.etl');

interface Line {
	name: string | null;
	provider: string | null;
	fields: Record<string, unknown>;
}

let mem: MemoryTrace;
let engine: QueryEngine;
let all: Line[];

beforeAll(async () => {
	const trace = await open(new Uint8Array(readFileSync(samplePath)), 'sample.etl');
	mem = await ingestToMemory(trace);
	engine = new QueryEngine(mem.chunks, mem.context);
	const reader = new RecordReader(
		{ engine, records: mem.records },
		recordDecoder(decoderModule(), trace.facts),
		trace.facts,
	);
	engine.recordFields = (chunk, rows) => reader.fields(chunk, rows);
	all = (await sockscope('decode', samplePath)).stdout
		.trim()
		.split('\n')
		.map((l) => JSON.parse(l) as Line);
});

const count = async (filter: string) => (await engine.select(filter)).matched;

const errorOf = (src: string) => {
	try {
		compileFilter(parseFilter(src), mem.context());
	} catch (e) {
		if (e instanceof FilterError) return { message: e.message, at: e.at };
		throw e;
	}
	return null;
};

describe('Wireshark spellings', () => {
	it.each([
		['rport == 443', 'rport:443'],
		['rport eq 443', 'rport:443'],
		['rport != 443', 'rport!=443'],
		['bytes >= 1000', 'bytes>=1000'],
		['status:error && event:AfdConnect*', 'status:error event:AfdConnect*'],
		['status:error and event:AfdConnect*', 'status:error event:AfdConnect*'],
		['event:AfdConnect* || event:AfdAccept*', 'event:AfdConnect* or event:AfdAccept*'],
		['!status:error', '-status:error'],
		['not status:error', '-status:error'],
		['!(rport == 443 || rport == 80)', '-(rport:443 or rport:80)'],
		['rport in {80 443}', 'rport:80 or rport:443'],
		['rport in {80, 443}', 'rport:80 or rport:443'],
		['rport:{80,443}', 'rport:80 or rport:443'],
		['rport:8000..8100', 'rport>=8000 rport<=8100'],
		['rport in {53 8000..8100}', 'rport:53 or (rport>=8000 rport<=8100)'],
		['event contains connect', 'event:*connect*'],
		['event matches "^AfdConnect"', 'event:AfdConnect*'],
		['event ~ "Connect.*Address$"', 'event:*Connect*Address'],
		['status', 'status>=0 or status:error or status:ok'],
		['rport', 'rport!=0'],
	])('%s selects what %s does', async (wireshark, short) => {
		const [a, b] = await Promise.all([count(wireshark), count(short)]);
		expect(a).toBe(b);
	});

	it('the spellings select something in the sample (the comparisons above are not 0 = 0)', async () => {
		for (const f of ['rport:443', 'status:error event:AfdConnect*', 'rport:80 or rport:443'])
			expect(await count(f)).toBeGreaterThan(0);
	});

	it('round-trips the new forms through formatFilter', () => {
		for (const src of [
			'rport in {80 443}',
			'event contains "a b"',
			'event matches ^Afd',
			'rport==443',
		])
			expect(formatFilter(parseFilter(src))).toBe(src);
		expect(formatFilter(parseFilter('status:error && !pid:4'))).toBe('status:error -pid:4');
	});
});

describe('payload fields by name', () => {
	const decoded = (test: (f: Record<string, unknown>) => boolean) =>
		all.filter((l) => l.provider !== null && l.name !== 'TraceLogfileHeader' && test(l.fields))
			.length;

	it.each([
		['SocketType == SOCK_DGRAM', (f: Record<string, unknown>) => f.SocketTypeName === 'SOCK_DGRAM'],
		['SocketType == 2', (f: Record<string, unknown>) => f.SocketType === 2],
		[
			'sockettype != SOCK_DGRAM',
			(f: Record<string, unknown>) => 'SocketType' in f && f.SocketTypeName !== 'SOCK_DGRAM',
		],
		[
			'Backlog > 10',
			(f: Record<string, unknown>) => typeof f.Backlog === 'number' && f.Backlog > 10,
		],
		['Backlog', (f: Record<string, unknown>) => 'Backlog' in f],
		[
			'Option == SIO_UDP_CONNRESET',
			(f: Record<string, unknown>) => f.OptionName === 'SIO_UDP_CONNRESET',
		],
		[
			'Status == CONNECTION_REFUSED',
			(f: Record<string, unknown>) => f.StatusName === 'STATUS_CONNECTION_REFUSED',
		],
		[
			'Address contains "192.168.1.1"',
			(f: Record<string, unknown>) =>
				typeof f.Address === 'string' && f.Address.includes('192.168.1.1'),
		],
	] as const)('%s selects the records whose decoded fields say so', async (filter, test) => {
		const want = decoded(test);
		expect(want).toBeGreaterThan(0);
		expect(await count(filter)).toBe(want);
	});

	it('`decode --filter` prints the rows the engine selects', async () => {
		for (const filter of [
			'SocketType == SOCK_DGRAM or Backlog > 10',
			'!SocketType == SOCK_STREAM SocketType',
		]) {
			const [r, n] = await Promise.all([
				sockscope('decode', samplePath, '--filter', filter),
				count(filter),
			]);
			expect(r.code).toBe(0);
			expect(r.stdout.trim().split('\n')).toHaveLength(n);
		}
	});
});

describe('mistakes get a position and a "did you mean", not zero rows', () => {
	it.each([
		['rprot == 443', 'unknown field "rprot"; did you mean rport?', 0],
		['pid:4 procss:curl.exe', 'unknown field "procss"; did you mean process?', 6],
		['SocketTyp == SOCK_DGRAM', 'unknown field "SocketTyp"; did you mean SocketType?', 0],
		['rport = 443', 'unknown operator "="; did you mean "=="?', 6],
		['rport => 443', 'unknown operator "=>"; did you mean ">="?', 6],
		['event contain Afd', 'unknown operator "contain"; did you mean "contains"?', 6],
		[
			'SocketType == SOCK_DGRM',
			'no SocketType value is named "SOCK_DGRM"; did you mean SOCK_DGRAM?',
			14,
		],
		[
			'status:CONECTION_REFUSED',
			'no NTSTATUS is named "CONECTION_REFUSED"; did you mean CONNECTION_REFUSED?',
			7,
		],
		['pid contains 4', 'pid is a number: it takes ==, !=, <, <=, >, >=, not contains', 0],
		['event matches "("', '"(" is not a regular expression', 14],
		['rport in 443', '"in" takes a set: in {80 443}', 9],
		['rport in {80 443', 'missing "}"', 9],
	])('%s', (src, message, at) => {
		expect(errorOf(src)).toEqual({ message: `${message} (at ${at + 1})`, at });
	});

	it('plain words stay text searches', async () => {
		expect(errorOf('AfdConnect')).toBeNull();
		const n = await count('AfdConnect');
		expect(n).toBeGreaterThan(0);
		expect(n).toBe(await count('"AfdConnect"'));
	});
});

describe('event: takes the Chinese title the table shows', () => {
	it('a title selects the events of every manifest name that carries it, globs included', async () => {
		const byTitle = new Map<string, string[]>();
		for (const [name, text] of AFD_TEXT_ZH)
			if (text.title) byTitle.set(text.title, [...(byTitle.get(text.title) ?? []), name]);
		const inSample = new Set(all.map((l) => l.name));
		let tried = 0;
		for (const [title, names] of byTitle) {
			if (!names.some((n) => inSample.has(n))) continue;
			tried++;
			const expected = all.filter((l) => l.name !== null && names.includes(l.name)).length;
			expect(await count(`event:"${title}"`), title).toBe(expected);
		}
		expect(tried).toBeGreaterThan(3);
		// A glob over titles: the page's connects (ConnectIPv4/6) and AfdConnect's 套接字连接 alike.
		const titledConnect = new Set(
			[...AFD_TEXT_ZH].filter(([, t]) => t.title?.startsWith('套接字连')).map(([n]) => n),
		);
		expect(titledConnect).toContain('ConnectIPv4');
		const connects = all.filter((l) => l.name !== null && titledConnect.has(l.name));
		expect(connects.length).toBeGreaterThan(0);
		expect(await count('event:套接字连*')).toBe(connects.length);
	});
});
