// A comparison of two traces as a user makes it in Your traces: shared by the e2e tests and the
// screenshots, which take the same steps.
import type { Page } from 'playwright-core';

/** Waits until Your traces lists `name` as completely imported (a watchdog, not a speed test). */
export function listedComplete(page: Page, name: string, timeout: number): Promise<void> {
	return page
		.locator('li[data-trace-id][data-status="complete"]')
		.filter({ hasText: name })
		.waitFor({ timeout });
}

/** Ticks Compare beside each trace (the first is the baseline), compares, opens the first change. */
export async function openFirstChange(page: Page, names: readonly string[]): Promise<void> {
	for (const name of names)
		await page
			.locator('li[data-trace-id]')
			.filter({ hasText: name })
			.getByTestId('compare-pick')
			.check();
	await page.getByTestId('compare-start').click();
	const change = page.getByTestId('compare-changes').locator(':scope > li').first();
	await change.waitFor({ timeout: 60_000 });
	await change.getByRole('button').first().click();
}
