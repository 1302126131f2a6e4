// The view in the URL fragment: what a reload and a shared link restore.
import { describe, expect, it } from 'vitest';
import {
	EMPTY_VIEW,
	formatHash,
	parseHash,
	secondsText,
	traceKey,
	type ViewState,
} from '../../web/src/state/view-hash.ts';

describe('view hash', () => {
	const view: ViewState = {
		trace: 'a3f9c2d1e0b4c6d8',
		name: 'sample trace.etl',
		q: 'status:error (raddr:10.0.0.0/8 or process:"my app.exe") -level:verbose',
		range: { from: 17955873, to: 41457464 },
		sel: 982,
		ref: 57,
		panel: 'stats',
	};

	it('round-trips every part of a view exactly', () => {
		expect(parseHash(formatHash(view))).toEqual(view);
		expect(formatHash(view)).not.toMatch(/[ +]/);
	});

	it('leaves defaults out and the start page empty', () => {
		expect(formatHash(EMPTY_VIEW)).toBe('');
		expect(formatHash({ ...EMPTY_VIEW, trace: 'abcdef0123456789' })).toBe(
			'#trace=abcdef0123456789',
		);
		expect(parseHash('')).toEqual(EMPTY_VIEW);
	});

	it('reads times as seconds with 100 ns precision', () => {
		expect(secondsText(17955873)).toBe('1.7955873');
		expect(secondsText(0)).toBe('0');
		expect(parseHash('#trace=abcdef01&from=0.5&to=1').range).toEqual({ from: 5e6, to: 1e7 });
	});

	it('ignores what it cannot use', () => {
		const v = parseHash('#trace=not-hex&from=2&to=1&sel=-3&ref=1.5&panel=nope&q=');
		expect(v).toEqual(EMPTY_VIEW);
	});

	it('keeps the time reference by its event index, and leaves it out when there is none', () => {
		expect(formatHash({ ...view, ref: 0 })).toContain('&ref=0');
		expect(formatHash({ ...view, ref: null })).not.toContain('ref=');
		expect(parseHash('#trace=abcdef01&ref=12').ref).toBe(12);
		expect(parseHash('#trace=abcdef01&ref=-2').ref).toBe(null);
	});

	it('keys a trace by the start of its fingerprint', () => {
		expect(traceKey('A3F9C2D1E0B4C6D8FFFF')).toBe('a3f9c2d1e0b4c6d8');
	});
});
