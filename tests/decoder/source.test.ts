// A switchable source hands out the same bytes from whichever source stands behind it, and takes
// up the new one's synchronous reads (the decoder asks for them per buffer).
import { describe, expect, it } from 'vitest';
import {
	blockCache,
	blockPlan,
	memorySource,
	switchableSource,
	withHead,
} from '../../web/src/decoder/source.ts';
import { asyncSource } from './load.ts';

const bytes = Uint8Array.from({ length: 4096 }, (_, i) => (i * 31) & 0xff);

describe('switchableSource', () => {
	it('reads through the source in use, and back after reset', async () => {
		const s = switchableSource(asyncSource(bytes));
		expect(s.readInto).toBeUndefined();
		expect(await s.read(100, 8)).toEqual(bytes.subarray(100, 108));
		s.use(memorySource(bytes));
		const into = new Uint8Array(8);
		expect(s.readInto!(200, into)).toBe(8);
		expect(into).toEqual(bytes.subarray(200, 208));
		s.reset();
		expect(s.readInto).toBeUndefined();
	});

	it('refuses a source of another size', () => {
		const s = switchableSource(asyncSource(bytes));
		expect(() => s.use(memorySource(bytes.subarray(1)))).toThrow(
			'a source of 4095 bytes cannot stand for 4096',
		);
	});
});

/** An async source that notes each read it is asked for, as [offset, length]. */
function counted(b: Uint8Array) {
	const inner = asyncSource(b);
	const reads: [number, number][] = [];
	return {
		reads,
		source: {
			size: inner.size,
			read: (offset: number, length: number) => {
				reads.push([offset, length]);
				return inner.read(offset, length);
			},
		},
	};
}

describe('blockPlan', () => {
	for (const [first, size] of [
		[300, 1000],
		[1000, 1000],
		[1000, 3000],
		[1 << 20, 16 << 20],
		[5000, 1000],
	] as const)
		it(`tiles a file without gap or overlap, first ${first}, size ${size}`, () => {
			const plan = blockPlan(first, size);
			const end = Math.max(first, size) * 40;
			let start = 0;
			let blocks = 0;
			while (start < end) {
				const n = plan.sizeOf(start);
				expect(n).toBeGreaterThan(0);
				expect(n).toBeLessThanOrEqual(size);
				// Never more than the bytes before it (the first block aside).
				if (start > 0) expect(n).toBeLessThanOrEqual(start);
				for (const at of [start, start + (n >> 1), start + n - 1])
					expect(plan.startOf(at)).toBe(start);
				start += n;
				blocks++;
			}
			expect(plan.sizeOf(0)).toBe(Math.min(first, size));
			// Past the ramp, full-size blocks: a few more than the file's size in blocks.
			expect(blocks).toBeLessThanOrEqual(Math.ceil(end / size) + Math.log2(size) + 1);
		});
});

describe('blockCache', () => {
	it('hands out the same bytes wherever a read falls, across a smaller first block', async () => {
		const { source } = counted(bytes);
		const cache = blockCache(source, 1000, 2, 300);
		for (const [offset, length] of [
			[0, 16],
			[290, 20], // across the first block's end
			[300, 700],
			[1250, 100],
			[1290, 30], // across a block's end
			[4000, 96], // the last, short block
			[5, 3000], // larger than a block
		] as const)
			expect(await cache.read(offset, length)).toEqual(bytes.subarray(offset, offset + length));
	});

	it('reads the small first block alone at opening, then reads ahead as reading goes on', async () => {
		const { source, reads } = counted(bytes);
		const cache = blockCache(source, 1000, 4, 300);
		await cache.read(0, 64);
		expect(reads).toEqual([[0, 300]]);
		await cache.read(64, 64);
		expect(reads).toEqual([
			[0, 300],
			[300, 300],
		]);
		await cache.read(300, 64);
		// Blocks grow from the first one's size to the block size: 300, 300, 600, 1000, …
		expect(reads.at(-1)).toEqual([600, 600]);
		expect(reads).toHaveLength(3);
	});
	it('does not read ahead of a source that reads synchronously: it could not overlap the work', async () => {
		const { source, reads } = counted(bytes);
		const sync = {
			...source,
			readInto: (offset: number, target: Uint8Array) => {
				const part = bytes.subarray(offset, offset + target.length);
				target.set(part);
				return part.length;
			},
		};
		const cache = blockCache(sync, 1000, 4, 300);
		for (const offset of [0, 64, 300, 650]) {
			expect(await cache.read(offset, 64)).toEqual(bytes.subarray(offset, offset + 64));
		}
		// Only the blocks read from: 0, 300 and 600 (300, 300, 600, …).
		expect(reads).toEqual([
			[0, 300],
			[300, 300],
			[600, 600],
		]);
	});

	it('lets go of the blocks it keeps when told, through a switchable source, and reads them again', async () => {
		const { source, reads } = counted(bytes);
		const cache = blockCache(source, 1000, 4, 300);
		const switchable = switchableSource(cache);
		switchable.use(memorySource(bytes));
		const firstBlock = () => reads.filter(([at]) => at === 0).length;
		expect(await cache.read(0, 64)).toEqual(bytes.subarray(0, 64));
		await cache.read(0, 64);
		expect(firstBlock()).toBe(1);
		switchable.forget!();
		expect(await cache.read(0, 64)).toEqual(bytes.subarray(0, 64));
		expect(firstBlock()).toBe(2);
	});

	it('starts with a first block of at most 1 MiB unless told otherwise', async () => {
		const big = new Uint8Array(3 << 20);
		const { source, reads } = counted(big);
		await blockCache(source).read(0, 0x48);
		expect(reads).toEqual([[0, 1 << 20]]);
	});
});

describe('withHead', () => {
	it('reads the head from the head source and the rest from the source', async () => {
		const head = counted(bytes);
		const rest = counted(bytes);
		const s = withHead(rest.source, head.source, 1024);
		expect(s.size).toBe(bytes.length);
		expect(await s.read(0, 1024)).toEqual(bytes.subarray(0, 1024));
		expect(await s.read(1000, 100)).toEqual(bytes.subarray(1000, 1100));
		expect(head.reads).toEqual([[0, 1024]]);
		expect(rest.reads).toEqual([[1000, 100]]);
	});
});
