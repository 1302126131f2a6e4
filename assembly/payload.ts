// The one field-type interpreter: walks an event's user data with the layout generated from the
// schema JSON and writes one FieldOut per field. Offsets are relative to the buffer image.
import {
	EVENT_FIELD_COUNT,
	EVENT_FIELDS_AT,
	EVENT_KEYS,
	EVENT_LAYOUT_COUNT,
	FIELD_LENGTH_FROM,
	FIELD_LENGTH_SCALE,
	FIELD_TYPES,
} from './generated/event-layouts';
import {
	FieldOut_SIZE,
	FieldOut_value,
	FieldOut_offset,
	FieldOut_size,
	FieldOut_type,
	FieldOut_missing,
	FieldType,
} from './generated/layouts';
import { FIELDS, LAYOUT_MEMO, LAYOUT_MEMO_SLOTS, MAX_FIELDS } from './memory-map';

/**
 * Layout index of (provider, version, id), or -1. Remembered per key in a direct-mapped table
 * (LAYOUT_MEMO, below INPUT: addressable once any buffer is), since a binary search per event
 * was a fair share of a header-only walk. Keys are never 0 (known providers start at 1), so the
 * table's zeroed slots hold none.
 */
export function findLayout(provider: u32, version: u32, id: u32): i32 {
	const key = (provider << 24) | (version << 16) | id;
	const slot =
		LAYOUT_MEMO + <usize>((id ^ (version << 6) ^ (provider << 8)) & (LAYOUT_MEMO_SLOTS - 1)) * 8;
	if (load<u32>(slot) == key) return load<i32>(slot + 4);
	const layout = searchLayout(key);
	store<u32>(slot, key);
	store<i32>(slot + 4, layout);
	return layout;
}

function searchLayout(key: u32): i32 {
	let lo = 0;
	let hi = EVENT_LAYOUT_COUNT - 1;
	while (lo <= hi) {
		const mid = (lo + hi) >>> 1;
		const k = unchecked(EVENT_KEYS[mid]);
		if (k == key) return mid;
		if (k < key) lo = mid + 1;
		else hi = mid - 1;
	}
	return -1;
}

export function layoutFieldCount(layout: i32): u32 {
	return <u32>unchecked(EVENT_FIELD_COUNT[layout]);
}

/** Fields written so far in the current batch. */
export let fieldsUsed: u32 = 0;

export function resetFields(): void {
	fieldsUsed = 0;
}

export function fieldsFit(n: u32): bool {
	return fieldsUsed + n <= MAX_FIELDS;
}

/** Takes the room the layout's fields would take, writing none (a header-only walk). */
export function skipFields(layout: i32): void {
	fieldsUsed += layoutFieldCount(layout);
}

function fixedSize(type: u32, pointerSize: u32): u32 {
	switch (type) {
		case FieldType.Pointer:
			return pointerSize;
		case FieldType.UInt8:
			return 1;
		case FieldType.UInt16:
		case FieldType.Port:
			return 2;
		case FieldType.IPv6:
		case FieldType.Guid:
			return 16;
		case FieldType.UInt64:
			return 8;
		default:
			return 4;
	}
}

/**
 * Decodes the payload [start, end) of the buffer image at `image` with `layout`.
 * Writes the fields at FIELDS[fieldsUsed..]; fields past the end of the data are marked missing.
 */
export function interpret(layout: i32, image: usize, start: u32, end: u32, pointerSize: u32): void {
	const first = <u32>unchecked(EVENT_FIELDS_AT[layout]);
	const n = <u32>unchecked(EVENT_FIELD_COUNT[layout]);
	const base = fieldsUsed;
	let pos = start;
	let truncated = false;
	for (let i: u32 = 0; i < n; i++) {
		const type = <u32>unchecked(FIELD_TYPES[first + i]);
		const out = FIELDS + <usize>(base + i) * FieldOut_SIZE;
		let size: u32 = 0;
		let value: u64 = 0;
		if (type == FieldType.UnicodeString) {
			let q = pos;
			while (q + 2 <= end && load<u16>(image + q) != 0) q += 2;
			size = q + 2 <= end ? q + 2 - pos : end - pos;
			if (q + 2 > end) truncated = true;
		} else if (type == FieldType.AnsiString) {
			let q = pos;
			while (q < end && load<u8>(image + q) != 0) q++;
			size = q < end ? q + 1 - pos : end - pos;
			if (q >= end) truncated = true;
		} else if (type == FieldType.SocketAddress) {
			const from = <u32>unchecked(FIELD_LENGTH_FROM[first + i]);
			size =
				from < i
					? <u32>load<u64>(FIELDS + <usize>(base + from) * FieldOut_SIZE + FieldOut_value)
					: 0;
		} else if (type == FieldType.Binary) {
			// Bytes counted by an earlier field (times the element size), else the rest.
			const from = <u32>unchecked(FIELD_LENGTH_FROM[first + i]);
			if (from < i) {
				const count = load<u64>(FIELDS + <usize>(base + from) * FieldOut_SIZE + FieldOut_value);
				const bytes = count * <u64>unchecked(FIELD_LENGTH_SCALE[first + i]);
				// A length that lies (past the payload, or wrapping) leaves the field missing.
				size =
					pos <= end && count <= 0xffffffff && bytes <= <u64>(end - pos) ? <u32>bytes : 0xffffffff;
			} else size = pos <= end ? end - pos : 0;
		} else {
			size = fixedSize(type, pointerSize);
		}
		const missing = truncated || pos > end || size > end - pos;
		if (missing) {
			truncated = true;
			size = 0;
		} else {
			const p = image + pos;
			switch (type) {
				case FieldType.Pointer:
					value = pointerSize == 8 ? load<u64>(p) : <u64>load<u32>(p);
					break;
				case FieldType.UInt8:
					value = <u64>load<u8>(p);
					break;
				case FieldType.UInt16:
					value = <u64>load<u16>(p);
					break;
				case FieldType.Port:
					value = <u64>(((<u32>load<u8>(p)) << 8) | (<u32>load<u8>(p + 1)));
					break;
				case FieldType.Int32:
					value = <u64>(<i64>load<i32>(p));
					break;
				case FieldType.UInt64:
					value = load<u64>(p);
					break;
				case FieldType.UInt32:
				case FieldType.HexInt32:
				case FieldType.NTStatus:
				case FieldType.Boolean:
				case FieldType.IPv4:
					value = <u64>load<u32>(p);
					break;
				default:
					value = 0;
			}
		}
		store<u64>(out + FieldOut_value, value);
		store<u32>(out + FieldOut_offset, missing ? end : pos);
		store<u16>(out + FieldOut_size, <u16>size);
		store<u8>(out + FieldOut_type, <u8>type);
		store<u8>(out + FieldOut_missing, missing ? 1 : 0);
		if (!missing) pos += size;
	}
	fieldsUsed = base + n;
}
