// The Packets panel's questions: a trace's frames rebuilt and joined to its sockets on the first
// request, from the library's copy of the file (one pass over it, as `sockscope packets` does),
// then kept for the trace while it is open. A filter makes a selection of frames; rows, details
// and the pcapng download read it.
import { indexBuffers, openTrace as openEtl } from '../decoder/etl-file.ts';
import { blobSource, blockCache } from '../decoder/source.ts';
import { failureText, msg } from '../i18n/render.ts';
import { fail, ok, type Result } from '../lib/result.ts';
import { codedError, failWith } from './guard.ts';
import { PacketFilterError, type Test } from '../packets/packet-filter.ts';
import { pickTest, type PacketPick } from '../packets/packet-pick.ts';
import { packetStatistics, type PacketStatistics } from '../packets/packet-stats.ts';
import { packetInfoText, packetRow } from '../packets/packet-row.ts';
import { pcapngBlocks, socketNames } from '../packets/pcapng-file.ts';
import { trackPackets, type TracePackets } from '../packets/track-packets.ts';
import { PROVIDERS } from '../generated/schemas.ts';
import { PACKET_TABLE, packetTableRow } from '../export/packet-table.ts';
import { tableWriter, type TableFormat } from '../export/table-writer.ts';
import { getTrace } from '../store/trace-store.ts';
import {
	MAX_SOCKET_PACKETS,
	type PacketAnswer,
	type PacketDetails,
	type PacketRowView,
	type SocketPackets,
} from './api.ts';
import type { Catalog } from './catalog.ts';
import type { OpenTraces } from './open-traces.ts';

/** The capture providers' GUIDs, as the event types name their providers. */
const CAPTURE_PROVIDERS = new Set(
	PROVIDERS.filter((p) => p.key === 'ndiscap' || p.key === 'pktmon').map((p) => p.guid),
);

/** Bytes of pcapng handed to the page at a time. */
const PIECE = 1 << 20;

/** A trace's frames, owners and what the join learnt (its sockets are the stored ones). */
type Packets = Omit<TracePackets, 'tracked'>;

/** What a trace without a capture provider's events holds. */
const NO_PACKETS: Packets = {
	frames: [],
	owners: [],
	interfaces: [],
	problems: [],
	wire: [],
	captureEvents: 0,
};

interface Loaded {
	readonly packets: Packets;
	readonly names: (socket: string | null) => readonly string[];
	readonly interfaces: ReadonlyMap<string, TracePackets['interfaces'][number]>;
	/** The latest filter's frames (indexes into packets.frames), and its text. */
	filter: string;
	matches: number[];
	/** The protocols and top talkers, counted on the first request. */
	statistics?: PacketStatistics;
}

export class PacketService {
	readonly #catalog: Catalog;
	readonly #traces: OpenTraces;
	readonly #loaded = new Map<number, Promise<Loaded>>();

	constructor(catalog: Catalog, traces: OpenTraces) {
		this.#catalog = catalog;
		this.#traces = traces;
		traces.onForget((id) => this.#loaded.delete(id));
	}

	#load(id: number): Promise<Loaded> {
		let l = this.#loaded.get(id);
		if (!l) {
			l = this.#read(id);
			this.#loaded.set(id, l);
			l.catch(() => {
				if (this.#loaded.get(id) === l) this.#loaded.delete(id);
			});
		}
		return l;
	}

	async #read(id: number): Promise<Loaded> {
		const db = await this.#catalog.db();
		const record = await getTrace(db, id);
		if (!record) throw codedError('not-found', msg('failure.no-trace', { id }));
		// A trace without a capture provider's event has no packets: no pass over its file.
		if (!(await this.#captured(id)))
			return {
				packets: NO_PACKETS,
				names: () => [],
				interfaces: new Map(),
				filter: '',
				matches: [],
			};
		const file = record.copied ? await this.#catalog.files.file(id) : null;
		if (!file) throw codedError('io', msg('failure.no-copy-packets'));
		const opened = await openEtl(
			blockCache(blobSource(file), 1 << 20, 8),
			await this.#traces.module(),
			record.name,
		);
		if (!opened.ok)
			throw codedError(
				'io',
				msg('failure.library-copy', { name: record.name, detail: failureText(opened) }),
			);
		const index = await indexBuffers(opened.value);
		const packets = await trackPackets(opened.value, index.buffers);
		return {
			packets,
			names: socketNames(packets.tracked.sockets),
			interfaces: new Map(packets.interfaces.map((f) => [f.key, f])),
			filter: '',
			matches: packets.frames.map((_, k) => k),
		};
	}

	async #captured(id: number): Promise<boolean> {
		const live = await this.#traces.live(id);
		return live.tables.eventTypes.some((t) =>
			CAPTURE_PROVIDERS.has(t.provider?.toLowerCase() ?? ''),
		);
	}

	/** Whether the trace holds a capture provider's events (what downloads of packets need). */
	async hasPackets(id: number): Promise<Result<boolean>> {
		return ok(await this.#captured(id));
	}

	#compile(filter: string): Result<Test | null> {
		return this.#pick({ kind: 'filter', filter });
	}

	#pick(pick: PacketPick): Result<Test | null> {
		try {
			return ok(pickTest(pick));
		} catch (e) {
			if (e instanceof PacketFilterError) return fail('filter', e.message, e.text);
			throw e;
		}
	}

	/** Runs a packet filter: how many frames match, the capture's problems, the first rows. */
	async query(id: number, filter: string, head: number): Promise<Result<PacketAnswer>> {
		const test = this.#compile(filter);
		if (!test.ok) return test;
		const l = await this.#load(id);
		const p = l.packets;
		const keep = test.value;
		l.filter = filter;
		l.matches = [];
		for (let k = 0; k < p.frames.length; k++)
			if (!keep || keep(p.frames[k]!, p.owners[k]!, l.names)) l.matches.push(k);
		return ok({
			total: p.frames.length,
			matched: l.matches.length,
			captureEvents: p.captureEvents,
			problems: p.problems.map((x) => msg('packets.problem', { where: x.where, what: x.what })),
			head: this.#rows(l, 0, head),
		});
	}

	#rows(l: Loaded, offset: number, limit: number): PacketRowView[] {
		const p = l.packets;
		return l.matches.slice(offset, offset + limit).map((k, j) => ({
			...packetRow(p.frames[k]!, p.owners[k]!, l.interfaces),
			infoText: packetInfoText(p.frames[k]!),
			position: offset + j,
		}));
	}

	/** Rows [offset, offset + limit) of the latest filter's frames (`filter` names it). */
	async rows(
		id: number,
		filter: string,
		offset: number,
		limit: number,
	): Promise<Result<PacketRowView[]>> {
		const l = await this.#load(id);
		// i18n: data (never shown: the page drops a superseded answer)
		if (l.filter !== filter) return fail('superseded', 'superseded by a newer packet filter');
		return ok(this.#rows(l, offset, limit));
	}

	async details(id: number, number: number): Promise<Result<PacketDetails>> {
		const l = await this.#load(id);
		const p = l.packets;
		const f = p.frames[number];
		if (!f || f.number !== number)
			return failWith('not-found', msg('failure.no-packet', { number }));
		const o = p.owners[number]!;
		const iface = l.interfaces.get(f.interfaceKey);
		return ok({
			row: { ...packetRow(f, o, l.interfaces), infoText: packetInfoText(f), position: -1 },
			interfaceDescription: iface?.description ?? null,
			layers: f.dissection.layers.map((x) => ({ ...x, fields: { ...x.fields } })),
			bytes: f.bytes.slice(),
			fragments: f.fragments,
			info: packetInfoText(f),
			remote: o.remote,
		});
	}

	/** The protocol hierarchy and the top talkers by process of every captured frame. */
	async statistics(id: number): Promise<Result<PacketStatistics>> {
		if (!(await this.#captured(id))) return ok(packetStatistics([], []));
		const l = await this.#load(id);
		l.statistics ??= packetStatistics(l.packets.frames, l.packets.owners);
		return ok(l.statistics);
	}

	/** One socket's packets (the first MAX_SOCKET_PACKETS) and its wire facts. */
	async socket(id: number, socket: string): Promise<Result<SocketPackets>> {
		const l = await this.#load(id);
		const p = l.packets;
		const rows: PacketRowView[] = [];
		let total = 0;
		let first: bigint | null = null;
		const sinceFirstMs: number[] = [];
		for (let k = 0; k < p.frames.length; k++) {
			if (p.owners[k]!.socket !== socket) continue;
			if (total < MAX_SOCKET_PACKETS) {
				const at = p.frames[k]!.filetime;
				first ??= at;
				sinceFirstMs.push(Number(at - first) / 10_000);
				rows.push({
					...packetRow(p.frames[k]!, p.owners[k]!, l.interfaces),
					infoText: packetInfoText(p.frames[k]!),
					position: total,
				});
			}
			total++;
		}
		return ok({
			captured: p.captureEvents > 0,
			wire: p.wire.find((w) => w.socket === socket) ?? null,
			total,
			rows,
			sinceFirstMs,
		});
	}

	/** The frames a pick holds as pcapng, in pieces of about 1 MiB; false from `write` stops. */
	async exportPcapng(
		id: number,
		pick: PacketPick,
		write: (piece: Uint8Array) => Promise<boolean> | boolean,
	): Promise<Result<{ frames: number; complete: boolean }>> {
		const test = this.#pick(pick);
		if (!test.ok) return test;
		const l = await this.#load(id);
		let parts: Uint8Array[] = [];
		let size = 0;
		let frames = -1 - l.packets.interfaces.length;
		const flush = async () => {
			const all = new Uint8Array(size);
			let at = 0;
			for (const b of parts) {
				all.set(b, at);
				at += b.length;
			}
			parts = [];
			size = 0;
			return write(all);
		};
		for (const block of pcapngBlocks(l.packets, l.names, test.value)) {
			frames++;
			parts.push(block);
			size += block.length;
			if (size >= PIECE && !(await flush())) return ok({ frames, complete: false });
		}
		if (size > 0 && !(await flush())) return ok({ frames, complete: false });
		return ok({ frames, complete: true });
	}

	/** The frames a pick holds as the `packets` table of `sockscope export`, in pieces. */
	async exportPacketTable(
		id: number,
		pick: PacketPick,
		format: TableFormat,
		write: (piece: Uint8Array) => Promise<boolean> | boolean,
	): Promise<Result<{ rows: number; complete: boolean }>> {
		const test = this.#pick(pick);
		if (!test.ok) return test;
		const l = await this.#load(id);
		const p = l.packets;
		let stopped = false;
		const table = tableWriter(format, PACKET_TABLE, async (piece) => {
			if (!stopped && !(await write(piece))) stopped = true;
		});
		let rows = 0;
		for (let k = 0; k < p.frames.length; k++) {
			const f = p.frames[k]!;
			if (test.value && !test.value(f, p.owners[k]!, l.names)) continue;
			await table.add(packetTableRow(f, p.owners[k]!, l.interfaces));
			rows++;
			if (stopped) return ok({ rows, complete: false });
		}
		await table.close();
		return ok({ rows, complete: !stopped });
	}
}
