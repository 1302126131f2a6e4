// Processor time of a Chromium that launchBrowser started: its browser process and every process
// under it (zygote, renderers, GPU, utilities), thread by thread, read from /proc (Linux). On a
// shared machine wall time swings by a third from one run to the next; the processor time an
// import takes in all threads is a steadier figure of the work it does. A thread that ends (a
// worker closed at an import's end) keeps the time last sampled: sample often enough.
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's utime and stime (USER_HZ: 100 on Linux everywhere). */
const TICKS_PER_SECOND = 100;

interface ThreadTime {
	/** The process's --type (renderer, gpu-process, utility, zygote), or browser. */
	readonly kind: string;
	/** The thread's name (comm): DedicatedWorker, ThreadPoolForeg…, chromium (a main thread). */
	readonly name: string;
	readonly ticks: number;
}

/** Processor seconds, in all and by group of threads. */
export interface CpuFigures {
	readonly seconds: number;
	/** Each Web Worker thread of the renderers, the busiest first. */
	readonly workers: number[];
	/** The renderer's main thread (the page). */
	readonly page: number;
	/** The renderer's thread pool: V8's compilers and its collector's helpers, Blob and file work. */
	readonly rendererPool: number;
	/** The browser process: the File's reads, IndexedDB, IPC. */
	readonly browser: number;
	/** Every other thread (GPU, utilities, the renderer's IO thread, the compositor…). */
	readonly other: number;
}

const read = (path: string): string | null => {
	try {
		return readFileSync(path, 'utf8');
	} catch {
		return null;
	}
};

/**
 * A process's arguments. Chromium's child processes rewrite their command line into one string
 * (setproctitle), so it is split at spaces as well as NULs.
 */
const argsOf = (pid: number | string): string[] =>
	read(`/proc/${pid}/cmdline`)?.split(/[\0 ]/) ?? [];

export class BrowserCpu {
	readonly #root: number;
	/** The latest time seen of every thread, by "pid/tid". */
	readonly #threads = new Map<string, ThreadTime>();

	private constructor(root: number) {
		this.#root = root;
	}

	/** The Chromium whose command line names `profile` (its --user-data-dir); null without /proc. */
	static find(profile: string): BrowserCpu | null {
		let pids: string[];
		try {
			pids = readdirSync('/proc').filter((p) => /^\d+$/.test(p));
		} catch {
			return null;
		}
		for (const pid of pids) {
			const args = argsOf(pid);
			if (args.includes(`--user-data-dir=${profile}`) && !args.some((a) => a.startsWith('--type=')))
				return new BrowserCpu(Number(pid));
		}
		return null;
	}

	/** Reads every thread's time now. */
	sample(): void {
		for (const pid of this.#tree()) {
			const args = argsOf(pid);
			const kind = args.find((a) => a.startsWith('--type='))?.slice(7) ?? 'browser';
			let tids: string[];
			try {
				tids = readdirSync(`/proc/${pid}/task`);
			} catch {
				continue; // ended meanwhile
			}
			for (const tid of tids) {
				const stat = read(`/proc/${pid}/task/${tid}/stat`);
				const name = read(`/proc/${pid}/task/${tid}/comm`)?.trim();
				if (!stat || !name) continue;
				// Fields after the name (which may hold spaces): utime and stime are the 12th and 13th.
				const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
				this.#threads.set(`${pid}/${tid}`, { kind, name, ticks: Number(f[11]) + Number(f[12]) });
			}
		}
	}

	/** Every thread's time so far (a copy, to subtract from a later one). */
	snapshot(): ReadonlyMap<string, ThreadTime> {
		return new Map(this.#threads);
	}

	/** The time taken since `before` (a snapshot), by group. */
	since(before: ReadonlyMap<string, ThreadTime>): CpuFigures {
		const workers: number[] = [];
		let [page, rendererPool, browser, other, all] = [0, 0, 0, 0, 0];
		for (const [key, t] of this.#threads) {
			const s = (t.ticks - (before.get(key)?.ticks ?? 0)) / TICKS_PER_SECOND;
			if (s <= 0) continue;
			all += s;
			if (t.kind === 'renderer' && t.name === 'DedicatedWorker') workers.push(s);
			else if (t.kind === 'renderer' && t.name === 'chromium') page += s;
			else if (t.kind === 'renderer' && t.name.startsWith('ThreadPoolForeg')) rendererPool += s;
			else if (t.kind === 'browser') browser += s;
			else other += s;
		}
		const round = (x: number) => Math.round(x * 100) / 100;
		return {
			seconds: round(all),
			workers: workers.sort((a, b) => b - a).map(round),
			page: round(page),
			rendererPool: round(rendererPool),
			browser: round(browser),
			other: round(other),
		};
	}

	/** The browser's process and all under it. */
	#tree(): number[] {
		const children = new Map<number, number[]>();
		let pids: string[];
		try {
			pids = readdirSync('/proc').filter((p) => /^\d+$/.test(p));
		} catch {
			return [];
		}
		for (const pid of pids) {
			const stat = read(`/proc/${pid}/stat`);
			if (!stat) continue;
			const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
			const list = children.get(parent) ?? [];
			list.push(Number(pid));
			children.set(parent, list);
		}
		const out: number[] = [];
		const visit = (pid: number) => {
			out.push(pid);
			for (const c of children.get(pid) ?? []) visit(c);
		};
		visit(this.#root);
		return out;
	}
}

/** One line: the total, then each group. */
export function cpuLine(c: CpuFigures): string {
	return (
		`${c.seconds} s of processor time: workers ${c.workers.length ? `${c.workers.join(' + ')} s` : 'none'}, page ${c.page} s, ` +
		`the renderer's thread pool ${c.rendererPool} s, browser process ${c.browser} s, other ${c.other} s`
	);
}
