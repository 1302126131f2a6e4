// What one fuzz input must satisfy, beyond not crashing. The CLI's path (open, index, merge,
// every record to JSON, the damage checks) must finish and name every piece of damage at a file
// offset inside the input; the page's path (ingest to column chunks with the import's socket
// tracker observing every record) must agree with it on records and damage, and the tracker must
// not throw on whatever the decoder yields.
import { RecordOut, WMI_BUFFER_HEADER } from '../../web/src/generated/layouts.ts';
import { indexBuffers, openTrace } from '../../web/src/decoder/etl-file.ts';
import { mergeRecords } from '../../web/src/decoder/merge.ts';
import { ProviderTable, recordJson } from '../../web/src/decoder/record-json.ts';
import { memorySource } from '../../web/src/decoder/source.ts';
import { TraceChecks } from '../../web/src/decoder/trace-checks.ts';
import { ingestTrace } from '../../web/src/ingest/ingest.ts';
import { TraceTables } from '../../web/src/ingest/trace-tables.ts';
import { CaptureEvent } from '../../web/src/packets/capture-fields.ts';
import { importTracker } from '../../web/src/sockets/import-tracker.ts';

export interface Damage {
	readonly offset: number;
	readonly message: string;
}

export interface DecodeReport {
	/** False when the file was rejected as not an ETL file, or its trace header as damaged. */
	readonly opened: boolean;
	readonly records: number;
	/** Every damage message, as the CLI would print them. */
	readonly damage: readonly string[];
	readonly entries: readonly Damage[];
	readonly buffers: number;
	/** Bytes of WASM memory the decoder held at the end. */
	readonly wasmBytes: number;
	/** The decoder's paths the records took: record kind, payload layout, record damage flags. */
	readonly paths: readonly string[];
	/** Byte ranges of the input that no buffer of the index holds ([start, end), file order). */
	readonly uncovered: readonly (readonly [number, number])[];
	/** Records of the packet providers (NDIS-PacketCapture, PktMon) among them. */
	readonly captureEvents: number;
}

/** The CLI's decode path (`sockscope decode`), without the writing. */
export async function decodeReport(
	module: WebAssembly.Module,
	bytes: Uint8Array,
): Promise<DecodeReport> {
	const opened = await openTrace(memorySource(bytes), module, 'fuzz.etl');
	if (!opened.ok) {
		// Not a trace, or a trace whose header is damaged: the two failures opening may report.
		if (opened.code !== 'damaged' && !opened.error.startsWith('not an ETL file: '))
			throw new Error(`unexpected error: ${opened.error}`);
		return {
			opened: false,
			records: 0,
			damage: [opened.error],
			entries: [{ offset: 0, message: opened.error }],
			buffers: 0,
			wasmBytes: 0,
			paths: [],
			uncovered: [],
			captureEvents: 0,
		};
	}
	const trace = opened.value;
	const index = await indexBuffers(trace);
	const providers = new ProviderTable(trace);
	const checks = new TraceChecks(trace);
	let n = 0;
	let captureEvents = 0;
	const capture = new CaptureEvent();
	const paths = new Set<number>();
	await mergeRecords(
		trace,
		index.buffers,
		(b, i) => {
			JSON.stringify(recordJson(b, i, trace, providers));
			paths.add(
				(b.u8(i, RecordOut.kind) << 24) |
					(b.u8(i, RecordOut.layout) << 16) |
					b.u16(i, RecordOut.damage),
			);
			if (capture.set(b, i)) captureEvents++;
			n++;
		},
		checks.buffer,
		// As the CLI does: a pause where output would be written.
		async () => {},
		checks.slice,
	);
	checks.finish(index);
	return {
		opened: true,
		records: n,
		damage: checks.messages,
		entries: checks.entries.slice(),
		buffers: index.buffers.length,
		wasmBytes: trace.decoder.memory.byteLength,
		uncovered: uncovered(index.buffers, bytes.length),
		captureEvents,
		paths: [...paths]
			.sort()
			.map((p) => `kind ${p >>> 24} layout ${(p >> 16) & 0xff} damage ${p & 0xffff}`),
	};
}

const HEADER = WMI_BUFFER_HEADER.size;

function uncovered(
	buffers: readonly { offset: number; available: number }[],
	size: number,
): [number, number][] {
	const out: [number, number][] = [];
	let at = 0;
	for (const b of [...buffers].sort((x, y) => x.offset - y.offset)) {
		if (b.offset > at) out.push([at, b.offset]);
		at = Math.max(at, b.offset + b.available);
	}
	if (at < size) out.push([at, size]);
	return out;
}

export async function decodeAll(module: WebAssembly.Module, bytes: Uint8Array): Promise<number> {
	return (await decodeReport(module, bytes)).records;
}

export interface PageReport {
	readonly records: number;
	/** Rows of the column chunks it would store (the part of the page's path the CLI has not). */
	readonly rows: number;
	readonly damage: readonly Damage[];
	readonly sockets: number;
	readonly wasmBytes: number;
}

/** The page's import path: ingest to column chunks (dropped here), the tracker observing. */
export async function pageReport(
	module: WebAssembly.Module,
	bytes: Uint8Array,
): Promise<PageReport | null> {
	const opened = await openTrace(memorySource(bytes), module, 'fuzz.etl');
	if (!opened.ok) return null;
	const trace = opened.value;
	const tracker = importTracker(trace);
	let rows = 0;
	const result = await ingestTrace(trace, async (chunk) => void (rows += chunk.rows), {
		tables: new TraceTables(),
		observe: tracker.observe,
		beforeCommit: tracker.learnNames,
	});
	const snapshot = tracker.finish();
	return {
		records: result.records,
		rows,
		damage: result.damage,
		sockets: snapshot.sockets.length,
		wasmBytes: trace.decoder.memory.byteLength,
	};
}

/** What the CLI's report breaks of the rules, in words; empty when it holds. */
export function decodeProblems(r: DecodeReport, size: number): string[] {
	const out: string[] = [];
	for (const d of r.entries)
		if (!Number.isInteger(d.offset) || d.offset < 0 || d.offset > size)
			out.push(`damage at offset ${d.offset}, outside the ${size}-byte input: ${d.message}`);
		else if (d.message.length === 0) out.push(`damage at offset ${d.offset} without a message`);
	// Bytes the index passed over (skipped, a buffer found twice) are damage named where they
	// start: at the unusable buffer header there (a field of it, which may lie past a short gap).
	for (const [from, to] of r.uncovered)
		if (!r.entries.some((d) => d.offset >= from && d.offset <= Math.max(to, from + HEADER)))
			out.push(`bytes ${from} to ${to} belong to no buffer, and no damage is reported there`);
	if (r.opened && r.records === 0 && r.entries.length === 0)
		out.push('opened, no record decoded and no damage reported');
	return out;
}

/** Where the page's path and the CLI's differ, in words; empty when they agree. */
export function agreementProblems(cli: DecodeReport, page: PageReport | null): string[] {
	if (!page) return cli.opened ? ['the page path rejected a file the CLI opened'] : [];
	if (!cli.opened) return ['the page path opened a file the CLI rejected'];
	const out: string[] = [];
	if (page.records !== cli.records)
		out.push(`records: the page path has ${page.records}, the CLI ${cli.records}`);
	if (page.rows !== page.records)
		out.push(`rows: the page path stores ${page.rows} for ${page.records} records`);
	const a = page.damage.map((d) => `${d.offset} ${d.message}`).join('\n');
	const b = cli.entries.map((d) => `${d.offset} ${d.message}`).join('\n');
	if (a !== b)
		out.push(
			`damage: the page path reports ${page.damage.length}, the CLI ${cli.entries.length}; first difference: ${firstLineDiff(a, b)}`,
		);
	return out;
}

function firstLineDiff(a: string, b: string): string {
	const x = a.split('\n');
	const y = b.split('\n');
	for (let i = 0; i < Math.max(x.length, y.length); i++)
		if (x[i] !== y[i]) return `page "${x[i] ?? '(none)'}" vs CLI "${y[i] ?? '(none)'}"`;
	return '(none)';
}

/**
 * A damage message with what it quotes of the file blanked (its first bytes, names read from
 * metadata, any byte a mutation wrote into them, nested parentheses) and its numbers: the kind
 * of damage, for guidance. Left in, each mutated name would be a kind of its own and fill the
 * corpus with inputs that differ only in a quoted byte.
 */
export function kindOf(m: string): string {
	let k = m
		.replace(/the bytes( [0-9a-f]{2})+( …)?/g, 'the bytes B')
		.replace(/"(?:[^"\\]|\\.)*"/g, 'S')
		.replace(/[^\x20-\x7e]/g, '');
	for (let was = ''; was !== k;) {
		was = k;
		k = k.replace(/\([^()]*\)/g, '\u2026');
	}
	return k
		.replace(/\([^)]*$/, '\u2026')
		.replace(/0x[0-9a-f]+/g, 'N')
		.replace(/\d+/g, 'N')
		.replace(/\u2026/g, '(…)');
}
