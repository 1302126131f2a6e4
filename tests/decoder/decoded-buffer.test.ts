// A large buffer decoded in slices (decodeSlice) gives the same records as decoded whole: the same
// times, kinds, absolute record offsets, payloads and fields, whether the walk goes on in the
// decoder or has to open the buffer again (another buffer decoded in between).
import { describe, expect, it } from 'vitest';
import { RecordOut } from '../../web/src/generated/layouts.ts';
import {
	decodeBuffer,
	decodeSlice,
	type DecodedBuffer,
} from '../../web/src/decoder/decoded-buffer.ts';
import { indexBuffers, openTrace, type OpenTrace } from '../../web/src/decoder/etl-file.ts';
import { ProviderTable, recordJson } from '../../web/src/decoder/record-json.ts';
import { busyEvent } from '../builders/busy-event.ts';
import { EtlWriter } from '../builders/etl-writer.ts';
import { filetimeFromIso } from '../builders/bytes.ts';
import { asyncSource, decoderModule, open } from './load.ts';

/** Two CPUs' worth of Winsock events, one 256 KiB buffer each (compressed or not). */
const made = new Map<boolean, Uint8Array>();
function bigBuffers(compress: boolean): Uint8Array {
	const known = made.get(compress);
	if (known) return known;
	const w = new EtlWriter({ cpus: 2, bufferSize: 256 << 10, compress });
	let t = filetimeFromIso('2026-03-14T09:26:54Z');
	for (let n = 0; n < 1500; n++) w.addAfd(busyEvent(n, n % 2, (t += 37n), 40));
	const bytes = w.finish().bytes;
	made.set(compress, bytes);
	return bytes;
}

let providers: ProviderTable | null = null;

/** What a record says, offsets made absolute: equal for a slice and the whole buffer. */
function described(trace: OpenTrace, b: DecodedBuffer, i: number): string {
	const r = recordJson(b, i, trace, (providers ??= new ProviderTable(trace)));
	return JSON.stringify([r, b.u32(i, RecordOut.recordOffset) + b.offsetBase]);
}

/** Another buffer decoded before every slice, before the second only, or never. */
type Interleave = 'always' | 'once' | 'never';

async function sliced(trace: OpenTrace, bytes: number, interleave: Interleave): Promise<string[]> {
	const index = await indexBuffers(trace);
	const [, a, other] = index.buffers;
	const out: string[] = [];
	let slice = await decodeSlice(trace, a!, null, bytes);
	let slices = 1;
	for (;;) {
		for (let i = 0; i < slice.count; i++) out.push(described(trace, slice, i));
		if (!slice.next) break;
		// Another buffer decoded meanwhile: the next slice opens `a` again (only the part it needs
		// when uncompressed, up to twice its start when compressed); the walk goes on from there.
		if (interleave === 'always' || (interleave === 'once' && slices === 1))
			await decodeBuffer(trace, other!);
		slice = await decodeSlice(trace, a!, slice.next, bytes, slice);
		slices++;
	}
	expect(slices).toBeGreaterThan(4);
	return out;
}

describe('decodeSlice', () => {
	for (const compress of [false, true])
		for (const interleave of ['never', 'always', 'once'] as const)
			it(`${compress ? 'compressed' : 'uncompressed'}, another buffer decoded between slices: ${interleave}`, async () => {
				const trace = await open(bigBuffers(compress));
				providers = null;
				const index = await indexBuffers(trace);
				const whole = await decodeBuffer(trace, index.buffers[1]!);
				const expected = Array.from({ length: whole.count }, (_, i) => described(trace, whole, i));
				expect(whole.count).toBeGreaterThan(200);
				expect(await sliced(trace, 4 << 10, interleave)).toEqual(expected);
			});

	for (const compress of [false, true])
		it(`${compress ? 'compressed' : 'uncompressed'}, read as a browser File is (no synchronous reads)`, async () => {
			const bytes = bigBuffers(compress);
			const trace = await open(bytes);
			providers = null;
			const index = await indexBuffers(trace);
			const whole = await decodeBuffer(trace, index.buffers[1]!);
			const expected = Array.from({ length: whole.count }, (_, i) => described(trace, whole, i));
			const opened = await openTrace(asyncSource(bytes), decoderModule(), 'trace.etl');
			if (!opened.ok) throw new Error(opened.error);
			providers = null;
			expect(await sliced(opened.value, 4 << 10, 'always')).toEqual(expected);
		});

	it('a buffer within the slice size is decoded whole', async () => {
		const trace = await open(bigBuffers(false));
		const index = await indexBuffers(trace);
		const b = await decodeSlice(trace, index.buffers[1]!, null, 1 << 20);
		expect(b.next).toBe(null);
		expect(b.offsetBase).toBe(0);
		expect(b.count).toBe((await decodeBuffer(trace, index.buffers[1]!)).count);
	});
});
