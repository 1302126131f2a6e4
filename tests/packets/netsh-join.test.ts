// A `netsh trace capture=yes`-like trace (tests/builders/netsh-capture.ts): every frame is rebuilt
// from its fragments and joined to the socket the script says owns it, whatever context logged it;
// the frames no socket owns say why; the wire's facts (handshake, RST from the peer, SYNs sent again,
// payload bytes) agree with what the script had each socket do.
import { beforeAll, describe, expect, it } from 'vitest';
import { indexBuffers } from '../../web/src/decoder/etl-file.ts';
import { trackPackets, type TracePackets } from '../../web/src/packets/track-packets.ts';
import { netshCaptureScenario, type CaptureScript } from '../builders/netsh-capture.ts';
import { open } from '../decoder/load.ts';

let script: CaptureScript;
let p: TracePackets;

beforeAll(async () => {
	script = netshCaptureScenario();
	const trace = await open(script.bytes);
	const index = await indexBuffers(trace);
	p = await trackPackets(trace, index.buffers);
});

/** The frame of a scripted packet (found by its time, unique in the script). */
function frameOf(time: bigint): number {
	const k = p.frames.findIndex((f) => f.filetime === time);
	expect(k, `no frame at ${time}`).toBeGreaterThanOrEqual(0);
	return k;
}

describe('a netsh capture joined to its sockets', () => {
	it('rebuilds every scripted frame, fragments reassembled, without problems', () => {
		expect(new Set(script.packets.map((x) => x.time)).size).toBe(script.packets.length);
		expect(p.problems).toEqual([]);
		expect(p.frames).toHaveLength(script.packets.length);
		for (const x of script.packets) {
			const f = p.frames[frameOf(x.time)]!;
			expect([f.fragments, f.bytes.length, f.direction, f.headerPid]).toEqual([
				x.fragments,
				x.length,
				x.direction,
				x.headerPid,
			]);
			expect(f.interfaceKey).toBe(`ndis:${x.ifIndex}`);
			expect(f.dissection.malformed).toBeNull();
		}
		expect(script.packets.some((x) => x.fragments > 1)).toBe(true);
		expect(p.interfaces.map((i) => i.key).sort()).toEqual(
			script.interfaces.map((i) => `ndis:${i}`).sort(),
		);
	});

	it('gives every packet the owner the script says, never the header PID', () => {
		for (const x of script.packets) {
			const o = p.owners[frameOf(x.time)]!;
			if (x.socket === null) {
				expect([o.socket, o.pid, o.reason]).toEqual([null, null, x.unowned]);
				continue;
			}
			const e = script.expected[x.socket]!;
			expect(e.pid).not.toBeNull();
			expect(
				{ socket: o.socket, pid: o.pid, process: o.process, dir: o.direction },
				`packet at ${x.time}`,
			).toEqual({
				socket: e.key,
				pid: e.pid,
				process: script.images.get(e.pid!),
				dir: x.direction,
			});
			expect(o.pid).not.toBe(x.headerPid);
		}
		// Every kind of unowned frame is in the script.
		expect(new Set(script.packets.map((x) => x.unowned).filter((r) => r !== null))).toEqual(
			new Set(['arp', 'neighbor-discovery', 'other-host', 'closed-port']),
		);
	});

	it('the loopback connection has no packets', () => {
		const key = script.expected[script.roles.loopback]!.key;
		expect(p.owners.some((o) => o.socket === key)).toBe(false);
		expect(p.wire.find((w) => w.socket === key)).toBeUndefined();
		expect(p.tracked.sockets.some((s) => s.key === key)).toBe(true);
	});

	it("each socket's TCP and UDP payload bytes add up to what it sent and received", () => {
		for (const role of ['web', 'wwan', 'dns'] as const) {
			const e = script.expected[script.roles[role]]!;
			const w = p.wire.find((x) => x.socket === e.key);
			expect(w, role).toBeDefined();
			expect([w!.payloadOut, w!.payloadIn], role).toEqual([e.bytesSent, e.bytesReceived]);
			const owned = script.packets.filter((x) => x.socket === script.roles[role]);
			expect(w!.packets).toBe(owned.length);
		}
	});

	it('the wire tells the handshake, the RST from the peer and the SYNs sent again', () => {
		const wire = (i: number) => p.wire.find((x) => x.socket === script.expected[i]!.key)!;
		const web = script.packets.filter((x) => x.socket === script.roles.web);
		const synAck = web.find((x) => x.direction === 'in')!;
		const syn = web.find((x) => x.syn)!;
		expect(wire(script.roles.web).handshakeMs).toBeCloseTo(
			Number(synAck.time - syn.time) / 10_000,
			6,
		);
		expect(wire(script.roles.web).resetByPeer).toBe(false);
		const refused = wire(script.roles.refused);
		expect(refused.resetByPeer).toBe(true);
		const rst = script.packets.find((x) => x.socket === script.roles.refused && x.rstIn)!;
		expect(refused.resetFrame).toBe(p.frames[frameOf(rst.time)]!.number);
		expect(refused.handshakeMs).toBeNull();
		const timed = wire(script.roles.timedOut);
		expect(timed.synRetransmits).toBe(script.synRetransmits);
		expect(timed.handshakeMs).toBeNull();
		expect(timed.packetsOut).toBe(script.synRetransmits + 1);
		expect(timed.packetsIn).toBe(0);
	});
});
