// Serves the production build once for all e2e files and hands its URL to the tests as `baseUrl`.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { projectRoot, startServer } from './server.ts';

declare module 'vitest' {
	export interface ProvidedContext {
		baseUrl: string;
	}
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
	if (!existsSync(join(projectRoot, 'dist', 'index.html'))) {
		throw new Error(
			'dist/index.html is missing: the e2e tests run against the production build. ' +
				'Run `npm run build` first (or `npm test`, which builds).',
		);
	}
	const server = await startServer(['dist', '--port', '0']);
	project.provide('baseUrl', server.url);
	return () => server.stop();
}
