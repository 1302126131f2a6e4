// What one fuzz input must satisfy in the packet room: the CLI's `packets` and `pcapng` path
// (one pass rebuilding sockets and frames, the join, a row, a comment and an Enhanced Packet
// Block per frame, one Interface Description Block per interface) never throws, and what it says
// keeps its own rules. The page has no packet path yet, so there is nothing to agree with.
// The dissector path (layers reached, kinds of malformation, capture problems, join reasons)
// guides the corpus.
import { indexBuffers, openTrace } from '../../web/src/decoder/etl-file.ts';
import { memorySource } from '../../web/src/decoder/source.ts';
import { english } from '../../web/src/i18n/render.ts';
import { packetComment } from '../../web/src/packets/pcapng-file.ts';
import { packetRow } from '../../web/src/packets/packet-row.ts';
import { interfaceBlock, packetBlock } from '../../web/src/packets/pcapng.ts';
import { trackPackets, type TracePackets } from '../../web/src/packets/track-packets.ts';
import type { Frame } from '../../web/src/packets/types.ts';
import { kindOf } from './check.ts';

export interface PacketsReport {
	readonly frames: number;
	readonly captureEvents: number;
	readonly owned: number;
	/** The dissector paths and join outcomes reached, sorted (features for guidance). */
	readonly paths: readonly string[];
	/** Broken rules, in words; empty when all hold. */
	readonly problems: readonly string[];
	/** The frames and their owners, for a compare or a test to use further. */
	readonly packets: TracePackets;
}

/** The dissector path of one frame: its layers, then what is malformed (numbers blanked). */
export function framePath(f: Frame): string {
	const d = f.dissection;
	const layers = d.layers.map((l) => l.name).join('>') || '(none)';
	return `${f.link}:${layers}${d.malformed ? ` !${kindOf(english(d.malformed.what))}` : ''}`;
}

const u32le = (b: Uint8Array, at: number) =>
	(b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;

/** A pcapng block keeps its own rules: both lengths equal its size, a multiple of 4. */
function blockProblem(b: Uint8Array, what: string): string | null {
	if (b.length % 4 !== 0 || b.length < 12) return `${what}: ${b.length} bytes, not a block`;
	if (u32le(b, 4) !== b.length || u32le(b, b.length - 4) !== b.length)
		return `${what}: its lengths say ${u32le(b, 4)} and ${u32le(b, b.length - 4)}, it has ${b.length} bytes`;
	return null;
}

/** What one frame (the k-th) breaks of the rules, in words. */
export function frameProblems(f: Frame, k: number): string[] {
	const out: string[] = [];
	const d = f.dissection;
	const n = f.bytes.length;
	if (f.number !== k) out.push(`frame ${k} is numbered ${f.number}`);
	if (d.malformed && !(d.malformed.at >= 0 && d.malformed.at <= n))
		out.push(`frame ${k}: malformed at ${d.malformed.at}, outside its ${n} bytes`);
	if (!Number.isSafeInteger(d.payloadBytes) || d.payloadBytes < 0)
		out.push(`frame ${k}: ${d.payloadBytes} bytes of payload`);
	for (const l of d.layers)
		if (!(l.at >= 0 && l.at <= n && l.length >= 0))
			out.push(`frame ${k}: layer ${l.name} at ${l.at}, length ${l.length}, in ${n} bytes`);
	return out;
}

/** The CLI's packets and pcapng path on the input; null when it does not open. */
export async function packetsReport(
	module: WebAssembly.Module,
	bytes: Uint8Array,
): Promise<PacketsReport | null> {
	const opened = await openTrace(memorySource(bytes), module, 'fuzz.etl');
	if (!opened.ok) return null;
	const trace = opened.value;
	const index = await indexBuffers(trace);
	const p = await trackPackets(trace, index.buffers);
	const problems: string[] = [];
	const paths = new Set<string>();
	if (p.owners.length !== p.frames.length)
		problems.push(`${p.frames.length} frames have ${p.owners.length} owners`);
	const interfaces = new Map(p.interfaces.map((f) => [f.key, f]));
	const order = new Map(p.interfaces.map((f, k) => [f.key, k]));
	for (const f of p.interfaces) {
		const bad = blockProblem(interfaceBlock(f), `interface ${f.key}`);
		if (bad) problems.push(bad);
	}
	let owned = 0;
	for (let k = 0; k < p.frames.length; k++) {
		const f = p.frames[k]!;
		const o = p.owners[k]!;
		problems.push(...frameProblems(f, k));
		if ((o.socket === null) === (o.reason === null))
			problems.push(`frame ${k}: owner ${o.socket} with reason ${o.reason}`);
		if (o.socket !== null) owned++;
		paths.add(`packet|${framePath(f)}`);
		paths.add(`join|${o.reason ?? 'owned'}|${o.direction ?? '-'}`);
		JSON.stringify(packetRow(f, o, interfaces));
		const ifIndex = order.get(f.interfaceKey);
		if (ifIndex === undefined) problems.push(`frame ${k}: interface ${f.interfaceKey} unknown`);
		const bad = blockProblem(
			packetBlock(
				f,
				ifIndex ?? 0,
				packetComment(p, k, () => null),
			),
			`frame ${k}'s block`,
		);
		if (bad) problems.push(bad);
	}
	for (const x of p.problems) paths.add(`capture|${kindOf(english(x.what))}`);
	for (const w of p.wire)
		if (w.packets !== w.packetsIn + w.packetsOut)
			problems.push(
				`socket ${w.socket}: ${w.packets} packets, ${w.packetsIn} in and ${w.packetsOut} out`,
			);
	return {
		frames: p.frames.length,
		captureEvents: p.captureEvents,
		owned,
		paths: [...paths].sort(),
		problems,
		packets: p,
	};
}
