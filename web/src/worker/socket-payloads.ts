// Statistics that need payload fields the columns do not keep: socket option changes (AfdOption
// 1035, legacy SocketOptionSet 29) and the sockets an accept created (AcceptEndpoint of
// AfdAccept*WithAddress 1024/1027), read by decoding those few events again.
import { FLAG_ENTER, FLAG_ERROR, type EventType } from '../columns/layout.ts';
import type { QueryEngine } from '../query/engine.ts';
import type { Selection } from '../query/protocol.ts';
import type { RecordReader } from './record-reader.ts';
import { rowsOfTypes, typeIndexes } from './type-rows.ts';

/** Events decoded at most per statistic: enough for any real trace's options and accepts. */
const MAX_DECODED = 20_000;

export interface OptionRow {
	/** Unique within the list: option, value and PID, the identity the calls are grouped by. */
	readonly key: string;
	/** The option's name (SO_RCVBUF, SIO_UDP_CONNRESET, …), or its number when unnamed. */
	readonly option: string;
	readonly value: string;
	readonly pid: number | null;
	readonly process: string | null;
	/** Calls that set it (exit events, or legacy events, that did not fail). */
	readonly count: number;
	readonly failed: number;
	readonly sockets: number;
	readonly filter: string;
}

const isOptionType = (t: EventType) =>
	t.afd && (t.name === 'AfdOption' || t.name === 'SocketOptionSet');
const isAcceptType = (t: EventType) => t.afd && /^AfdAccept.*WithAddress$/.test(t.name);

export async function optionChanges(
	engine: QueryEngine,
	sel: Selection,
	types: readonly EventType[],
	reader: RecordReader,
	processNames: ReadonlyMap<number, string>,
): Promise<OptionRow[]> {
	const rows = await rowsOfTypes(engine, sel, typeIndexes(types, isOptionType), MAX_DECODED);
	const groups = new Map<
		string,
		{ -readonly [K in keyof OptionRow]: OptionRow[K] } & { endpoints: Set<string> }
	>();
	for (const { chunk, row } of rows) {
		const [flags, process] = await Promise.all([
			engine.column(chunk, 'flags'),
			engine.column(chunk, 'process'),
		]);
		// The enter half of a modern call says what was asked; its exit says how it went.
		if (flags[row]! & FLAG_ENTER) continue;
		const r = await reader.json(chunk, row);
		if (!r) continue;
		const f = r.fields;
		const option = String(f['OptionName'] ?? f['Option'] ?? '?');
		const value = String(f['Value'] ?? '');
		const pid = process[row] === 0xffffffff ? null : process[row]!;
		const key = `${option}\u0000${value}\u0000${pid}`;
		let g = groups.get(key);
		if (!g) {
			g = {
				key,
				option,
				value,
				pid,
				process: pid === null ? null : (processNames.get(pid) ?? null),
				count: 0,
				failed: 0,
				sockets: 0,
				endpoints: new Set(),
				filter: `event:${r.name}${pid === null ? '' : ` process:${pid}`}`,
			};
			groups.set(key, g);
		}
		if (flags[row]! & FLAG_ERROR) g.failed++;
		else g.count++;
		if (typeof f['Endpoint'] === 'string') g.endpoints.add(f['Endpoint']);
	}
	return [...groups.values()]
		.map(({ endpoints, ...g }) => ({ ...g, sockets: endpoints.size }))
		.sort((a, b) => b.count + b.failed - (a.count + a.failed) || a.option.localeCompare(b.option));
}

/**
 * Accepted sockets (endpoint string index) → the remote of the accept that made them (raddr
 * string index × 65536 + port): their sends and receives name only the new endpoint.
 */
export async function acceptedSockets(
	engine: QueryEngine,
	all: Selection,
	types: readonly EventType[],
	reader: RecordReader,
	stringIndex: ReadonlyMap<string, number>,
): Promise<Map<number, number>> {
	const rows = await rowsOfTypes(engine, all, typeIndexes(types, isAcceptType), MAX_DECODED);
	const out = new Map<number, number>();
	for (const { chunk, row } of rows) {
		const [flags, raddr, rport] = await Promise.all([
			engine.column(chunk, 'flags'),
			engine.column(chunk, 'raddr'),
			engine.column(chunk, 'rport'),
		]);
		if (flags[row]! & (FLAG_ENTER | FLAG_ERROR) || !raddr[row]) continue;
		const accepted = (await reader.json(chunk, row))?.fields['AcceptEndpoint'];
		const e = typeof accepted === 'string' ? stringIndex.get(accepted) : undefined;
		if (e) out.set(e, raddr[row]! * 65536 + rport[row]!);
	}
	return out;
}
