// Names for PIDs, from the process events in the trace (Microsoft-Windows-Kernel-Process and the
// kernel logger's Process class), read with the socket view's parser (web/src/sockets/), for a
// trace whose import did not learn them as it decoded: they let the table say `curl.exe (5200)`
// and the filter accept `process:curl.exe`.
import { RecordKind } from '../generated/layouts.ts';
import type { EventType } from '../columns/layout.ts';
import type { QueryEngine } from '../query/engine.ts';
import type { Selection } from '../query/protocol.ts';
import { ProcessTable } from '../sockets/processes.ts';
import { processViewOf } from '../sockets/record-json-view.ts';
import {
	isKernelProcessEvent,
	isMofProcessClass,
	isMofProcessHook,
	KERNEL_PROCESS_GUID,
} from '../sockets/view.ts';
import type { RecordReader } from './record-reader.ts';
import { rowsOfTypes, typeIndexes } from './type-rows.ts';

/** Process events read at most (a trace with more is rare: each is a process start or end). */
const MAX_PROCESS_EVENTS = 50_000;

function isProcessEvent(t: EventType): boolean {
	if (t.kind === RecordKind.event)
		return t.provider === KERNEL_PROCESS_GUID && isKernelProcessEvent(t.id);
	if (
		t.kind === RecordKind.system ||
		t.kind === RecordKind.compact ||
		t.kind === RecordKind.perfinfo
	)
		return isMofProcessHook(t.id);
	if (t.kind === RecordKind.classic || t.kind === RecordKind.instance)
		return isMofProcessClass(t.provider, t.opcode);
	return false;
}

/** PID → image base name for every process an event of the trace names. */
export async function learnProcessNames(
	engine: QueryEngine,
	all: Selection,
	types: readonly EventType[],
	reader: RecordReader,
	startFiletime: bigint,
	pointerSize: 4 | 8,
): Promise<Map<number, string>> {
	const rows = await rowsOfTypes(
		engine,
		all,
		typeIndexes(types, isProcessEvent),
		MAX_PROCESS_EVENTS,
	);
	const table = new ProcessTable();
	for (const [k, { chunk, row }] of rows.entries()) {
		const r = await reader.json(chunk, row);
		const view = r && processViewOf(r, k, startFiletime, pointerSize);
		if (view) table.onEvent(view);
	}
	const names = new Map<number, string>();
	for (const p of table.list()) if (p.name && !names.has(p.pid)) names.set(p.pid, p.name);
	return names;
}
