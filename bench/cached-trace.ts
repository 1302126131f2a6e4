// The generated Winsock trace of a size, from the cache or written once in a child process (so
// the memory the generator uses does not count against the benchmark's own).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cachePath, cached, removeStale } from './winsock-trace.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The path of the cached trace of `sizeMB`, generating it first when missing. */
export function ensureTrace(sizeMB: number): string {
	const path = cachePath(sizeMB);
	if (cached(sizeMB)) return path;
	removeStale();
	console.log(`generating ${path} (${sizeMB} MB, once)…`);
	const r = spawnSync(
		process.execPath,
		['--import', 'tsx', join(ROOT, 'bench/winsock-trace.ts'), '--size-mb', String(sizeMB)],
		{ cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] },
	);
	if (r.status !== 0) throw new Error(`trace generation failed (exit ${r.status})`);
	return path;
}
