// Decodes one stored record (its bytes as kept in a column chunk) by wrapping it in a minimal
// buffer and walking it with the same WASM decoder, so details after a reload come from the
// same code as the import.
import { RecordOut, WMI_BUFFER_HEADER } from '../generated/layouts.ts';
import { DecodedBuffer, decodeBuffer } from './decoded-buffer.ts';
import type { OpenTrace } from './etl-file.ts';
import { memorySource } from './source.ts';
import type { TraceFacts } from './types.ts';
import { WasmDecoder } from './wasm.ts';

const HEADER = WMI_BUFFER_HEADER.size;

function field(name: string): number {
	return WMI_BUFFER_HEADER.fields.find((f) => f.name === name)!.offset;
}

/** A decoder for single records, with the trace facts its records' JSON refers to. */
export function recordDecoder(module: WebAssembly.Module, facts: TraceFacts): OpenTrace {
	const decoder = new WasmDecoder(module);
	return {
		facts,
		decoder,
		source: memorySource(new Uint8Array(0)),
		pointerSize: facts.pointerSize,
	};
}

export async function decodeRecord(
	trace: OpenTrace,
	record: Uint8Array,
	cpu: number,
	filetime: bigint,
): Promise<DecodedBuffer | null> {
	const size = HEADER + ((record.length + 7) & ~7);
	const bytes = new Uint8Array(size).fill(0xff);
	const v = new DataView(bytes.buffer);
	v.setUint32(field('BufferSize'), size, true);
	v.setUint32(field('SavedOffset'), HEADER + record.length, true);
	v.setUint32(field('Offset'), HEADER + record.length, true);
	v.setUint16(field('BufferFlag'), 0x20, true);
	v.setUint16(field('ProcessorIndex'), cpu, true);
	v.setUint16(field('BufferType'), 0, true);
	bytes.set(record, HEADER);
	const buf = await decodeBuffer(
		{ ...trace, source: memorySource(bytes) },
		{
			index: 1,
			offset: 0,
			size,
			available: size,
			cpu,
			sequence: 0n,
			flags: 0x20,
			compressed: false,
		},
	);
	if (buf.count < 1) return null;
	// The stored time is already UTC; this decoder has no session clock.
	buf.records.setBigInt64(RecordOut.time, filetime, true);
	return buf;
}

export { DecodedBuffer };
