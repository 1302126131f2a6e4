// Memory freed at once: the buffer is detached where the runtime can detach it, left alone where
// it cannot (a WebAssembly memory's, a runtime without ArrayBuffer.transfer), and arrays small
// enough to live on the JS heap are not asked for their buffer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freeBufferNow, freeNow } from '../../web/src/lib/free-memory.ts';
import { withTransfer } from '../builders/transfer.ts';

describe('freeNow', () => {
	let remove = () => {};
	beforeAll(() => void (remove = withTransfer()));
	afterAll(() => remove());

	it('detaches the buffer of an array, and every view of it', () => {
		const a = new Uint32Array(1024).fill(7);
		const view = new Uint8Array(a.buffer, 16, 32);
		freeNow(a);
		expect(a.byteLength).toBe(0);
		expect(a.buffer.byteLength).toBe(0);
		expect(view.byteLength).toBe(0);
	});

	it('leaves an array of up to 64 bytes as it is', () => {
		const small = new Uint8Array(64).fill(1);
		freeNow(small);
		expect(small.byteLength).toBe(64);
		expect(small[63]).toBe(1);
	});

	it('leaves a WebAssembly memory whole, without throwing', () => {
		const memory = new WebAssembly.Memory({ initial: 1 });
		expect(() => freeBufferNow(memory.buffer)).not.toThrow();
		expect(memory.buffer.byteLength).toBe(65536);
	});
});

describe('freeNow where ArrayBuffer has no transfer', () => {
	it('leaves the array to the collector', () => {
		const proto = ArrayBuffer.prototype as unknown as { transfer?: unknown };
		const had = Object.getOwnPropertyDescriptor(proto, 'transfer');
		if (had) delete proto.transfer;
		try {
			const a = new Float64Array(512).fill(1.5);
			freeNow(a);
			expect(a.byteLength).toBe(4096);
			expect(a[511]).toBe(1.5);
		} finally {
			if (had) Object.defineProperty(proto, 'transfer', had);
		}
	});
});
