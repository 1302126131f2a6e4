// Chunks held in memory: the query engine's source in tests and in the command line.
import {
	BufferRecords,
	bufferTable,
	type RecordBytes,
} from '../../web/src/decoder/buffer-records.ts';
import { indexBuffers, reopenTrace, type OpenTrace } from '../../web/src/decoder/etl-file.ts';
import type { ChunkInfo, ChunkSource } from '../../web/src/query/column-cache.ts';
import type { FilterContext } from '../../web/src/query/filter-compile.ts';
import {
	narrowColumn,
	type Chunk,
	type ColumnName,
	type ReadColumns,
} from '../../web/src/columns/layout.ts';
import { ingestTrace, type IngestResult } from '../../web/src/ingest/ingest.ts';
import { TraceTables } from '../../web/src/ingest/trace-tables.ts';

/** Serves columns narrowed as storage gives them back, so that queries are tested on those. */
export class MemoryChunks implements ChunkSource {
	readonly list: Chunk[] = [];

	chunks(): readonly ChunkInfo[] {
		return this.list;
	}
	async column<K extends ColumnName>(chunk: number, name: K): Promise<ReadColumns[K]> {
		return narrowColumn(name, this.list[chunk]!.columns[name]);
	}
}

export interface MemoryTrace {
	readonly chunks: MemoryChunks;
	readonly tables: TraceTables;
	readonly result: IngestResult;
	/** Record bytes, read back from the trace's source. */
	readonly records: RecordBytes;
	readonly context: () => FilterContext;
}

export async function ingestToMemory(trace: OpenTrace): Promise<MemoryTrace> {
	const chunks = new MemoryChunks();
	const tables = new TraceTables();
	const index = await indexBuffers(trace);
	const result = await ingestTrace(trace, async (c) => void chunks.list.push(c), { tables, index });
	const startFiletime = BigInt(trace.facts.startFiletime);
	return {
		chunks,
		tables,
		result,
		records: new BufferRecords(await reopenTrace(trace), bufferTable(index.buffers)),
		context: () => ({
			strings: tables.strings,
			eventTypes: tables.eventTypes,
			startFiletime,
			processNames: tables.processNames,
		}),
	};
}
