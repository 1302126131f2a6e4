// Opening tells a file that is no ETL trace (no buffer header at offset 0: code `format`, with
// what the file starts with) from a trace whose first buffer holds no readable trace header
// (code `damaged`): the command line exits 2 for the one and 1 for the other, the page says which.
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { NOT_ETL, openTrace } from '../../web/src/decoder/etl-file.ts';
import { describeFileStart } from '../../web/src/decoder/file-start.ts';
import { memorySource } from '../../web/src/decoder/source.ts';
import { WMI_BUFFER_HEADER } from '../../web/src/generated/layouts.ts';
import { realFixturesDir } from '../fixtures/real/sources-table.ts';
import { decoderModule, realFixture } from './load.ts';

const BUFFER_TYPE = WMI_BUFFER_HEADER.fields.find((f) => f.name === 'BufferType')!.offset;
const fixtures = readdirSync(realFixturesDir)
	.filter((f) => f.endsWith('.etl'))
	.map((f) => f.slice(0, -4));

async function failure(bytes: Uint8Array) {
	const r = await openTrace(memorySource(bytes), decoderModule(), 'x.etl');
	if (r.ok) throw new Error('expected a failure');
	return { code: r.code, error: r.error };
}

const ascii = (s: string) => new TextEncoder().encode(s);
/** `magic` (hex) followed by zeros: a file of another format's start. */
const startingWith = (magic: string) => {
	const b = new Uint8Array(4096);
	b.set(magic.match(/../g)!.map((h) => parseInt(h, 16)));
	return b;
};

describe('not an ETL trace', () => {
	it.each([
		['a pcapng capture', startingWith('0a0d0d0a1c0000004d3c2b1a01000000')],
		['a pcap capture', startingWith('d4c3b2a102000400')],
		['a .cab archive', startingWith('4d5343460000000012345678')],
		['a .zip archive', startingWith('504b0304140000000800')],
		['a gzip archive', startingWith('1f8b0800000000000003')],
		['a Windows event log (.evtx)', startingWith('456c6646696c650000000000')],
		['UTF-16 text', startingWith('fffe480065006c006c006f00')],
		[
			'text ("hello, this is not a trace hello…")',
			ascii('hello, this is not a trace\n'.repeat(10)),
		],
	])('%s is said to be one, with the reason it is no buffer header', async (what, bytes) => {
		const f = await failure(bytes);
		expect(f.code).toBe('format');
		expect(f.error.startsWith(NOT_ETL)).toBe(true);
		expect(f.error).toMatch(/^not an ETL file: buffer 0 at offset 0x0 has /);
		expect(f.error.endsWith(`; the file starts with ${what}`)).toBe(true);
		expect(describeFileStart(bytes)).toBe(what);
	});

	it('other bytes are shown in hex', () => {
		const b = Uint8Array.from({ length: 40 }, (_, i) => (i * 37 + 128) & 0xff);
		expect(describeFileStart(b)).toBe(
			`the bytes ${[...b.subarray(0, 16)].map((x) => x.toString(16).padStart(2, '0')).join(' ')} …`,
		);
	});
});

describe('a damaged trace header', () => {
	it.each(fixtures)(
		'%s with buffer 0 no longer a header buffer: damaged, not foreign',
		async (name) => {
			const b = realFixture(name).slice();
			new DataView(b.buffer).setUint16(BUFFER_TYPE, 1, true);
			const f = await failure(b);
			expect(f).toEqual({
				code: 'damaged',
				error:
					'the trace header cannot be read: buffer 0 at offset 0x0 has BufferType 1, not 4 (the trace header buffer)',
			});
		},
	);

	it('a buffer from the middle of a trace is a trace without its header', async () => {
		const f = await failure(realFixture('krabsetw-powershell-manifest').slice(8192, 16384));
		expect(f.code).toBe('damaged');
		expect(f.error).toMatch(/^the trace header cannot be read: .*BufferType 0, not 4/);
	});

	it.each(fixtures)('%s as it is opens', async (name) => {
		const r = await openTrace(memorySource(realFixture(name)), decoderModule(), 'x.etl');
		expect(r.ok).toBe(true);
	});
});
