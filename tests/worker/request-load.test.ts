// The import lets the page's requests in while any is being answered; a request that only waits
// for the import (its first rows) must not count meanwhile, or it slows down what it waits for.
import { describe, expect, it } from 'vitest';
import { RequestLoad } from '../../web/src/worker/request-load.ts';

function later<T>() {
	let resolve!: (v: T) => void;
	const promise = new Promise<T>((r) => (resolve = r));
	return { promise, resolve };
}

describe('RequestLoad', () => {
	it('counts a request while it is answered, and not after', async () => {
		const load = new RequestLoad();
		const gate = later<number>();
		const ask = load.answer(async (x: number) => x + (await gate.promise));
		const answer = ask(1);
		expect(load.waiting).toBe(true);
		gate.resolve(2);
		expect(await answer).toBe(3);
		expect(load.waiting).toBe(false);
	});

	it('does not count a request while it is parked, and counts it again after', async () => {
		const load = new RequestLoad();
		const firstRows = later<string>();
		const rest = later<void>();
		const states: boolean[] = [];
		const ask = load.answer(async () => {
			states.push(load.waiting);
			const rows = await load.park(firstRows.promise);
			states.push(load.waiting);
			await rest.promise;
			return rows;
		});
		const answer = ask();
		await Promise.resolve();
		expect(load.waiting).toBe(false);
		firstRows.resolve('rows');
		await new Promise((r) => setTimeout(r, 0));
		expect(load.waiting).toBe(true);
		rest.resolve();
		expect(await answer).toBe('rows');
		expect(states).toEqual([true, true]);
		expect(load.waiting).toBe(false);
	});

	it('goes on counting other requests while one is parked, and stays whole when one fails', async () => {
		const load = new RequestLoad();
		const parked = later<void>();
		const other = later<void>();
		const a = load.answer(() => load.park(parked.promise))();
		const b = load.answer(() => other.promise)();
		expect(load.waiting).toBe(true);
		other.resolve();
		await b;
		expect(load.waiting).toBe(false);
		const failing = load.answer(async () => {
			throw new Error('no');
		})();
		await expect(failing).rejects.toThrow('no');
		parked.resolve();
		await a;
		expect(load.waiting).toBe(false);
	});
});
