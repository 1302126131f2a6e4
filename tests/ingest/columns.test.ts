import { describe, expect, it } from 'vitest';
import {
	CHUNK_ROWS,
	chunkCapacity,
	chunkStartingAt,
	columnFromBuffer,
	FIRST_CHUNK_ROWS,
	narrowColumn,
	storeColumns,
	type ColumnName,
	type Columns,
} from '../../web/src/columns/layout.ts';

describe('chunk sizes', () => {
	it('makes the first chunk small and the others full size', () => {
		expect(FIRST_CHUNK_ROWS).toBeLessThan(CHUNK_ROWS);
		expect(chunkCapacity(0)).toBe(FIRST_CHUNK_ROWS);
		expect(chunkCapacity(1)).toBe(CHUNK_ROWS);
		expect(chunkCapacity(7)).toBe(CHUNK_ROWS);
	});

	it('finds the chunk a resumed import goes on with from the rows stored', () => {
		let rows = 0;
		for (let chunk = 0; chunk < 5; chunk++) {
			expect(chunkStartingAt(rows)).toBe(chunk);
			rows += chunkCapacity(chunk);
		}
	});

	it('refuses a row inside a chunk', () => {
		expect(() => chunkStartingAt(FIRST_CHUNK_ROWS - 1)).toThrow(
			`row ${FIRST_CHUNK_ROWS - 1} is not a chunk boundary`,
		);
		expect(() => chunkStartingAt(FIRST_CHUNK_ROWS + 10)).toThrow(/not a chunk boundary/);
	});
});

describe('stored columns', () => {
	const roundTrip = (name: ColumnName, a: Columns[ColumnName]) => {
		const { data, parts, zeros } = storeColumns({ [name]: a }, [name]);
		const s = parts[0];
		expect(zeros).toEqual(s ? [] : [name]);
		return {
			stored: s?.stored ?? null,
			bytes: s?.length ?? 0,
			back: s && columnFromBuffer(name, data.slice(s.offset, s.offset + s.length), s.stored),
		};
	};

	it('writes a column in the narrowest type that holds its values, and reads it back in that type', () => {
		const cases: [ColumnName, Columns[ColumnName], 'u8' | 'u16' | null, number][] = [
			['etype', Uint32Array.of(1, 255, 7), 'u8', 3],
			['etype', Uint32Array.of(1, 256, 65535), 'u16', 6],
			['etype', Uint32Array.of(1, 65536), null, 8],
			['lport', Uint16Array.of(80, 255), 'u8', 2],
			['lport', Uint16Array.of(80, 443), null, 4],
			['flags', Uint8Array.of(1, 255), null, 2],
		];
		for (const [name, a, stored, bytes] of cases) {
			const r = roundTrip(name, a);
			expect([name, r.stored, r.bytes]).toEqual([name, stored, bytes]);
			expect(Array.from(r.back!)).toEqual(Array.from(a));
			const narrow = { u8: Uint8Array, u16: Uint16Array } as const;
			expect(r.back!.constructor).toBe(stored ? narrow[stored] : a.constructor);
			// And as the import hands it to the query cache, the same.
			expect(narrowColumn(name, a)).toEqual(r.back);
		}
	});

	it('writes nothing for a column of zeros, but keeps times before the start (negative)', () => {
		const none = storeColumns({ etype: new Uint32Array(5), time: new Float64Array(5) }, [
			'etype',
			'time',
		]);
		expect(none).toEqual({ data: new ArrayBuffer(0), parts: [], zeros: ['etype', 'time'] });
		const times = Float64Array.of(-20, -10);
		const r = roundTrip('time', times);
		expect([r.stored, r.back]).toEqual([null, times]);
	});

	it('stores the values of a column that is a view into a larger buffer, not the whole buffer', () => {
		const big = new Uint32Array(10).fill(70_000);
		const r = roundTrip('bytes', big.subarray(2, 4));
		expect([r.bytes, r.back]).toEqual([8, Uint32Array.of(70_000, 70_000)]);
	});

	it("puts a chunk's columns one after another in one buffer, each where its part says", () => {
		const columns = {
			flags: Uint8Array.of(1, 2, 3),
			etype: Uint32Array.of(1, 300, 2),
			time: Float64Array.of(-1.5, 2, 1e12),
			status: new Uint32Array(3),
			bytes: Uint32Array.of(1, 2, 0x1_0000_0),
		};
		const names = ['flags', 'etype', 'time', 'status', 'bytes'] as const;
		const { data, parts, zeros } = storeColumns(columns, names);
		expect(zeros).toEqual(['status']);
		expect(parts.map((p) => [p.name, p.offset, p.length, p.stored ?? null])).toEqual([
			['flags', 0, 3, null],
			['etype', 8, 6, 'u16'],
			['time', 16, 24, null],
			['bytes', 40, 12, null],
		]);
		expect(data.byteLength).toBe(52);
		for (const p of parts)
			expect(
				Array.from(columnFromBuffer(p.name, data.slice(p.offset, p.offset + p.length), p.stored)),
			).toEqual(Array.from(columns[p.name as keyof typeof columns]));
	});
});
