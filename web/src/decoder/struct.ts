import type { StructDef } from '../generated/layouts.ts';

export type StructValues = Record<string, number | bigint>;

/** Reads the integer fields of a struct described by the generated layout tables. */
export function readStruct(
	view: DataView,
	base: number,
	def: StructDef,
	layout32 = false,
): StructValues {
	const out: StructValues = {};
	for (const f of def.fields) {
		const at = base + (layout32 && f.offset32 !== undefined ? f.offset32 : f.offset);
		switch (f.type) {
			case 'u8':
				out[f.name] = view.getUint8(at);
				break;
			case 'u16':
				out[f.name] = view.getUint16(at, true);
				break;
			case 'u32':
				out[f.name] = view.getUint32(at, true);
				break;
			case 'i32':
				out[f.name] = view.getInt32(at, true);
				break;
			case 'u64':
				out[f.name] = view.getBigUint64(at, true);
				break;
			case 'i64':
				out[f.name] = view.getBigInt64(at, true);
				break;
			case 'ptr':
				out[f.name] = layout32 ? BigInt(view.getUint32(at, true)) : view.getBigUint64(at, true);
				break;
		}
	}
	return out;
}

/** A zero-terminated UTF-16LE string at [at, end); returns the text and the offset after it. */
export function readUtf16z(bytes: Uint8Array, at: number, end: number): [string, number] {
	let q = at;
	while (q + 1 < end && (bytes[q] !== 0 || bytes[q + 1] !== 0)) q += 2;
	const text = new TextDecoder('utf-16le').decode(bytes.subarray(at, Math.min(q, end)));
	return [text, Math.min(q + 2, end)];
}
