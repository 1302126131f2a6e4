// The Packets panel's state: the packet filter and its answer, the rows of the list fetched a
// block at a time as it scrolls (the list is virtual: only the rows in view are drawn), the
// picked packet's details, the rows picked for a download (click, Ctrl-click, Shift-click), and
// the pcapng downloads of what the filter keeps and of the rows picked.
import { failureText, type Text } from '../../i18n/render.ts';
import type { Result } from '../../lib/result.ts';
import type { PacketAnswer, PacketDetails, PacketRowView } from '../../worker/api.ts';
import type { TraceApi } from '../trace/trace-api.ts';
import { PacketDownload } from './packet-download.svelte.ts';

/** Rows fetched from the worker at a time. */
export const PACKET_BLOCK = 200;

export class PacketsView {
	readonly #api: TraceApi;
	/** The filter typed, and the one the answer is for. */
	draft = $state('');
	filter = $state('');
	answer = $state.raw<PacketAnswer | null>(null);
	/** Why the filter was not applied, in the reader's language when the worker said it so. */
	error = $state.raw<Text | null>(null);
	loading = $state(false);
	/** Fetched rows by block number (the latest filter's). */
	blocks = $state.raw<ReadonlyMap<number, readonly PacketRowView[]>>(new Map());
	picked = $state<number | null>(null);
	details = $state.raw<PacketDetails | null>(null);
	detailsError = $state.raw<Text | null>(null);
	/** Frame numbers of the rows picked for a download, and the row a Shift-click extends from. */
	selected = $state.raw<ReadonlySet<number>>(new Set());
	#anchor: number | null = null;
	readonly pcapng: PacketDownload;
	readonly #asked = new Set<number>();
	#run = 0;

	constructor(api: TraceApi, traceName: () => string) {
		this.#api = api;
		this.pcapng = new PacketDownload(api, traceName);
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
			if (r.code !== 'superseded') this.error = failureText(r);
			return;
		}
		this.filter = filter;
		this.answer = r.value;
		this.selected = new Set();
		this.#anchor = null;
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
			this.detailsError = failureText(r);
		}
	}

	/**
	 * A click on the row at `position`: picks it alone; with Ctrl (⌘) adds it to the rows picked or
	 * takes it out; with Shift picks every row from the last one clicked to it.
	 */
	click(position: number, number: number, how: { toggle: boolean; range: boolean }): void {
		if (how.range && this.#anchor !== null) {
			const next = new Set(this.selected);
			const [from, to] = [Math.min(this.#anchor, position), Math.max(this.#anchor, position)];
			for (let at = from; at <= to; at++) {
				const r = this.row(at);
				if (r) next.add(r.number as number);
			}
			this.selected = next;
		} else if (how.toggle) {
			const next = new Set(this.selected);
			if (!next.delete(number)) next.add(number);
			this.selected = next;
			this.#anchor = position;
		} else {
			this.selected = new Set([number]);
			this.#anchor = position;
		}
		void this.pick(number);
	}

	/** Downloads what the current filter keeps as pcapng. */
	download(): Promise<void> {
		return this.pcapng.run({ kind: 'filter', filter: this.filter });
	}

	/** Downloads the rows picked, in time order. */
	downloadSelected(): Promise<void> {
		const numbers = [...this.selected].sort((a, b) => a - b);
		return this.pcapng.run({ kind: 'frames', numbers });
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
