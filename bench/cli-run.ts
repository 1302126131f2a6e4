// One run of the bundled command line in a child process, as bin/sockscope.mjs runs it: its wall
// time, CPU time and peak resident memory (the child reports the last two on fd 3).
import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';

export interface CliRun {
	readonly seconds: number;
	/** User + system CPU time of the child: steadier than wall time on a shared machine. */
	readonly cpuSeconds: number;
	readonly maxRssMB: number;
}

const child = (cli: string) => `
import { writeSync } from 'node:fs';
const { main } = await import(${JSON.stringify(pathToFileURL(cli).href)});
process.exitCode = await main(process.argv.slice(1));
const u = process.resourceUsage();
writeSync(3, JSON.stringify([u.maxRSS, (u.userCPUTime + u.systemCPUTime) / 1e6]));`;

/** `cli` (build/cli/main.mjs) with `args`, stdout to nowhere; fails on a non-zero exit. */
export async function runCli(cli: string, ...args: string[]): Promise<CliRun> {
	const t = performance.now();
	const proc = spawn(process.execPath, ['--input-type=module', '-e', child(cli), '--', ...args], {
		stdio: ['ignore', 'ignore', 'inherit', 'pipe'],
	});
	let report = '';
	proc.stdio[3]!.on('data', (d: Buffer) => (report += d.toString()));
	const code = await new Promise<number | null>((resolve) => proc.on('close', resolve));
	const seconds = (performance.now() - t) / 1000;
	if (code !== 0) throw new Error(`sockscope ${args.join(' ')}: exit ${code}`);
	const [maxRss, cpuSeconds] = JSON.parse(report) as [number, number];
	return { seconds, cpuSeconds, maxRssMB: Number((maxRss / 1024).toFixed(1)) };
}

/** A child Node that runs nothing, started as runCli starts one: the cost of a process, seconds. */
export async function runEmpty(): Promise<number> {
	const t = performance.now();
	const proc = spawn(process.execPath, ['--input-type=module', '-e', ''], { stdio: 'ignore' });
	await new Promise((resolve) => proc.on('close', resolve));
	return (performance.now() - t) / 1000;
}
