// The fuzz runner's child process: decodes each input it is sent and answers with the outcome
// and its own memory. Run with a V8 heap limit; the parent holds a kill timer per input, so a
// hang or a heap exhausted by one input shows as that input's finding.
import { decoderModule } from '../decoder/load.ts';
import { decodeReport } from './check.ts';

export interface FuzzRequest {
	readonly id: number;
	readonly bytes: Uint8Array;
}

export interface FuzzReply {
	readonly id: number;
	readonly outcome: 'clean' | 'damaged' | 'rejected' | 'threw';
	readonly records: number;
	/** Damage messages with numbers blanked: what kind of damage, for the corpus signature. */
	readonly kinds: readonly string[];
	readonly error: string | null;
	readonly rss: number;
}

const module = decoderModule();
const kindOf = (m: string) =>
	m
		.replace(/0x[0-9a-f]+/g, 'N')
		.replace(/\d+/g, 'N')
		.replace(/"[^"]*"/g, 'S');

process.on('message', async (msg: FuzzRequest) => {
	const bytes = new Uint8Array(msg.bytes);
	let reply: FuzzReply;
	try {
		const r = await decodeReport(module, bytes);
		reply = {
			id: msg.id,
			outcome: !r.opened ? 'rejected' : r.damage.length ? 'damaged' : 'clean',
			records: r.records,
			kinds: [...new Set(r.damage.map(kindOf))].sort(),
			error: null,
			rss: process.memoryUsage().rss,
		};
	} catch (e) {
		reply = {
			id: msg.id,
			outcome: 'threw',
			records: 0,
			kinds: [],
			error: e instanceof Error ? (e.stack ?? e.message) : String(e),
			rss: process.memoryUsage().rss,
		};
	}
	process.send!(reply);
});
process.send!({ ready: true });
