// Every mutator is total: for inputs of every length from 0 bytes up, and any seed, it returns
// bytes and never throws (a 32-bit overwrite of an input shorter than 4 bytes once ended a
// campaign). Structure maps that no longer fit the input (it was cut short) are no-ops, not faults.
import { describe, expect, it } from 'vitest';
import {
	BYTE_MUTATORS,
	STRUCTURE_MUTATORS,
	getWord,
	mutate,
	mutateStructure,
	picker,
	rng,
	setWord,
	setWordBE,
} from './mutate.ts';
import { bufferMap, type StructureMap } from './structure.ts';

const MAX_LENGTH = 160;
const SEEDS_PER_LENGTH = 25;

function input(length: number, seed: number): Uint8Array {
	const r = rng(seed * 31 + length);
	return Uint8Array.from({ length }, () => Math.floor(r() * 256));
}

/** A map naming spots of every kind, some of them beyond the input's end. */
function mapFor(length: number, seed: number): StructureMap {
	const r = picker(rng(seed ^ 0x9e3779b9));
	const kinds = [
		'buffer-header',
		'record',
		'record-header',
		'payload',
		'field',
		'xpress',
		'packet-keyword',
		'packet-size',
		'packet-header',
		'dns',
	] as const;
	return {
		buffers: [0, r(length + 80), r(length + 80)].sort((a, b) => a - b),
		spots: Array.from({ length: 20 }, (_, k) => ({
			kind: kinds[k % kinds.length]!,
			at: r(length + 40),
			width: [1, 2, 4, 8, 16, 300][r(6)]!,
		})),
	};
}

describe('mutators are total over inputs of any length', () => {
	for (const [name, m] of Object.entries(BYTE_MUTATORS))
		it(`bytes: ${name}`, () => {
			for (let length = 0; length <= MAX_LENGTH; length++)
				for (let seed = 1; seed <= SEEDS_PER_LENGTH; seed++) {
					const original = input(length, seed);
					const out = m(original.slice(), picker(rng(seed)));
					expect(out, `${name} length ${length} seed ${seed}`).toBeInstanceOf(Uint8Array);
				}
		});
	for (const [name, m] of Object.entries(STRUCTURE_MUTATORS))
		it(`structure: ${name}`, () => {
			for (let length = 0; length <= MAX_LENGTH; length++)
				for (let seed = 1; seed <= SEEDS_PER_LENGTH; seed++) {
					const out = m(input(length, seed), mapFor(length, seed), picker(rng(seed)));
					expect(out, `${name} length ${length} seed ${seed}`).toBeInstanceOf(Uint8Array);
				}
		});

	it('mutate and mutateStructure, chained as a campaign chains them', () => {
		for (let seed = 1; seed <= 4000; seed++) {
			let b = input(seed % 40, seed);
			// Each round may cut the input short; the next one must still hold.
			for (let round = 0; round < 6; round++)
				b =
					round % 2
						? mutate(b, seed * 7 + round)
						: mutateStructure(b, mapFor(b.length + 20, seed), seed + round);
			expect(b).toBeInstanceOf(Uint8Array);
		}
	});

	it('the maps of inputs that are not traces are total too', () => {
		for (let length = 0; length <= MAX_LENGTH; length++) {
			const b = input(length, length);
			if (length >= 4) setWord(b, 0, 4, 0x48);
			const map = bufferMap(b);
			expect(mutateStructure(b, map, length)).toBeInstanceOf(Uint8Array);
		}
	});

	it('the word helpers write only inside the input', () => {
		const b = new Uint8Array(3);
		setWord(b, 1, 8, 0xffffffffffffffffn);
		expect([...b]).toEqual([0, 0xff, 0xff]);
		setWord(b, -2, 4, 0x01020304);
		expect([...b]).toEqual([0x02, 0x01, 0xff]);
		expect(getWord(b, 1, 4)).toBe(0xff01n);
		expect(getWord(new Uint8Array(0), 0, 8)).toBe(0n);
		// A frame's words are big-endian.
		const w = new Uint8Array(3);
		setWordBE(w, 1, 4, 0x01020304);
		expect([...w]).toEqual([0, 0x01, 0x02]);
		setWordBE(w, -1, 2, 0xabcd);
		expect([...w]).toEqual([0xcd, 0x01, 0x02]);
	});
});
