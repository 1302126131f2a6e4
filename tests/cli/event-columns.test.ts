// decode --columns for the values the filter language tests: every filter field with one value
// per event is a column, and its values are those the filter selects on.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pickDecodeColumns } from '../../web/src/cli/event-columns.ts';
import { FILTER_FIELDS } from '../../web/src/query/filter-fields.ts';
import { sockscope } from './run.ts';
import { CLI_PROCESS_MS } from '../timeouts.ts';

const root = join(import.meta.dirname, '../..');
const sample = join(root, 'public/sample.etl');
const truth = JSON.parse(
	readFileSync(join(root, 'tests/fixtures/sample/sample.truth.json'), 'utf8'),
) as {
	processes: { name: string; afdEvents: number }[];
	sockets: { remote: string | null; endpoint: string }[];
	totalRecords: number;
};

/** Filter fields with two values per event (local or remote), which name no single column. */
const TWO_VALUED = ['addr', 'port'];

async function rows(...args: string[]): Promise<Record<string, unknown>[]> {
	const r = await sockscope('decode', sample, '-q', ...args);
	expect(r.stderr).toBe('');
	expect(r.code).toBe(0);
	return r.stdout
		.trim()
		.split('\n')
		.filter((l) => l !== '')
		.map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('decode --columns from the column store', { timeout: CLI_PROCESS_MS }, () => {
	it('every filter field with a value per event is a column; the others say what to pick', () => {
		for (const field of FILTER_FIELDS) {
			const picked = pickDecodeColumns([field]);
			if (TWO_VALUED.includes(field))
				expect(picked).toEqual({
					error: expect.stringMatching(
						`^--columns: ${field} is a filter field with two values per event; pick `,
					),
				});
			else expect(picked, field).toMatchObject({ columns: [{ header: field }] });
		}
		for (const name of ['remote', 'local', 'process', 'process_id', 'status_name', 'index'])
			expect(pickDecodeColumns([name]), name).toMatchObject({ columns: [{ header: name }] });
	});

	it('an unknown column gets the nearest name of any kind', () => {
		expect(pickDecodeColumns(['remot'])).toEqual({
			error:
				'--columns: no column, filter field or payload field is named "remot"; did you mean remote?',
		});
		expect(pickDecodeColumns(['raddrr'])).toMatchObject({ error: /did you mean raddr\?$/ });
		expect(pickDecodeColumns(['Statsu'])).toMatchObject({ error: /did you mean Status\?$/ });
		expect(pickDecodeColumns(['zzzzzzzz'])).toMatchObject({ error: /"zzzzzzzz"$/ });
	});

	it('process is the image name; the payload field keeps its own spelling', async () => {
		const picked = await rows('--provider', 'afd', '--columns', 'process,Process');
		for (const p of truth.processes)
			expect(picked.filter((r) => r.process === p.name).length, p.name).toBe(p.afdEvents);
		expect(picked.some((r) => typeof r.Process === 'string' && /^0x/.test(r.Process))).toBe(true);
	});

	it('one line per record, in the order decode prints them', async () => {
		const picked = await rows('--columns', 'index,time,remote');
		expect(picked).toHaveLength(truth.totalRecords);
		expect(picked.map((r) => r.index)).toEqual(picked.map((_, i) => i));
		const times = (await rows('--columns', 'time')).map((r) => r.time);
		expect(picked.map((r) => r.time)).toEqual(times);
	});

	it('remote and endpoint are those of the sockets the trace holds', async () => {
		const picked = await rows('--provider', 'afd', '--columns', 'endpoint,remote');
		const endpoints = new Set(truth.sockets.map((s) => s.endpoint));
		const seen = new Set(picked.map((r) => r.endpoint).filter((e) => e !== null));
		expect([...seen].sort()).toEqual([...endpoints].sort());
		// The columns keep no IPv6 scope (fe80::1%12): the address the filter tests.
		const unscoped = (a: unknown) => String(a).replace(/%\w+/, '');
		const remotes = new Set(picked.map((r) => r.remote).filter((e) => e !== null));
		for (const s of truth.sockets)
			if (s.remote) expect(remotes, s.remote).toContain(unscoped(s.remote));
	});

	it('a column value selects, as a filter, exactly the rows that print it', async () => {
		const fields = ['process', 'endpoint', 'laddr', 'raddr', 'lport', 'rport', 'host', 'bytes'];
		const picked = await rows('--columns', ['index', ...fields].join(','));
		for (const field of fields) {
			// Port 0 is also what the filter reads for an event without an address: not asked.
			const values = picked.map((r) => r[field]).filter((v) => v !== null && v !== 0);
			expect(values.length, field).toBeGreaterThan(0);
			// The most frequent value: a filter on it must select those rows and no other.
			const counts = new Map<unknown, number>();
			for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
			const [value] = [...counts].sort((a, b) => b[1] - a[1])[0]!;
			const term = field === 'host' ? String(value).split(' ')[0]! : String(value);
			const want = picked
				.filter((r) =>
					field === 'host'
						? String(r.host ?? '')
								.split(' ')
								.includes(term)
						: r[field] === value,
				)
				.map((r) => r.index);
			const filtered = (
				await rows('--filter', `${field}==${JSON.stringify(term)}`, '--columns', 'index')
			).map((r) => r.index);
			expect(filtered, `${field}==${term}`).toEqual(want);
		}
	});

	it('status is the NTSTATUS the filter tests; CSV takes the same columns', async () => {
		const picked = await rows('--columns', 'status,status_name');
		const named = picked.filter((r) => r.status !== null);
		expect(named.length).toBeGreaterThan(0);
		expect(named.some((r) => r.status_name === 'STATUS_CONNECTION_REFUSED')).toBe(true);
		const csv = await sockscope(
			'decode',
			sample,
			'-q',
			'--format',
			'csv',
			'--columns',
			'status,remote',
		);
		const lines = csv.stdout.trim().split('\n');
		expect(lines[0]).toBe('status,remote');
		expect(lines).toHaveLength(truth.totalRecords + 1);
	});
});
