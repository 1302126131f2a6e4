// The tracker's views over RecordJson objects (what `sockscope decode` prints), for callers that
// already have them: tests, and tools that read NDJSON. Fine for small traces; the CLI and the
// worker use buffer-view.ts, which reads the decoder's tables without building objects.
import type { RecordJson } from '../decoder/record-json.ts';
import type { SocketTracker } from './tracker.ts';
import {
	AFD_GUID,
	FIELD_NAMES,
	isKernelProcessEvent,
	isMofProcessClass,
	isMofProcessHook,
	KERNEL_PROCESS_GUID,
	type AfdEventView,
	type ProcessEventView,
} from './view.ts';

export class RecordJsonAfdView implements AfdEventView {
	readonly index: number;
	readonly ticks: number;
	readonly id: number;
	readonly version: number;
	readonly headerPid: number | null;
	readonly tid: number | null;
	readonly #fields: Record<string, unknown>;

	constructor(r: RecordJson, index: number, origin: bigint) {
		this.index = index;
		this.ticks = Number(BigInt(r.filetime) - origin);
		this.id = r.id;
		this.version = r.version;
		this.headerPid = r.pid;
		this.tid = r.tid;
		this.#fields = r.fields;
	}

	num(field: number): number | undefined {
		const v = this.#fields[FIELD_NAMES[field]!];
		if (typeof v === 'number') return v;
		if (typeof v === 'boolean') return v ? 1 : 0;
		if (typeof v === 'string' && /^(0x[0-9a-f]+|\d+)$/i.test(v)) return Number(BigInt(v));
		return undefined;
	}

	ptr(field: number): string | undefined {
		const v = this.#fields[FIELD_NAMES[field]!];
		return typeof v === 'string' && v.startsWith('0x') ? v.toLowerCase() : undefined;
	}

	text(field: number): string | undefined {
		const v = this.#fields[FIELD_NAMES[field]!];
		return typeof v === 'string' ? v : undefined;
	}
}

function hexBytes(hex: string): Uint8Array {
	const out = new Uint8Array(hex.length >> 1);
	for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
	return out;
}

/**
 * A process event view of a record, or null when it is not one. RecordJson has no pointer size:
 * `pointerSize` is the trace's (the logfile header's), as kernel events use the kernel's width.
 */
export function processViewOf(
	r: RecordJson,
	index: number,
	origin: bigint,
	pointerSize: 4 | 8,
): ProcessEventView | null {
	if (r.payload === undefined) return null;
	const common = {
		index,
		ticks: Number(BigInt(r.filetime) - origin),
		version: r.version,
		headerPid: r.pid,
		pointerSize,
		payload: hexBytes(r.payload),
	};
	if (r.kind === 'event' && r.providerGuid === KERNEL_PROCESS_GUID && isKernelProcessEvent(r.id))
		return { ...common, source: 'kernel-process', id: r.id };
	const kernel = r.kind === 'system' || r.kind === 'perfinfo' || r.kind === 'compact';
	if (kernel && isMofProcessHook(r.id)) return { ...common, source: 'mof', id: r.id & 0xff };
	if (
		(r.kind === 'classic' || r.kind === 'instance') &&
		isMofProcessClass(r.providerGuid, r.opcode)
	)
		return { ...common, source: 'mof', id: r.opcode };
	return null;
}

/** Feeds one record (the index-th of the trace) to the tracker, if it is one it reads. */
export function feedRecordJson(
	tracker: SocketTracker,
	r: RecordJson,
	index: number,
	origin: bigint,
	pointerSize: 4 | 8,
): void {
	if (r.kind === 'event' && r.providerGuid === AFD_GUID && r.name !== null)
		tracker.afd(new RecordJsonAfdView(r, index, origin));
	else {
		const p = processViewOf(r, index, origin, pointerSize);
		if (p) tracker.process(p);
	}
}
