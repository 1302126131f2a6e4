// What a pass over a trace's records reports as damage, decided in one place for every command
// and the browser import: each buffer's own damage, records that overrun their TraceLogging
// value budget, what the index pass found (buffer headers, sequence, trace header), and record
// times that the trace header's StartTime and EndTime contradict.
import { PayloadLayout, RecordOut } from '../generated/layouts.ts';
import { TimeSpan, timeFindings } from './buffer-checks.ts';
import type { DecodedBuffer } from './decoded-buffer.ts';
import type { BufferIndex, OpenTrace } from './etl-file.ts';
import type { BufferSink } from './merge.ts';
import { DamageLog, key } from './messages.ts';
import { ProviderTable, providerName } from './record-json.ts';
import { extItems, overBudgetEvent } from './tracelogging.ts';

const hex = (n: number) => '0x' + n.toString(16);

export class TraceChecks {
	readonly log = new DamageLog();
	readonly #span = new TimeSpan();
	readonly #trace: Pick<OpenTrace, 'facts' | 'decoder'>;
	readonly #providers: ProviderTable;

	constructor(trace: Pick<OpenTrace, 'facts' | 'decoder'>) {
		this.#trace = trace;
		this.#providers = new ProviderTable(trace);
	}

	/** For the merge's slice sink: checks of single records (a TraceLogging event's budget). */
	readonly slice: BufferSink = (b) => {
		for (let i = 0; i < b.count; i++)
			if (b.u8(i, RecordOut.layout) === PayloadLayout.tracelogging) this.#traceLogging(b, i);
	};

	/** For the merge's buffer sink: the buffer's damage and the times it spans. */
	readonly buffer = (b: Pick<DecodedBuffer, 'damage' | 'firstTime' | 'lastTime'>): void => {
		this.log.add(b.damage);
		if (b.firstTime !== null && b.lastTime !== null) this.#span.add(b.firstTime, b.lastTime);
	};

	/** After the merge: what the index pass found, then the record times against the header. */
	finish(index: BufferIndex): void {
		this.log.add(index.damage);
		this.log.add(timeFindings(this.#trace.facts, this.#span));
	}

	get entries(): { offset: number; message: string }[] {
		return this.log.entries;
	}

	get messages(): string[] {
		return this.log.messages;
	}

	#traceLogging(b: DecodedBuffer, i: number): void {
		const items = extItems(b.image, b.u32(i, RecordOut.extOffset), b.u32(i, RecordOut.extSize));
		const tl = overBudgetEvent(
			b.image,
			items,
			b.u32(i, RecordOut.payloadOffset),
			b.u32(i, RecordOut.payloadSize),
		);
		if (!tl) return;
		const e = b.entry;
		const at = b.u32(i, RecordOut.recordOffset) + b.offsetBase;
		const provider =
			tl.provider ?? providerName(this.#providers.guid(b.u16(i, RecordOut.providerIndex)));
		// Inside a compressed buffer only the buffer's own offset is a file offset.
		const where = e.compressed
			? `decompressed record at offset ${hex(at)}`
			: `record at offset ${hex(e.offset + at)}`;
		const o = tl.overrun;
		// The same as a message where the problem is the budget's (always, from overBudgetEvent).
		const text = o
			? key('record-damage.over-budget', {
					where: key('damage.where', { buffer: e.index, offset: hex(e.offset) }),
					record: e.compressed
						? key('record-damage.decompressed', { offset: hex(at) })
						: key('record-damage.record', { offset: hex(e.offset + at) }),
					event: `${provider ?? 'TraceLogging'} ${tl.name ?? ''}`,
					field: JSON.stringify(o.field),
					limit: o.limit,
					bytes: o.payloadSize,
				})
			: undefined;
		this.log.record(
			e.compressed ? e.offset : e.offset + at,
			`buffer ${e.index} at offset ${hex(e.offset)}: ${where} (${provider ?? 'TraceLogging'} ${tl.name ?? ''}): ${tl.problem}`,
			text,
		);
	}
}
