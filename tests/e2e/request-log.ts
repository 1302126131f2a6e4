// The privacy tests' two witnesses of network traffic:
// - RequestLog: every request Playwright sees in a browser context (pages, their workers and the
//   service worker), so a request to another origin is named with its URL.
// - A recording proxy the browser sends everything but 127.0.0.1 through: it sees a request to
//   any other host however it was made (including ones Playwright does not report, such as the
//   browser's own), answers 403 and never forwards it.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserContext, Request } from 'playwright-core';

export interface LoggedRequest {
	readonly url: string;
	readonly method: string;
	readonly type: string;
	/** Who asked: the service worker, or a page (its dedicated workers count as the page). */
	readonly from: 'page' | 'service worker';
}

export class RequestLog {
	readonly requests: LoggedRequest[] = [];

	constructor(context: BrowserContext) {
		context.on('request', (request) => this.requests.push(describe(request)));
	}

	/** Requests over the network (http, https, ws) to anything but `origin`. */
	leaving(origin: string): LoggedRequest[] {
		return this.requests.filter((r) => {
			const url = new URL(r.url);
			return /^(https?|wss?):$/.test(url.protocol) && url.origin !== origin;
		});
	}

	/** Same-origin paths requested so far, for checks that the log is really recording. */
	paths(origin: string): string[] {
		return this.requests
			.filter((r) => r.url.startsWith(origin))
			.map((r) => new URL(r.url).pathname);
	}
}

function describe(request: Request): LoggedRequest {
	return {
		url: request.url(),
		method: request.method(),
		type: request.resourceType(),
		from: request.serviceWorker() ? 'service worker' : 'page',
	};
}

/**
 * Hosts Chromium itself talks to (component and extension updates, Google sign-in, autofill
 * predictions, safe browsing), whatever page is open; Debian's build ships Google API keys, so
 * some of these run even with Playwright's --disable-background-networking. They are the browser's
 * traffic, not the app's: a request the app's page, worker or service worker made to one of them
 * would still show up in RequestLog, which has no such exceptions.
 */
const CHROMIUM_SERVICE_HOSTS = new Set([
	'accounts.google.com',
	'clients2.google.com',
	'clients2.googleusercontent.com',
	'content-autofill.googleapis.com',
	'optimizationguide-pa.googleapis.com',
	'redirector.gvt1.com',
	'safebrowsing.googleapis.com',
	'update.googleapis.com',
]);

/** The host of a proxy log entry: `GET http://host/path` or `CONNECT host:443`. */
function hostOf(entry: string): string {
	const target = entry.slice(entry.indexOf(' ') + 1);
	return target.startsWith('http') ? new URL(target).hostname : target.replace(/:\d+$/, '');
}

/** Proxy log entries that are not Chromium's own service traffic. */
export function notChromiumServices(entries: readonly string[]): string[] {
	return entries.filter((entry) => !CHROMIUM_SERVICE_HOSTS.has(hostOf(entry)));
}

export interface RecordingProxy {
	/** `http://127.0.0.1:port`, for launchBrowser({ proxy }). */
	readonly url: string;
	/** Every request that reached the proxy: `GET http://host/path` or `CONNECT host:443`. */
	readonly seen: string[];
	stop(): Promise<void>;
}

export async function startRecordingProxy(): Promise<RecordingProxy> {
	const seen: string[] = [];
	const server = createServer((req, res) => {
		seen.push(`${req.method} ${req.url}`);
		res.writeHead(403, { 'Content-Type': 'text/plain', Connection: 'close' });
		res.end('Sockscope test proxy: requests to other hosts are not allowed\n');
	});
	// https:// and wss:// arrive as CONNECT tunnels; the host is all there is to record.
	server.on('connect', (req, socket) => {
		seen.push(`CONNECT ${req.url}`);
		socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		seen,
		stop: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}
