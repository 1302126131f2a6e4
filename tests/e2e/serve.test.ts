// scripts/serve.mjs, the server behind `npm start`: types, 404s, no way out of its directory, and
// the built site working under a sub-path.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './browser.ts';
import { openSite, pickFile, readAlert, readFact, waitForOutcome } from './page.ts';
import { startServer, type RunningServer } from './server.ts';
import { fixturesDir } from './sources.ts';

interface Reply {
	readonly status: number;
	readonly type: string | undefined;
	readonly location: string | undefined;
	readonly body: string;
}

/** A raw GET: unlike fetch(), node:http sends the path exactly as written (`..` included). */
function get(url: string, path: string): Promise<Reply> {
	const { hostname, port } = new URL(url);
	return new Promise((resolve, reject) => {
		request({ hostname, port, path, method: 'GET' }, (res) => {
			let body = '';
			res.setEncoding('latin1');
			res.on('data', (chunk: string) => (body += chunk));
			res.on('end', () =>
				resolve({
					status: res.statusCode ?? 0,
					type: res.headers['content-type'],
					location: res.headers.location,
					body,
				}),
			);
		})
			.on('error', reject)
			.end();
	});
}

describe('serve.mjs', () => {
	let dir: string;
	let server: RunningServer;

	beforeAll(async () => {
		const parent = mkdtempSync(join(tmpdir(), 'sockscope-serve-'));
		dir = join(parent, 'site');
		mkdirSync(join(dir, 'assets'), { recursive: true });
		writeFileSync(join(parent, 'secret.txt'), 'outside the served directory');
		writeFileSync(join(dir, 'index.html'), '<!doctype html><title>t</title>');
		writeFileSync(join(dir, 'assets', 'decoder.wasm'), new Uint8Array([0, 97, 115, 109]));
		writeFileSync(join(dir, 'assets', 'app.js'), 'export {};');
		writeFileSync(join(dir, 'manifest.webmanifest'), '{}');
		writeFileSync(join(dir, 'sample.etl'), new Uint8Array(16));
		symlinkSync(join(parent, 'secret.txt'), join(dir, 'link.txt'));
		server = await startServer([dir, '--port', '0']);
	});

	afterAll(async () => {
		await server?.stop();
		rmSync(join(dir, '..'), { recursive: true, force: true });
	});

	it('binds the loopback address and prints its URL', () => {
		expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
	});

	it.each([
		['/', 'text/html; charset=utf-8'],
		['/index.html', 'text/html; charset=utf-8'],
		['/assets/decoder.wasm', 'application/wasm'],
		['/assets/app.js', 'text/javascript; charset=utf-8'],
		['/manifest.webmanifest', 'application/manifest+json; charset=utf-8'],
		['/sample.etl', 'application/octet-stream'],
	])('serves %s as %s', async (path, type) => {
		const reply = await get(server.url, path);
		expect(reply.status).toBe(200);
		expect(reply.type).toBe(type);
	});

	it.each([
		'/missing.js',
		'/../secret.txt',
		'/%2e%2e/secret.txt',
		'/assets/..%2f..%2fsecret.txt',
		'/link.txt',
		'/%00',
		'/%E0%A4%A',
	])('answers %s with 404', async (path) => {
		const reply = await get(server.url, path);
		expect(reply.status).toBe(404);
		expect(reply.body).not.toContain('outside the served directory');
	});

	it('serves a directory under --base, and only there', async () => {
		const based = await startServer([dir, '--port', '0', '--base', 'tools/sockscope']);
		try {
			expect(based.url).toMatch(/\/tools\/sockscope\/$/);
			const origin = new URL(based.url).origin;
			expect((await get(origin, '/tools/sockscope/')).type).toBe('text/html; charset=utf-8');
			expect((await get(origin, '/tools/sockscope/assets/decoder.wasm')).status).toBe(200);
			expect((await get(origin, '/tools/sockscope')).location).toBe('/tools/sockscope/');
			expect((await get(origin, '/')).location).toBe('/tools/sockscope/');
			expect((await get(origin, '/assets/decoder.wasm')).status).toBe(404);
		} finally {
			await based.stop();
		}
	});
});

describe('the built site under a sub-path', () => {
	it('opens a trace at /some/sub/path/', async () => {
		const server = await startServer(['dist', '--port', '0', '--base', '/some/sub/path/']);
		const browser = await launchBrowser();
		try {
			const tab = await openSite(browser, server.url);
			const name = 'krabsetw-powershell-manifest.etl';
			await pickFile(tab.page, join(fixturesDir, name));
			const outcome = await waitForOutcome(tab.page, name);
			if (outcome === 'error') expect.fail(`${name}: ${await readAlert(tab.page)}`);
			expect(await readFact(tab.page, 'build')).toBe('22623');
			expect(tab.errors).toEqual([]);
		} finally {
			await browser.close();
			await server.stop();
		}
	});
});
