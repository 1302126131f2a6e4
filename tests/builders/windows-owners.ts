// A Windows-like trace whose events' owners the script knows (tests/builders/windows-afd.ts):
// completions logged in System (PID 4) or in another process's context, TCPIP events of a
// connection logged in System without a ProcessId, and a rundown naming its own Pid. Expected
// owners come from which process the script had make each socket.
import { addTcpConnect, addTcpRundown } from './net-payloads.ts';
import { SOCK_DGRAM } from './lifecycles.ts';
import { WindowsAfd, type WindowsExpected } from './windows-afd.ts';

export const SYSTEM = 4;

export interface OwnerScript {
	bytes: Uint8Array;
	expected: WindowsExpected[];
	/** Endpoint text → the PID the script's process has (null: the trace cannot tell it). */
	ownerOf: Map<string, number | null>;
	/** TCPIP events the script logged under System for the edge connection, its local address, its PID. */
	tcp: { events: number; local: string; pid: number; name: string };
	rundown: { pid: number };
}

/**
 * msedge.exe connects (its receive completes in System, its close exits in System) and its
 * connection's TCPIP events are logged in System with no ProcessId; old.exe's socket from before
 * the trace completes a receive in msedge.exe's context; ghost.exe's socket says nothing
 * reliable; svchost's datagram socket has no create; a rundown names a connection of PID 7777.
 */
export function ownerScript(): OwnerScript {
	const sc = new WindowsAfd();
	const edge = sc.process({ pid: 6100, name: 'msedge.exe', eprocess: 0xffffa50c61000080n });
	const old = sc.process({ pid: 7300, name: 'old.exe', eprocess: 0xffffa50c73000080n });
	const ghost = sc.process({ pid: 8800, name: 'ghost.exe', eprocess: 0xffffa50c88000080n });
	const dns = sc.process({
		pid: 2400,
		name: 'svchost.exe',
		eprocess: 0xffffa50c24000080n,
		announce: 'none',
	});
	const edgeCtx = { pid: edge.pid, tid: edge.tid };
	sc.socket(old, { at: 3, create: false })
		.recvCompletionOnly(640, edgeCtx)
		.send(90)
		.recv(2000, { completion: edgeCtx });
	sc.socket(ghost, { at: 4, create: false })
		.recvCompletionOnly(77, 'system')
		.close({ closeIn: 'system' });
	sc.socket(edge, { at: 10 })
		.connect('0.0.0.0:50443', '20.190.160.1:443')
		.send(517)
		.recv(4000, { completion: 'system' })
		.close();
	sc.socket(dns, { at: 30, type: SOCK_DGRAM, create: false })
		.sendto('192.168.1.1:53', 45)
		.recvfrom('192.168.1.1:53', 180);
	const local = '10.0.0.5:50443';
	const tcpEvents = addTcpConnect(
		sc.lc.w,
		{ time: sc.lc.at(10.2), pid: SYSTEM, tid: 8, cpu: 1 },
		local,
		'20.190.160.1:443',
		{ outcome: 'connected', dataRetransmits: 2 },
	).length;
	const rundownPid = 7777;
	addTcpRundown(
		sc.lc.w,
		{ time: sc.lc.at(1), pid: SYSTEM, tid: 8, cpu: 1 },
		'10.0.0.5:51000',
		'10.9.9.9:445',
		rundownPid,
	);
	const { file, expected } = sc.finish();
	const ownerOf = new Map(
		sc.sockets.map((s, k) => [`0x${s.endpoint.toString(16)}`, expected[k]!.pid]),
	);
	return {
		bytes: file.bytes,
		expected,
		ownerOf,
		tcp: { events: tcpEvents, local, pid: edge.pid, name: edge.name },
		rundown: { pid: rundownPid },
	};
}
