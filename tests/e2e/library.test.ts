// The trace library in real Chromium with real IndexedDB: imports survive a reload; a cancelled
// import, or one stopped by storage running out, leaves nothing stored; one interrupted by the
// page closing resumes; imports sit side by side, and free their space when deleted.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { SAMPLE_NET_ERROR_EVENTS } from '../builders/sample-net.ts';
import { launchBrowser, type Browser } from './browser.ts';
import { busyTrace, type GeneratedTrace } from './generated-traces.ts';
import { openSite, pickFile, pickFileAnew, readAlert } from './page.ts';
import { projectRoot } from './server.ts';
import { TWO_HUGE_IMPORTS_MS } from '../timeouts.ts';

const sample = join(projectRoot, 'public', 'sample.etl');
const truth = JSON.parse(
	(await import('node:fs')).readFileSync(
		join(projectRoot, 'tests/fixtures/sample/sample.truth.json'),
		'utf8',
	),
) as {
	totalRecords: number;
	processes: { pid: number; name: string; afdEvents: number }[];
	sockets: { error: string | null }[];
};
/** One failing AFD event per failed socket, and TCP/IP's own failure events. */
const errorEvents = truth.sockets.filter((s) => s.error).length + SAMPLE_NET_ERROR_EVENTS;

let browser: Browser;
/** Long enough (about 77 MB) to still be importing when the test acts. */
let long: GeneratedTrace;
/** About 230 MB: several seconds of import, so the page is surely closed before it ends. */
let huge: GeneratedTrace;

beforeAll(async () => {
	long = busyTrace(600_000, 'long');
	huge = busyTrace(1_800_000, 'huge');
	browser = await launchBrowser();
	// A fresh machine writes the traces first (seconds; cached in .cache/ afterwards).
}, 180_000);
afterAll(async () => browser?.close());

async function totalShown(page: Page): Promise<number> {
	const status = page.getByTestId('filter-status');
	await status
		.filter({ hasNotText: 'importing' })
		.filter({ hasText: 'events' })
		.waitFor({ timeout: 60_000 });
	return Number((await page.getByTestId('total-count').textContent())!.replace(/,/g, ''));
}

/** Runs a filter and reads its match count: the answer to this filter, not the one before. */
async function matchCount(page: Page, filter: string): Promise<string> {
	await page.locator('#filter-input').fill(filter);
	await page.locator('#filter-input').press('Enter');
	await page.locator(`[data-testid="filter-status"][data-filter="${filter}"]`).waitFor();
	return (await page.getByTestId('match-count').textContent())!;
}

async function libraryRow(page: Page, name: string) {
	const row = page.locator('li[data-trace-id]').filter({ hasText: name });
	await row.first().waitFor({ timeout: 30_000 });
	return row.first();
}

/** Deletes the listed trace named `name` and waits for it to leave the list. */
async function deleteTrace(page: Page, name: string): Promise<void> {
	await (await libraryRow(page, name)).getByTestId('delete-trace').click();
	await page.locator('li[data-trace-id]').filter({ hasText: name }).waitFor({ state: 'detached' });
}

/** Records in each object store of the library's database, and the copies of trace files. */
async function stored(page: Page): Promise<{ records: Record<string, number>; copies: number }> {
	return page.evaluate(async () => {
		const db = await new Promise<IDBDatabase>((resolve, reject) => {
			const r = indexedDB.open('sockscope');
			r.onsuccess = () => resolve(r.result);
			r.onerror = () => reject(r.error);
		});
		const records: Record<string, number> = {};
		for (const name of db.objectStoreNames)
			records[name] = await new Promise<number>((resolve, reject) => {
				const count = db.transaction(name).objectStore(name).count();
				count.onsuccess = () => resolve(count.result);
				count.onerror = () => reject(count.error);
			});
		db.close();
		let copies = 0;
		const root = await navigator.storage.getDirectory();
		const dir = await root.getDirectoryHandle('traces', { create: true });
		for await (const _ of (dir as unknown as { keys(): AsyncIterable<string> }).keys()) copies++;
		return { records, copies };
	});
}

const NOTHING = { traces: 0, chunks: 0, columns: 0, buffers: 0, sockets: 0 };

async function usage(page: Page): Promise<number> {
	return page.evaluate(async () => (await navigator.storage.estimate()).usage ?? 0);
}

describe('trace library', () => {
	it('an imported trace is listed after a reload and reopens with the same counts', async () => {
		const { page, errors } = await openSite(browser, inject('baseUrl'));
		await pickFile(page, sample);
		expect(await totalShown(page)).toBe(truth.totalRecords);
		// Times come back from the stored ticks after a reload: a time range counts the same.
		const inRange = () => matchCount(page, 'time>=2s time<3.5s');
		const before = await inRange();
		await page.reload();
		expect(await inRange()).toBe(before);
		await page.locator('#filter-input').fill('');
		await page.locator('#filter-input').press('Enter');
		await page.getByRole('button', { name: '← All traces' }).click();
		const row = await libraryRow(page, 'sample.etl');
		expect(await row.getAttribute('data-status')).toBe('complete');
		await row.getByTestId('open-trace').click();
		expect(await totalShown(page)).toBe(truth.totalRecords);
		await page.locator('#filter-input').fill('status:error');
		await page.locator('#filter-input').press('Enter');
		await page
			.getByTestId('filter-status')
			.filter({ hasText: new RegExp(`^\\s*${errorEvents} of`) })
			.waitFor();
		// Details after the reload decode the record again from the library's copy of the file.
		await page.locator('[data-position="0"]').click();
		const status = page.getByTestId('details').locator('[data-field="Status"]');
		expect(await status.textContent()).toMatch(/0xc0000[0-9a-f]{3}/i);
		const copy = await page.evaluate(async () => {
			const dir = await (await navigator.storage.getDirectory()).getDirectoryHandle('traces');
			const sizes: number[] = [];
			for await (const handle of (
				dir as unknown as { values(): AsyncIterable<FileSystemFileHandle> }
			).values())
				sizes.push((await handle.getFile()).size);
			return sizes;
		});
		expect(copy).toContain((await import('node:fs')).statSync(sample).size);
		expect(errors).toEqual([]);
		await page.close();
	});

	it('reads chunks stored one record per column, as they were before their columns went into one Blob', async () => {
		const { page, errors } = await openSite(browser, inject('baseUrl'));
		await pickFileAnew(page, sample);
		expect(await totalShown(page)).toBe(truth.totalRecords);
		const counts = async () => {
			const shown: string[] = [];
			for (const filter of ['status:error', 'time>=2s time<3.5s', 'port:443', ''])
				shown.push(await matchCount(page, filter));
			return shown;
		};
		const before = await counts();
		// Each chunk's Blob becomes one record per column; the chunk summary loses its Blob.
		const rewritten = await page.evaluate(
			() =>
				new Promise<number>((resolve, reject) => {
					const r = indexedDB.open('sockscope');
					r.onerror = () => reject(r.error);
					r.onsuccess = async () => {
						const db = r.result;
						const read = db.transaction('chunks').objectStore('chunks').getAll();
						await new Promise((done) => (read.onsuccess = done));
						const chunks = read.result as {
							traceId: number;
							index: number;
							data?: Blob;
							blobs?: Blob[];
							parts?: {
								name: string;
								offset: number;
								length: number;
								stored?: string;
								blob?: number;
							}[];
						}[];
						const columns: object[] = [];
						for (const c of chunks)
							for (const p of c.parts ?? [])
								columns.push({
									traceId: c.traceId,
									chunk: c.index,
									name: p.name,
									data: await (p.blob ? c.blobs![p.blob - 1]! : c.data!)
										.slice(p.offset, p.offset + p.length)
										.arrayBuffer(),
									...(p.stored ? { stored: p.stored } : {}),
								});
						const tx = db.transaction(['chunks', 'columns'], 'readwrite');
						for (const c of columns) tx.objectStore('columns').put(c);
						for (const c of chunks) {
							delete c.data;
							delete c.blobs;
							delete c.parts;
							tx.objectStore('chunks').put(c);
						}
						tx.oncomplete = () => {
							db.close();
							resolve(columns.length);
						};
						tx.onerror = () => reject(tx.error);
					};
				}),
		);
		expect(rewritten).toBeGreaterThan(10);
		await page.reload();
		expect(await totalShown(page)).toBe(truth.totalRecords);
		expect(await counts()).toEqual(before);
		expect(errors).toEqual([]);
		await page.close();
	});

	it('sweeps copies left without their trace, but not one of a trace added since the listing', async () => {
		const { page, errors } = await openSite(browser, inject('baseUrl'));
		await pickFileAnew(page, sample);
		expect(await totalShown(page)).toBe(truth.totalRecords);
		const copies = () =>
			page.evaluate(async () => {
				const dir = await (await navigator.storage.getDirectory()).getDirectoryHandle('traces');
				const names: string[] = [];
				for await (const name of (dir as unknown as { keys(): AsyncIterable<string> }).keys())
					names.push(name);
				return names;
			});
		// No trace is numbered 0 (ids start at 1); one numbered above every trace is one being
		// added while the library was listed.
		await page.evaluate(async () => {
			const dir = await (await navigator.storage.getDirectory()).getDirectoryHandle('traces');
			for (const name of ['0.etl', '999999.etl']) {
				const w = await (await dir.getFileHandle(name, { create: true })).createWritable();
				await w.write('not a trace');
				await w.close();
			}
		});
		// A new session sweeps once its library is listed.
		await page.reload();
		await expect.poll(copies).not.toContain('0.etl');
		expect(await copies()).toContain('999999.etl');
		await page.evaluate(async () => {
			const dir = await (await navigator.storage.getDirectory()).getDirectoryHandle('traces');
			await dir.removeEntry('999999.etl');
		});
		expect(errors).toEqual([]);
		await page.close();
	});

	it('reopens a trace without Winsock events, whose socket columns were not stored', async () => {
		const { page, errors } = await openSite(browser, inject('baseUrl'));
		const kernel = join(projectRoot, 'tests/fixtures/real/tx-win7-kernel-network.etl');
		await pickFile(page, kernel);
		const total = await totalShown(page);
		const before = [
			await matchCount(page, 'pid>4'),
			await matchCount(page, 'rport:443 or bytes>0'),
		];
		await page.reload();
		expect(await totalShown(page)).toBe(total);
		expect([
			await matchCount(page, 'rport:443 or bytes>0'),
			await matchCount(page, 'pid>4'),
		]).toEqual(before.reverse());
		await page.locator('[data-position="0"] [role=gridcell]').first().waitFor();
		expect(errors).toEqual([]);
		await page.close();
	});

	it('shows first rows before a long import ends, and Cancel stops it, keeping nothing', async () => {
		// A profile of its own: nothing else is stored in it.
		const own = await launchBrowser();
		const { page, errors } = await openSite(own, inject('baseUrl'));
		await pickFile(page, huge.path);
		await page.getByTestId('import-progress').waitFor();
		await page.locator('[data-position="0"] [role=gridcell]').first().waitFor({ timeout: 30_000 });
		// The worker tells the view as more is stored: the count grows while importing.
		const count = async () =>
			Number((await page.getByTestId('total-count').textContent())!.replace(/,/g, ''));
		const first = await count();
		await expect.poll(count).toBeGreaterThan(first);
		// The timeline charts what is stored so far, not the first report's empty span.
		const charted = async () => {
			const label = (await page.getByTestId('timeline-plot').getAttribute('aria-label')) ?? '';
			return Number(/^([\d,]+) events/.exec(label)?.[1]?.replace(/,/g, '') ?? 0);
		};
		await expect.poll(charted, { timeout: 30_000 }).toBeGreaterThan(first);
		// Chunks are stored by now, and the copy of the file is being written.
		expect((await stored(page)).records.chunks).toBeGreaterThan(0);
		await page.getByRole('button', { name: 'Cancel' }).click();
		await page.getByTestId('import-progress').waitFor({ state: 'detached', timeout: 30_000 });
		// Back to the library, where it is not listed; nothing of it is left in storage.
		await page.getByRole('heading', { level: 1, name: 'Sockscope' }).waitFor();
		await expect.poll(() => page.locator('li[data-trace-id]').count()).toBe(0);
		await expect.poll(() => stored(page)).toEqual({ records: NOTHING, copies: 0 });
		expect(await page.getByRole('alert').count()).toBe(0);
		expect(errors).toEqual([]);
		await own.close();
	});

	/** Imports `huge` in a page closed mid-import; a new page, and the trace listed as interrupted. */
	async function interruptedImport() {
		const first = await openSite(browser, inject('baseUrl'));
		await pickFile(first.page, huge.path);
		// Close as soon as events are being stored (after the file's buffers are indexed), seconds
		// before the import could finish.
		await first.page.getByTestId('import-records').waitFor({ timeout: 30_000 });
		await first.page.close();
		const opened = await openSite(browser, inject('baseUrl'));
		const row = await libraryRow(opened.page, 'huge-');
		expect(await row.getAttribute('data-status')).toBe('interrupted');
		return { ...opened, row };
	}

	it(
		'a page closed mid-import leaves an interrupted trace that Resume completes',
		async () => {
			const { page, errors, row } = await interruptedImport();
			await row.getByTestId('resume-input').setInputFiles(huge.path);
			expect(await totalShown(page)).toBe(huge.records);
			// The same file imported afresh gives the same counts for a filter.
			await page.locator('#filter-input').fill('event:AfdSend bytes>700');
			await page.locator('#filter-input').press('Enter');
			await page.getByTestId('filter-status').filter({ hasText: /of/ }).waitFor();
			const resumed = await page.getByTestId('match-count').textContent();
			await pickFile(page, huge.path);
			// The library holds this file already: asked, the user imports it again.
			await page.getByRole('button', { name: 'Import again' }).click();
			expect(await totalShown(page)).toBe(huge.records);
			await page.locator('#filter-input').fill('event:AfdSend bytes>700');
			await page.locator('#filter-input').press('Enter');
			await page.getByTestId('filter-status').filter({ hasText: /of/ }).waitFor();
			expect(await page.getByTestId('match-count').textContent()).toBe(resumed);
			await page.getByRole('button', { name: '← All traces' }).click();
			// Two imports of the same file sit side by side; deleting both frees their space.
			const rows = page.locator('li[data-trace-id]').filter({ hasText: 'huge-' });
			expect(await rows.count()).toBe(2);
			const before = await usage(page);
			while ((await rows.count()) > 0) {
				const n = await rows.count();
				await rows.first().getByTestId('delete-trace').click();
				await expect.poll(() => rows.count()).toBe(n - 1);
			}
			await expect.poll(() => usage(page)).toBeLessThan(before);
			expect(errors).toEqual([]);
			await page.close();
		},
		TWO_HUGE_IMPORTS_MS,
	);

	it('an import interrupted under another version is not resumed, and the page says why', async () => {
		const { page, errors, row } = await interruptedImport();
		// As another version left it: chunks it cut otherwise, which this one cannot go on from.
		const id = Number(await row.getAttribute('data-trace-id'));
		await page.evaluate(
			(id) =>
				new Promise<void>((resolve, reject) => {
					const r = indexedDB.open('sockscope');
					r.onerror = () => reject(r.error);
					r.onsuccess = () => {
						const tx = r.result.transaction('traces', 'readwrite');
						const get = tx.objectStore('traces').get(id);
						get.onsuccess = () =>
							tx.objectStore('traces').put({ ...get.result, decoderVersion: 1 });
						tx.oncomplete = () => {
							r.result.close();
							resolve();
						};
						tx.onerror = () => reject(tx.error);
					};
				}),
			id,
		);
		await row.getByTestId('resume-input').setInputFiles(huge.path);
		await page.getByRole('alert').waitFor();
		expect(await readAlert(page)).toContain(
			'was imported by another version of Sockscope, which cannot be resumed: delete it and import the file again',
		);
		// It stays listed, as it was, for the user to delete.
		expect(await row.getAttribute('data-status')).toBe('interrupted');
		await deleteTrace(page, 'huge-');
		expect(errors).toEqual([]);
		await page.close();
	});

	it('a library left by the previous version is upgraded: its imports, stored without buffer tables, are dropped', async () => {
		const own = await launchBrowser();
		const page = await own.context.newPage();
		// A page of the same origin that does not start the app: the old database is made first.
		await page.goto(new URL('manifest.webmanifest', inject('baseUrl')).href);
		await page.evaluate(
			() =>
				new Promise<void>((resolve, reject) => {
					const r = indexedDB.open('sockscope', 2);
					r.onupgradeneeded = () => {
						const db = r.result;
						db.createObjectStore('traces', { keyPath: 'id', autoIncrement: true });
						db.createObjectStore('chunks', { keyPath: ['traceId', 'index'] });
						db.createObjectStore('columns', { keyPath: ['traceId', 'chunk', 'name'] });
						db.createObjectStore('sockets', { keyPath: 'traceId' });
						const tx = r.transaction!;
						tx.objectStore('traces').put({ id: 1, name: 'old.etl', status: 'complete' });
						tx.objectStore('chunks').put({ traceId: 1, index: 0, rows: 1 });
						tx.objectStore('columns').put({
							traceId: 1,
							chunk: 0,
							name: 'rec',
							data: new ArrayBuffer(8),
						});
					};
					r.onsuccess = () => {
						r.result.close();
						resolve();
					};
					r.onerror = () => reject(r.error);
				}),
		);
		const errors: string[] = [];
		page.on('pageerror', (e) => errors.push(e.message));
		await page.goto(inject('baseUrl'));
		await page.getByRole('heading', { level: 1, name: 'Sockscope' }).waitFor();
		// The app works on: an import after the upgrade is listed alone.
		await pickFileAnew(page, sample);
		expect(await totalShown(page)).toBe(truth.totalRecords);
		await page.getByRole('button', { name: '← All traces' }).click();
		await libraryRow(page, 'sample.etl');
		expect(await page.locator('li[data-trace-id]').count()).toBe(1);
		const stores = await page.evaluate(
			() =>
				new Promise<{ version: number; stores: string[]; columns: number }>((resolve) => {
					const r = indexedDB.open('sockscope');
					r.onsuccess = () => {
						const db = r.result;
						const count = db
							.transaction('columns')
							.objectStore('columns')
							.count(IDBKeyRange.bound([1], [1, []]));
						count.onsuccess = () => {
							resolve({
								version: db.version,
								stores: [...db.objectStoreNames],
								columns: count.result,
							});
							db.close();
						};
					};
				}),
		);
		expect(stores.version).toBe(3);
		expect(stores.stores).toContain('buffers');
		// Nothing of the old trace 1 is left (the new import has an id of its own).
		expect(stores.columns).toBe(0);
		expect(errors).toEqual([]);
		await own.close();
	});

	it('when storage runs out, the import stops, keeps nothing and says how much more is needed', async () => {
		// A profile of its own: the quota is set against this test's usage only.
		const own = await launchBrowser();
		const { page, errors } = await openSite(own, inject('baseUrl'));
		const cdp = await own.context.newCDPSession(page);
		const origin = new URL(inject('baseUrl')).origin;
		// Chromium applies a quota override when storage opens. The library keeps a copy of the
		// file and about 0.4 bytes of columns per file byte: with room for the copy and 12 MB
		// more, the first chunks are stored and a later chunk's write fails.
		await cdp.send('Storage.overrideQuotaForOrigin', {
			origin,
			quotaSize: (await usage(page)) + statSync(long.path).size + 12_000_000,
		});
		await pickFile(page, long.path);
		const alert = page.getByRole('alert');
		await alert.waitFor({ timeout: 60_000 });
		expect(await alert.textContent()).toMatch(
			/storage is full after [\d,]+ events: about [\d.]+ MB more are needed\. Nothing of this import was kept/,
		);
		// Nothing of it is listed or stored.
		await expect.poll(() => stored(page)).toEqual({ records: NOTHING, copies: 0 });
		await expect.poll(() => page.locator('li[data-trace-id]').count()).toBe(0);
		// With the space back, the file imports.
		await cdp.send('Storage.overrideQuotaForOrigin', { origin });
		await pickFile(page, long.path);
		expect(await totalShown(page)).toBe(long.records);
		await page.getByRole('button', { name: '← All traces' }).click();
		await deleteTrace(page, 'long-');
		expect(errors.filter((e) => !/QuotaExceeded|quota/i.test(e))).toEqual([]);
		await own.close();
	});
});
