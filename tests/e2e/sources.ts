// Reads the expected header facts of the real fixtures from tests/fixtures/real/SOURCES.md, table
// "What each file contains", so the document and the tests cannot drift apart.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from './server.ts';

export const fixturesDir = join(projectRoot, 'tests', 'fixtures', 'real');

export interface ExpectedFacts {
	readonly build: number;
	readonly pointerSize: number;
	readonly cpus: number;
	readonly clockType: number;
	/** Ticks per second when the table gives one ("2994853", "10 MHz"); absent for FILETIME. */
	readonly perfFreq?: number;
	/** From "EventsLost=N" in the quirks column, when stated. */
	readonly eventsLost?: number;
}

const TABLE_HEADING = '## What each file contains';
const BUILD_COLUMN = 'OS build / ptr / CPUs';
const CLOCK_COLUMN = 'Clock (ReservedFlags), PerfFreq';

/** Fixture name without `.etl` → expected facts. Throws if the table is not where it should be. */
export function readExpectedFacts(): Map<string, ExpectedFacts> {
	const text = readFileSync(join(fixturesDir, 'SOURCES.md'), 'utf8');
	const start = text.indexOf(TABLE_HEADING);
	if (start < 0) throw new Error(`SOURCES.md has no "${TABLE_HEADING}" section`);
	const rows = text
		.slice(start)
		.split('\n')
		.filter((line) => line.startsWith('|'))
		.map(splitRow);
	const [header, , ...body] = rows;
	if (!header) throw new Error(`SOURCES.md: no table under "${TABLE_HEADING}"`);
	const col = (name: string) => {
		const i = header.indexOf(name);
		if (i < 0) throw new Error(`SOURCES.md: no column "${name}" in [${header.join(' | ')}]`);
		return i;
	};
	const [fileCol, buildCol, clockCol] = [col('File'), col(BUILD_COLUMN), col(CLOCK_COLUMN)];
	const quirksCol = header.indexOf('Notable quirks');

	const expected = new Map<string, ExpectedFacts>();
	for (const cells of body) {
		const name = cells[fileCol]!.replace(/\.etl$/, '');
		const system = /^(\d+)(?:\s*\([^)]*\))?\s*\/\s*(\d+)\s*\/\s*(\d+)$/.exec(cells[buildCol]!);
		if (!system) throw new Error(`SOURCES.md, ${name}: cannot read "${cells[buildCol]}"`);
		const clock = /^(\d+)\b[^,]*(?:,\s*(.+))?$/.exec(cells[clockCol]!);
		if (!clock) throw new Error(`SOURCES.md, ${name}: cannot read "${cells[clockCol]}"`);
		const lost = quirksCol >= 0 ? /EventsLost=(\d+)/.exec(cells[quirksCol]!) : null;
		expected.set(name, {
			build: Number(system[1]),
			pointerSize: Number(system[2]),
			cpus: Number(system[3]),
			clockType: Number(clock[1]),
			perfFreq: clock[2] === undefined ? undefined : parseFrequency(clock[2], name),
			eventsLost: lost ? Number(lost[1]) : undefined,
		});
	}
	return expected;
}

/** Cells of a Markdown table row, with **bold** markers removed. */
function splitRow(line: string): string[] {
	return line
		.replace(/^\|/, '')
		.replace(/\|\s*$/, '')
		.split('|')
		.map((cell) => cell.replaceAll('**', '').trim());
}

/** "2994853" → 2994853, "10 MHz" → 10000000. */
function parseFrequency(text: string, name: string): number {
	const m = /^([\d.]+)\s*(Hz|kHz|MHz|GHz)?$/.exec(text.trim());
	if (!m) throw new Error(`SOURCES.md, ${name}: cannot read the frequency "${text}"`);
	const scale = { Hz: 1, kHz: 1e3, MHz: 1e6, GHz: 1e9 }[m[2] ?? 'Hz'] ?? 1;
	return Math.round(Number(m[1]) * scale);
}
