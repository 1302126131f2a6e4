// Reads the expected header facts of the real fixtures from tests/fixtures/real/SOURCES.md, table
// "What each file contains", so the document and the tests cannot drift apart.
import { cell, readSourcesTable, realFixturesDir } from '../fixtures/real/sources-table.ts';

export const fixturesDir = realFixturesDir;

export interface ExpectedFacts {
	readonly build: number;
	readonly pointerSize: number;
	readonly cpus: number;
	readonly clockType: number;
	/** Ticks per second when the table gives one ("2994853", "10 MHz"); absent for FILETIME. */
	readonly perfFreq?: number;
	/** Buffers written: the first number of the Buffers column (every file holds all it wrote). */
	readonly buffers: number;
	/** From "EventsLost=N" in the quirks column, which names it only where it is not 0. */
	readonly eventsLost: number;
	/** From "BuffersLost=N" in the quirks column, likewise (no fixture misses a buffer). */
	readonly buffersLost: number;
}

const BUILD_COLUMN = 'OS build / ptr / CPUs';
const CLOCK_COLUMN = 'Clock (ReservedFlags), PerfFreq';
const BUFFERS_COLUMN = 'Buffers (compressed)';

/** Fixture name without `.etl` → expected facts. Throws if the table is not where it should be. */
export function readExpectedFacts(): Map<string, ExpectedFacts> {
	const expected = new Map<string, ExpectedFacts>();
	for (const [name, row] of readSourcesTable()) {
		const system = /^(\d+)(?:\s*\([^)]*\))?\s*\/\s*(\d+)\s*\/\s*(\d+)$/.exec(
			cell(row, BUILD_COLUMN),
		);
		if (!system) throw new Error(`SOURCES.md, ${name}: cannot read "${cell(row, BUILD_COLUMN)}"`);
		const clock = /^(\d+)\b[^,]*(?:,\s*(.+))?$/.exec(cell(row, CLOCK_COLUMN));
		if (!clock) throw new Error(`SOURCES.md, ${name}: cannot read "${cell(row, CLOCK_COLUMN)}"`);
		const buffers = /^(\d+)\b/.exec(cell(row, BUFFERS_COLUMN));
		if (!buffers)
			throw new Error(`SOURCES.md, ${name}: cannot read "${cell(row, BUFFERS_COLUMN)}"`);
		const lost = /EventsLost=(\d+)/.exec(row['Notable quirks'] ?? '');
		const buffersLost = /BuffersLost=(\d+)/.exec(row['Notable quirks'] ?? '');
		expected.set(name, {
			build: Number(system[1]),
			pointerSize: Number(system[2]),
			cpus: Number(system[3]),
			clockType: Number(clock[1]),
			perfFreq: clock[2] === undefined ? undefined : parseFrequency(clock[2], name),
			buffers: Number(buffers[1]),
			eventsLost: lost ? Number(lost[1]) : 0,
			buffersLost: buffersLost ? Number(buffersLost[1]) : 0,
		});
	}
	return expected;
}

/** "2994853" → 2994853, "10 MHz" → 10000000. */
function parseFrequency(text: string, name: string): number {
	const m = /^([\d.]+)\s*(Hz|kHz|MHz|GHz)?$/.exec(text.trim());
	if (!m) throw new Error(`SOURCES.md, ${name}: cannot read the frequency "${text}"`);
	const scale = { Hz: 1, kHz: 1e3, MHz: 1e6, GHz: 1e9 }[m[2] ?? 'Hz'] ?? 1;
	return Math.round(Number(m[1]) * scale);
}
