// What each enter and exit of an AfdSend call is (send-nesting.ts), on one socket's threads.
import { describe, expect, it } from 'vitest';
import { AFD_LOCATIONS, type AfdLocation } from '../../web/src/generated/afd-semantics.ts';
import { doubleCounts, sendStep, type SendDepths } from '../../web/src/sockets/send-nesting.ts';

class Depths implements SendDepths {
	readonly byTid = new Map<number, number>();
	sendDepthOf(tid: number): number {
		return this.byTid.get(tid) ?? 0;
	}
	setSendDepth(tid: number, depth: number): void {
		this.byTid.set(tid, depth);
	}
}

const withBytes = (bytes: AfdLocation['bytes']) => {
	const e = Object.entries(AFD_LOCATIONS).find(([, l]) => l.bytes === bytes)!;
	return { code: Number(e[0]), loc: e[1] };
};

describe('sendStep', () => {
	it('counts the outermost enter as the request and one exit per call', () => {
		const d = new Depths();
		const steps = [
			sendStep(d, 1, false, true, false, undefined),
			sendStep(d, 1, false, true, false, undefined),
			sendStep(d, 1, true, true, false, undefined),
			sendStep(d, 1, true, true, false, undefined),
		];
		expect(steps).toEqual(['request', 'inner', 'nested', 'outcome']);
		expect(d.sendDepthOf(1)).toBe(0);
	});

	it('keeps each thread apart and leaves events that do not nest alone', () => {
		const d = new Depths();
		expect(sendStep(d, 1, false, true, false, undefined)).toBe('request');
		expect(sendStep(d, 2, false, true, false, undefined)).toBe('request');
		expect(sendStep(d, 2, true, true, false, undefined)).toBe('outcome');
		expect(sendStep(d, 3, false, false, false, undefined)).toBe('request');
		expect(sendStep(d, 3, false, false, false, undefined)).toBe('request');
		expect(d.sendDepthOf(1)).toBe(1);
		expect(d.byTid.has(3)).toBe(false);
	});

	it('lets a known Location decide over nesting, and skips a pending exit', () => {
		const count = withBytes('count').loc;
		const double = withBytes('double-count').loc;
		const nested = () => {
			const d = new Depths();
			sendStep(d, 1, false, true, false, undefined);
			sendStep(d, 1, false, true, false, undefined);
			return d;
		};
		expect(sendStep(nested(), 1, true, true, false, count)).toBe('outcome');
		expect(sendStep(nested(), 1, true, true, false, double)).toBe('skip');
		expect(sendStep(new Depths(), 1, true, true, false, double)).toBe('skip');
		const d = nested();
		expect(sendStep(d, 1, true, true, true, undefined)).toBe('skip');
		expect(d.sendDepthOf(1)).toBe(1);
	});
});

describe('doubleCounts', () => {
	it('is true at double-counting Locations only', () => {
		expect(doubleCounts(withBytes('double-count').code)).toBe(true);
		expect(doubleCounts(withBytes('count').code)).toBe(false);
		expect(doubleCounts(-1)).toBe(false);
		expect(doubleCounts(Math.max(...Object.keys(AFD_LOCATIONS).map(Number)) + 1)).toBe(false);
	});
});
