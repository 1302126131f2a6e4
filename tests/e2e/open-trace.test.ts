// A user opens traces in the production build: by picking, by dropping, and through the sample;
// the facts shown must match what tests/fixtures/real/SOURCES.md records for each real file.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, type Browser } from './browser.ts';
import {
	dropFile,
	openSite,
	pickBytes,
	pickFile,
	readAlert,
	readFact,
	readNumber,
	waitForOutcome,
	type OpenedPage,
	openSample,
} from './page.ts';
import { projectRoot } from './server.ts';
import { fixturesDir, readExpectedFacts } from './sources.ts';
import { en } from '../../web/src/i18n/en.ts';
import { WMI_BUFFER_HEADER } from '../../web/src/generated/layouts.ts';

const baseUrl = inject('baseUrl');
const expected = readExpectedFacts();
const fixtures = readdirSync(fixturesDir)
	.filter((name) => name.endsWith('.etl'))
	.sort();
const fixture = (name: string) => join(fixturesDir, name);
const ISO_SHOWN = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{7}$/;

let browser: Browser;
const opened: OpenedPage[] = [];

beforeAll(async () => {
	browser = await launchBrowser();
});

afterEach(async () => {
	for (const tab of opened.splice(0)) await tab.page.close();
});

afterAll(async () => {
	await browser?.close();
});

async function open(): Promise<OpenedPage> {
	const tab = await openSite(browser, baseUrl);
	opened.push(tab);
	return tab;
}

/** Fails with the alert's text when the page showed an error instead of facts. */
async function expectFacts(tab: OpenedPage, fileName: string): Promise<void> {
	const outcome = await waitForOutcome(tab.page, fileName);
	if (outcome === 'error') expect.fail(`${fileName}: ${await readAlert(tab.page)}`);
}

describe('the page', () => {
	it('says what it is, where files go and that they stay on the machine', async () => {
		const tab = await open();
		const { page } = tab;
		expect(await page.title()).toBe('Sockscope');
		await expect
			.poll(() => page.getByTestId('privacy-note').textContent())
			.toContain('Nothing leaves your machine: the trace is decoded in this tab.');
		expect(await page.getByTestId('drop-zone').textContent()).toContain(
			'Drop a Winsock .etl trace here',
		);
		expect(await page.getByLabel('Choose a trace').getAttribute('accept')).toBe('.etl');
		expect(await page.getByRole('button', { name: 'Open the sample trace' }).isVisible()).toBe(
			true,
		);
		expect(tab.errors).toEqual([]);
	});
});

describe('opening a trace', () => {
	it('shows the facts of a file picked with the file input', async () => {
		const tab = await open();
		const { page } = tab;
		const name = 'krabsetw-powershell-manifest.etl';
		await pickFile(page, fixture(name));
		await expectFacts(tab, name);

		expect(await readFact(page, 'fileName')).toBe(name);
		expect(await readNumber(page, 'fileSizeBytes')).toBe(statSync(fixture(name)).size);
		expect(await readFact(page, 'fileSize')).toBe('208 KiB');
		expect(await readFact(page, 'build')).toBe('22623');
		expect(await readFact(page, 'cpus')).toBe('32');
		expect(await readFact(page, 'pointerSize')).toBe('8');
		expect(await readFact(page, 'clockType')).toBe('1');
		expect(await readFact(page, 'clockName')).not.toBe('');
		expect(await readNumber(page, 'perfFreq')).toBe(10_000_000);
		expect(await readFact(page, 'version')).toMatch(/^\d+(\.\d+){1,3}$/);
		expect(await readFact(page, 'startTime')).toMatch(ISO_SHOWN);
		expect(await readFact(page, 'endTime')).toMatch(ISO_SHOWN);
		// What SOURCES.md records of the file: its buffers, all of them written, and its losses.
		const want = expected.get(name.replace(/\.etl$/, ''))!;
		expect(await readNumber(page, 'bufferSizeBytes')).toBeGreaterThan(0);
		expect(await readNumber(page, 'buffersWritten')).toBe(want.buffers);
		expect(await readNumber(page, 'eventsLost')).toBe(want.eventsLost);
		expect(await readNumber(page, 'buffersLost')).toBe(want.buffersLost);
		expect(await readFact(page, 'loggerName')).not.toBe('');
		expect(await readFact(page, 'logFileName')).not.toBe('');
		expect(await page.title()).toBe(`${name} · Sockscope`);
		expect(tab.errors).toEqual([]);
	});

	it('shows the facts of a file dropped on the drop zone', async () => {
		const tab = await open();
		const { page } = tab;
		const name = 'perfview-small-32bit-compressed.etl';
		const highlighted = await dropFile(page, fixture(name));
		expect(highlighted, 'the drop zone highlights while a file is dragged over it').toBe(true);
		await expectFacts(tab, name);

		const want = expected.get(name.replace(/\.etl$/, ''))!;
		expect(await readFact(page, 'build')).toBe(String(want.build));
		expect(await readFact(page, 'pointerSize')).toBe('4');
		expect(await page.getByTestId('drop-zone').getAttribute('data-dragging')).toBe('false');
		expect(tab.errors).toEqual([]);
	});

	it('replaces the view when another file is opened', async () => {
		const tab = await open();
		const { page } = tab;
		await pickFile(page, fixture('krabsetw-powershell-manifest.etl'));
		await expectFacts(tab, 'krabsetw-powershell-manifest.etl');

		await pickFile(page, fixture('tx-win7-kernel-network.etl'));
		await expectFacts(tab, 'tx-win7-kernel-network.etl');
		expect(await page.getByTestId('trace-facts').count()).toBe(1);
		expect(await readFact(page, 'build')).toBe('7601');

		await pickBytes(page, 'notes.txt', new TextEncoder().encode('not a trace\n'));
		expect(await waitForOutcome(page, 'notes.txt')).toBe('error');
		expect(await page.getByTestId('trace-facts').count()).toBe(0);
		expect(tab.errors).toEqual([]);
	});
});

describe('every real fixture shows the facts recorded in SOURCES.md', () => {
	it('lists every fixture in SOURCES.md', () => {
		const missing = fixtures.filter((name) => !expected.has(name.replace(/\.etl$/, '')));
		expect(missing, 'add these files to the table in SOURCES.md').toEqual([]);
	});

	for (const name of fixtures) {
		const want = expected.get(name.replace(/\.etl$/, ''));
		it.runIf(want)(name, async () => {
			const tab = await open();
			const { page } = tab;
			await pickFile(page, fixture(name));
			await expectFacts(tab, name);

			const shown = {
				build: Number(await readFact(page, 'build')),
				cpus: Number(await readFact(page, 'cpus')),
				pointerSize: Number(await readFact(page, 'pointerSize')),
				clockType: Number(await readFact(page, 'clockType')),
				perfFreq: want!.perfFreq === undefined ? undefined : await readNumber(page, 'perfFreq'),
				buffers: await readNumber(page, 'buffersWritten'),
				eventsLost: await readNumber(page, 'eventsLost'),
				buffersLost: await readNumber(page, 'buffersLost'),
			};
			expect(shown).toEqual(want);
			expect(await readFact(page, 'startTime')).toMatch(ISO_SHOWN);
			expect(tab.errors).toEqual([]);
		});
	}
});

describe('files that are not traces', () => {
	it.each([
		['a text file', 'notes.txt', new TextEncoder().encode('Hello, this is not a trace.\r\n')],
		['an empty file', 'empty.etl', new Uint8Array(0)],
	])('%s shows an alert naming the file', async (_what, name, bytes) => {
		const tab = await open();
		const { page } = tab;
		await pickBytes(page, name, bytes);
		expect(await waitForOutcome(page, name)).toBe('error');
		const alert = await readAlert(page);
		expect(alert).toContain(name);
		expect(alert).toContain('not an ETL file');
		expect(tab.errors).toEqual([]);
	});

	it('a trace whose header buffer is damaged is said to be a damaged trace, not a foreign file', async () => {
		const bytes = new Uint8Array(readFileSync(join(projectRoot, 'public/sample.etl')));
		// Buffer 0's BufferType no longer says "header buffer".
		const at = WMI_BUFFER_HEADER.fields.find((f) => f.name === 'BufferType')!.offset;
		new DataView(bytes.buffer).setUint16(at, 1, true);
		const tab = await open();
		await pickBytes(tab.page, 'damaged.etl', bytes);
		expect(await waitForOutcome(tab.page, 'damaged.etl')).toBe('error');
		const alert = await readAlert(tab.page);
		expect(alert).toContain('the trace header cannot be read');
		expect(alert).toContain(en['error.damaged-header-hint']);
		expect(alert).not.toContain('not an ETL file');
		expect(tab.errors).toEqual([]);
	});
});

describe('the sample trace', () => {
	const truth = JSON.parse(
		readFileSync(join(projectRoot, 'tests/fixtures/sample/sample.truth.json'), 'utf8'),
	) as { session: { build: number; loggerName: string } };

	it('opens from the button', async () => {
		const tab = await open();
		const { page } = tab;
		await openSample(page);
		await expectFacts(tab, 'sample.etl');
		expect(await readFact(page, 'build')).toBe(String(truth.session.build));
		expect(await readFact(page, 'loggerName')).toBe(truth.session.loggerName);
		expect(tab.errors).toEqual([]);
	});
});
