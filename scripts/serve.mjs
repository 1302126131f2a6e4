#!/usr/bin/env node
// Serves the production build (dist/) on 127.0.0.1 with nothing but node:http, so `npm start` needs
// no extra package. Usage: node scripts/serve.mjs DIR [--port N] [--base /sub/path/]
//                                            [--wasm-mime TYPE]
// --wasm-mime sends .wasm files with another Content-Type, to reproduce hosts that get it wrong
// (the decoder then falls back from instantiateStreaming; tests/e2e/hosting.test.ts checks it).
//
// Invariants: only files under DIR are ever read (no traversal, no symlinks out); only loopback is
// bound; every response carries a Content-Security-Policy that keeps the page and its worker from
// talking to any other origin, so the "nothing leaves your machine" promise is enforced by the
// browser and not only by our code.
import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';

const HOST = '127.0.0.1';
const DEFAULT_PORT = 4173;
// How many ports after the default to try when it is taken (another preview, a second copy).
const PORT_TRIES = 20;

const MIME = {
	'.html': 'text/html; charset=utf-8',
	'.js': 'text/javascript; charset=utf-8',
	'.mjs': 'text/javascript; charset=utf-8',
	'.css': 'text/css; charset=utf-8',
	'.json': 'application/json; charset=utf-8',
	'.map': 'application/json; charset=utf-8',
	'.webmanifest': 'application/manifest+json; charset=utf-8',
	// instantiateStreaming refuses any other type.
	'.wasm': 'application/wasm',
	'.svg': 'image/svg+xml',
	'.png': 'image/png',
	'.ico': 'image/x-icon',
	'.webp': 'image/webp',
	'.woff2': 'font/woff2',
	'.txt': 'text/plain; charset=utf-8',
	'.md': 'text/plain; charset=utf-8',
	'.etl': 'application/octet-stream',
};

// 'wasm-unsafe-eval' allows WebAssembly compilation and nothing else; connect-src 'self' is what
// makes an upload to another origin impossible.
const CSP = [
	"default-src 'self'",
	"script-src 'self' 'wasm-unsafe-eval'",
	"style-src 'self' 'unsafe-inline'",
	"img-src 'self' data: blob:",
	"font-src 'self'",
	"connect-src 'self'",
	"worker-src 'self'",
	"manifest-src 'self'",
	"object-src 'none'",
	"base-uri 'self'",
	"form-action 'none'",
	"frame-ancestors 'none'",
].join('; ');

function usage(message) {
	if (message) console.error(`serve: ${message}`);
	console.error(
		'usage: node scripts/serve.mjs DIR [--port N] [--base /sub/path/] [--wasm-mime TYPE]',
	);
	process.exit(2);
}

function parseArgs(argv) {
	let dir;
	let port;
	let base = '/';
	let wasmMime;
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i];
		const [flag, inline] = arg.startsWith('--') ? arg.split(/=(.*)/s, 2) : [arg, undefined];
		const value = () => inline ?? argv[++i] ?? usage(`${flag} needs a value`);
		if (flag === '--port') {
			const text = value();
			port = Number(text);
			if (!/^\d+$/.test(text) || port > 65535) usage(`--port: not a port number: ${text}`);
		} else if (flag === '--base') {
			base = value();
		} else if (flag === '--wasm-mime') {
			wasmMime = value();
			// It ends up in a header: refuse anything that is not a plain media type.
			if (!/^[\w.+-]+\/[\w.+-]+(;[ \w.+=-]*)?$/.test(wasmMime)) {
				usage(`--wasm-mime: not a media type: ${wasmMime}`);
			}
		} else if (flag === '--help' || flag === '-h') {
			usage();
		} else if (flag.startsWith('-')) {
			usage(`unknown option ${flag}`);
		} else if (dir === undefined) {
			dir = arg;
		} else {
			usage(`unexpected argument ${arg}`);
		}
	}
	if (dir === undefined) usage('DIR is missing');
	// Normalise to a leading and a trailing slash, so relative asset URLs resolve under it.
	base = `/${base}/`.replace(/\/{2,}/g, '/');
	return { dir, port, base, wasmMime };
}

const { dir, port: requestedPort, base, wasmMime } = parseArgs(process.argv.slice(2));
if (wasmMime) MIME['.wasm'] = wasmMime;
const root = await realpath(resolve(dir)).catch(() => null);
if (root === null || !(await stat(root)).isDirectory()) {
	console.error(`serve: ${resolve(dir)} is not a directory. Build the site first: npm run build`);
	process.exit(1);
}

function send(res, status, text, headers = {}) {
	res.writeHead(status, {
		'Content-Type': 'text/plain; charset=utf-8',
		'Content-Length': Buffer.byteLength(text),
		...headers,
	});
	res.end(res.req.method === 'HEAD' ? undefined : text);
}

/** Maps a URL path below `base` to a file under root, or null when it must not be served. */
async function locate(relative) {
	let decoded;
	try {
		decoded = decodeURIComponent(relative);
	} catch {
		return null;
	}
	if (decoded.includes('\0') || decoded.includes('\\')) return null;
	const candidate = resolve(root, `.${sep}${decoded}`);
	if (candidate !== root && !candidate.startsWith(root + sep)) return null;
	try {
		// realpath resolves symlinks, which could otherwise point outside root.
		const real = await realpath(candidate);
		if (real !== root && !real.startsWith(root + sep)) return null;
		const info = await stat(real);
		return { path: real, info };
	} catch {
		return null;
	}
}

async function handle(req, res) {
	if (req.method !== 'GET' && req.method !== 'HEAD') {
		return send(res, 405, 'Method Not Allowed\n', { Allow: 'GET, HEAD' });
	}
	const url = new URL(req.url ?? '/', `http://${HOST}`);
	const path = url.pathname;
	if (`${path}/` === base) return send(res, 301, '', { Location: base + url.search });
	if (!path.startsWith(base)) {
		if (path === '/') return send(res, 302, '', { Location: base });
		return send(res, 404, 'Not Found\n');
	}
	let found = await locate(path.slice(base.length));
	if (found?.info.isDirectory()) {
		// A directory without its slash would resolve relative URLs one level too high.
		if (!path.endsWith('/')) return send(res, 301, '', { Location: `${path}/${url.search}` });
		found = await locate(join(path.slice(base.length), 'index.html'));
	}
	if (!found?.info.isFile()) return send(res, 404, 'Not Found\n');

	const type = MIME[extname(found.path).toLowerCase()] ?? 'application/octet-stream';
	res.writeHead(200, {
		'Content-Type': type,
		'Content-Length': found.info.size,
		// Hashed assets could be cached forever, but this server is for local use: always revalidate.
		'Cache-Control': 'no-cache',
		'Content-Security-Policy': CSP,
		'X-Content-Type-Options': 'nosniff',
		'Referrer-Policy': 'no-referrer',
		'Cross-Origin-Opener-Policy': 'same-origin',
	});
	if (req.method === 'HEAD') return res.end();
	createReadStream(found.path)
		.on('error', () => res.destroy())
		.pipe(res);
}

const server = createServer((req, res) => {
	handle(req, res).catch((err) => {
		console.error(err);
		if (!res.headersSent) send(res, 500, 'Internal Server Error\n');
		else res.destroy();
	});
});

function listen(port) {
	return new Promise((resolveListen, rejectListen) => {
		const onError = (err) => {
			server.off('listening', onListening);
			rejectListen(err);
		};
		const onListening = () => {
			server.off('error', onError);
			resolveListen(server.address().port);
		};
		server.once('error', onError);
		server.once('listening', onListening);
		server.listen(port, HOST);
	});
}

async function start() {
	if (requestedPort !== undefined) return listen(requestedPort);
	for (let port = DEFAULT_PORT; port < DEFAULT_PORT + PORT_TRIES; port++) {
		try {
			return await listen(port);
		} catch (err) {
			if (err.code !== 'EADDRINUSE') throw err;
		}
	}
	throw new Error(`ports ${DEFAULT_PORT}-${DEFAULT_PORT + PORT_TRIES - 1} are all in use`);
}

try {
	const port = await start();
	console.log(`Sockscope is running at http://${HOST}:${port}${base}`);
} catch (err) {
	const reason = err.code === 'EADDRINUSE' ? `port ${requestedPort} is in use` : err.message;
	console.error(`serve: cannot listen on ${HOST}: ${reason}`);
	process.exit(1);
}

for (const signal of ['SIGINT', 'SIGTERM']) {
	process.on(signal, () => {
		server.close();
		server.closeAllConnections();
		process.exit(0);
	});
}
