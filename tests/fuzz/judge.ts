// One input judged: the checks of check.ts, turned into an outcome and the signature that guides
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
	/** Kinds of damage (numbers blanked), sorted: with the outcome, the corpus signature. */
	readonly kinds: readonly string[];
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
	withPage: (cliSignature: string) => boolean,
): Promise<Verdict> {
	const heap = () => getHeapStatistics().used_heap_size;
	let cli: DecodeReport;
	try {
		cli = await decodeReport(module, bytes);
	} catch (e) {
		return verdict('threw', 0, [], false, stack(e), 0, heap());
	}
	const kinds = [...new Set(cli.damage.map(kindOf))].sort();
	const fine = !cli.opened ? 'rejected' : cli.damage.length ? 'damaged' : 'clean';
	const v = (o: Outcome, page: boolean, detail: string, wasm = cli.wasmBytes) =>
		verdict(o, cli.records, kinds, page, detail, wasm, heap());
	if (cli.wasmBytes > WASM_LIMIT)
		return v('memory', false, `the decoder's WASM memory grew to ${cli.wasmBytes} bytes`);
	const problems = decodeProblems(cli, bytes.length);
	if (problems.length) return v('invariant', false, problems.join('\n'));
	if (!cli.opened || !withPage(`${fine}|${kinds.join('|')}`)) return v(fine, false, '');
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
	page: boolean,
	detail: string,
	wasmBytes: number,
	heapBytes: number,
): Verdict {
	return { outcome, records, kinds, page, detail, wasmBytes, heapBytes };
}

export const isFault = (o: string): boolean => (FAULTS as readonly string[]).includes(o);
