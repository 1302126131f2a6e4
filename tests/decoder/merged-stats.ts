// The figures of `sockscope stats` computed record by record through mergeRecords, as stats.ts
// computed them before it counted in WASM: the independent path its tests compare against.
import { BufferFlag, RecordKind, RecordOut } from '../../web/src/generated/layouts.ts';
import { PROVIDERS } from '../../web/src/generated/schemas.ts';
import type { DecodedBuffer } from '../../web/src/decoder/decoded-buffer.ts';
import type { BufferIndex, OpenTrace } from '../../web/src/decoder/etl-file.ts';
import { mergeRecords } from '../../web/src/decoder/merge.ts';
import { TraceChecks } from '../../web/src/decoder/trace-checks.ts';
import { KIND_NAMES, ProviderTable, providerName } from '../../web/src/decoder/record-json.ts';
import { HEADER_TYPE_NAMES, type TraceStats } from '../../web/src/decoder/stats.ts';
import { filetimeToIso } from '../../web/src/decoder/time.ts';

const AFD_GUID = PROVIDERS.find((p) => p.key === 'afd')!.guid;

export async function mergedStats(trace: OpenTrace, index: BufferIndex): Promise<TraceStats> {
	const providers = new ProviderTable(trace);
	const byKind: Record<string, number> = {};
	const byHeaderType: Record<string, number> = {};
	const byProvider: TraceStats['byProvider'] = {};
	const afdEvents: Record<string, number> = {};
	let records = 0;
	let compressed = 0;
	const checks = new TraceChecks(trace);
	let first: bigint | null = null;
	let lastTime: bigint | null = null;
	const onRecord = (b: DecodedBuffer, i: number) => {
		records++;
		const kind = b.u8(i, RecordOut.kind);
		const kindName = KIND_NAMES[kind]!;
		byKind[kindName] = (byKind[kindName] ?? 0) + 1;
		const ht =
			kind === RecordKind.wpp
				? 'MESSAGE'
				: (HEADER_TYPE_NAMES[b.u8(i, RecordOut.headerType)] ?? 'unknown');
		byHeaderType[ht] = (byHeaderType[ht] ?? 0) + 1;
		const guid = providers.guid(b.u16(i, RecordOut.providerIndex));
		if (guid) {
			const p = (byProvider[guid] ??= { name: providerName(guid), events: 0 });
			p.events++;
			if (guid === AFD_GUID) {
				const id = b.u16(i, RecordOut.id);
				afdEvents[id] = (afdEvents[id] ?? 0) + 1;
			}
		}
		const t = b.time(i);
		if (first === null) first = t;
		lastTime = t;
	};
	const onBuffer = (b: DecodedBuffer) => {
		if (b.entry.compressed) compressed++;
		checks.buffer(b);
	};
	await mergeRecords(trace, index.buffers, onRecord, onBuffer, undefined, checks.slice);
	checks.finish(index);
	return {
		records,
		byKind,
		byHeaderType,
		byProvider,
		afdEvents,
		buffers: index.buffers.length,
		compressedBuffers: compressed,
		eventsLost: trace.facts.eventsLost,
		buffersFlaggedLoss: index.buffers.filter(
			(b) => (b.flags & (BufferFlag.EventsLost | BufferFlag.BufferLost)) !== 0,
		).length,
		buffersLost: trace.facts.buffersLost,
		damagedBuffers: checks.log.buffers,
		damage: checks.entries.map(({ offset, message }) => ({ offset, message })),
		firstTime: first === null ? null : filetimeToIso(first),
		lastTime: lastTime === null ? null : filetimeToIso(lastTime),
	};
}
