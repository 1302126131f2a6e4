// Frames the fuzzer made (tests/fuzz): what they lie about stays inside the frame and its
// numbers stay sane. An IPv6 fragment header past the payload length once gave a negative payload
// (payload_bytes -8 in `sockscope packets`) instead of a malformed frame, and a frame read past
// its end was malformed at an offset outside it.
import { describe, expect, it } from 'vitest';
import { dissect } from '../../web/src/packets/dissect.ts';
import { english } from '../../web/src/i18n/render.ts';
import { ethernet, ipv6, udp } from '../builders/frames.ts';

/** IPv6 whose payload length is `plen`, with a fragment header (offset `offset`) then `next`. */
function fragmented(plen: number, offset: number, next: number): Uint8Array {
	const frag = [next, 0, (offset >> 8) & 0xff, offset & 0xf8, 0, 0, 0, 1];
	const b = ethernet(
		0x86dd,
		ipv6('2001:db8::1', '2001:db8::2', 44, [...frag, ...udp(5000, 6000, [])]),
	);
	b[14 + 4] = plen >> 8;
	b[14 + 5] = plen & 0xff;
	return b;
}

describe('dissect: a frame malformed past its end', () => {
	it('is malformed at its end: DNS questions counted past the message', () => {
		// From the fuzzer (made/packets-4k, mutated): 257 questions in a 75-byte frame.
		const frame = Uint8Array.from([
			2, 0, 0, 0, 0, 11, 2, 0, 0, 0, 0, 10, 8, 0, 69, 0, 0, 61, 18, 52, 64, 0, 128, 17, 101, 19,
			192, 168, 1, 23, 192, 168, 1, 1, 238, 72, 0, 53, 0, 41, 0, 0, 42, 42, 1, 0, 1, 1, 0, 0, 0, 0,
			0, 0, 3, 119, 119, 119, 7, 101, 0, 0, 1, 0, 1, 0, 0, 0, 16, 32, 0, 0, 0, 0, 0,
		]);
		const d = dissect(frame, 'ethernet');
		expect(d.malformed?.at).toBe(frame.length);
		expect(english(d.malformed!.what)).toBe('DNS name runs past the message');
	});
});

describe('dissect: an IPv6 fragment header past the payload length', () => {
	for (const [plen, offset, next] of [
		[0, 0, 99],
		[0, 8, 17],
		[4, 0, 17],
	] as const)
		it(`payload length ${plen}, fragment offset ${offset}, next header ${next}`, () => {
			const d = dissect(fragmented(plen, offset, next), 'ethernet');
			expect(d.payloadBytes).toBeGreaterThanOrEqual(0);
			expect(d.malformed?.at).toBe(14 + 40);
			expect(english(d.malformed!.what)).toBe('IPv6 fragment header runs past the payload');
		});

	it('a fragment header inside the payload is read as before', () => {
		const whole = fragmented(8 + 8, 0, 17);
		const d = dissect(whole, 'ethernet');
		expect(d.malformed).toBeNull();
		expect(d.layers.map((l) => l.name)).toEqual(['Ethernet', 'IPv6', 'IPv6 fragment', 'UDP']);
		const later = dissect(fragmented(8 + 100, 8, 17), 'ethernet');
		expect(later.malformed).toBeNull();
		expect(later.payloadBytes).toBe(100);
	});
});
