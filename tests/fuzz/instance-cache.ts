// One decoder instance kept across inputs in a fuzz worker thread. The decoder code opens every
// trace with `new WebAssembly.Instance(module)` (as the CLI and the page do); in a thread that
// decodes one trace at a time, that constructor is made to hand back the instance it made last,
// so each input costs no fresh linear memory (allocating and collecting megabytes per input was
// most of the harness's time). readHeader resets the decoder's per-trace state; fuzz.test.ts
// checks that a kept instance judges inputs exactly as fresh ones do. After a fault, or once its
// memory has grown large, the instance is dropped and the next input gets a new one.
const Fresh = WebAssembly.Instance;
let kept: WebAssembly.Instance | null = null;
let keptModule: WebAssembly.Module | null = null;

/**
 * Memory past which a kept instance is dropped: the next input starts small again, so memory
 * past the runner's bound for corpus entries (24 MiB) is what that input grew.
 */
const KEEP_BELOW = 16 << 20;

export function keepInstances(): void {
	const Keeping = function (module: WebAssembly.Module, imports?: WebAssembly.Imports) {
		if (kept && keptModule === module) return kept;
		kept = new Fresh(module, imports);
		keptModule = module;
		return kept;
	} as unknown as typeof WebAssembly.Instance;
	Keeping.prototype = Fresh.prototype;
	WebAssembly.Instance = Keeping;
}

export function freshInstances(): void {
	WebAssembly.Instance = Fresh;
	kept = null;
	keptModule = null;
}

/** Bytes of linear memory the kept instance holds (0 when there is none). */
export function keptMemoryBytes(): number {
	const m = kept?.exports.memory;
	return m instanceof WebAssembly.Memory ? m.buffer.byteLength : 0;
}

/** Drops the kept instance (after a trap or exception, or when its memory grew large). */
export function dropInstance(always: boolean): void {
	if (always || keptMemoryBytes() > KEEP_BELOW) kept = null;
}
