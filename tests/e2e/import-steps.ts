// Waiting for a trace to be in, the way the PWA, privacy and hosting tests need it.
import { expect } from 'vitest';
import { readAlert, waitForOutcome, type OpenedPage } from './page.ts';

/** Fails with the alert's text when the page showed an error instead of facts. */
export async function expectFacts(
	tab: OpenedPage,
	fileName: string,
	timeout = 30_000,
): Promise<void> {
	const outcome = await waitForOutcome(tab.page, fileName, timeout);
	if (outcome === 'error') expect.fail(`${fileName}: ${await readAlert(tab.page)}`);
}

/**
 * Waits until `fileName` shows its facts (they come as soon as the import starts) and the import
 * has read the whole file. "Whole file" rather than "progress bar gone": the last progress report
 * travels on its own Comlink channel and can land after the import returned, leaving a full bar
 * on screen (TraceSession.#import; reported, see the PWA report).
 */
export async function expectImported(
	tab: OpenedPage,
	fileName: string,
	timeout = 30_000,
): Promise<void> {
	await expectFacts(tab, fileName, timeout);
	const bar = tab.page.getByTestId('import-progress');
	// Read in one go: the bar may go between two reads, and a read that waits for it would wait
	// out Playwright's whole timeout.
	await expect
		.poll(
			() =>
				bar.evaluateAll(
					(els) =>
						els.length === 0 ||
						Number(els[0]!.querySelector('progress')?.getAttribute('value')) >= 1,
				),
			{ timeout },
		)
		.toBe(true);
}
