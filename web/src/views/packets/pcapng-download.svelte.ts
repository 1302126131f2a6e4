// A pcapng download of a pick of packets (a filter's, rows picked, a socket's, a conversation's):
// the worker writes the file in pieces, each a Blob at once, and the file is named for what it
// holds. One per place that offers it, so each says what its own last download did.
import { pcapngFileName, type PacketPick } from '../../packets/packet-pick.ts';
import type { TraceApi } from '../events/trace-api.ts';
import { saveBlob } from '../export/export-job.svelte.ts';

export class PcapngDownload {
	readonly #api: TraceApi;
	readonly #traceName: () => string;
	downloading = $state(false);
	/** What the last download did. */
	done = $state.raw<{ frames: number; fileName: string } | null>(null);
	error = $state<string | null>(null);
	/** Whether the trace holds captured packets (null: not asked yet). */
	captured = $state<boolean | null>(null);

	constructor(api: TraceApi, traceName: () => string) {
		this.#api = api;
		this.#traceName = traceName;
	}

	/** Asks the worker once whether there are packets to download (no pass over the file). */
	async check(): Promise<void> {
		if (this.captured !== null) return;
		const r = await this.#api.hasPackets();
		this.captured = r.ok && r.value;
	}

	async run(pick: PacketPick): Promise<void> {
		if (this.downloading) return;
		this.downloading = true;
		this.done = null;
		this.error = null;
		const parts: Blob[] = [];
		try {
			const r = await this.#api.exportPcapng(pick, (piece) => {
				parts.push(new Blob([piece as BlobPart]));
				return true;
			});
			if (!r.ok) this.error = r.error;
			else {
				const fileName = pcapngFileName(this.#traceName(), pick);
				saveBlob(new Blob(parts, { type: 'application/vnd.tcpdump.pcap' }), fileName);
				this.done = { frames: r.value.frames, fileName };
			}
		} catch (e) {
			this.error = e instanceof Error ? e.message : String(e);
		} finally {
			this.downloading = false;
		}
	}
}
