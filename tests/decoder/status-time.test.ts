import { describe, expect, it } from 'vitest';
import { explainStatus } from '../../web/src/decoder/status.ts';
import { filetimeFromIso, filetimeToIso } from '../../web/src/decoder/time.ts';

describe('NTSTATUS', () => {
	it('names, nearest Winsock error and a plain explanation', () => {
		const s = explainStatus(0xc0000236);
		expect(s).toMatchObject({
			name: 'STATUS_CONNECTION_REFUSED',
			wsa: 'WSAECONNREFUSED',
			wsaCode: 10061,
			isError: true,
		});
		expect(s.explanation).toMatch(/refused/);
		expect(explainStatus(0).isError).toBe(false);
		expect(explainStatus(0xc0ffee01).name).toBe('0xC0FFEE01');
	});
});

describe('FILETIME', () => {
	it('keeps 100 ns precision beyond 2^53', () => {
		const iso = '2026-03-14T09:26:53.5897932Z';
		const ft = filetimeFromIso(iso);
		expect(ft > 2n ** 53n).toBe(true);
		expect(filetimeToIso(ft)).toBe(iso);
		expect(filetimeToIso(ft + 1n)).toBe('2026-03-14T09:26:53.5897933Z');
		expect(filetimeToIso(-1n)).toBeNull();
	});
});
