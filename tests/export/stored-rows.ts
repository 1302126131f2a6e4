// A trace's stored rows as the exports read them, for the writers' tests to hold a path straight
// from the buffers against the record object's: its chunks (ingested into memory), each row's
// record in its buffer as decoded again, the sockets' owners joined.
import { BufferRecords, bufferTable, type RecordAt } from '../../web/src/decoder/buffer-records.ts';
import { indexBuffers, reopenTrace, type OpenTrace } from '../../web/src/decoder/etl-file.ts';
import { recordJson, type RecordJson } from '../../web/src/decoder/record-json.ts';
import type { Chunk } from '../../web/src/columns/layout.ts';
import type { RowAt } from '../../web/src/export/tables.ts';
import { ByteSink } from '../../web/src/export/byte-sink.ts';
import { firstPassOwners } from '../../web/src/cli/decode-command.ts';
import { OwnerJoin } from '../../web/src/query/owner-join.ts';
import { ingestToMemory } from '../builders/memory-chunks.ts';
import { open } from '../decoder/load.ts';

const NO_ID = 0xffffffff;

export interface StoredRow {
	readonly c: Chunk['columns'];
	readonly i: number;
	/** Where the row is: the events table's columns read from its chunk, its owners. */
	readonly row: RowAt;
	/** Its record in its buffer; null for the logfile header's row, or a record not read back. */
	readonly at: RecordAt | null;
}

export interface StoredTrace {
	readonly records: BufferRecords;
	rows(): AsyncGenerator<StoredRow>;
	/** The row's record object, with the row's PID and TID, as the exports make it. */
	json(s: StoredRow & { at: RecordAt }): RecordJson;
}

export async function storedTrace(bytes: Uint8Array): Promise<StoredTrace> {
	const trace: OpenTrace = await open(bytes);
	const mem = await ingestToMemory(trace);
	const records = new BufferRecords(
		await reopenTrace(trace),
		bufferTable((await indexBuffers(trace)).buffers),
	);
	const join = new OwnerJoin(await firstPassOwners(await open(bytes)));
	const ctx = { ...mem.context(), hostNames: mem.tables.hostNames };
	return {
		records,
		async *rows() {
			let base = 0;
			for (const chunk of mem.chunks.list) {
				const c = chunk.columns;
				const owners = join.columns(c, chunk.rows, base, ctx);
				for (let i = 0; i < chunk.rows; i++) {
					const at = c.kind[i] === 0 ? null : await records.record(c.buffer[i]!, c.recOffset[i]!);
					yield { c, i, row: { c, i, ctx, index: base + i, owners }, at };
				}
				base += chunk.rows;
			}
		},
		json({ c, i, at }) {
			const r = recordJson(at.buffer, at.i, trace, records.providers);
			r.pid = c.pid[i] === NO_ID ? null : c.pid[i]!;
			r.tid = c.tid[i] === NO_ID ? null : c.tid[i]!;
			return r;
		},
	};
}

/**
 * Each stored row with a record, written by `write` (straight from its buffer), against the line
 * `expected` makes of its record object: lines that differ (the first few), rows, rows written.
 */
export async function compareLines(
	stored: StoredTrace,
	write: (sink: ByteSink, s: StoredRow & { at: RecordAt }) => boolean,
	expected: (r: RecordJson, s: StoredRow) => Buffer | Promise<Buffer>,
): Promise<{ differ: { old: string; new: string }[]; rows: number; written: number }> {
	const sink = new ByteSink();
	const differ: { old: string; new: string }[] = [];
	let rows = 0;
	let written = 0;
	for await (const s of stored.rows()) {
		rows++;
		if (!s.at) continue;
		const withRecord = { ...s, at: s.at };
		sink.length = 0;
		if (!write(sink, withRecord)) continue;
		written++;
		const old = await expected(stored.json(withRecord), s);
		const made = Buffer.from(sink.bytes.subarray(0, sink.length));
		if (!made.equals(old) && differ.length < 3)
			differ.push({ old: old.toString(), new: made.toString() });
	}
	return { differ, rows, written };
}
