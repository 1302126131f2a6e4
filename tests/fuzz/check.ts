// One fuzz case: the whole decode path (open, index, merge, every record to JSON) must finish
// without throwing; damage is reported, not raised.
import { indexBuffers, openTrace } from '../../web/src/decoder/etl-file.ts';
import { mergeRecords } from '../../web/src/decoder/merge.ts';
import { ProviderTable, recordJson } from '../../web/src/decoder/record-json.ts';
import { memorySource } from '../../web/src/decoder/source.ts';
import { TraceChecks } from '../../web/src/decoder/trace-checks.ts';

export interface DecodeReport {
	/** False when the file was rejected as not an ETL file, or its trace header as damaged. */
	readonly opened: boolean;
	readonly records: number;
	/** Every damage message, as the CLI would print them. */
	readonly damage: readonly string[];
}

export async function decodeReport(
	module: WebAssembly.Module,
	bytes: Uint8Array,
): Promise<DecodeReport> {
	const opened = await openTrace(memorySource(bytes), module, 'fuzz.etl');
	if (!opened.ok) {
		// Not a trace, or a trace whose header is damaged: the two failures opening may report.
		if (opened.code !== 'damaged' && !opened.error.startsWith('not an ETL file: '))
			throw new Error(`unexpected error: ${opened.error}`);
		return { opened: false, records: 0, damage: [opened.error] };
	}
	const trace = opened.value;
	const index = await indexBuffers(trace);
	const providers = new ProviderTable(trace);
	const checks = new TraceChecks(trace);
	let n = 0;
	await mergeRecords(
		trace,
		index.buffers,
		(b, i) => {
			JSON.stringify(recordJson(b, i, trace, providers));
			n++;
		},
		checks.buffer,
		// As the CLI does: a pause where output would be written.
		async () => {},
		checks.slice,
	);
	checks.finish(index);
	return { opened: true, records: n, damage: checks.messages };
}

export async function decodeAll(module: WebAssembly.Module, bytes: Uint8Array): Promise<number> {
	return (await decodeReport(module, bytes)).records;
}
