// A socket's wire facts as its story's lines, on the netsh-like capture: the handshake of the
// connection that worked, the RST that refused a connect (naming the port the script used), the
// SYNs a timed-out connect sent again, none of them invented for a socket that had no trouble.
import { beforeAll, describe, expect, it } from 'vitest';
import { indexBuffers } from '../../../web/src/decoder/etl-file.ts';
import type { WireFacts } from '../../../web/src/packets/join.ts';
import { trackPackets } from '../../../web/src/packets/track-packets.ts';
import { wireLines } from '../../../web/src/views/packets/socket-wire.ts';
import { netshCaptureScenario, type CaptureScript } from '../../builders/netsh-capture.ts';
import { open } from '../../decoder/load.ts';

let script: CaptureScript;
let wire: readonly WireFacts[];

beforeAll(async () => {
	script = netshCaptureScenario();
	const trace = await open(script.bytes);
	wire = (await trackPackets(trace, (await indexBuffers(trace)).buffers)).wire;
});

const linesOf = (role: keyof CaptureScript['roles']) => {
	const e = script.expected[script.roles[role]]!;
	return wireLines(
		wire.find((w) => w.socket === e.key)!,
		e.remote,
	);
};

describe('wireLines', () => {
	it('the connection that worked: its packets and handshake, nothing wrong', () => {
		const lines = linesOf('web');
		expect(lines.map((l) => l.key)).toEqual(['packets', 'handshake']);
		expect(lines.some((l) => l.bad)).toBe(false);
		const owned = script.packets.filter((x) => x.socket === script.roles.web);
		expect(lines[0]!.params.count).toBe(owned.length);
	});

	it('the refused connect: the RST to its SYN names the port', () => {
		const refused = linesOf('refused').find((l) => l.key === 'refused');
		expect(refused?.params.port).toBe(String(script.refusedPort));
		expect(refused?.bad).toBe(true);
	});

	it('the timed-out connect: its SYN sent again, never answered', () => {
		const again = linesOf('timedOut').find((l) => l.key === 'syn-unanswered');
		expect(again?.params.count).toBe(script.synRetransmits);
		expect(linesOf('timedOut').some((l) => l.key === 'handshake')).toBe(false);
	});
});
