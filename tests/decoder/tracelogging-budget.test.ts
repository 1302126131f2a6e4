// TraceLogging fields stay within the event's value budget: metadata that nests struct arrays
// (whose members may take no payload) stops at the budget with a problem, keeping what was read
// before; ordinary arrays as large as their payload decode whole.
import { describe, expect, it } from 'vitest';
import {
	decodeTraceLogging,
	EXT_EVENT_SCHEMA_TL,
	MAX_VALUES_PER_EVENT,
	valueBudget,
} from '../../web/src/decoder/tracelogging.ts';
import { utf8z } from '../builders/bytes.ts';
import { english, render, type Msg } from '../../web/src/i18n/render.ts';

/** An image holding the metadata then the payload, and the items pointing into it. */
function event(fields: number[], payload: Uint8Array) {
	const meta = Uint8Array.from([0, 0, 0, ...utf8z('E'), ...fields]);
	new DataView(meta.buffer).setUint16(0, meta.length, true);
	const image = new Uint8Array(meta.length + payload.length);
	image.set(meta);
	image.set(payload, meta.length);
	return decodeTraceLogging(
		image,
		[{ type: EXT_EVENT_SCHEMA_TL, offset: 0, size: meta.length }],
		meta.length,
		payload.length,
	);
}

const u16 = (n: number) => [n & 0xff, n >>> 8];

describe('TraceLogging value budget', () => {
	it('a struct array of struct arrays of empty structs stops at the budget', () => {
		// "first": a u8 read before; "outer": 65535 × { "inner": 65535 × { } }.
		const tl = event(
			[
				...utf8z('first'),
				4,
				...utf8z('outer'),
				24 | 0x20 | 0x80,
				1,
				...u16(65535),
				...utf8z('inner'),
				24 | 0x20 | 0x80,
				0,
				...u16(65535),
			],
			Uint8Array.of(7),
		);
		expect(tl.overBudget).toBe(true);
		expect(tl.problem).toBe(
			`field "outer" would take the event past its budget of ${valueBudget(1)} values (payload of 1 bytes)`,
		);
		expect(tl.fields).toEqual({ first: 7 });
		// The details pane says it in the reader's language.
		expect(english(tl.problemText as Msg)).toBe(tl.problem);
		expect(render('zh', tl.problemText as Msg)).toBe(
			`字段 "outer" 会使该事件超出 ${valueBudget(1)} 个值的上限（有效负载 1 字节）`,
		);
	});

	it('metadata or a payload that cannot be read is a message too', () => {
		// "text": an ANSI string (2) whose payload has no terminating zero; "n": an InType of 31.
		const cut = event([...utf8z('text'), 2], Uint8Array.of(0x41, 0x42));
		expect(cut.problem).toBe('unterminated string');
		expect(render('zh', cut.problemText as Msg)).toBe('字符串没有结束符');
		const odd = event([...utf8z('n'), 31], Uint8Array.of(1));
		expect(odd.problem).toBe('unsupported InType 31');
		expect(render('zh', odd.problemText as Msg)).toBe('不支持的 InType 31');
		const short = event([...utf8z('n'), 8], Uint8Array.of(1));
		expect(short.problem).toBe('ended early');
		expect(english(short.problemText as Msg)).toBe('ended early');
		expect(render('zh', short.problemText as Msg)).toMatch(/提前结束/);
	});

	it('a byte array as long as its payload decodes whole', () => {
		const n = 60_000;
		const payload = new Uint8Array(2 + n);
		new DataView(payload.buffer).setUint16(0, n, true);
		for (let i = 0; i < n; i++) payload[2 + i] = i & 0xff;
		// "bytes": UINT8 (4) with a variable count (0x40).
		const tl = event([...utf8z('bytes'), 4 | 0x40], payload);
		expect(tl.problem).toBeNull();
		expect((tl.fields.bytes as number[]).length).toBe(n);
		expect(valueBudget(payload.length)).toBeGreaterThanOrEqual(n);
		expect(valueBudget(1 << 20)).toBe(MAX_VALUES_PER_EVENT);
	});
});
