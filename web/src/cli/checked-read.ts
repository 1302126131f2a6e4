// One pass over a trace's buffers as every command makes it: each buffer's damage and record
// checks (TraceChecks), and the progress line fed by the bytes read.
import type { BufferIndex, OpenTrace } from '../decoder/etl-file.ts';
import type { BufferSink } from '../decoder/merge.ts';
import { TraceChecks } from '../decoder/trace-checks.ts';
import type { Progress } from './progress.ts';

export interface CheckedRead {
	/** The merge's buffer sink. */
	readonly onBuffer: BufferSink;
	/** The merge's slice sink. */
	readonly onSlice: BufferSink;
	/** After the merge: every damage message, the index pass's included. */
	finish(): string[];
}

export function checkedRead(
	trace: Pick<OpenTrace, 'facts' | 'decoder'>,
	index: BufferIndex,
	progress: Progress,
): CheckedRead {
	const checks = new TraceChecks(trace);
	const total = index.buffers.reduce((n, b) => n + b.available, 0);
	let done = 0;
	return {
		onBuffer: (b) => {
			checks.buffer(b);
			done += b.entry.available;
			progress.update(done, total);
		},
		onSlice: checks.slice,
		finish: () => {
			checks.finish(index);
			return checks.messages;
		},
	};
}
