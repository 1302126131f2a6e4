// One input judged: the checks of check.ts (decoder, page path, socket tracker), check-packets.ts
// (capture, dissectors, join, pcapng) and check-compare.ts (the diff against a corpus neighbour),
// turned into an outcome and the features that guide the corpus. The same function runs in the in-process workers (thread.ts) and in the child
// process that confirms a finding (worker.ts), so both see an input alike.
import { getHeapStatistics } from 'node:v8';
import {
	agreementProblems,
	decodeProblems,
	decodeReport,
	kindOf,
	pageReport,
	type DecodeReport,
} from './check.ts';
import { compareReport, type CompareReport } from './check-compare.ts';
import { packetsReport } from './check-packets.ts';

/** Outcomes of an input that are fine: the decoder told what the file is. */
export const FINE = ['clean', 'damaged', 'rejected'] as const;
/** Outcomes that are findings. */
export const FAULTS = [
	'threw',
	'page-threw',
	'packets-threw',
	'compare-threw',
	'invariant',
	'disagree',
	'memory',
	'timeout',
	'crash',
] as const;
export type Outcome = (typeof FINE)[number] | (typeof FAULTS)[number];

/** WASM memory one decoder may hold: two of the largest buffers (input, image) and its tables. */
export const WASM_LIMIT = 256 << 20;

export interface Verdict {
	readonly outcome: Outcome;
	readonly records: number;
	/** Kinds of damage (numbers blanked), sorted: with the outcome, the features that guide the corpus. */
	readonly kinds: readonly string[];
	/** The decoder's paths the records took (check.ts), then the packets' (check-packets.ts). */
	readonly paths: readonly string[];
	/** Frames the capture rebuilt, and how many of them a socket owns (0 without capture events). */
	readonly frames: number;
	readonly owned: number;
	/** Whether the compare ran (with a neighbour given). */
	readonly compared: boolean;
	/** Whether the page's path ran too (it runs on a sample; see thread.ts). */
	readonly page: boolean;
	readonly detail: string;
	readonly wasmBytes: number;
	readonly heapBytes: number;
}

const stack = (e: unknown) => (e instanceof Error ? (e.stack ?? e.message) : String(e));

/**
 * Judges `bytes`: the CLI's decode path always, the packets path when the input holds capture
 * events, the page's path when `withPage` says so, and the compare when a `neighbour` is given.
 */
export async function judge(
	module: WebAssembly.Module,
	bytes: Uint8Array,
	withPage: (features: readonly string[]) => boolean,
	neighbour: Uint8Array | null = null,
): Promise<Verdict> {
	const heap = () => getHeapStatistics().used_heap_size;
	let cli: DecodeReport;
	try {
		cli = await decodeReport(module, bytes);
	} catch (e) {
		return verdict({ outcome: 'threw', detail: stack(e), heapBytes: heap() });
	}
	const kinds = [...new Set(cli.damage.map(kindOf))].sort();
	const fine = !cli.opened ? 'rejected' : cli.damage.length ? 'damaged' : 'clean';
	let paths = cli.paths;
	let frames = 0;
	let owned = 0;
	let compared = false;
	const v = (outcome: Outcome, page: boolean, detail: string, wasmBytes = cli.wasmBytes) =>
		verdict({
			outcome,
			records: cli.records,
			kinds,
			paths,
			page,
			detail,
			wasmBytes,
			heapBytes: heap(),
			frames,
			owned,
			compared,
		});
	if (cli.wasmBytes > WASM_LIMIT)
		return v('memory', false, `the decoder's WASM memory grew to ${cli.wasmBytes} bytes`);
	const problems = decodeProblems(cli, bytes.length);
	if (problems.length) return v('invariant', false, problems.join('\n'));
	if (cli.captureEvents > 0) {
		let packets;
		try {
			packets = await packetsReport(module, bytes);
		} catch (e) {
			return v('packets-threw', false, stack(e));
		}
		if (packets) {
			paths = [...cli.paths, ...packets.paths];
			frames = packets.frames;
			owned = packets.owned;
			if (packets.captureEvents !== cli.captureEvents)
				return v(
					'disagree',
					false,
					`capture events: the packets path has ${packets.captureEvents}, the decode ${cli.captureEvents}`,
				);
			if (packets.problems.length) return v('invariant', false, packets.problems.join('\n'));
		}
	}
	// The compare last: it decodes another trace, and a kept decoder instance (instance-cache.ts)
	// is not reset exactly by the next open (the child process, with fresh ones, is the final word).
	let compare: CompareReport | null = null;
	const compareProblem = async (page: boolean): Promise<Verdict | null> => {
		if (!neighbour || !cli.opened) return null;
		try {
			compare = await compareReport(module, bytes, neighbour);
		} catch (e) {
			return v('compare-threw', page, stack(e));
		}
		compared = compare !== null;
		return compare?.problems.length ? v('invariant', page, compare.problems.join('\n')) : null;
	};
	if (!cli.opened || !withPage(features(fine, kinds, cli.records, paths)))
		return (await compareProblem(false)) ?? v(fine, false, '');
	let page;
	try {
		page = await pageReport(module, bytes);
	} catch (e) {
		return v('page-threw', true, stack(e));
	}
	if (page && page.wasmBytes > WASM_LIMIT)
		return v('memory', true, `the page path's WASM memory grew to ${page.wasmBytes} bytes`);
	const bad = await compareProblem(true);
	if (bad) return bad;
	const disagree = agreementProblems(cli, page);
	// The page's tracker and the one `sockscope diff` streams are built apart: the same sockets.
	const c = compare as CompareReport | null;
	if (page && c && page.sockets !== c.sockets)
		disagree.push(`sockets: the page path has ${page.sockets}, sockscope diff ${c.sockets}`);
	if (disagree.length) return v('disagree', true, disagree.join('\n'));
	return v(fine, true, '');
}

function verdict(v: Partial<Verdict> & Pick<Verdict, 'outcome' | 'detail' | 'heapBytes'>): Verdict {
	return {
		records: 0,
		kinds: [],
		paths: [],
		page: false,
		wasmBytes: 0,
		frames: 0,
		owned: 0,
		compared: false,
		...v,
	};
}

/**
 * What guides the corpus: the outcome, each kind of damage under it, the order of magnitude of
 * the records decoded and the decoder's paths they took. An input with a feature no earlier
 * input had is kept.
 */
export function features(
	outcome: string,
	kinds: readonly string[],
	records: number,
	paths: readonly string[],
): string[] {
	const scale = records === 0 ? 0 : 1 + Math.floor(Math.log2(records));
	return [
		outcome,
		`${outcome}|records ~2^${scale}`,
		...kinds.map((k) => `${outcome}|${k}`),
		...paths.map((p) => `path|${p}`),
	];
}

export const isFault = (o: string): boolean => (FAULTS as readonly string[]).includes(o);
