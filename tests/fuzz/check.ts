// One fuzz case: the whole decode path (open, index, merge, every record to JSON) must finish
// without throwing; damage is reported, not raised.
import { indexBuffers, openTrace } from '../../web/src/decoder/etl-file.ts';
import { mergeRecords } from '../../web/src/decoder/merge.ts';
import { ProviderTable, recordJson } from '../../web/src/decoder/record-json.ts';
import { memorySource } from '../../web/src/decoder/source.ts';

export async function decodeAll(module: WebAssembly.Module, bytes: Uint8Array): Promise<number> {
	const opened = await openTrace(memorySource(bytes), module, 'fuzz.etl');
	if (!opened.ok) {
		if (!opened.error.startsWith('not an ETL file: '))
			throw new Error(`unexpected error: ${opened.error}`);
		return 0;
	}
	const trace = opened.value;
	const index = await indexBuffers(trace);
	const providers = new ProviderTable(trace);
	let n = 0;
	await mergeRecords(trace, index.buffers, (b, i) => {
		JSON.stringify(recordJson(b, i, trace, providers));
		n++;
	});
	return n;
}
