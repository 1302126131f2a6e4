// A --filter checked before any decoding: what the compiler refuses (an unknown field, a bad
// value) is a usage error naming the position.
import { compileFilter } from '../query/filter-compile.ts';
import { FilterError, parseFilter } from '../query/filter-parser.ts';
import { UsageError } from './args.ts';

export function checkFilter(filter: string): void {
	try {
		compileFilter(parseFilter(filter), {
			strings: [],
			eventTypes: [],
			startFiletime: 0n,
			processNames: new Map(),
		});
	} catch (e) {
		if (e instanceof FilterError) throw new UsageError(`--filter: ${e.message}`);
		throw e;
	}
}
