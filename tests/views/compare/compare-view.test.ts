// The Compare view's link (both traces' keys in the fragment) and the filters that show a pair in
// one trace.
import { describe, expect, it } from 'vitest';
import type { PairDiff } from '../../../web/src/compare/diff.ts';
import { emptyFigures } from '../../../web/src/compare/summary.ts';
import { formatHash, parseHash, EMPTY_VIEW } from '../../../web/src/state/view-hash.ts';
import { pairFilter } from '../../../web/src/views/compare/compare-view.ts';
import { compileFilter } from '../../../web/src/query/filter-compile.ts';
import { parseFilter } from '../../../web/src/query/filter-parser.ts';

const pair = (o: Partial<PairDiff>): PairDiff => ({
	key: '',
	process: 'app.exe',
	protocol: 'TCP',
	kind: 'remote',
	remoteName: null,
	remote: '',
	remoteNames: [],
	remotes: [],
	inBaseline: true,
	inProblem: true,
	baseline: emptyFigures(),
	problem: emptyFigures(),
	changes: [],
	...o,
});

describe('compare link', () => {
	it('holds both keys, and reads back the same', () => {
		const a = '0123456789abcdef';
		const b = 'fedcba9876543210';
		const hash = formatHash({ ...EMPTY_VIEW, compare: [a, b] });
		expect(hash).toBe(`#compare=${a},${b}`);
		expect(parseHash(hash)).toEqual({ ...EMPTY_VIEW, compare: [a, b] });
	});

	it('a malformed comparison is no comparison', () => {
		expect(parseHash('#compare=0123456789abcdef').compare).toBeUndefined();
		expect(parseHash('#compare=xyz,0123456789abcdef').compare).toBeUndefined();
	});
});

describe('pairFilter', () => {
	it.each([
		[
			pair({ remoteName: 'api.contoso.com', remote: 'api.contoso.com:443' }),
			'process:app.exe host:api.contoso.com rport:443',
		],
		[
			pair({ remote: '10.1.0.10:8080', remotes: ['10.1.0.10:8080'] }),
			'process:app.exe raddr:10.1.0.10 rport:8080',
		],
		[
			pair({ remote: '[fe80::1]:53', remotes: ['[fe80::1]:53'] }),
			'process:app.exe raddr:fe80::1 rport:53',
		],
		[
			pair({ process: 'svc.exe', kind: 'listening', remote: 'listening :8443' }),
			'process:svc.exe port:8443',
		],
		[pair({ process: 'My App.exe', kind: 'none', remote: 'no remote' }), 'process:"My App.exe"'],
	])('%#: %s', (d, filter) => {
		expect(pairFilter(d)).toBe(filter);
		// The filter language takes it.
		const ctx = { strings: [], eventTypes: [], startFiletime: 0n, processNames: new Map() };
		expect(() => compileFilter(parseFilter(filter), ctx)).not.toThrow();
	});
});
