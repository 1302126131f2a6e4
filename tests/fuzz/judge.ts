// One input judged: the checks of check.ts, turned into an outcome and the features that guide
// the corpus. The same function runs in the in-process workers (thread.ts) and in the child
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

/** Outcomes of an input that are fine: the decoder told what the file is. */
export const FINE = ['clean', 'damaged', 'rejected'] as const;
/** Outcomes that are findings. */
export const FAULTS = [
	'threw',
	'page-threw',
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
	/** The decoder's paths the records took (check.ts). */
	readonly paths: readonly string[];
	/** Whether the page's path ran too (it runs on a sample; see thread.ts). */
	readonly page: boolean;
	readonly detail: string;
	readonly wasmBytes: number;
	readonly heapBytes: number;
}

const stack = (e: unknown) => (e instanceof Error ? (e.stack ?? e.message) : String(e));

export async function judge(
	module: WebAssembly.Module,
	bytes: Uint8Array,
	withPage: (features: readonly string[]) => boolean,
): Promise<Verdict> {
	const heap = () => getHeapStatistics().used_heap_size;
	let cli: DecodeReport;
	try {
		cli = await decodeReport(module, bytes);
	} catch (e) {
		return verdict('threw', 0, [], [], false, stack(e), 0, heap());
	}
	const kinds = [...new Set(cli.damage.map(kindOf))].sort();
	const fine = !cli.opened ? 'rejected' : cli.damage.length ? 'damaged' : 'clean';
	const v = (o: Outcome, page: boolean, detail: string, wasm = cli.wasmBytes) =>
		verdict(o, cli.records, kinds, cli.paths, page, detail, wasm, heap());
	if (cli.wasmBytes > WASM_LIMIT)
		return v('memory', false, `the decoder's WASM memory grew to ${cli.wasmBytes} bytes`);
	const problems = decodeProblems(cli, bytes.length);
	if (problems.length) return v('invariant', false, problems.join('\n'));
	if (!cli.opened || !withPage(features(fine, kinds, cli.records, cli.paths)))
		return v(fine, false, '');
	let page;
	try {
		page = await pageReport(module, bytes);
	} catch (e) {
		return v('page-threw', true, stack(e));
	}
	if (page && page.wasmBytes > WASM_LIMIT)
		return v('memory', true, `the page path's WASM memory grew to ${page.wasmBytes} bytes`);
	const disagree = agreementProblems(cli, page);
	if (disagree.length) return v('disagree', true, disagree.join('\n'));
	return v(fine, true, '');
}

function verdict(
	outcome: Outcome,
	records: number,
	kinds: readonly string[],
	paths: readonly string[],
	page: boolean,
	detail: string,
	wasmBytes: number,
	heapBytes: number,
): Verdict {
	return { outcome, records, kinds, paths, page, detail, wasmBytes, heapBytes };
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
