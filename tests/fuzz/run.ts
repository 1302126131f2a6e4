// npm run fuzz [-- --minutes N | --seconds N] [--file NAME] [--no-save]: a corpus-driven fuzzer.
// The corpus starts with the real fixtures, the hostile cases and earlier findings; each input is
// a byte-level or structural mutation of a corpus entry, decoded in a child process under a
// watchdog (V8 heap limit, a kill timer per input, the child's resident memory checked after
// each input). An input whose outcome and kinds of damage were not seen before joins the corpus,
// so mutations build on what reached new ground. A finding (an exception, a hang, a crash, too
// much memory) is saved as a fixture with its provenance in tests/fixtures/hostile/found/.
import { fork, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { realFixture } from '../decoder/load.ts';
import { HOSTILE_CASES } from '../fixtures/hostile/cases.ts';
import { realFixturesDir } from '../fixtures/real/sources-table.ts';
import { mutate, mutateStructure, rng } from './mutate.ts';
import { FOUND_DIR } from './found.ts';
import type { FuzzReply } from './worker.ts';

const HEAP_LIMIT_MB = 256;
/** The CLI's bound (issue 19): resident memory after each input. */
const RSS_LIMIT = 256 << 20;
/** Per input, generous: a hang, not a slow machine. */
const KILL_AFTER_MS = 30_000;
const MAX_CORPUS = 400;
const MAX_ENTRY_BYTES = 4 << 20;
const MAX_FINDING_BYTES = 1 << 20;

const args = process.argv.slice(2);
const arg = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const seconds = arg('--minutes') ? Number(arg('--minutes')) * 60 : Number(arg('--seconds') ?? 60);
const only = arg('--file');
const save = !args.includes('--no-save');

interface Entry {
	readonly bytes: Uint8Array;
	/** Where it came from: a fixture name, then the mutations applied. */
	readonly origin: string;
}

const corpus: Entry[] = [];
for (const f of readdirSync(realFixturesDir).filter((f) => f.endsWith('.etl'))) {
	const name = f.replace(/\.etl$/, '');
	if (!only || name === only) corpus.push({ bytes: realFixture(name), origin: `real/${name}` });
}
if (!only) {
	for (const c of HOSTILE_CASES)
		if (!c.large) corpus.push({ bytes: c.bytes(), origin: `hostile/${c.name}` });
	if (existsSync(FOUND_DIR))
		for (const f of readdirSync(FOUND_DIR).filter((f) => f.endsWith('.etl')))
			corpus.push({
				bytes: new Uint8Array(readFileSync(join(FOUND_DIR, f))),
				origin: `found/${f}`,
			});
}
if (corpus.length === 0) throw new Error(`no fixture named ${only}`);

class Child {
	#proc: ChildProcess | null = null;
	#ready: Promise<void> | null = null;
	#pending: ((r: FuzzReply | { died: string }) => void) | null = null;

	start(): Promise<void> {
		const proc = fork(join(import.meta.dirname, 'worker.ts'), [], {
			execArgv: [`--max-old-space-size=${HEAP_LIMIT_MB}`, '--import', 'tsx'],
			serialization: 'advanced',
			stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
		});
		let stderr = '';
		proc.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
		this.#proc = proc;
		this.#ready = new Promise((resolve) =>
			proc.once('message', () => {
				proc.on('message', (m: FuzzReply) => {
					const p = this.#pending;
					this.#pending = null;
					p?.(m);
				});
				resolve();
			}),
		);
		proc.on('exit', (code, signal) => {
			// A child killed by the timer may exit after its successor started: not that one's end.
			if (this.#proc !== proc) return;
			const p = this.#pending;
			this.#pending = null;
			this.#proc = null;
			p?.({ died: `exit ${code ?? signal}: ${stderr.trim().split('\n').slice(-3).join(' | ')}` });
		});
		return this.#ready;
	}

	async run(id: number, bytes: Uint8Array): Promise<FuzzReply | { died: string }> {
		if (!this.#proc) await this.start();
		await this.#ready;
		return new Promise((resolve) => {
			const timer = setTimeout(() => {
				this.#pending = null;
				this.kill();
				resolve({ died: `killed after ${KILL_AFTER_MS} ms` });
			}, KILL_AFTER_MS);
			this.#pending = (r) => {
				clearTimeout(timer);
				resolve(r);
			};
			this.#proc!.send({ id, bytes });
		});
	}

	kill(): void {
		this.#proc?.kill('SIGKILL');
		this.#proc = null;
	}
}

const outcomes: Record<string, number> = {};
const signatures = new Set<string>();
const findings: { name: string; outcome: string; origin: string }[] = [];
const findingKeys = new Set<string>();

function record(bytes: Uint8Array, origin: string, outcome: string, detail: string): void {
	const key = `${outcome}:${detail.split('\n')[0]!.replace(/\d+/g, 'N')}`;
	if (findingKeys.has(key)) return;
	findingKeys.add(key);
	const name = createHash('sha256').update(bytes).digest('hex').slice(0, 16);
	findings.push({ name, outcome, origin });
	console.error(
		`FINDING ${outcome} ${name} (${origin}): ${detail.split('\n').slice(0, 4).join(' | ')}`,
	);
	if (!save || bytes.length > MAX_FINDING_BYTES) return;
	mkdirSync(FOUND_DIR, { recursive: true });
	writeFileSync(join(FOUND_DIR, `${name}.etl`), bytes);
	writeFileSync(
		join(FOUND_DIR, `${name}.json`),
		JSON.stringify({ origin, outcome, detail: detail.slice(0, 2000) }, null, '\t') + '\n',
	);
}

const child = new Child();
const deadline = Date.now() + seconds * 1000;
const pickRng = rng(0x5eed);
let inputs = 0;
for (let seed = 1; Date.now() < deadline; seed++) {
	// The smaller of two entries: small inputs are many more per minute, and reach as far.
	const [a, b] = [0, 0].map(() => corpus[Math.floor(pickRng() * corpus.length)]!);
	const base = a!.bytes.length <= b!.bytes.length ? a! : b!;
	const structural = seed % 3 === 0;
	const bytes = structural ? mutateStructure(base.bytes, seed) : mutate(base.bytes, seed);
	const origin = `${base.origin} → ${structural ? 'structure' : 'bytes'} seed ${seed}`;
	const reply = await child.run(seed, bytes);
	inputs++;
	if ('died' in reply) {
		const outcome = reply.died.startsWith('killed') ? 'timeout' : 'crash';
		outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
		record(bytes, origin, outcome, reply.died);
		continue;
	}
	outcomes[reply.outcome] = (outcomes[reply.outcome] ?? 0) + 1;
	if (reply.outcome === 'threw') record(bytes, origin, 'threw', reply.error ?? '');
	if (reply.rss > RSS_LIMIT) {
		outcomes.memory = (outcomes.memory ?? 0) + 1;
		record(bytes, origin, 'memory', `resident memory ${reply.rss} bytes after this input`);
		child.kill();
	}
	const signature = `${reply.outcome}|${reply.kinds.join('|')}`;
	if (!signatures.has(signature)) {
		signatures.add(signature);
		if (bytes.length <= MAX_ENTRY_BYTES && corpus.length < MAX_CORPUS)
			corpus.push({ bytes, origin });
	}
}
child.kill();
console.log(
	JSON.stringify({
		seconds,
		inputs,
		outcomes,
		signatures: signatures.size,
		corpus: corpus.length,
		findings,
	}),
);
process.exitCode = findings.length ? 1 : 0;
