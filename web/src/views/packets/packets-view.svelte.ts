// The Packets panel's state: the packet filter and its answer, the rows of the list fetched a
// block at a time as it scrolls (the list is virtual: only the rows in view are drawn), the
// picked packet's details, and the pcapng download of what the filter keeps (written by the
// worker in pieces, each a Blob at once).
import type { Result } from '../../lib/result.ts';
import type { PacketAnswer, PacketDetails, PacketRowView } from '../../worker/api.ts';
import type { TraceApi } from '../events/trace-api.ts';
import { saveBlob } from '../export/export-job.svelte.ts';

/** Rows fetched from the worker at a time. */
export const PACKET_BLOCK = 200;

/** "sample.etl" + "tcp.flags.syn" → "sample-packets.pcapng" (with the filter: "…-filtered…"). */
export function pcapngFileName(traceName: string, filtered: boolean): string {
	const base = traceName.replace(/\.etl$/i, '').replace(/[\\/:*?"<>|]+/g, '_') || 'trace';
	return `${base}-${filtered ? 'packets-filtered' : 'packets'}.pcapng`;
}

export class PacketsView {
	readonly #api: TraceApi;
	/** The filter typed, and the one the answer is for. */
	draft = $state('');
	filter = $state('');
	answer = $state.raw<PacketAnswer | null>(null);
	error = $state<string | null>(null);
	loading = $state(false);
	/** Fetched rows by block number (the latest filter's). */
	blocks = $state.raw<ReadonlyMap<number, readonly PacketRowView[]>>(new Map());
	picked = $state<number | null>(null);
	details = $state.raw<PacketDetails | null>(null);
	detailsError = $state<string | null>(null);
	downloading = $state(false);
	/** What the last download did. */
	downloaded = $state.raw<{ frames: number; fileName: string } | null>(null);
	downloadError = $state<string | null>(null);
	readonly #asked = new Set<number>();
	#run = 0;

	constructor(api: TraceApi) {
		this.#api = api;
	}

	get matched(): number {
		return this.answer?.matched ?? 0;
	}

	/** Runs the filter typed (the first run rebuilds the trace's frames in the worker). */
	async apply(filter = this.draft): Promise<void> {
		const run = ++this.#run;
		this.draft = filter;
		this.loading = true;
		this.error = null;
		const r = await this.#api.packets(filter, PACKET_BLOCK);
		if (run !== this.#run) return;
		this.loading = false;
		if (!r.ok) {
			if (r.code !== 'superseded') this.error = r.error;
			return;
		}
		this.filter = filter;
		this.answer = r.value;
		this.#asked.clear();
		this.#asked.add(0);
		this.blocks = new Map([[0, r.value.head]]);
	}

	/** The row at `position` when it has been fetched; asks for its block when not. */
	row(position: number): PacketRowView | null {
		const block = Math.floor(position / PACKET_BLOCK);
		const rows = this.blocks.get(block);
		if (rows) return rows[position - block * PACKET_BLOCK] ?? null;
		if (!this.#asked.has(block)) {
			this.#asked.add(block);
			void this.#fetch(block);
		}
		return null;
	}

	async #fetch(block: number): Promise<void> {
		const filter = this.filter;
		const r: Result<PacketRowView[]> = await this.#api.packetRows(
			filter,
			block * PACKET_BLOCK,
			PACKET_BLOCK,
		);
		if (filter !== this.filter) return;
		if (!r.ok) {
			this.#asked.delete(block);
			return;
		}
		const next = new Map(this.blocks);
		next.set(block, r.value);
		this.blocks = next;
	}

	async pick(number: number | null): Promise<void> {
		this.picked = number;
		this.detailsError = null;
		if (number === null) {
			this.details = null;
			return;
		}
		const r = await this.#api.packetDetails(number);
		if (this.picked !== number) return;
		if (r.ok) this.details = r.value;
		else {
			this.details = null;
			this.detailsError = r.error;
		}
	}

	/** Downloads what the current filter keeps as pcapng. */
	async download(traceName: string): Promise<void> {
		if (this.downloading) return;
		this.downloading = true;
		this.downloaded = null;
		this.downloadError = null;
		const parts: Blob[] = [];
		const filter = this.filter;
		try {
			const r = await this.#api.exportPcapng(filter, (piece) => {
				parts.push(new Blob([piece as BlobPart]));
				return true;
			});
			if (!r.ok) this.downloadError = r.error;
			else {
				const fileName = pcapngFileName(traceName, filter.trim() !== '');
				saveBlob(new Blob(parts, { type: 'application/vnd.tcpdump.pcap' }), fileName);
				this.downloaded = { frames: r.value.frames, fileName };
			}
		} catch (e) {
			this.downloadError = e instanceof Error ? e.message : String(e);
		} finally {
			this.downloading = false;
		}
	}
}

/** A frame's bytes as hex lines of 16 (offset, bytes). */
export function hexLines(bytes: Uint8Array): { offset: string; hex: string; text: string }[] {
	const out: { offset: string; hex: string; text: string }[] = [];
	for (let at = 0; at < bytes.length; at += 16) {
		const part = bytes.subarray(at, at + 16);
		out.push({
			offset: at.toString(16).padStart(4, '0'),
			hex: [...part].map((b) => b.toString(16).padStart(2, '0')).join(' '),
			text: [...part].map((b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.')).join(''),
		});
	}
	return out;
}
