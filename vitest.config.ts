// Two projects: `unit` runs in Node against the built WASM; `e2e` drives Debian Chromium against
// the production build in dist/, served by scripts/serve.mjs (run `npm run build` first).
import { defineConfig } from 'vitest/config';

export default defineConfig({
	test: {
		projects: [
			{
				test: {
					name: 'unit',
					environment: 'node',
					include: ['tests/**/*.test.ts'],
					exclude: ['tests/e2e/**', '**/node_modules/**'],
					globalSetup: ['tests/unit-setup.ts'],
					// A watchdog, not a speed limit: pinned to one busy core, a test that decodes a
					// trace or runs tshark can take far more than vitest's 5 s default.
					testTimeout: 120_000,
					hookTimeout: 120_000,
					env: { TZ: 'UTC' },
				},
			},
			{
				test: {
					name: 'e2e',
					environment: 'node',
					include: ['tests/e2e/**/*.test.ts'],
					globalSetup: ['tests/e2e/global-setup.ts'],
					testTimeout: 60_000,
					hookTimeout: 60_000,
					// What the page shows after an import or a query comes when the machine gets to it:
					// polls wait up to 30 s for it (vitest's default is 1 s).
					expect: { poll: { timeout: 30_000 } },
					// One browser at a time: the machine has 2 cores and Chromium is the heavy part.
					fileParallelism: false,
					env: { TZ: 'UTC' },
				},
			},
		],
	},
});
