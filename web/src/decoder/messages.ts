import { Status } from '../generated/layouts.ts';
import type { Message } from '../lib/message.ts';

const hex = (n: number) => '0x' + n.toString(16);

/** Facts about the buffer or record where decoding stopped, as reported by the decoder. */
export interface DamageInfo {
	readonly status: number;
	readonly bufferIndex: number;
	readonly bufferOffset: number;
	/** Offset inside the buffer (of the decompressed data when compressed). */
	readonly at: number;
	readonly value: number;
	readonly limit: number;
	readonly compressed: boolean;
	/**
	 * Set by the index pass when it had to resynchronise after this buffer's header: the bytes it
	 * skipped (the buffer itself, or up to the next valid buffer header or the end of the file).
	 */
	readonly skipped?: number;
	/** Where the index pass went on after skipping (null: nowhere, the file ends). */
	readonly resumeAt?: number | null;
	/** A finding about the trace as a whole (sequence numbers, header facts): the whole message. */
	readonly note?: string;
	/** The note as a message, for the page to say in the reader's language. */
	readonly noteText?: Message;
	/** Where a note points (file offset); damageFileOffset falls back to the buffer's offset. */
	readonly noteOffset?: number;
}

/** File offset of the damage when it can be named exactly (not inside decompressed data). */
export function damageFileOffset(d: DamageInfo): number {
	if (d.note !== undefined) return d.noteOffset ?? d.bufferOffset;
	return d.compressed && d.status !== Status.CompressionError && d.status !== Status.Truncated
		? d.bufferOffset
		: d.bufferOffset + d.at;
}

/** One line naming what is wrong and where. */
export function describeDamage(d: DamageInfo): string {
	if (d.note !== undefined) return d.note;
	const found = describeStatus(d);
	if (d.skipped === undefined) return found;
	const to =
		d.resumeAt === null || d.resumeAt === undefined
			? 'the end of the file (no valid buffer header after it)'
			: `the next buffer header at offset ${hex(d.resumeAt)}`;
	return `${found}; ${d.skipped} bytes skipped to ${to}`;
}

/** A catalogue message (i18n/): the decoder names it without importing the catalogue. */
export const key = (k: string, params: Readonly<Record<string, unknown>>): Message => ({
	key: k,
	params,
});

/**
 * What describeDamage says, as a message for the page to say in the reader's language (its
 * English is describeDamage's, word for word); null for a note without a message of its own.
 */
export function damageText(d: DamageInfo): Message | null {
	if (d.note !== undefined) return d.noteText ?? null;
	const found = statusText(d);
	if (d.skipped === undefined) return found;
	const values = { found, skipped: d.skipped };
	return d.resumeAt === null || d.resumeAt === undefined
		? key('damage.skipped-to-end', values)
		: key('damage.skipped-to', { ...values, at: hex(d.resumeAt) });
}

function statusText(d: DamageInfo): Message {
	const where = key('damage.where', { buffer: d.bufferIndex, offset: hex(d.bufferOffset) });
	const inside = d.compressed
		? key('damage.inside-decompressed', { offset: hex(d.at) })
		: key('damage.inside', { offset: hex(d.bufferOffset + d.at) });
	const value = hex(d.value);
	const limit = hex(d.limit);
	switch (d.status) {
		case Status.TooSmall:
			return key('damage.too-small', { where, bytes: d.value, limit });
		case Status.BadBufferSize:
			return key('damage.bad-buffer-size', {
				where,
				value,
				limit: hex(d.limit > 0x48 ? d.limit : 64 << 20),
			});
		case Status.BadDataEnd:
			return key('damage.bad-data-end', { where, value, limit });
		case Status.Truncated:
			return key('damage.truncated', { where, value, limit });
		case Status.CompressionError:
			return key('damage.compression', { where, offset: hex(d.bufferOffset + d.at) });
		case Status.BadRecordSize:
			return key('damage.record-size', { where, inside, value, limit });
		case Status.BadRecordMarker:
			return key('damage.record-marker', { where, inside, value: hex(d.value >>> 0) });
		case Status.BadHeaderType:
			return key('damage.header-type', { where, inside, value });
		case Status.OverBudget:
			return key('damage.over-budget', { where, value, limit });
		case Status.BadExtendedItem:
			return key('damage.extended-item', { where, inside });
		default:
			return key('damage.stopped', { where, status: d.status, inside });
	}
}

function describeStatus(d: DamageInfo): string {
	const where = `buffer ${d.bufferIndex} at offset ${hex(d.bufferOffset)}`;
	const inside = d.compressed
		? `decompressed offset ${hex(d.at)}`
		: `offset ${hex(d.bufferOffset + d.at)}`;
	switch (d.status) {
		case Status.TooSmall:
			return `${where}: only ${d.value} bytes left in the file, less than a buffer header (${hex(d.limit)} bytes)`;
		case Status.BadBufferSize:
			return `${where} has BufferSize ${hex(d.value)} (must be at least 0x48 and at most ${hex(d.limit > 0x48 ? d.limit : 64 << 20)})`;
		case Status.BadDataEnd:
			return `${where} has Offset (end of data) ${hex(d.value)}, outside its ${hex(d.limit)} bytes`;
		case Status.Truncated:
			return `${where} is cut short: the file ends after ${hex(d.value)} of its ${hex(d.limit)} bytes`;
		case Status.CompressionError:
			return `${where}: corrupt compressed data at file offset ${hex(d.bufferOffset + d.at)}`;
		case Status.BadRecordSize:
			return `${where}: record at ${inside} has size ${hex(d.value)} (${hex(d.limit)} bytes left in the buffer)`;
		case Status.BadRecordMarker:
			return `${where}: no record header at ${inside} (read ${hex(d.value >>> 0)})`;
		case Status.BadHeaderType:
			return `${where}: record at ${inside} has unknown header type ${hex(d.value)}`;
		case Status.OverBudget:
			return `${where} claims to expand to ${hex(d.value)} bytes (its Offset), more than the trace's own BufferSize ${hex(d.limit)}`;
		case Status.BadExtendedItem:
			return `${where}: record at ${inside} has malformed extended data items`;
		default:
			return `${where}: decoding stopped (status ${d.status}) at ${inside}`;
	}
}

/** Record-level reports listed before the rest are only counted. */
const RECORD_REPORTS = 20;

/**
 * The damage of one decode pass, one report per buffer: what decoding a buffer found, and then
 * the index's own finding (a buffer cut short or unreadable) unless that buffer was reported.
 */
export class DamageLog {
	/** Each damage found: where, its English, and the same as a message where it has one. */
	readonly entries: { offset: number; message: string; text?: Message }[] = [];
	/** Buffers (by file offset) reported already. */
	readonly #buffers = new Set<number>();

	add(d: DamageInfo | readonly DamageInfo[] | null): void {
		if (!d) return;
		if (Array.isArray(d)) {
			for (const one of d as readonly DamageInfo[]) this.add(one);
			return;
		}
		const one = d as DamageInfo;
		if (one.note === undefined) {
			if (this.#buffers.has(one.bufferOffset)) return;
			this.#buffers.add(one.bufferOffset);
		}
		const text = damageText(one);
		const offset = damageFileOffset(one);
		const message = describeDamage(one);
		this.entries.push(text ? { offset, message, text } : { offset, message });
	}

	/** Record-level damage (a budget overrun) reported so far; only the first few are listed. */
	#records = 0;

	/** Damage in one record (its buffer is otherwise sound). */
	readonly record = (offset: number, message: string, text?: Message): void => {
		if (++this.#records <= RECORD_REPORTS)
			this.entries.push(text ? { offset, message, text } : { offset, message });
		else if (this.#records === RECORD_REPORTS + 1)
			this.entries.push({
				offset,
				message: `more records with damage follow; not listed`,
				text: key('record-damage.more', {}),
			});
	};

	/** Records with damage (all of them, listed or not). */
	get damagedRecords(): number {
		return this.#records;
	}

	/** Buffers with a report. */
	get buffers(): number {
		return this.#buffers.size;
	}

	get messages(): string[] {
		return this.entries.map((e) => e.message);
	}
}
