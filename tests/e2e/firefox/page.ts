// What the Firefox e2e test does as a user, through puppeteer-core: the same steps as the Chromium
// helpers (tests/e2e/page.ts, analyst-page.ts) in puppeteer's words. Every wait polls the page with
// a generous timeout: a slow, loaded machine gets there later, never wrongly.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Page } from 'puppeteer-core';

/** How long one step may wait for the page: catches a hang, not slowness. */
export const STEP_MS = 60_000;

const digits = (s: string | null | undefined) => Number((s ?? '').replace(/[^\d]/g, ''));

/** Polls `read` in Node until it returns something other than undefined. */
export async function until<T>(read: () => Promise<T | undefined>, what: string): Promise<T> {
	const deadline = Date.now() + STEP_MS;
	for (;;) {
		const value = await read();
		if (value !== undefined) return value;
		if (Date.now() > deadline) throw new Error(`timed out after ${STEP_MS} ms waiting for ${what}`);
		await new Promise((r) => setTimeout(r, 100));
	}
}

export interface Answer {
	readonly matched: number;
	readonly total: number;
	/** The header as shown: "N of M events". */
	readonly text: string;
}

/**
 * Waits until the status line shows the answer for `filter` (the whole answer, not one given while
 * the trace is still being imported), then reads it.
 */
export async function answerFor(page: Page, filter: string): Promise<Answer> {
	const shown = await page.waitForFunction(
		(filter) => {
			const status = [
				...document.querySelectorAll<HTMLElement>('[data-testid="filter-status"]'),
			].find((s) => s.dataset.filter === filter);
			if (!status || /importing/.test(status.textContent ?? '')) return null;
			const part = (id: string) =>
				status.querySelector(`[data-testid="${id}"]`)?.textContent ?? null;
			return {
				matched: part('match-count'),
				total: part('total-count'),
				text: (status.textContent ?? '').replace(/\s+/g, ' ').trim(),
			};
		},
		{ timeout: STEP_MS, polling: 100 },
		filter,
	);
	const { matched, total, text } = (await shown.jsonValue()) as {
		matched: string;
		total: string;
		text: string;
	};
	return { matched: digits(matched), total: digits(total), text };
}

/** Types a filter in the box and applies it with Enter, as a user would. */
export async function applyFilter(page: Page, filter: string): Promise<Answer> {
	const box = page.locator('#filter-input').setTimeout(STEP_MS);
	await box.fill(filter);
	if (filter === '') {
		// fill('') on an empty box types nothing; clear it the way a user would.
		await page.$eval('#filter-input', (el) => ((el as HTMLInputElement).value = ''));
	}
	await page.focus('#filter-input');
	await page.keyboard.press('Enter');
	return answerFor(page, filter);
}

/** Clicks the element `selector` whose text is `text` once it is there. */
export async function clickText(page: Page, selector: string, text: string): Promise<void> {
	await page.locator(`${selector}::-p-text(${text})`).setTimeout(STEP_MS).click();
}

/** The trimmed text of the first `selector`, once it is there. */
export async function textOf(page: Page, selector: string): Promise<string> {
	const element = await page.waitForSelector(selector, { timeout: STEP_MS });
	const text = await element!.evaluate((el) => el.textContent ?? '');
	await element!.dispose();
	return text.replace(/\s+/g, ' ').trim();
}

/** Waits until the facts of `fileName` are shown; fails with the alert when an error is. */
export async function waitForFacts(page: Page, fileName: string): Promise<void> {
	const outcome = await page.waitForFunction(
		(fileName) => {
			const name = document.querySelector('[data-testid="trace-facts"] [data-fact="fileName"]');
			if (name?.textContent?.trim() === fileName) return 'facts';
			const alert = [...document.querySelectorAll('[role="alert"]')].find((a) =>
				a.textContent?.includes(fileName),
			);
			return alert ? `error: ${alert.textContent?.replace(/\s+/g, ' ')}` : null;
		},
		{ timeout: STEP_MS, polling: 100 },
		fileName,
	);
	const result = (await outcome.jsonValue()) as string;
	if (result !== 'facts') throw new Error(`${fileName}: ${result}`);
}

/** The text of one data-fact value. */
export function readFact(page: Page, name: string): Promise<string> {
	return textOf(page, `[data-testid="trace-facts"] [data-fact="${name}"]`);
}

/**
 * Drags a file onto the drop zone as the Chromium tests do: a DataTransfer holding a File built
 * from its bytes, then dragenter, dragover and drop. Returns whether the zone showed its highlight
 * before the drop.
 */
export async function dropFile(page: Page, path: string): Promise<boolean> {
	const transfer = await page.evaluateHandle(
		(name, base64) => {
			const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
			const dataTransfer = new DataTransfer();
			dataTransfer.items.add(new File([bytes], name, { type: 'application/octet-stream' }));
			return dataTransfer;
		},
		basename(path),
		readFileSync(path).toString('base64'),
	);
	const send = (type: string) =>
		page.evaluate(
			(type, dataTransfer) => {
				const zone = document.querySelector('[data-testid="drop-zone"]')!;
				const init = { dataTransfer, bubbles: true, cancelable: true, composed: true };
				zone.dispatchEvent(new DragEvent(type, init));
			},
			type,
			transfer,
		);
	await send('dragenter');
	await send('dragover');
	// The highlight is drawn after the events' task: read it in a step of its own.
	const highlighted = await page.$eval(
		'[data-testid="drop-zone"]',
		(zone) => zone.getAttribute('data-dragging') === 'true',
	);
	await send('drop');
	await transfer.dispose();
	return highlighted;
}

/** Waits until the browser has finished saving `name` into `folder`; its bytes. */
export async function downloaded(folder: string, name: string): Promise<Buffer> {
	// Firefox writes beside it under a .part name until the download completes; the size staying
	// the same between two looks guards the moment before the .part appears.
	let last = -1;
	await until(async () => {
		const files = readdirSync(folder);
		if (!files.includes(name) || files.some((f) => f.endsWith('.part'))) return undefined;
		const size = statSync(join(folder, name)).size;
		const settled = size > 0 && size === last;
		last = size;
		return settled ? true : undefined;
	}, `the download ${name} in ${folder}`);
	return readFileSync(join(folder, name));
}
