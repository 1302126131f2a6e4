// Writes the events of a selection as CSV or NDJSON, in pieces of about 1 MiB handed to `write`
// one at a time: the caller stores each piece (the page turns it into a Blob, which Chromium
// keeps on disk when large) before the next is made, so 10 M rows never sit in memory at once.
import type { Selection } from '../query/engine.ts';
import { headerLine, recordLine, type ExportFormat } from '../decoder/record-lines.ts';
import type { RecordReader } from './record-reader.ts';

const PIECE_CHARS = 1 << 20;

export interface ExportProgress {
	readonly rows: number;
	readonly total: number;
}

/**
 * Returns the rows written. `write` returns false to stop (the user cancelled); the rows written
 * so far are then counted and the rest skipped.
 */
export async function exportSelection(
	sel: Selection,
	reader: RecordReader,
	format: ExportFormat,
	write: (piece: string, progress: ExportProgress) => Promise<boolean> | boolean,
): Promise<{ rows: number; complete: boolean }> {
	let lines: string[] = [];
	let chars = 0;
	let rows = 0;
	const header = headerLine(format);
	if (header !== null) {
		lines.push(header);
		chars += header.length + 1;
	}
	const flush = async () => {
		if (lines.length === 0) return true;
		const piece = lines.join('\n') + '\n';
		lines = [];
		chars = 0;
		return write(piece, { rows, total: sel.matched });
	};
	for (const part of sel.parts) {
		const count = part.count;
		for (let k = 0; k < count; k++) {
			const row = part.rows ? part.rows[k]! : part.from + k;
			const r = await reader.json(part.chunk, row);
			// A record that no longer decodes is skipped, as `sockscope decode --filter` does.
			if (!r) continue;
			const line = recordLine(r, format);
			lines.push(line);
			chars += line.length + 1;
			rows++;
			if (chars >= PIECE_CHARS && !(await flush())) return { rows, complete: false };
		}
	}
	if (!(await flush())) return { rows, complete: false };
	return { rows, complete: true };
}
