// Files handed over by the OS through window.launchQueue (Chromium), and what the page learns
// when the browser has none (Firefox, Safari): the storage panel then says Explorer cannot reach it.
import { describe, expect, it } from 'vitest';
import { consumeLaunchQueue } from '../../web/src/pwa/launch-queue.ts';

const fileHandle = (file: File) =>
	({ kind: 'file', name: file.name, getFile: async () => file }) as unknown as FileSystemHandle;

describe('consumeLaunchQueue', () => {
	it('says false where the browser has no launchQueue, and never calls back', () => {
		const calls: File[][] = [];
		expect(consumeLaunchQueue({} as Window, (files) => calls.push(files))).toBe(false);
		expect(calls).toEqual([]);
	});

	it('hands over the files of a launch, skipping folders and files that went away', async () => {
		let consumer: ((params: LaunchParams) => unknown) | null = null;
		const target = { launchQueue: { setConsumer: (c: typeof consumer) => (consumer = c) } };
		const got: File[][] = [];
		expect(consumeLaunchQueue(target as unknown as Window, (files) => got.push(files))).toBe(true);
		const a = new File([new Uint8Array(4)], 'a.etl');
		const gone = {
			kind: 'file',
			name: 'gone.etl',
			getFile: async () => {
				throw new DOMException('moved', 'NotFoundError');
			},
		} as unknown as FileSystemHandle;
		const folder = { kind: 'directory', name: 'traces' } as unknown as FileSystemHandle;
		const warn = console.warn;
		console.warn = () => {};
		try {
			await consumer!({ files: [folder, gone, fileHandle(a)] });
		} finally {
			console.warn = warn;
		}
		expect(got.map((files) => files.map((f) => f.name))).toEqual([['a.etl']]);
		// A launch without files (the app opened from its icon) hands over nothing.
		await consumer!({ files: [] });
		expect(got).toHaveLength(1);
	});
});
