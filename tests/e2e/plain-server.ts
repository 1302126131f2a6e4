// The simplest static host there is, in the test process: files and a Content-Type, nothing else
// (no Content-Security-Policy or other security header), like GitHub Pages, an S3 bucket or a
// default IIS site. The hosting tests check the app still works, and still keeps its CSP, there.
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import type { RunningServer } from './server.ts';

const TYPES: Readonly<Record<string, string>> = {
	'.html': 'text/html',
	'.js': 'text/javascript',
	'.css': 'text/css',
	'.wasm': 'application/wasm',
	'.webmanifest': 'application/manifest+json',
	'.svg': 'image/svg+xml',
	'.png': 'image/png',
};

/** Serves `dir` at `http://127.0.0.1:port${base}` (base with leading and trailing slash). */
export async function startPlainServer(dir: string, base: string): Promise<RunningServer> {
	const server = createServer((req, res) => {
		const path = new URL(req.url ?? '/', 'http://x').pathname;
		if (!path.startsWith(base)) return void res.writeHead(404).end();
		let file = normalize(join(dir, decodeURIComponent(path.slice(base.length))));
		if (file !== dir && !file.startsWith(dir + sep)) return void res.writeHead(404).end();
		if (path.endsWith('/')) file = join(file, 'index.html');
		readFile(file).then(
			(body) =>
				res
					.writeHead(200, {
						'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
					})
					.end(body),
			() => res.writeHead(404).end(),
		);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}${base}`,
		stop: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}
