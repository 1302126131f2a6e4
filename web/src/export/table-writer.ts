// One table written as Parquet, NDJSON or CSV through a sink of byte pieces (a file in Node, Blob
// parts in the browser). Rows are held until a row group is full (ROW_GROUP rows), then encoded
// and handed on: memory stays bounded by one row group whatever the number of rows.
import { ByteWriter, ParquetWriter } from 'hyparquet-writer';
import type { SchemaElement } from 'hyparquet';
import { csvCell } from './record-lines.ts';
import { ByteSink } from './byte-sink.ts';

export type TableFormat = 'parquet' | 'ndjson' | 'csv';

/**
 * Column types: INT64 values are numbers or bigints; TIMESTAMP values are ISO UTC strings (with up
 * to 7 decimals) written as microseconds since 1970, or those microseconds (a bigint); JSON values
 * are objects, written as JSON text (a string column in Parquet), or that text's UTF-8.
 */
export type ColumnType = 'INT32' | 'INT64' | 'DOUBLE' | 'BOOLEAN' | 'STRING' | 'TIMESTAMP' | 'JSON';

export interface TableColumn {
	readonly name: string;
	readonly type: ColumnType;
}

export type Row = Record<string, unknown>;

export type Sink = (piece: Uint8Array) => void | Promise<void>;

export const ROW_GROUP = 65536;
/**
 * A row group is also written once its text (strings and JSON) passes this many bytes: payloads
 * of events without a schema are hex of any length, and a group of them must not grow unbounded.
 */
export const ROW_GROUP_BYTES = 8 << 20;

/** "2026-03-14T09:26:53.5897932Z" → microseconds since 1970 (the 100 ns digit dropped). */
export function isoToMicros(iso: string): bigint {
	const m = /^(.*T\d\d:\d\d:\d\d)(?:\.(\d+))?Z$/.exec(iso);
	if (!m) throw new Error(`not an ISO UTC time: ${iso}`);
	const seconds = BigInt(Date.parse(`${m[1]}Z`)) / 1000n;
	const micros = BigInt(((m[2] ?? '') + '000000').slice(0, 6));
	return seconds * 1_000_000n + micros;
}

function schemaOf(columns: readonly TableColumn[]): SchemaElement[] {
	const element = (c: TableColumn): SchemaElement => {
		const base = { name: c.name, repetition_type: 'OPTIONAL' as const };
		switch (c.type) {
			case 'STRING':
				return { ...base, type: 'BYTE_ARRAY', converted_type: 'UTF8' };
			case 'JSON':
				// JSON text in a string column: encoded here, so that a row group's size is known as
				// it fills (the writer's own JSON type would encode it again, slowly, at the flush).
				// DuckDB's ->> and Spark's get_json_object read it as it is.
				return { ...base, type: 'BYTE_ARRAY', converted_type: 'UTF8' };
			case 'TIMESTAMP':
				return {
					...base,
					type: 'INT64',
					converted_type: 'TIMESTAMP_MICROS',
					logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MICROS' },
				};
			default:
				return { ...base, type: c.type };
		}
	};
	return [{ name: 'root', num_children: columns.length }, ...columns.map(element)];
}

const encoder = new TextEncoder();

function parquetValue(type: ColumnType, v: unknown): unknown {
	if (v === null || v === undefined) return null;
	switch (type) {
		case 'INT64':
			return typeof v === 'bigint' ? v : BigInt(v as number);
		case 'TIMESTAMP':
			return typeof v === 'bigint' ? v : isoToMicros(v as string);
		case 'JSON':
			if (v instanceof Uint8Array) return v;
			return encoder.encode(
				JSON.stringify(v, (_, x) => (typeof x === 'bigint' ? x.toString() : x)),
			);
		default:
			return v;
	}
}

/** A value as JSON can hold it: a bigint beyond 2^53 as its digits. */
function jsonValue(v: unknown): unknown {
	if (typeof v !== 'bigint') return v ?? null;
	return v <= BigInt(Number.MAX_SAFE_INTEGER) && v >= -BigInt(Number.MAX_SAFE_INTEGER)
		? Number(v)
		: v.toString();
}

/** A Writer for hyparquet-writer that hands its bytes on after each row group. */
class PieceWriter extends ByteWriter {
	readonly #sink: Sink;
	constructor(sink: Sink) {
		super(1 << 20);
		this.#sink = sink;
	}
	flush(): void | Promise<void> {
		if (this.index === 0) return;
		const piece = new Uint8Array(this.buffer.slice(0, this.index));
		this.index = 0;
		return this.#sink(piece);
	}
	override finish(): void | Promise<void> {
		return this.flush();
	}
}

export interface TableWriter {
	/** Holds a row; a promise when it writes what is held (a row group, lines), to be awaited. */
	add(row: Row): Promise<void> | void;
	/**
	 * NDJSON and CSV: a row whose line `line` writes into the sink itself (with its line end), or
	 * leaves unwritten by returning false (this returns false too: the caller adds the row). The
	 * lines are held until the next add, flush or close.
	 */
	write?(line: (sink: ByteSink) => boolean): boolean;
	/** Hands on the lines held. */
	flush?(): Promise<void>;
	/** Writes what is held and ends the file; returns the rows written. */
	close(): Promise<number>;
}

export function tableWriter(
	format: TableFormat,
	columns: readonly TableColumn[],
	sink: Sink,
	rowGroup = ROW_GROUP,
): TableWriter {
	let rows = 0;
	if (format !== 'parquet') {
		const lines = new ByteSink(2 << 20);
		const flush = async () => {
			if (lines.length === 0) return;
			// A copy of what is held, which the sink may keep; the lines' memory is written again.
			const piece = lines.bytes.slice(0, lines.length);
			lines.length = 0;
			await sink(piece);
		};
		if (format === 'csv') {
			lines.utf8(columns.map((c) => csvCell(c.name)).join(','));
			lines.byte(10);
		}
		return {
			async add(row) {
				lines.utf8(
					format === 'csv'
						? columns.map((c) => csvCell(jsonValue(row[c.name]))).join(',')
						: JSON.stringify(
								Object.fromEntries(columns.map((c) => [c.name, jsonValue(row[c.name])])),
							),
				);
				lines.byte(10);
				rows++;
				if (lines.length >= 1 << 20) await flush();
			},
			write(line) {
				const start = lines.length;
				if (!line(lines)) {
					lines.length = start;
					return false;
				}
				rows++;
				return true;
			},
			flush,
			async close() {
				await flush();
				return rows;
			},
		};
	}
	const writer = new ParquetWriter({
		writer: new PieceWriter(sink),
		schema: schemaOf(columns),
		createdBy: 'sockscope',
	});
	let held: unknown[][] = columns.map(() => []);
	let heldBytes = 0;
	const flush = async () => {
		const n = held[0]!.length;
		if (n === 0) return;
		const columnData = columns.map((c, k) => ({ name: c.name, data: held[k]! }));
		held = columns.map(() => []);
		heldBytes = 0;
		await writer.write({ columnData, rowGroupSize: n });
	};
	return {
		add(row) {
			for (let k = 0; k < columns.length; k++) {
				const c = columns[k]!;
				const v = parquetValue(c.type, row[c.name]);
				if (typeof v === 'string') heldBytes += v.length;
				else if (v instanceof Uint8Array) heldBytes += v.length;
				held[k]!.push(v);
			}
			rows++;
			// Without a promise per row: only a full row group is written, and waited for.
			return held[0]!.length >= rowGroup || heldBytes >= ROW_GROUP_BYTES ? flush() : undefined;
		},
		async close() {
			await flush();
			await writer.finish();
			return rows;
		},
	};
}
