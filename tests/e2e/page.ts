// What the e2e tests do as a user, in one place: open the site, hand it a file, read the facts.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { Page } from 'playwright-core';
import { collectErrors, type Browser } from './browser.ts';

export interface OpenedPage {
	readonly page: Page;
	/** Page errors, console errors and requests to other origins, in order. */
	readonly errors: string[];
}

/**
 * Opens the site in a new tab and waits until the app has rendered. `beforeLoad` runs on the blank
 * tab first (for init scripts that must be in place before the app starts).
 */
export async function openSite(
	browser: Browser,
	url: string,
	beforeLoad?: (page: Page) => Promise<unknown>,
): Promise<OpenedPage> {
	const page = await browser.context.newPage();
	await beforeLoad?.(page);
	const errors = collectErrors(page);
	const origin = new URL(url).origin;
	page.on('request', (request) => {
		const target = new URL(request.url());
		if (target.protocol.startsWith('http') && target.origin !== origin) {
			errors.push(`request to another origin: ${request.url()}`);
		}
	});
	await page.goto(url);
	await page.getByRole('heading', { level: 1, name: 'Sockscope' }).waitFor();
	return { page, errors };
}

/**
 * Opens the bundled sample as a user would: from the landing page, going back to it first when a
 * trace is on screen (the trace view's header has only "Open…").
 */
export async function openSample(page: Page): Promise<void> {
	const home = page.getByRole('button', { name: /All traces$/ });
	if (await home.isVisible()) await home.click();
	await page.getByRole('button', { name: 'Open the sample trace' }).click();
}

/**
 * Picks a file the library may hold already (an earlier test imported it) on a page showing no
 * trace, and imports it anew: "Import again" when the page asks. Either the question comes or the
 * trace is shown, whichever the library's listing allows first.
 */
export async function pickFileAnew(page: Page, path: string): Promise<void> {
	await pickFile(page, path);
	const kept = page.getByTestId('duplicate-prompt');
	await kept.or(page.getByTestId('filter-status')).first().waitFor({ timeout: 30_000 });
	if (await kept.isVisible()) await kept.getByRole('button', { name: 'Import again' }).click();
}

/** Picks a file through the labelled file input, as a user would. */
export async function pickFile(page: Page, path: string): Promise<void> {
	await page.getByLabel('Choose a trace').setInputFiles(path);
}

/** Picks in-memory bytes under a given name (for non-ETL and empty files). */
export async function pickBytes(page: Page, name: string, bytes: Uint8Array): Promise<void> {
	await page
		.getByLabel('Choose a trace')
		.setInputFiles({ name, mimeType: 'application/octet-stream', buffer: Buffer.from(bytes) });
}

/**
 * Drags a fixture onto the drop zone: a DataTransfer holding a File built from the fixture's bytes,
 * then dragenter/dragover/drop. Returns whether the zone showed its highlight before the drop.
 */
export async function dropFile(page: Page, path: string): Promise<boolean> {
	const dataTransfer = await page.evaluateHandle(
		({ name, base64 }) => {
			const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
			const transfer = new DataTransfer();
			transfer.items.add(new File([bytes], name, { type: 'application/octet-stream' }));
			return transfer;
		},
		{ name: basename(path), base64: readFileSync(path).toString('base64') },
	);
	const zone = page.getByTestId('drop-zone');
	await zone.dispatchEvent('dragenter', { dataTransfer });
	await zone.dispatchEvent('dragover', { dataTransfer });
	const highlighted = (await zone.getAttribute('data-dragging')) === 'true';
	await zone.dispatchEvent('drop', { dataTransfer });
	await dataTransfer.dispose();
	return highlighted;
}

export type Outcome = 'facts' | 'error';

/**
 * Waits until reading `fileName` ended in facts or an error alert. The file name makes a stale
 * result from a previous file impossible to mistake for this one.
 */
export async function waitForOutcome(
	page: Page,
	fileName: string,
	timeout = 30_000,
): Promise<Outcome> {
	const exactName = new RegExp(`^${fileName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
	const facts = page.getByTestId('trace-facts').filter({
		has: page.locator('[data-fact="fileName"]', { hasText: exactName }),
	});
	const alert = page.getByRole('alert').filter({ hasText: fileName });
	// A file the library holds already asks first: import it again, so that it is read anew.
	const kept = page.getByTestId('duplicate-prompt');
	// Attached, not visible: the facts panel may be folded away.
	await facts.or(alert).or(kept).first().waitFor({ state: 'attached', timeout });
	if ((await kept.count()) > 0) {
		await kept.getByRole('button', { name: 'Import again' }).click();
		await facts.or(alert).first().waitFor({ state: 'attached', timeout });
	}
	return (await facts.count()) > 0 ? 'facts' : 'error';
}

/** The text of one data-fact value. */
export async function readFact(page: Page, name: string): Promise<string> {
	const locator = page.locator(`[data-testid="trace-facts"] [data-fact="${name}"]`);
	return ((await locator.textContent({ timeout: 30_000 })) ?? '').trim();
}

/** A data-fact value shown with digit grouping ("212,992 bytes") as a number. */
export async function readNumber(page: Page, name: string): Promise<number> {
	const text = await readFact(page, name);
	const digits = text.replace(/[,\s]|bytes|ticks\/s/g, '');
	if (!/^\d+$/.test(digits)) throw new Error(`data-fact="${name}" is not a number: "${text}"`);
	return Number(digits);
}

/** The alert text, or a readable failure when facts showed up instead. */
export async function readAlert(page: Page): Promise<string> {
	return ((await page.getByRole('alert').textContent()) ?? '').replace(/\s+/g, ' ').trim();
}
