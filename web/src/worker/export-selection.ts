// Writes the events of a selection as CSV or NDJSON, in pieces of about 1 MiB handed to `write`
// one at a time: the caller stores each piece (the page turns it into a Blob, which Chromium
// keeps on disk when large) before the next is made, so 10 M rows never sit in memory at once.
// The rows are written as bytes straight from their decoded buffers (RecordReader.write).
import type { Selection } from '../query/protocol.ts';
import { headerLine, type ExportFormat } from '../export/record-lines.ts';
import { ByteSink } from '../export/byte-sink.ts';
import type { RecordReader } from './record-reader.ts';

const PIECE_BYTES = 1 << 20;

export interface ExportProgress {
	readonly rows: number;
	readonly total: number;
}

/**
 * Returns the rows written. `write` returns false to stop (the user cancelled); the rows written
 * so far are then counted and the rest skipped. A piece is the caller's until `write` returns.
 */
export async function exportSelection(
	sel: Selection,
	reader: RecordReader,
	format: ExportFormat,
	write: (piece: Uint8Array, progress: ExportProgress) => Promise<boolean> | boolean,
): Promise<{ rows: number; complete: boolean }> {
	const sink = new ByteSink(PIECE_BYTES + (PIECE_BYTES >> 2));
	let rows = 0;
	const header = headerLine(format);
	if (header !== null) {
		sink.utf8(header);
		sink.byte(10);
	}
	const flush = async () => {
		if (sink.length === 0) return true;
		const piece = sink.take();
		const go = await write(piece, { rows, total: sel.matched });
		sink.giveBack(piece);
		return go;
	};
	for (const part of sel.parts) {
		// Rows given by position run from `from`; a list of rows is indexed from 0.
		const first = part.rows ? 0 : part.from;
		for (let k = 0; k < part.count;) {
			const r = await reader.write(
				sink,
				format,
				part.chunk,
				part.rows,
				first,
				k,
				part.count,
				PIECE_BYTES,
			);
			k = r.next;
			rows += r.written;
			if (sink.length >= PIECE_BYTES && !(await flush())) return { rows, complete: false };
		}
	}
	if (!(await flush())) return { rows, complete: false };
	return { rows, complete: true };
}
