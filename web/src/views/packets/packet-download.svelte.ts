// A download of a pick of packets (a filter's, rows picked, a socket's, a conversation's) as
// pcapng, or as the export's `packets` table in Parquet: the worker writes the file in pieces,
// each a Blob at once, and the file is named for what it holds. One per place that offers it, so
// each says what its own last download did.
import { pcapngFileName, type PacketPick } from '../../packets/packet-pick.ts';
import type { Result } from '../../lib/result.ts';
import type { TraceApi } from '../trace/trace-api.ts';
import { saveBlob } from '../export/export-job.svelte.ts';

export class PacketDownload {
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

	/** The pick as pcapng. */
	run(pick: PacketPick): Promise<void> {
		return this.#save(
			pcapngFileName(this.#traceName(), pick),
			'application/vnd.tcpdump.pcap',
			(w) => this.#api.exportPcapng(pick, w),
		);
	}

	/** The pick as the export's `packets` table, in Parquet. */
	table(pick: PacketPick): Promise<void> {
		return this.#save(
			pcapngFileName(this.#traceName(), pick, 'parquet'),
			'application/vnd.apache.parquet',
			(w) => this.#api.exportPacketTable(pick, 'parquet', w),
		);
	}

	async #save(
		fileName: string,
		type: string,
		produce: (
			write: (piece: Uint8Array) => boolean,
		) => Promise<Result<{ frames: number } | { rows: number }>>,
	): Promise<void> {
		if (this.downloading) return;
		this.downloading = true;
		this.done = null;
		this.error = null;
		const parts: Blob[] = [];
		try {
			const r = await produce((piece) => {
				parts.push(new Blob([piece as BlobPart]));
				return true;
			});
			if (!r.ok) this.error = r.error;
			else {
				saveBlob(new Blob(parts, { type }), fileName);
				this.done = { frames: 'frames' in r.value ? r.value.frames : r.value.rows, fileName };
			}
		} catch (e) {
			this.error = e instanceof Error ? e.message : String(e);
		} finally {
			this.downloading = false;
		}
	}
}
