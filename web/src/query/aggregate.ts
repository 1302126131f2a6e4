// Counting a selection: events per time bin and category for the timeline, and per group (event,
// process, remote, status, provider, endpoint) with the filter that selects each group.
import {
	FLAG_STATUS,
	NO_PID,
	ticksSaturate,
	type ColumnName,
	type ReadColumns,
} from '../columns/layout.ts';
import { CATEGORIES, type HistogramCategory } from '../columns/categories.ts';
import type { Ticks } from '../decoder/units.ts';
import { CountTable } from '../lib/count-table.ts';
import type { ChunkInfo, ColumnCache } from './column-cache.ts';
import { statusName, type FilterContext } from './filter-compile.ts';
import type { ChunkSelection, Group, GroupKey, Selection } from './protocol.ts';

/** Empty timeline counts: one flat array, category-major, `bins` per category. */
export function histogramCounts(bins: number): Float64Array {
	return new Float64Array(CATEGORIES.length * bins);
}

/**
 * Adds the events of `parts` in [from, to) to timeline counts (histogramCounts): each event's
 * category is stored with it (the `cat` column) and its time as ticks since its chunk's start,
 * five bytes per event.
 */
export async function countHistogram(
	columns: ColumnCache,
	chunkInfos: readonly ChunkInfo[],
	parts: readonly ChunkSelection[],
	from: Ticks,
	to: Ticks,
	bins: number,
	counts: Float64Array,
	check: () => void,
): Promise<void> {
	const scale = bins / (to - from || 1);
	const last = bins - 1;
	const infos = new Map(chunkInfos.map((c) => [c.index, c]));
	const timesOf = (chunk: number): ColumnName[] =>
		ticksSaturate(infos.get(chunk)!) ? ['time', 'cat'] : ['tick', 'cat'];
	// A chunk matched whole that falls inside one bin is counted from its summary, by category.
	const binOf = (t: number) => Math.min(last, ((t - from) * scale) | 0);
	const inOneBin = (part: ChunkSelection, info: ChunkInfo) =>
		!part.rows &&
		part.from === 0 &&
		part.to === info.rows &&
		info.summary?.rows === info.rows &&
		info.tMin >= from &&
		info.tMax < to &&
		binOf(info.tMin) === binOf(info.tMax);
	const read = parts.filter((p) => !inOneBin(p, infos.get(p.chunk)!)).map((p) => p.chunk);
	let next = 0;
	for (const part of parts) {
		check();
		const info = infos.get(part.chunk)!;
		if (inOneBin(part, info)) {
			const { columns: c, counts: n } = info.summary!;
			const b = binOf(info.tMin);
			for (let k = 0; k < n.length; k++) counts[c.cat[k]! * bins + b]! += n[k]!;
			continue;
		}
		columns.readAhead(read, next++, timesOf);
		const wide = ticksSaturate(info);
		const [time, cat] = await columns.columns(part.chunk, [wide ? 'time' : 'tick', 'cat'] as const);
		// Times as offsets from the chunk's start (0 when the column holds whole times).
		const base = wide ? 0 : info.tMin;
		binRows(time, cat, part, from - base, to - base, scale, bins, counts);
	}
}

/**
 * Adds a part's rows whose times (`time`, offsets such that lo..hi is the counted range) fall in
 * [lo, hi) to their bins. A function of its own, not a loop in countHistogram: the loop of an
 * async function is compiled on its own at each call that runs it long (on-stack replacement),
 * the whole function with it, and thrown away as the loop ends (five compiles of it during a
 * 300 MB import, tens of milliseconds each, on a core the import wanted).
 */
function binRows(
	time: ReadColumns['time'] | ReadColumns['tick'],
	cat: ReadColumns['cat'],
	part: ChunkSelection,
	lo: number,
	hi: number,
	scale: number,
	bins: number,
	counts: Float64Array,
): void {
	const last = bins - 1;
	const rows = part.rows;
	const n = rows ? part.count : part.to - part.from;
	for (let k = 0; k < n; k++) {
		const i = rows ? rows[k]! : part.from + k;
		const t = time[i]!;
		if (t < lo || t >= hi) continue;
		let b = ((t - lo) * scale) | 0;
		if (b > last) b = last;
		counts[cat[i]! * bins + b]!++;
	}
}

/** Timeline counts as the page reads them, a series per category. */
export function seriesOf(counts: Float64Array, bins: number): Record<HistogramCategory, number[]> {
	return Object.fromEntries(
		CATEGORIES.map((c, k) => [c, Array.from(counts.subarray(k * bins, (k + 1) * bins))]),
	) as Record<HistogramCategory, number[]>;
}

export async function groupsOf(
	columns: ColumnCache,
	chunkInfos: readonly ChunkInfo[],
	ctx: FilterContext,
	sel: Selection,
	key: GroupKey,
	limit: number,
	check: () => void,
): Promise<Group[]> {
	const counts = new CountTable();
	const column: ColumnName =
		key === 'event' || key === 'provider'
			? 'etype'
			: key === 'remote'
				? 'raddr'
				: key === 'status'
					? 'status'
					: key;
	// A chunk matched whole is counted from its summary when the key is one of its columns.
	const infos = new Map(chunkInfos.map((c) => [c.index, c]));
	const summarised = column === 'etype' || column === 'process' || column === 'status';
	const summaryOf = (part: ChunkSelection) => {
		const info = infos.get(part.chunk);
		return summarised &&
			info &&
			!part.rows &&
			part.from === 0 &&
			part.to === info.rows &&
			info.summary?.rows === info.rows
			? info.summary
			: null;
	};
	const read = sel.parts.filter((p) => !summaryOf(p)).map((p) => p.chunk);
	let next = 0;
	const names: ColumnName[] = key === 'remote' ? [column, 'flags', 'rport'] : [column, 'flags'];
	// Counts of a key column stored narrow (u8 or u16): four tables of one slot per value, row k
	// counted in table k % 4, so that runs of one value do not wait on one slot's last add.
	let dense: Float64Array | null = null;
	for (const part of sel.parts) {
		check();
		const summary = summaryOf(part);
		if (summary) {
			const values = summary.columns[column as 'etype' | 'process' | 'status'];
			const { flags } = summary.columns;
			for (let k = 0; k < values.length; k++)
				if (key !== 'status' || flags[k]! & FLAG_STATUS) counts.add(values[k]!, summary.counts[k]!);
			continue;
		}
		columns.readAhead(read, next++, names);
		const [a, flags, rport = null] = (await columns.columns(part.chunk, names)) as [
			ReadColumns[ColumnName],
			ReadColumns[ColumnName],
			ReadColumns[ColumnName]?,
		];
		const add = (i: number) => {
			let v = a[i]!;
			if (key === 'status' && !(flags[i]! & FLAG_STATUS)) return;
			if (key === 'remote') {
				if (!v) return;
				v = v * 65536 + rport![i]!;
			}
			if (key === 'endpoint' && !v) return;
			counts.add(v);
		};
		if (key !== 'remote' && a.BYTES_PER_ELEMENT < 4) {
			dense ??= new Float64Array(4 * NARROW_KEYS);
			countNarrow(
				dense,
				a as Uint8Array | Uint16Array,
				key === 'status' ? (flags as Uint8Array) : null,
				part,
			);
			continue;
		}
		if (part.rows) for (let k = 0; k < part.count; k++) add(part.rows[k]!);
		else for (let i = part.from; i < part.to; i++) add(i);
	}
	// Four tables added up (an endpoint's 0 is no endpoint: not a group).
	if (dense)
		for (let v = key === 'endpoint' ? 1 : 0; v < NARROW_KEYS; v++) {
			const n =
				dense[v]! +
				dense[v + NARROW_KEYS]! +
				dense[v + 2 * NARROW_KEYS]! +
				dense[v + 3 * NARROW_KEYS]!;
			if (n) counts.add(v, n);
		}
	let groups: Group[] = counts.entries().map(([v, count]) => groupOf(key, v, count, ctx));
	if (key === 'provider') {
		const merged = new Map<string, Group>();
		for (const g of groups) {
			const m = merged.get(g.key);
			merged.set(g.key, m ? { ...m, count: m.count + g.count } : g);
		}
		groups = [...merged.values()];
	}
	return groups.sort((a, b) => b.count - a.count || a.label.localeCompare(b.label)).slice(0, limit);
}

const STATUS_BIT = 31 - Math.clz32(FLAG_STATUS);
/** Values a narrow (u8 or u16) column holds. */
const NARROW_KEYS = 65536;

/**
 * Counts the selected rows of a narrow key column into `dense` (four tables of NARROW_KEYS): no
 * hashing and no branch per row (a status counts where FLAG_STATUS is set: adds that bit, 0 or 1).
 */
function countNarrow(
	dense: Float64Array,
	a: Uint8Array | Uint16Array,
	flags: Uint8Array | null,
	part: ChunkSelection,
): void {
	const rows = part.rows;
	const n = rows ? part.count : part.to - part.from;
	const from = part.from;
	if (flags) {
		if (rows)
			for (let k = 0; k < n; k++) {
				const i = rows[k]!;
				dense[((k & 3) * NARROW_KEYS) | a[i]!]! += (flags[i]! >>> STATUS_BIT) & 1;
			}
		else
			for (let k = 0; k < n; k++)
				dense[((k & 3) * NARROW_KEYS) | a[from + k]!]! += (flags[from + k]! >>> STATUS_BIT) & 1;
	} else if (rows) for (let k = 0; k < n; k++) dense[((k & 3) * NARROW_KEYS) | a[rows[k]!]!]!++;
	else for (let k = 0; k < n; k++) dense[((k & 3) * NARROW_KEYS) | a[from + k]!]!++;
}

function groupOf(key: GroupKey, v: number, count: number, ctx: FilterContext): Group {
	const quote = (s: string) => (/[\s()"]/.test(s) ? `"${s}"` : s);
	switch (key) {
		case 'event': {
			const t = ctx.eventTypes[v];
			const name = t?.name ?? '?';
			return { key: String(v), label: name, count, filter: `event:${quote(name)}` };
		}
		case 'provider': {
			const t = ctx.eventTypes[v];
			const name = t?.providerName ?? t?.provider ?? 'kernel';
			return {
				key: name,
				label: name,
				count,
				filter: t?.provider
					? `provider:${quote(t.providerName ?? t.provider)}`
					: // i18n: data (a filter)
						`kind:system or kind:perfinfo or kind:compact`,
			};
		}
		case 'process': {
			const name = ctx.processNames.get(v);
			return {
				key: String(v),
				label: name ? `${name} (PID ${v})` : v === NO_PID ? 'none' : `PID ${v}`,
				count,
				filter: `process:${v}`,
			};
		}
		case 'remote': {
			const addr = ctx.strings[Math.floor(v / 65536)]!;
			const port = v % 65536;
			const label = addr.includes(':') ? `[${addr}]:${port}` : `${addr}:${port}`;
			return { key: label, label, count, filter: `raddr:${addr} rport:${port}` };
		}
		case 'status': {
			const name = statusName(v);
			return { key: String(v), label: name, count, filter: `status:0x${v.toString(16)}` };
		}
		case 'endpoint': {
			const e = ctx.strings[v]!;
			return { key: e, label: e, count, filter: `endpoint:${e}` };
		}
	}
}
