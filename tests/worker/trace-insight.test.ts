// The process names the analyst views ask for while an import runs come from what the import
// has learned so far: no row is selected and no process event read again from the file (each
// refresh of the table's colouring rules did, and the import, letting requests in, waited).
import { describe, expect, it } from 'vitest';
import type { LiveTrace } from '../../web/src/worker/live-trace.ts';
import { TraceInsight } from '../../web/src/worker/trace-insight.ts';

function liveTrace(names: Map<number, string>) {
	const selected: string[] = [];
	const live = {
		engine: {
			recordFields: null,
			select: async (filter: string) => {
				selected.push(filter);
				throw new Error('the whole trace was read');
			},
		},
		tables: { processNames: names },
		chunks: () => [{ rows: 10 }],
	};
	return { live: live as unknown as LiveTrace, selected };
}

const noModule = () => Promise.reject(new Error('no decoder'));

describe('process names during an import', () => {
	it('are those learned so far, without reading the trace', async () => {
		const names = new Map([[1204, 'chrome.exe']]);
		const { live, selected } = liveTrace(names);
		const insight = new TraceInsight(live, noModule);
		expect(await insight.processNames(true)).toEqual(new Map([[1204, 'chrome.exe']]));
		// Learned later: the next answer has them.
		names.set(88, 'svchost.exe');
		expect((await insight.processNames(true)).get(88)).toBe('svchost.exe');
		expect(selected).toEqual([]);
	});

	it('of a complete trace read its rows', async () => {
		const { live, selected } = liveTrace(new Map());
		const insight = new TraceInsight(live, noModule);
		await expect(insight.processNames(false)).rejects.toThrow('the whole trace was read');
		expect(selected).toEqual(['']);
	});
});
