// What an import reports to the page as it goes: bytes, events and an estimate of the time left.
import type { IngestProgress } from '../ingest/ingest.ts';
import type { ImportProgress } from './api.ts';
import { importShare } from './import-share.ts';

/** Where an index pass over `file` is, started at `started` (performance.now()). */
export function indexingProgress(
	traceId: number,
	file: File,
	offset: number,
	started: number,
): ImportProgress {
	const elapsedMs = performance.now() - started;
	const rate = offset / Math.max(0.001, elapsedMs / 1000);
	return {
		traceId,
		phase: 'indexing',
		fileName: file.name,
		bytesDone: offset,
		bytesTotal: file.size,
		records: 0,
		chunks: 0,
		elapsedMs,
		mbPerSecond: rate / 1e6,
		etaSeconds: rate > 0 ? (file.size - offset) / rate : null,
	};
}

/** The time span of the chunks stored so far (ticks), or null before the first. */
export function storedSpan(
	chunks: readonly { readonly tMin: number; readonly tMax: number; readonly rows: number }[],
): { tMin: number; tMax: number } | null {
	let tMin = Infinity;
	let tMax = -Infinity;
	for (const c of chunks) {
		if (c.rows === 0) continue;
		if (c.tMin < tMin) tMin = c.tMin;
		if (c.tMax > tMax) tMax = c.tMax;
	}
	return tMin <= tMax ? { tMin, tMax } : null;
}

/** The parts of an import done, each in its own unit; side jobs not started count nothing. */
export interface ImportParts {
	/** The decoding, which follows the sockets as it goes. */
	readonly decoded: IngestProgress;
	/** Bytes of the file copied, or null when the import makes no copy. */
	readonly copied: number | null;
	readonly fileSize: number;
}

/** Where a decoding import is: done means decoded and copied. */
export function importingProgress(
	traceId: number,
	fileName: string,
	parts: ImportParts,
	storedBefore: number,
	elapsedMs: number,
): ImportProgress {
	const p = parts.decoded;
	const part = importShare(
		p.bytesTotal > 0 ? p.bytesDone / p.bytesTotal : 1,
		parts.copied === null ? null : parts.copied / parts.fileSize,
	);
	const bytesDone = part * p.bytesTotal;
	const rate = bytesDone / Math.max(1, elapsedMs / 1000);
	return {
		traceId,
		phase: 'importing',
		fileName,
		bytesDone,
		bytesTotal: p.bytesTotal,
		records: storedBefore + p.records,
		chunks: p.chunks,
		elapsedMs,
		mbPerSecond: rate / 1e6,
		// Not in the first second: the parts start one after another, and so too slowly.
		etaSeconds: rate > 0 && elapsedMs >= 1000 ? (p.bytesTotal - bytesDone) / rate : null,
	};
}
