// MS-XCA "Plain LZ77" decompression (COMPRESSION_FORMAT_XPRESS = 3), used by compressed ETL
// buffers (BufferFlag 0x40). Follows [MS-XCA] 2.4 step by step, with every read and write
// bounds-checked: a corrupt stream returns false and sets xpressErrorAt, it never traps.

/** Offset in the compressed stream where decoding failed. */
export let xpressErrorAt: u32 = 0;

/**
 * `clip`: dstLen is where the caller stops needing bytes, not the stream's end: a match running
 * past it is cut there.
 */
export function decompressXpress(
	src: usize,
	srcLen: u32,
	dst: usize,
	dstLen: u32,
	clip: bool = false,
): bool {
	let inPos: u32 = 0;
	let outPos: u32 = 0;
	let flags: u32 = 0;
	let flagCount: i32 = 0;
	let halfByteAt: u32 = 0;
	let halfByteSet = false;
	while (outPos < dstLen) {
		if (flagCount == 0) {
			if (inPos + 4 > srcLen) return failAt(inPos);
			flags = load<u32>(src + inPos);
			inPos += 4;
			flagCount = 32;
		}
		flagCount--;
		if ((flags & (1 << flagCount)) == 0) {
			if (inPos >= srcLen) return failAt(inPos);
			store<u8>(dst + outPos, load<u8>(src + inPos));
			inPos++;
			outPos++;
			continue;
		}
		if (inPos + 2 > srcLen) return failAt(inPos);
		const token = <u32>load<u16>(src + inPos);
		inPos += 2;
		let length = token & 7;
		const distance = (token >> 3) + 1;
		if (length == 7) {
			if (!halfByteSet) {
				if (inPos >= srcLen) return failAt(inPos);
				length = (<u32>load<u8>(src + inPos)) & 15;
				halfByteAt = inPos;
				halfByteSet = true;
				inPos++;
			} else {
				length = (<u32>load<u8>(src + halfByteAt)) >> 4;
				halfByteSet = false;
			}
			if (length == 15) {
				if (inPos >= srcLen) return failAt(inPos);
				length = <u32>load<u8>(src + inPos);
				inPos++;
				if (length == 255) {
					if (inPos + 2 > srcLen) return failAt(inPos);
					length = <u32>load<u16>(src + inPos);
					inPos += 2;
					if (length == 0) {
						if (inPos + 4 > srcLen) return failAt(inPos);
						length = load<u32>(src + inPos);
						inPos += 4;
					}
					if (length < 15 + 7) return failAt(inPos);
					length -= 15 + 7;
				}
				length += 15;
			}
			length += 7;
		}
		length += 3;
		if (clip && length > dstLen - outPos) length = dstLen - outPos;
		if (distance > outPos || length > dstLen - outPos) return failAt(inPos);
		const from = dst + outPos - distance;
		const to = dst + outPos;
		if (distance >= length) {
			memory.copy(to, from, length);
		} else if (distance == 1) {
			// Overlapping match of one byte: a run.
			memory.fill(to, load<u8>(from), length);
		} else {
			// Overlapping match: repeats the last `distance` bytes. What is written so far is whole
			// periods, so it can be copied again from `from` in one go: log(length) copies.
			let done: u32 = 0;
			while (done < length) {
				const n = min(done + distance, length - done);
				memory.copy(to + done, from, n);
				done += n;
			}
		}
		outPos += length;
	}
	return true;
}

function failAt(at: u32): bool {
	xpressErrorAt = at;
	return false;
}
