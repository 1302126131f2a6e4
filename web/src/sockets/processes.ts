// Process names and the EPROCESS → PID map. Names come from Microsoft-Windows-Kernel-Process
// (ProcessStart 1, ProcessStop 2, ProcessRundown 15) or the NT kernel logger's Process events
// (MOF Start/End/DCStart/DCEnd/Defunct) in the same trace; a PID with neither is shown as `PID n`.
// AFD names a process only by its EPROCESS address; the PID comes from socket creation events
// (UserModePid / ProcessId, which overwrite: a new process may get a dead one's EPROCESS), MOF
// UniqueProcessKey, the header PID at a Location where it is known to be the caller's, or,
// weakest, the header PID of an application call's enter at a Location not known either way.
import type { ProcessEventView } from './view.ts';

export interface ProcessInfo {
	readonly pid: number;
	/** Image base name, e.g. chrome.exe. */
	readonly name: string | null;
	/** As logged: an NT path (Kernel-Process) or the short image name (MOF). */
	readonly image: string | null;
	readonly parentPid: number | null;
	/** Ticks of the start event; null when the process started before the trace. */
	readonly startTicks: number | null;
	/** Ticks of the stop event; null when it still ran at the end. */
	readonly endTicks: number | null;
	/** Record index of the first event that named it. */
	readonly index: number;
	readonly source: 'kernel-process' | 'mof';
}

type MutableInfo = { -readonly [K in keyof ProcessInfo]: ProcessInfo[K] };

/**
 * How a PID was learned for an EPROCESS. Trusted: a socket's create, the kernel logger's process
 * events, the header PID at a reliable Location. Weak: the header PID of a call's enter at an
 * unknown Location (kept only until a trusted source speaks).
 */
export type PidSource = 'afd-create' | 'mof' | 'reliable-location' | 'header';

interface PidMapping {
	pid: number;
	ticks: number;
	strong: boolean;
	source: PidSource;
}

interface Parsed {
	pid: number;
	parentPid: number | null;
	image: string | null;
	/** MOF UniqueProcessKey (the EPROCESS address). */
	eprocess: string | null;
	kind: 'start' | 'stop' | 'rundown';
}

const RANK: Readonly<Record<PidSource, number>> = {
	header: 0,
	'reliable-location': 1,
	mof: 2,
	'afd-create': 3,
};

/** Start events of two providers for one process are this close (1 s, in 100 ns ticks). */
const SAME_START_TICKS = 10_000_000;

const utf16 = new TextDecoder('utf-16le');
const latin1 = new TextDecoder('latin1');

function utf16z(b: Uint8Array, at: number): { text: string; end: number } {
	let end = at;
	while (end + 1 < b.length && (b[end] !== 0 || b[end + 1] !== 0)) end += 2;
	return { text: utf16.decode(b.subarray(at, Math.min(end, b.length))), end: end + 2 };
}

function ansiz(b: Uint8Array, at: number): string {
	let end = at;
	while (end < b.length && b[end] !== 0) end++;
	return latin1.decode(b.subarray(at, end));
}

function pointerHex(d: DataView, at: number, size: 4 | 8): string {
	return (
		'0x' + (size === 8 ? d.getBigUint64(at, true) : BigInt(d.getUint32(at, true))).toString(16)
	);
}

/** Bytes of a manifest win:SID: revision, sub-authority count, 6-byte authority, 4 per sub-authority. */
function sidLength(b: Uint8Array, at: number): number {
	return 8 + 4 * (b[at + 1] ?? 0);
}

/** Kernel-Process events 1, 2 and 15; layouts per version from the provider's manifest. */
function parseKernelProcess(v: ProcessEventView): Parsed | null {
	const b = v.payload;
	const d = new DataView(b.buffer, b.byteOffset, b.byteLength);
	if (b.length < 4) return null;
	const pid = d.getUint32(0, true);
	if (v.id === 2) {
		// ProcessStop: fixed counters, then the ANSI image name.
		const at = v.version === 0 ? 48 : v.version === 1 ? 76 : 84;
		return {
			pid,
			parentPid: null,
			image: at < b.length ? ansiz(b, at) : null,
			eprocess: null,
			kind: 'stop',
		};
	}
	const kind = v.id === 1 ? 'start' : 'rundown';
	// Start v3+ and Rundown v1+ insert sequence numbers, token fields and a SID.
	const wide = (v.id === 1 && v.version >= 3) || (v.id === 15 && v.version >= 1);
	if (wide) {
		if (b.length < 44) return null;
		const parentPid = d.getUint32(20, true);
		const at = 44 + sidLength(b, 44);
		return { pid, parentPid, image: utf16z(b, at).text, eprocess: null, kind };
	}
	if (b.length < 20) return null;
	const parentPid = d.getUint32(12, true);
	const hasFlags = v.id === 15 || v.version >= 1;
	return { pid, parentPid, image: utf16z(b, hasFlags ? 24 : 20).text, eprocess: null, kind };
}

/** MOF Process_V2/V3/V4 TypeGroup1 (wmicore.mof): the UniqueProcessKey is the EPROCESS. */
function parseMof(v: ProcessEventView): Parsed | null {
	const b = v.payload;
	const p = v.pointerSize;
	const d = new DataView(b.buffer, b.byteOffset, b.byteLength);
	let at = p + 16 + (v.version >= 3 ? p : 0) + (v.version >= 4 ? 4 : 0);
	if (b.length < at + 4) return null;
	const eprocess = pointerHex(d, 0, p);
	const pid = d.getUint32(p, true);
	const parentPid = d.getUint32(p + 4, true);
	// UserSID: a ULONG 0 when absent, else TOKEN_USER (two pointers) and the SID.
	at += d.getUint32(at, true) === 0 ? 4 : 2 * p + sidLength(b, at + 2 * p);
	const image = at < b.length ? ansiz(b, at) : null;
	const kind = v.id === 1 ? 'start' : v.id === 2 || v.id === 39 ? 'stop' : 'rundown';
	return { pid, parentPid, image, eprocess, kind };
}

/** EPROCESS keeps 14 characters of the image name (ProcessStop, MOF): a prefix matches. */
const SHORT_IMAGE = 14;

/** Whether two image names (either possibly missing or cut to 14 characters) are one. */
function sameImage(a: string | null, b: string | null): boolean {
	if (a === null || b === null) return true;
	const [x, y] = [a.toLowerCase(), b.toLowerCase()];
	if (x === y) return true;
	const [short, long] = x.length < y.length ? [x, y] : [y, x];
	return short.length >= SHORT_IMAGE && long.startsWith(short);
}

/** The last component of a Windows path. */
export function baseName(path: string): string {
	const i = Math.max(path.lastIndexOf('\\'), path.lastIndexOf('/'));
	return i >= 0 ? path.slice(i + 1) : path;
}

export class ProcessTable {
	readonly #byPid = new Map<number, MutableInfo[]>();
	readonly #pids = new Map<string, PidMapping[]>();
	/** EPROCESSes with a mapping from a trusted source (asked at nearly every event). */
	readonly #strong = new Set<string>();

	/** Reads one process event. Payloads too short for their layout are skipped. */
	onEvent(v: ProcessEventView): void {
		const p = v.source === 'kernel-process' ? parseKernelProcess(v) : parseMof(v);
		if (!p) return;
		if (p.eprocess) this.learnPid(p.eprocess, p.pid, v.ticks, 'mof');
		const image = p.image || null;
		const name = image ? baseName(image) : null;
		const list = this.#byPid.get(p.pid) ?? [];
		this.#byPid.set(p.pid, list);
		const alive = list.findLast((e) => e.endTicks === null);
		if (p.kind === 'start') {
			// The same start logged by both Kernel-Process and the kernel logger: one process.
			const twin =
				alive?.startTicks != null &&
				sameImage(alive.name, name) &&
				v.ticks - alive.startTicks < SAME_START_TICKS;
			if (twin) return;
			// A PID cannot be reused while its process lives: the earlier one ended unseen.
			if (alive) alive.endTicks = v.ticks;
			list.push(this.#info(p, v, name, image, v.ticks));
			return;
		}
		// Rundown or stop of a process already listed; a Defunct after its End is the same one.
		const known = alive ?? (p.kind === 'stop' ? list.at(-1) : undefined);
		if (known && sameImage(known.name, name)) {
			if (name && (known.name === null || name.length > known.name.length)) {
				known.name = name;
				known.image = image;
			}
			known.parentPid ??= p.parentPid;
			if (p.kind === 'stop') known.endTicks ??= v.ticks;
			return;
		}
		const entry = this.#info(p, v, name, image, null);
		if (p.kind === 'stop') entry.endTicks = v.ticks;
		list.push(entry);
	}

	#info(
		p: Parsed,
		v: ProcessEventView,
		name: string | null,
		image: string | null,
		start: number | null,
	): MutableInfo {
		return {
			pid: p.pid,
			name,
			image,
			parentPid: p.parentPid,
			startTicks: start,
			endTicks: null,
			index: v.index,
			source: v.source,
		};
	}

	/**
	 * Records that an EPROCESS belonged to a PID from `ticks` on. Header PIDs are kept only until a
	 * trusted source (a create event, a kernel event) speaks for that EPROCESS.
	 */
	learnPid(eprocess: string, pid: number, ticks: number, source: PidSource): void {
		let list = this.#pids.get(eprocess);
		if (!list) this.#pids.set(eprocess, (list = []));
		const strong = source !== 'header';
		if (!strong && this.#strong.has(eprocess)) return;
		if (strong) {
			this.#strong.add(eprocess);
			const weak = list.filter((m) => !m.strong);
			for (const w of weak) list.splice(list.indexOf(w), 1);
		}
		const last = list.at(-1);
		if (last && last.pid === pid) {
			// The same PID from a better source (a create confirming a reliable Location).
			if (RANK[source] > RANK[last.source]) last.source = source;
			return;
		}
		list.push({ pid, ticks, strong, source });
	}

	/** How the PID that pidOf gives was learned. */
	sourceOf(eprocess: string | null, ticks: number): PidSource | null {
		return this.#mapping(eprocess, ticks)?.source ?? null;
	}

	/** Whether a PID is known for this EPROCESS from a trusted source. */
	hasStrongPid(eprocess: string): boolean {
		return this.#strong.has(eprocess);
	}

	/** The PID of an EPROCESS at a time: the mapping in force then, else the first one learned. */
	pidOf(eprocess: string | null, ticks: number): number | null {
		return this.#mapping(eprocess, ticks)?.pid ?? null;
	}

	/** The mapping in force at a time, else (a socket older than any mapping) the first one. */
	#mapping(eprocess: string | null, ticks: number): PidMapping | null {
		if (!eprocess) return null;
		const list = this.#pids.get(eprocess);
		if (!list?.length) return null;
		return list.findLast((m) => m.ticks <= ticks) ?? list[0]!;
	}

	/** The process a PID named at a time (PIDs are reused), or null when no event named it. */
	infoOf(pid: number | null, ticks: number): ProcessInfo | null {
		if (pid === null) return null;
		const list = this.#byPid.get(pid);
		if (!list?.length) return null;
		const inside = list.find(
			(e) =>
				(e.startTicks === null || e.startTicks <= ticks) &&
				(e.endTicks === null || ticks <= e.endTicks),
		);
		return inside ?? list.findLast((e) => (e.startTicks ?? -Infinity) <= ticks) ?? list[0]!;
	}

	/** `chrome.exe`, or `PID n` when the trace has no process event for it. */
	label(pid: number | null, ticks: number): string {
		// i18n: data (a value the CLI prints)
		if (pid === null) return 'unknown process';
		return this.infoOf(pid, ticks)?.name ?? `PID ${pid}`;
	}

	/** Every process named by a process event, by PID then start. */
	list(): ProcessInfo[] {
		return [...this.#byPid.values()].flat().sort((a, b) => a.pid - b.pid || a.index - b.index);
	}
}
