// Why a file does not open, as a message: its English is the failure's own (what the CLI
// prints), its Chinese says the same with no English word but the header fields it names.
import { describe, expect, it } from 'vitest';
import { openTrace } from '../../web/src/decoder/etl-file.ts';
import { memorySource } from '../../web/src/decoder/source.ts';
import { WMI_BUFFER_HEADER } from '../../web/src/generated/layouts.ts';
import { english, textIn, type Msg } from '../../web/src/i18n/render.ts';
import { latinWords } from '../i18n/latin-words.ts';
import { decoderModule, realFixture } from './load.ts';

const BUFFER_TYPE = WMI_BUFFER_HEADER.fields.find((f) => f.name === 'BufferType')!.offset;
const ascii = (s: string) => new TextEncoder().encode(s);
const startingWith = (magic: string, length = 4096) => {
	const b = new Uint8Array(length);
	b.set(magic.match(/../g)!.map((h) => parseInt(h, 16)));
	return b;
};
const notHeaderBuffer = () => {
	const b = realFixture('krabsetw-powershell-manifest').slice();
	new DataView(b.buffer).setUint16(BUFFER_TYPE, 1, true);
	return b;
};

/** Files that do not open, each for a reason of its own, and what the Chinese must say. */
const files: [string, Uint8Array, RegExp][] = [
	['empty', new Uint8Array(0), /^不是 ETL 文件：文件为空$/],
	['three bytes', ascii('abc'), /^不是 ETL 文件：文件只有 3 字节.*文件开头：文本（"abc"）$/],
	['text', ascii('hello, no trace\n'.repeat(20)), /缓冲区 0（偏移 0x0）.*；文件开头：文本（"hello/],
	['a pcapng capture', startingWith('0a0d0d0a1c0000004d3c2b1a'), /；文件开头：pcapng 捕获文件$/],
	['a .cab archive', startingWith('4d534346'), /；文件开头：\.cab 压缩包$/],
	['a .zip archive', startingWith('504b0304'), /；文件开头：\.zip 压缩包$/],
	['a gzip archive', startingWith('1f8b08'), /；文件开头：gzip 压缩包$/],
	['a 7-Zip archive', startingWith('377abcaf271c'), /；文件开头：7-Zip 压缩包$/],
	['an event log', startingWith('456c6646696c6500'), /；文件开头：Windows 事件日志（\.evtx）$/],
	['a PDF', startingWith('25504446'), /；文件开头：PDF 文档$/],
	['UTF-16 text', startingWith('fffe4800'), /；文件开头：UTF-16 文本$/],
	['UTF-8 text', startingWith('efbbbf48'), /；文件开头：UTF-8 文本$/],
	[
		'other bytes',
		Uint8Array.from({ length: 40 }, (_, i) => (i * 37 + 128) & 0xff),
		/；文件开头：字节 80 a5 ca ef .* …$/,
	],
	[
		'a trace without its header buffer',
		notHeaderBuffer(),
		/^无法读取跟踪标头：缓冲区 0（偏移 0x0）的 BufferType 为 1，而不是 4/,
	],
	[
		'a buffer from the middle of a trace',
		realFixture('krabsetw-powershell-manifest').slice(8192, 16384),
		/^无法读取跟踪标头：缓冲区 0（偏移 0x0）的 BufferType 为 0/,
	],
];

describe('why a file does not open, in the reader’s language', () => {
	it.each(files)('%s', async (_, bytes, chinese) => {
		const r = await openTrace(memorySource(bytes), decoderModule(), 'x.etl');
		if (r.ok) throw new Error('expected a failure');
		expect(r.message).toBeDefined();
		const m = r.message as Msg;
		expect(english(m)).toBe(r.error);
		const zh = textIn('zh', m);
		expect(zh).toMatch(chinese);
		// The sample of a text file and the bytes in hex are data: left out.
		const prose = zh.replace(/"[^"]*"/g, ' ').replace(/字节( [0-9a-f]{2})+/g, ' ');
		expect(
			latinWords(
				[prose],
				[
					'BufferSize',
					'BufferType',
					'Offset',
					'TRACE_LOGFILE_HEADER',
					'pcap',
					'cab',
					'zip',
					'gzip',
					'Zip',
					'evtx',
					'PDF',
					'UTF',
				],
			),
		).toEqual([]);
	});
});
