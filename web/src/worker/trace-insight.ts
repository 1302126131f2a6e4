// What the analyst views ask of an opened trace beyond rows: the names for autocomplete, the
// statistics, and exports. Answers that cover the whole trace (every row, process names, which
// socket talks to whom) are computed once per size of the trace and kept until it grows.
import type { OpenTrace } from '../decoder/etl-file.ts';
import { explainStatus } from '../decoder/status.ts';
import { recordDecoder } from '../decoder/single-record.ts';
import type { Selection } from '../query/protocol.ts';
import { buildStatistics, remotesOfSockets, type Statistics } from '../query/statistics.ts';
import { buildPivot, type Pivot, type PivotColumn } from '../query/pivot.ts';
import { exportSelection, type ExportProgress } from './export-selection.ts';
import { exportParquet } from './export-parquet.ts';
import type { ExportFormat } from '../export/record-lines.ts';
import type { LiveTrace } from './live-trace.ts';
import { learnProcessNames } from './process-names.ts';
import { RecordReader } from './record-reader.ts';
import type { TypeCount } from './trust.ts';
import { acceptedSockets, optionChanges, type OptionRow } from './socket-payloads.ts';

export interface Vocabulary {
	/** Event names, most frequent first. */
	readonly events: readonly { name: string; count: number }[];
	readonly providers: readonly string[];
	readonly processes: readonly { pid: number; name: string | null; count: number }[];
	/** NTSTATUS values logged in the trace. */
	readonly statuses: readonly { name: string; wsa: string | null; count: number }[];
	/** Remote address → host names from the trace's DNS answers. */
	readonly hosts: readonly (readonly [string, readonly string[]])[];
}

/** Payload fields of one event by name: the value, and its named meaning where it has one. */
export type PayloadValues = Readonly<
	Record<string, { readonly value: string; readonly meaning: string | null }>
>;

export interface TraceStatistics extends Statistics {
	readonly options: OptionRow[];
}

interface WholeTrace {
	readonly rows: number;
	readonly all: Selection;
	names: Map<number, string> | null;
	remotes: Map<number, number> | null;
	vocabulary: Vocabulary | null;
}

export class TraceInsight {
	readonly #live: LiveTrace;
	readonly #module: () => Promise<WebAssembly.Module>;
	#whole: Promise<WholeTrace> | null = null;

	constructor(live: LiveTrace, module: () => Promise<WebAssembly.Module>) {
		this.#live = live;
		this.#module = module;
		// Filters on payload fields decode the records of the event types they name.
		live.engine.recordFields = async (chunk, rows, keys) =>
			(await this.#reader()).fields(chunk, rows, keys);
	}

	/** A reader with its own decoder: decodes await, so concurrent users must not share one. */
	async #reader(): Promise<RecordReader> {
		const facts = this.#live.record.facts;
		const decoder: OpenTrace = recordDecoder(await this.#module(), facts);
		return new RecordReader(
			{ engine: this.#live.engine, records: this.#live.records },
			decoder,
			facts,
		);
	}

	#rows(): number {
		return this.#live.chunks().reduce((n, c) => n + c.rows, 0);
	}

	async #wholeTrace(): Promise<WholeTrace> {
		const rows = this.#rows();
		const known = await this.#whole;
		if (known?.rows === rows) return known;
		const next = this.#live.engine.select('').then((all) => ({
			rows,
			all,
			names: null,
			remotes: null,
			vocabulary: null,
		}));
		this.#whole = next;
		return next;
	}

	/**
	 * PID → process name from the trace's process events. Once the import is done they also join
	 * the trace's tables, so the filter's `process:name` finds them.
	 */
	async processNames(importing: boolean): Promise<ReadonlyMap<number, string>> {
		const tables = this.#live.tables;
		// An import learns the names as it decodes, and its chunks carry them: the process events
		// are read again only for a trace whose import did not (tests/worker/export.test.ts).
		// While it runs, those learned so far: before its first names came, every request that
		// asked (the table's colouring rules, at each refresh) read the process events of every
		// row stored so far again from the file, and the import, letting requests in, waited on it.
		if (importing) return new Map(tables.processNames);
		const whole = await this.#wholeTrace();
		if (!whole.names && tables.processNames.size > 0) whole.names = new Map(tables.processNames);
		if (!whole.names) {
			whole.names = await learnProcessNames(
				this.#live.engine,
				whole.all,
				tables.eventTypes,
				await this.#reader(),
				BigInt(this.#live.record.facts.startFiletime),
				this.#live.record.facts.pointerSize === 4 ? 4 : 8,
			);
			for (const [pid, name] of tables.processNames) whole.names.set(pid, name);
		}
		if (!importing)
			for (const [pid, name] of whole.names)
				if (!this.#live.tables.processNames.has(pid)) this.#live.tables.processNames.set(pid, name);
		return whole.names;
	}

	async vocabulary(importing: boolean): Promise<Vocabulary> {
		const whole = await this.#wholeTrace();
		if (whole.vocabulary) return whole.vocabulary;
		const names = await this.processNames(importing);
		const engine = this.#live.engine;
		const [events, providers, processes, statuses] = await Promise.all([
			engine.groupBy(whole.all, 'event', 2000),
			engine.groupBy(whole.all, 'provider', 200),
			engine.groupBy(whole.all, 'process', 2000),
			engine.groupBy(whole.all, 'status', 500),
		]);
		const vocabulary: Vocabulary = {
			events: events.map((g) => ({ name: g.label, count: g.count })),
			providers: providers.map((g) => g.label).filter((p) => p !== 'kernel'),
			processes: processes
				.filter((g) => g.key !== String(0xffffffff))
				.map((g) => ({
					pid: Number(g.key),
					name: names.get(Number(g.key)) ?? null,
					count: g.count,
				})),
			statuses: statuses.map((g) => {
				const s = explainStatus(Number(g.key));
				return { name: s.name, wsa: s.wsa, count: g.count };
			}),
			hosts: [...this.#live.tables.hostNames],
		};
		whole.vocabulary = vocabulary;
		return vocabulary;
	}

	/** Every event type of the trace with its count (the trust counters read them). */
	async typeCounts(): Promise<TypeCount[]> {
		const whole = await this.#wholeTrace();
		const types = this.#live.tables.eventTypes;
		const groups = await this.#live.engine.groupBy(whole.all, 'event', types.length + 1);
		return groups.flatMap((g) => {
			const type = types[Number(g.key)];
			return type ? [{ type, count: g.count }] : [];
		});
	}

	/** `uncounted`: transfers the socket tracker judged counted already (buildStatistics). */
	async statistics(
		sel: Selection,
		importing: boolean,
		uncounted: ReadonlySet<number>,
	): Promise<TraceStatistics> {
		const names = await this.processNames(importing);
		const engine = this.#live.engine;
		const tables = this.#live.tables;
		const remotes = await this.#remotes();
		const context = { ...this.#live.context(), processNames: names };
		const base = await buildStatistics(engine, context, sel, remotes, uncounted);
		const options = await optionChanges(
			engine,
			sel,
			tables.eventTypes,
			await this.#reader(),
			names,
		);
		return { ...base, options };
	}

	/** Which socket talks to whom, over the whole trace (kept until it grows). */
	async #remotes(): Promise<Map<number, number>> {
		const whole = await this.#wholeTrace();
		if (whole.remotes) return whole.remotes;
		const engine = this.#live.engine;
		const tables = this.#live.tables;
		const strings = new Map(tables.strings.map((s, i) => [s, i]));
		const accepted = await acceptedSockets(
			engine,
			whole.all,
			tables.eventTypes,
			await this.#reader(),
			strings,
		);
		whole.remotes = await remotesOfSockets(engine, whole.all, tables.eventTypes, accepted);
		return whole.remotes;
	}

	/** Group by (query/pivot.ts), bytes counted as the statistics count them. */
	async pivot(
		sel: Selection,
		columns: readonly PivotColumn[],
		limit: number,
		importing: boolean,
		uncounted: ReadonlySet<number>,
	): Promise<Pivot> {
		const names = await this.processNames(importing);
		const remotes = await this.#remotes();
		const context = { ...this.#live.context(), processNames: names };
		return buildPivot(this.#live.engine, context, sel, columns, { remotes, uncounted, limit });
	}

	/** Payload fields of events by record index (worker/api.ts payloadValues). */
	async payloadValues(
		indexes: readonly number[],
		names: readonly string[],
	): Promise<(PayloadValues | null)[]> {
		const reader = await this.#reader();
		const out: (PayloadValues | null)[] = [];
		for (const index of indexes) {
			const at = this.#live.locate(index);
			const fields = at ? (await reader.fields(at.chunk, [at.row]))[0] : null;
			if (!fields) {
				out.push(null);
				continue;
			}
			const values: Record<string, { value: string; meaning: string | null }> = {};
			for (const name of names) {
				const v = fields[name];
				if (v === undefined || v === null) continue;
				const meaning = fields[`${name}Name`];
				values[name] = {
					value: String(v),
					meaning: typeof meaning === 'string' ? meaning : null,
				};
			}
			out.push(values);
		}
		return out;
	}

	async export(
		sel: Selection,
		format: ExportFormat | 'parquet',
		write: (piece: string | Uint8Array, progress: ExportProgress) => Promise<boolean> | boolean,
	): Promise<{ rows: number; complete: boolean }> {
		const reader = await this.#reader();
		if (format === 'parquet')
			return exportParquet(sel, reader, this.#live.engine, this.#live.context(), write);
		return exportSelection(sel, reader, format, write);
	}
}
