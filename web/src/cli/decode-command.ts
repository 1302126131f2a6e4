// `sockscope decode`: every record in time order, or (with --filter) the records the filter
// selects through the same column chunks and compiled filter as the web app.
import { PROVIDERS } from '../generated/schemas.ts';
import { RecordOut } from '../generated/layouts.ts';
import { BufferRecords, bufferTable, type RecordAt } from '../decoder/buffer-records.ts';
import { indexBuffers, reopenTrace, type OpenTrace } from '../decoder/etl-file.ts';
import { mergeRecords } from '../decoder/merge.ts';
import { checkedRead } from './checked-read.ts';
import { ProviderTable, recordJson, type RecordJson } from '../decoder/record-json.ts';
import { csvCell, headerLine, recordLine, type ExportFormat } from '../export/record-lines.ts';
import { recordDecoder } from '../decoder/single-record.ts';
import type { Chunk } from '../columns/layout.ts';
import { RowRecords } from '../columns/row-records.ts';
import { ingestTrace, WRITES_IN_FLIGHT } from '../ingest/ingest.ts';
import { ColumnPool } from '../columns/column-pool.ts';
import { TraceTables } from '../ingest/trace-tables.ts';
import { compileFilter } from '../query/filter-compile.ts';
import { parseFilter } from '../query/filter-parser.ts';
import { OwnerJoin, type RowOwners } from '../query/owner-join.ts';
import { importTracker, type ImportTracker } from '../sockets/import-tracker.ts';
import type { EventOwners } from '../columns/event-owners.ts';
import { trackTrace } from '../sockets/track-trace.ts';
import type { FilterContext } from '../query/filter-nodes.ts';
import type { LineWriter } from './output.ts';
import { ByteSink } from '../export/byte-sink.ts';
import { pickedEventLine, type EventColumn } from '../export/event-columns.ts';
import { RecordWriter } from '../export/record-writer.ts';
import { ColumnWriter } from '../export/column-writer.ts';
import { eventRow, type RowAt } from '../export/tables.ts';
import type { Progress } from './progress.ts';

export interface DecodeOptions {
	readonly format: ExportFormat;
	readonly provider: 'afd' | 'all';
	readonly filter: string | null;
	/** Picked columns (--columns), or null for every record column. */
	readonly columns: readonly EventColumn[] | null;
}

const AFD_GUID = PROVIDERS.find((p) => p.key === 'afd')!.guid;

/** Prints the records; returns the damage found, as messages. */
export async function decodeCommand(
	trace: OpenTrace,
	module: WebAssembly.Module,
	opts: DecodeOptions,
	out: LineWriter,
	progress: Progress,
): Promise<string[]> {
	const cols = opts.columns;
	// Lines are written as bytes into one sink and go out between buffers, so memory stays
	// bounded whatever the trace size.
	const sink = new ByteSink(1 << 20);
	const flush = () => out.sink(sink);
	const line = (s: string) => {
		sink.utf8(s);
		sink.byte(10);
	};
	if (cols) {
		if (opts.format === 'csv') line(cols.map((c) => csvCell(c.header)).join(','));
	} else {
		const header = headerLine(opts.format);
		if (header !== null) line(header);
	}
	// Columns of the events table are read from the column chunks, as a filter is.
	const rowColumns = cols?.some((c) => c.row) ?? false;
	if (opts.filter !== null || rowColumns) {
		// The owners are the sockets', known once the whole trace has been followed: a first pass
		// of the tracker when a column or the filter needs them.
		const owners =
			cols?.some((c) => c.owners) || needsOwners(opts.filter ?? '')
				? await firstPassOwners(trace)
				: null;
		const { damage } = await filteredRecords(
			trace,
			module,
			opts.filter ?? '',
			(r, c, i, ctx, index, rowOwners) => {
				if (opts.provider === 'afd' && r.providerGuid !== AFD_GUID) return;
				if (!cols) return line(recordLine(r, opts.format));
				const row = rowColumns ? eventRow(c, i, ctx, r, index, rowOwners) : null;
				line(pickedEventLine(r, row, cols, opts.format));
			},
			flush,
			progress,
			{
				owners,
				sockets: false,
				written: writtenFromBuffer(trace, opts, sink),
			},
		);
		await flush();
		return damage;
	}
	const providers = new ProviderTable(trace);
	const index = await indexBuffers(trace);
	const read = checkedRead(trace, index, progress);
	const writer = cols ? null : new RecordWriter(opts.format, trace, providers);
	// Picked columns here are record columns and payload fields only (no row columns).
	const picked = cols
		? new ColumnWriter(
				opts.format,
				cols.map((c) => c.written),
				providers,
			)
		: null;
	await mergeRecords(
		trace,
		index.buffers,
		(b, i) => {
			if (opts.provider === 'afd' && providers.guid(b.u16(i, RecordOut.providerIndex)) !== AFD_GUID)
				return;
			if (writer) writer.record(sink, b, i);
			else if (!picked!.write(sink, b, i))
				line(pickedEventLine(recordJson(b, i, trace, providers), null, cols!, opts.format));
		},
		read.onBuffer,
		flush,
		read.onSlice,
	);
	await flush();
	return read.finish();
}

/**
 * Whole lines written straight from a selected record's buffer (decoded again by BufferRecords,
 * kept for the next rows), without a record object: what RecordWriter.fast writes, byte for byte
 * recordLine(recordJson(...)), or with --columns (record columns, payload fields, and columns of
 * the events table read from the chunk) what ColumnWriter writes, for a schema-decoded event.
 * Any other record, and one of another provider under --provider afd, is left to the record
 * object path.
 */
function writtenFromBuffer(trace: OpenTrace, opts: DecodeOptions, sink: ByteSink): WrittenRecord {
	let writer: RecordWriter | null = null;
	let picked: ColumnWriter | null = null;
	return ({ buffer: b, i: k }, providers, c, i, row) => {
		if (opts.provider === 'afd' && providers.guid(b.u16(k, RecordOut.providerIndex)) !== AFD_GUID)
			return false;
		if (opts.columns) {
			picked ??= new ColumnWriter(
				opts.format,
				opts.columns.map((col) => col.written),
				providers,
			);
			return picked.write(sink, b, k, c.pid[i]!, c.tid[i]!, row);
		}
		writer ??= new RecordWriter(opts.format, trace, providers);
		return writer.fast(sink, b, k, c.pid[i]!, c.tid[i]!);
	};
}

/** Whether a filter has a term on the rows' owners. */
function needsOwners(filter: string): boolean {
	const ctx: FilterContext = {
		strings: [],
		eventTypes: [],
		startFiletime: 0n,
		processNames: new Map(),
	};
	return compileFilter(parseFilter(filter), ctx)?.owners ?? false;
}

/** The sockets' owners table: one pass of the tracker over the whole trace. */
export async function firstPassOwners(trace: OpenTrace): Promise<EventOwners | null> {
	const index = await indexBuffers(trace);
	return (await trackTrace(trace, index.buffers, { maxEventsPerSocket: 0 })).owners ?? null;
}

/**
 * One selected record: its decoded form, its chunk's columns and row, the tables so far, its
 * position in the trace and its chunk's owners.
 */
export type EachRecord = (
	r: RecordJson,
	c: Chunk['columns'],
	i: number,
	ctx: FilterContext,
	index: number,
	owners: RowOwners,
) => void | Promise<void>;

/**
 * Writes a selected record (row i of a chunk's columns) without its record object, when it can;
 * false leaves it to `each`. `stored` is the record in its buffer, which agrees with the row
 * (RowRecords.stored), `providers` those of the decoder that decoded it; `at` is the row (for
 * columns of the events table). A writer that may wait returns a promise of the same.
 */
export type WrittenRecord = (
	stored: RecordAt,
	providers: ProviderTable,
	c: Chunk['columns'],
	i: number,
	at: RowAt,
) => boolean | Promise<boolean>;

export interface RecordsOptions {
	/** The sockets' owners table (a first pass of the tracker); null: the records' own processes. */
	readonly owners?: EventOwners | null;
	/**
	 * Whether to follow the sockets on the way (the `sockets` returned); false follows process
	 * events and host names only (for the filter's names), at less cost.
	 */
	readonly sockets?: boolean;
	/** Tried first for each selected record that a filter did not decode already. */
	readonly written?: WrittenRecord;
}

/**
 * The records a filter selects, through the same column chunks and compiled filter as in the web
 * app; each is decoded again from its stored bytes. `index` is the record's position in
 * `sockscope decode` output. Returns the damage found and the sockets followed on the way.
 */
export async function filteredRecords(
	trace: OpenTrace,
	module: WebAssembly.Module,
	filter: string,
	each: EachRecord,
	flush: () => Promise<void>,
	progress: Progress,
	options: RecordsOptions = {},
): Promise<{ damage: string[]; sockets: ImportTracker }> {
	const tables = new TraceTables();
	const start = BigInt(trace.facts.startFiletime);
	const node = parseFilter(filter);
	// Process names (for `process:name`) come from the trace's process events, as in the web app.
	const sockets = importTracker(trace, options.sockets ?? true);
	const join = new OwnerJoin(options.owners ?? null);
	const index = await indexBuffers(trace);
	// Matching records are read back from the file by a decoder of their own, each used before
	// the next is asked for: the parts put out of the cache lend their memory.
	const records = new BufferRecords(
		await reopenTrace(trace),
		bufferTable(index.buffers),
		undefined,
		true,
	);
	const rowRecords = new RowRecords(records, recordDecoder(module, trace.facts), trace.facts);
	// The import hands chunks on without waiting for the last to be written: handled in order.
	let done = Promise.resolve();
	const columns = new ColumnPool(WRITES_IN_FLIGHT);
	let base = 0;
	const eachOfChunk = async (
		chunk: Chunk,
		names: Pick<FilterContext, 'processNames' | 'hostNames'>,
	) => {
		const ctx: FilterContext = {
			strings: tables.strings,
			eventTypes: tables.eventTypes,
			startFiletime: start,
			...names,
		};
		const compiled = compileFilter(node, ctx);
		const c = chunk.columns;
		// Terms on payload fields test the fields of the records of the event types they name,
		// read as each row comes (in order: its buffer is among those just decoded).
		const types = compiled?.payloadTypes;
		let fieldsOf = -1;
		let fields: Readonly<Record<string, unknown>> | null = null;
		const owners = join.columns(c, chunk.rows, base, ctx);
		const test = compiled?.bind(c, (i) => (i === fieldsOf ? fields : null), owners);
		const written = options.written;
		for (let i = 0; i < chunk.rows; i++) {
			if (types && types[c.etype[i]!] === 1) {
				fieldsOf = i;
				fields = await rowRecords.fields(c, i, compiled!.payloadKeys);
			}
			if (test && !test(i)) continue;
			if (written) {
				// The record as its buffer holds it (decoded now, unless it is among those kept),
				// if it agrees with the row: written from there.
				const now = rowRecords.storedNow(c, i);
				const stored = now !== undefined ? now : await rowRecords.stored(c, i);
				if (stored) {
					const at = { c, i, ctx, index: base + i, owners };
					let wrote = written(stored, records.providers, c, i, at);
					if (typeof wrote !== 'boolean') wrote = await wrote;
					if (wrote) continue;
				}
			}
			const r = await rowRecords.json(c, i);
			if (r) await each(r, c, i, ctx, base + i, owners);
		}
		base += chunk.rows;
		await flush();
	};
	const result = await ingestTrace(
		trace,
		(chunk) => {
			// The names known at its commit: the decoding goes on while a chunk is written, and
			// names it learns meanwhile would make a row's owner or a filter's match depend on timing.
			const names = {
				processNames: new Map(tables.processNames),
				hostNames: new Map(tables.hostNames),
			};
			// Its columns are filled again by a later chunk once it is written.
			return (done = done.then(async () => {
				await eachOfChunk(chunk, names);
				columns.give(chunk.columns);
			}));
		},
		{
			tables,
			index,
			observe: sockets.observe,
			beforeCommit: sockets.learnNames,
			onProgress: (p) => progress.update(p.bytesDone, p.bytesTotal),
			columns,
		},
	);
	return { damage: result.damage.map((d) => d.message), sockets };
}
