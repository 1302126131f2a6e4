// Sockets from Winsock-AFD logged the way Windows logs it (tests/builders/windows-afd.ts): nested
// and buffered sends counted once, datagram sends at their enter, receives offered vs read, PIDs
// only from creates, reliable Locations and the kernel, datagram sockets per remote.
import { beforeAll, describe, expect, it } from 'vitest';
import { conversationsOf } from '../../web/src/sockets/conversations.ts';
import type { SocketSummary } from '../../web/src/sockets/socket.ts';
import { pidSourceText, storyOf } from '../../web/src/sockets/story.ts';
import type { TrackedTrace } from '../../web/src/sockets/tracker.ts';
import { windowsScenario, type WindowsExpected } from '../builders/windows-afd.ts';
import { trackBytes } from './track.ts';

function actual(s: SocketSummary): WindowsExpected {
	return {
		key: s.key,
		pid: s.pid,
		pidSource: s.pidSource,
		origin: s.origin as WindowsExpected['origin'],
		type: s.type,
		remote: s.remote,
		bytesSent: s.bytesSent,
		sends: s.sends,
		sendsPosted: s.sendsPosted,
		bytesSendPosted: s.bytesSendPosted,
		bytesReceived: s.bytesReceived,
		receives: s.receives,
		receivesPosted: s.receivesPosted,
		bytesReceivePosted: s.bytesReceivePosted,
		nestedSendExits: s.nestedSendExits,
		nestedSendBytes: s.nestedSendBytes,
		peers: s.peers.map((p) => ({
			remote: p.remote,
			bytesSent: p.bytesSent,
			bytesReceived: p.bytesReceived,
			datagramsSent: p.datagramsSent,
			datagramsReceived: p.datagramsReceived,
		})),
		state: s.state as WindowsExpected['state'],
	};
}

describe('Winsock-AFD as Windows logs it', () => {
	let expected: WindowsExpected[];
	let tracked: TrackedTrace;
	let viaJson: TrackedTrace;
	beforeAll(async () => {
		const built = windowsScenario();
		expected = built.expected;
		({ tracked, viaJson } = await trackBytes(built.file.bytes));
	});
	const byKey = (t: TrackedTrace) => new Map(t.sockets.map((s) => [s.key, s]));

	it('every socket as the script says, through both views', () => {
		for (const t of [tracked, viaJson]) {
			const got = byKey(t);
			expect([...got.keys()].sort()).toEqual(expected.map((x) => x.key).sort());
			for (const x of expected) expect(actual(got.get(x.key)!), x.key).toEqual(x);
		}
	});

	it('nested, buffered and unknown-Location sends are counted once; the guess is told', () => {
		const s = tracked.sockets.find((s) => s.remote === '20.190.160.1:443')!;
		expect(s.bytesSent).toBe(517 + 1200 + 260);
		expect(s.sends).toBe(3);
		expect(storyOf(s)).toContain('1 send completion at an unknown Location');
		expect(storyOf(s)).toContain('260 bytes not counted again');
	});

	it('a header PID at an unreliable Location never names the owner', () => {
		// old.exe's first event is logged in msedge.exe's context; ghost.exe's only ones too.
		const old = tracked.sockets.find((s) => s.process === 'old.exe')!;
		expect(old.pid).toBe(7300);
		expect(pidSourceText(old)).toBe(
			"PID 7300 from an event header at a Location where it is the caller's",
		);
		const pids = tracked.sockets.map((s) => s.pid);
		expect(pids).not.toContain(4);
		expect(pids).not.toContain(1337);
		const ghost = expected.find((x) => x.pid === null)!;
		expect(byKey(tracked).get(ghost.key)!.process).toBe('unknown process');
	});

	it('a datagram socket is one conversation per remote, with that remote bytes', () => {
		const convs = conversationsOf(tracked.sockets).filter((c) => c.protocol === 'UDP');
		const want = expected
			.filter((x) => x.peers.length)
			.flatMap((x) =>
				x.peers.map((p) => ({
					key: `${x.pid}|${p.remote}`,
					bytesSent: p.bytesSent,
					bytesReceived: p.bytesReceived,
				})),
			);
		expect(
			convs.map((c) => ({ key: c.key, bytesSent: c.bytesSent, bytesReceived: c.bytesReceived })),
		).toEqual(expect.arrayContaining(want));
		expect(convs).toHaveLength(want.length);
		const twoPeers = tracked.sockets.find((s) => s.peers.length === 2 && s.origin === 'created')!;
		expect(storyOf(twoPeers)).toMatch(/exchanged datagrams with 2 remotes/);
	});
});
