// Samples the memory of the page and of every worker it starts, through the browser's DevTools
// protocol: JS heap used and ArrayBuffer backing stores (typed arrays, WASM memories) per
// isolate. Their sum is what the app holds, apart from the browser's own fixed overhead.
import type { Browser as PwBrowser, CDPSession } from 'playwright-core';

interface HeapUsage {
	usedSize: number;
	backingStorageSize?: number;
}

export interface MemorySample {
	/** JS heap used, summed over the page and its workers (MB). */
	readonly heapMB: number;
	/** ArrayBuffer and WASM memory, summed likewise (MB). */
	readonly buffersMB: number;
}

export class IsolateMemory {
	readonly #cdp: CDPSession;
	readonly #sessions = new Map<string, string>();
	readonly #pending = new Map<number, (v: HeapUsage | null) => void>();
	#seq = 0;
	peak: MemorySample = { heapMB: 0, buffersMB: 0 };
	peakTotalMB = 0;
	/** Each isolate's share of the sample at the peak, by its script's file name. */
	peakByIsolate: Record<string, MemorySample> = {};
	readonly #names = new Map<string, string>();

	private constructor(cdp: CDPSession) {
		this.#cdp = cdp;
		cdp.on('Target.receivedMessageFromTarget', (e) => {
			const m = JSON.parse(e.message) as { id?: number; result?: HeapUsage };
			if (m.id !== undefined) this.#pending.get(m.id)?.(m.result ?? null);
			if (m.id !== undefined) this.#pending.delete(m.id);
		});
		cdp.on('Target.detachedFromTarget', (e) => {
			for (const [target, session] of this.#sessions)
				if (session === e.sessionId) this.#sessions.delete(target);
		});
	}

	static async start(browser: PwBrowser): Promise<IsolateMemory> {
		return new IsolateMemory(await browser.newBrowserCDPSession());
	}

	async #attach(): Promise<void> {
		const { targetInfos } = await this.#cdp.send('Target.getTargets');
		for (const t of targetInfos) {
			// A worker found before its script's URL is known is named again once it is.
			const known = this.#sessions.get(t.targetId);
			if (known !== undefined && t.url) this.#names.set(known, isolateName(t.type, t.url));
			if (known !== undefined || !['page', 'worker'].includes(t.type)) continue;
			if (t.type === 'page' && !t.url.startsWith('http')) continue;
			const { sessionId } = await this.#cdp.send('Target.attachToTarget', {
				targetId: t.targetId,
				flatten: false,
			});
			this.#sessions.set(t.targetId, sessionId);
			this.#names.set(sessionId, isolateName(t.type, t.url));
		}
	}

	#usage(sessionId: string): Promise<HeapUsage | null> {
		const id = ++this.#seq;
		const answer = new Promise<HeapUsage | null>((resolve) => {
			this.#pending.set(id, resolve);
			// A worker that has ended answers nothing.
			setTimeout(() => {
				this.#pending.delete(id);
				resolve(null);
			}, 1000);
		});
		const message = JSON.stringify({ id, method: 'Runtime.getHeapUsage' });
		this.#cdp.send('Target.sendMessageToTarget', { sessionId, message }).catch(() => {});
		return answer;
	}

	/** Each sample's isolates, when asked for (--memory-timeline): where a peak comes from. */
	readonly timeline: { atMs: number; byIsolate: Record<string, MemorySample> }[] = [];
	keepTimeline = false;
	readonly #started = performance.now();

	/** One sample over every isolate alive now; keeps the peak. */
	async sample(): Promise<MemorySample> {
		await this.#attach().catch(() => {});
		const sessions = [...this.#sessions.values()];
		const usages = await Promise.all(sessions.map((s) => this.#usage(s)));
		let heap = 0;
		let buffers = 0;
		const byIsolate: Record<string, MemorySample> = {};
		usages.forEach((u, i) => {
			if (u === null) return;
			heap += u.usedSize;
			buffers += u.backingStorageSize ?? 0;
			let name = this.#names.get(sessions[i]!) ?? 'unknown';
			for (let n = 2; name in byIsolate; n++) name = `${name.replace(/#\d+$/, '')}#${n}`;
			byIsolate[name] = {
				heapMB: Math.round(u.usedSize / 1048576),
				buffersMB: Math.round((u.backingStorageSize ?? 0) / 1048576),
			};
		});
		const s = { heapMB: heap / 1048576, buffersMB: buffers / 1048576 };
		if (this.keepTimeline)
			this.timeline.push({ atMs: Math.round(performance.now() - this.#started), byIsolate });
		if (s.heapMB + s.buffersMB > this.peakTotalMB) {
			this.peakTotalMB = s.heapMB + s.buffersMB;
			this.peak = s;
			this.peakByIsolate = byIsolate;
		}
		return s;
	}
}

/** 'page', or a worker's script name without its build hash ('decoder.worker'). */
function isolateName(type: string, url: string): string {
	if (type === 'page') return 'page';
	const file = url.split('/').pop()?.split('?')[0] ?? url;
	return file.replace(/-[\w-]{8}\.js$/, '').replace(/\.js$/, '') || 'worker';
}
