// A large, realistic Winsock-AFD trace for the decode benchmark, written with the test ETL writer in
// streaming mode (bounded memory whatever the size) and cached under .cache/bench/.
//
// Scenario: a busy 8-CPU Windows 11 machine (build 22621, 64-bit, QPC 10 MHz, 64 KiB uncompressed
// buffers) logging Microsoft-Windows-Winsock-AFD at verbose level:
// - Kernel-Process ProcessStart events name ~30 processes, 6 of them 32-bit (WOW64): their AFD
//   records are EVENT32 (4-byte pointers), everyone else's EVENT64.
// - TCP clients (browsers, Teams, OneDrive, …) open connections (create 1000, bind 1030,
//   connect 1018 with an IPv4 or IPv6 address), exchange requests and responses (send 1003 and
//   receive 1004 enter/exit with BufferLength; a transport data indication 3003 before each
//   receive completes) and close them (1001, then cleanup 1002). Some connects are refused.
// - Servers (w3wp, sqlservr) accept connections (indication 3001, accept 1024).
// - svchost (Dnscache) resolves names over UDP: sendto 1007 / recvfrom 1009 with the server
//   address, 3004 indications.
// - Two old 32-bit programs use the legacy events (1 create, 2 bind, 4 connect, 6 connected,
//   18 send, 24 send done, 23 receive, 13 close, 14 cleanup).
// Everything comes from a seeded PRNG: the same size gives the same bytes on every run.
//
// With --capture, NDIS-PacketCapture frames of the TCP client connections go beside the AFD
// events (bench/capture-wire.ts, for bench:packets); without it the file is the same as before.
//
// Usage: npx tsx bench/winsock-trace.ts [--size-mb N] [--out FILE] [--capture]
// (normally run by decode.ts)

import {
	closeSync,
	existsSync,
	mkdirSync,
	openSync,
	readdirSync,
	renameSync,
	rmSync,
	writeFileSync,
	writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { filetimeFromIso, filetimeToIso } from '../tests/builders/bytes.ts';
import { EtlWriter } from '../tests/builders/etl-writer.ts';
import { AfdScenario, type AfdThread } from '../tests/builders/afd-scenario.ts';
import {
	AF_INET,
	AF_INET6,
	afdId,
	IPPROTO_TCP,
	IPPROTO_UDP,
	SOCK_DGRAM,
	SOCK_STREAM,
	STATUS_CONNECTION_REFUSED,
	STATUS_SUCCESS,
	type LocationTable,
	AFD,
} from '../tests/builders/afd-vocabulary.ts';
import { Prng } from '../tests/builders/prng.ts';
import { CaptureWire } from './capture-wire.ts';

/** Bump when the scenario or the writer output changes: cached files are regenerated. */
export const GENERATOR_VERSION = 2;
export const SEED = 0x0b5e55ed;
export const CACHE_DIR = fileURLToPath(new URL('../.cache/bench/', import.meta.url));

export function cachePath(sizeMB: number): string {
	return join(CACHE_DIR, `winsock-${sizeMB}mb-v${GENERATOR_VERSION}.etl`);
}

/** Facts about a generated file, stored next to it (same name, .json). */
export interface TraceMeta {
	generatorVersion: number;
	seed: number;
	sizeMB: number;
	fileBytes: number;
	/** All records, the logfile header record included. */
	records: number;
	buffers: number;
	afdEvents: Record<string, number>;
	byHeaderType: Record<string, number>;
	processes: number;
	startTime: string;
	endTime: string;
	traceSeconds: number;
	generateSeconds: number;
	/** What the capture beside it logged (bench:packets' traces only). */
	capture?: { events: number; frames: number; bytes: number };
}

const START_ISO = '2026-03-14T09:26:53.5897932Z';
const START = filetimeFromIso(START_ISO);
const CPUS = 8;
const BUFFER_SIZE = 65536;
/** Records are released to the writer window by window (trace time). */
const WINDOW = 100_000n; // 10 ms

/** Code-site ids for the Location field: codes no source lists (the decoder meets unknown Locations). */
const LOCATION: LocationTable = {
	[afdId('AfdCreate')]: [10, 11],
	[afdId('AfdClose')]: [20, 21],
	[afdId('AfdCleanup')]: [22, 23],
	[afdId('AfdSend')]: [30, 31],
	[afdId('AfdReceive')]: [32, 33],
	[afdId('AfdSendToWithAddress')]: [34, 35],
	[afdId('AfdReceiveFromWithAddress')]: [36, 37],
	[afdId('AfdConnectWithAddress')]: [40, 41],
	[afdId('AfdAcceptWithAddress')]: [44, 45],
	[afdId('AfdBindWithAddress')]: [50, 51],
	[afdId('AfdOption')]: [64, 65],
	[afdId('AfdConnectIndicationWithAddress')]: [80, 81],
	[afdId('AfdDataIndication')]: [82, 83],
	[afdId('AfdDataIndicationWithAddress')]: [86, 87],
};

interface ProcSpec {
	name: string;
	dir: string;
	ptr: 4 | 8;
	threads: number;
	/** Concurrent TCP client connections it keeps. */
	conns: number;
	role?: 'server' | 'dns' | 'legacy';
	port?: number;
}

const PROCS: ProcSpec[] = [
	{
		name: 'chrome.exe',
		dir: 'Program Files\\Google\\Chrome\\Application',
		ptr: 8,
		threads: 6,
		conns: 28,
	},
	{
		name: 'msedge.exe',
		dir: 'Program Files (x86)\\Microsoft\\Edge\\Application',
		ptr: 8,
		threads: 5,
		conns: 18,
	},
	{ name: 'firefox.exe', dir: 'Program Files\\Mozilla Firefox', ptr: 8, threads: 4, conns: 12 },
	{
		name: 'ms-teams.exe',
		dir: 'Program Files\\WindowsApps\\MSTeams',
		ptr: 8,
		threads: 4,
		conns: 8,
	},
	{ name: 'OneDrive.exe', dir: 'Program Files\\Microsoft OneDrive', ptr: 8, threads: 3, conns: 6 },
	{
		name: 'OUTLOOK.EXE',
		dir: 'Program Files\\Microsoft Office\\root\\Office16',
		ptr: 8,
		threads: 3,
		conns: 5,
	},
	{ name: 'Code.exe', dir: 'Program Files\\Microsoft VS Code', ptr: 8, threads: 3, conns: 4 },
	{ name: 'node.exe', dir: 'Program Files\\nodejs', ptr: 8, threads: 2, conns: 6 },
	{ name: 'python.exe', dir: 'Program Files\\Python312', ptr: 8, threads: 2, conns: 3 },
	{
		name: 'git-remote-https.exe',
		dir: 'Program Files\\Git\\mingw64\\libexec\\git-core',
		ptr: 8,
		threads: 1,
		conns: 2,
	},
	{ name: 'curl.exe', dir: 'Windows\\System32', ptr: 8, threads: 1, conns: 1 },
	{
		name: 'MsMpEng.exe',
		dir: 'ProgramData\\Microsoft\\Windows Defender\\Platform\\4.18.24090.11-0',
		ptr: 8,
		threads: 2,
		conns: 2,
	},
	{
		name: 'SearchHost.exe',
		dir: 'Windows\\SystemApps\\MicrosoftWindows.Client.CBS_cw5n1h2txyewy',
		ptr: 8,
		threads: 2,
		conns: 2,
	},
	{ name: 'svchost.exe', dir: 'Windows\\System32', ptr: 8, threads: 3, conns: 0, role: 'dns' },
	{ name: 'svchost.exe', dir: 'Windows\\System32', ptr: 8, threads: 2, conns: 3 }, // BITS / wuauserv
	{ name: 'svchost.exe', dir: 'Windows\\System32', ptr: 8, threads: 2, conns: 1 }, // WpnService
	{ name: 'lsass.exe', dir: 'Windows\\System32', ptr: 8, threads: 1, conns: 1 },
	{
		name: 'w3wp.exe',
		dir: 'Windows\\System32\\inetsrv',
		ptr: 8,
		threads: 4,
		conns: 0,
		role: 'server',
		port: 443,
	},
	{
		name: 'sqlservr.exe',
		dir: 'Program Files\\Microsoft SQL Server\\MSSQL16.MSSQLSERVER\\MSSQL\\Binn',
		ptr: 8,
		threads: 3,
		conns: 0,
		role: 'server',
		port: 1433,
	},
	{
		name: 'Spotify.exe',
		dir: 'Users\\alice\\AppData\\Roaming\\Spotify',
		ptr: 8,
		threads: 2,
		conns: 3,
	},
	{
		name: 'slack.exe',
		dir: 'Users\\alice\\AppData\\Local\\slack\\app-4.41.105',
		ptr: 8,
		threads: 2,
		conns: 3,
	},
	{
		name: 'Dropbox.exe',
		dir: 'Program Files (x86)\\Dropbox\\Client',
		ptr: 8,
		threads: 2,
		conns: 3,
	},
	{ name: 'steam.exe', dir: 'Program Files (x86)\\Steam', ptr: 4, threads: 2, conns: 4 },
	{
		name: 'javaw.exe',
		dir: 'Program Files (x86)\\Java\\jre1.8.0_421\\bin',
		ptr: 4,
		threads: 2,
		conns: 3,
	},
	{ name: 'putty.exe', dir: 'Program Files (x86)\\PuTTY', ptr: 4, threads: 1, conns: 1 },
	{ name: 'vlc.exe', dir: 'Program Files (x86)\\VideoLAN\\VLC', ptr: 4, threads: 1, conns: 1 },
	{
		name: 'legacyapp.exe',
		dir: 'Program Files (x86)\\Legacy',
		ptr: 4,
		threads: 1,
		conns: 2,
		role: 'legacy',
	},
	{
		name: 'pos-client.exe',
		dir: 'Program Files (x86)\\Contoso\\POS',
		ptr: 4,
		threads: 1,
		conns: 1,
		role: 'legacy',
	},
];

const REMOTES_V4 = [
	'142.250.74.78:443',
	'151.101.1.69:443',
	'140.82.112.25:443',
	'13.107.42.14:443',
	'52.96.166.130:443',
	'20.190.151.7:443',
	'104.16.133.229:443',
	'35.186.224.25:443',
	'185.199.108.153:443',
	'93.184.216.34:80',
	'10.0.0.5:8081',
	'10.0.0.42:445',
	'192.168.1.20:22',
];
const REMOTES_V6 = [
	'[2607:f8b0:4004:c07::64]:443',
	'[2a04:4e42::645]:443',
	'[2620:1ec:c11::200]:443',
	'[2606:4700::6810:85e5]:443',
	'[fe80::1c2a:3bff:fe4d:5e6f%12]:5353',
];
const DNS_SERVERS = ['192.168.1.1:53', '[fe80::1%12]:53', '1.1.1.1:53'];

interface Proc {
	spec: ProcSpec;
	pid: number;
	ptr: 4 | 8;
	eprocess: bigint;
	threads: Thread[];
	conns: Conn[];
	/** Listening endpoint (servers) or the DNS socket. */
	listener: bigint;
	local: string;
}

type Thread = AfdThread<Proc>;

interface Conn {
	th: Thread;
	endpoint: bigint;
	/** Next time the thread may use the socket. */
	free: bigint;
	exchanges: number;
	legacy: boolean;
}

/** Counts every record written: the benchmark checks the decoder finds the same number. */
class Counter {
	records = 0;
	afd = new Map<number, number>();
	event32 = 0;
	event64 = 0;
}

class Scenario extends AfdScenario<Proc> {
	readonly procs: Proc[] = [];
	readonly count = new Counter();
	private nextPort = 49_700;

	constructor(
		w: EtlWriter,
		/** The packets a capture would log beside (bench:packets), or none. */
		readonly wire: CaptureWire | null = null,
	) {
		super({
			writer: w,
			seed: SEED,
			locations: LOCATION,
			migrate: 0.06,
			systemThreads: [88, 92, 104, 112, 120, 132, 148, 156],
			// Transport-side events are logged in the System context: always 64-bit.
			transportPointerSize: 8,
			endpoint32Wrap: 0xfff00000n,
		});
		this.onAfd = ({ id, pointerSize }) => {
			const c = this.count;
			c.records++;
			c.afd.set(id, (c.afd.get(id) ?? 0) + 1);
			if (pointerSize === 4) c.event32++;
			else c.event64++;
		};
	}

	port(): number {
		this.nextPort = this.nextPort >= 65_000 ? 49_700 : this.nextPort + this.rng.int(1, 3);
		return this.nextPort;
	}

	startProcesses(): void {
		let pid = 1200;
		let eproc = 0xffffa50c0f8a2080n;
		let tid = 2000;
		let t = START + 2_000n;
		for (const spec of PROCS) {
			pid += 4 * this.rng.int(20, 400);
			eproc += BigInt(this.rng.int(0x40, 0x400) * 0x1000);
			const proc: Proc = {
				spec,
				pid,
				ptr: spec.ptr,
				eprocess: spec.ptr === 4 ? 0x8a000000n + (eproc & 0xffffffn) : eproc,
				threads: [],
				conns: [],
				listener: 0n,
				local: '0.0.0.0:0',
			};
			for (let i = 0; i < spec.threads; i++) {
				tid += 4 * this.rng.int(1, 60);
				proc.threads.push({ proc, tid, cpu: this.rng.int(0, CPUS - 1) });
			}
			this.procs.push(proc);
			t += this.delay(0.01, 0.2);
			const image = `\\Device\\HarddiskVolume3\\${spec.dir}\\${spec.name}`;
			this.processStart(
				this.rng.int(0, CPUS - 1),
				t,
				{ pid: 812, tid: 824 },
				{ pid, sessionId: spec.role === 'server' || spec.role === 'dns' ? 0 : 1, image },
			);
			this.count.records++;
		}
		// Servers listen; the DNS client has its UDP socket.
		t += this.delay(0.1, 0.5);
		for (const p of this.procs) {
			const th = p.threads[0]!;
			if (p.spec.role === 'server') {
				p.listener = this.endpoint(p);
				p.local = `0.0.0.0:${p.spec.port}`;
				t = this.create(th, t, p.listener, AF_INET, SOCK_STREAM, IPPROTO_TCP);
				t = this.bind(th, t + this.delay(0.01, 0.05), p.listener, p.local, p.local);
			} else if (p.spec.role === 'dns') {
				p.listener = this.endpoint(p);
				t = this.create(th, t, p.listener, AF_INET, SOCK_DGRAM, IPPROTO_UDP);
				t = this.call(
					th,
					t + this.delay(0.01, 0.03),
					this.delay(0.005, 0.02),
					AFD.AfdOption!,
					{ Endpoint: p.listener, Option: 11, Value: 0 },
					{ Endpoint: p.listener, Option: 11, Value: 0, Status: STATUS_SUCCESS },
				);
				t = this.bind(th, t + this.delay(0.01, 0.03), p.listener, '0.0.0.0:0', '0.0.0.0:53114');
			}
		}
	}

	create(
		th: Thread,
		t: bigint,
		endpoint: bigint,
		family: number,
		type: number,
		protocol: number,
	): bigint {
		return this.createCall(th, t, this.delay(0.02, 0.09), endpoint, family, type, protocol);
	}

	bind(th: Thread, t: bigint, endpoint: bigint, request: string, bound: string): bigint {
		return this.bindCall(th, t, this.delay(0.01, 0.05), endpoint, request, bound);
	}

	send(th: Thread, t: bigint, endpoint: bigint, len: number): bigint {
		const v = {
			Endpoint: endpoint,
			BufferCount: 1,
			Buffer: this.buffer(th.proc),
			BufferLength: len,
		};
		const done = this.call(th, t, this.delay(0.01, 0.12), AFD.AfdSend!, v, {
			...v,
			Status: STATUS_SUCCESS,
		});
		this.wire?.sent(endpoint, t, len);
		return done;
	}

	receive(th: Thread, t: bigint, endpoint: bigint, wait: bigint, cap: number, len: number): bigint {
		const v = { Endpoint: endpoint, BufferCount: 1, Buffer: this.buffer(th.proc) };
		// The transport indicates the data just before the receive completes.
		const lead = this.delay(0.005, 0.03);
		this.transport(th, wait > lead ? t + wait - lead : t, AFD.AfdDataIndication!, {
			Endpoint: endpoint,
			Buffer: 0xffffa50c33000000n + BigInt(this.rng.int(0, 0xfff) * 0x100),
			BufferLength: len,
		});
		this.wire?.received(endpoint, wait > lead ? t + wait - lead : t, len);
		return this.call(
			th,
			t,
			wait,
			AFD.AfdReceive!,
			{ ...v, BufferLength: cap },
			{ ...v, BufferLength: len, Status: STATUS_SUCCESS },
		);
	}

	close(th: Thread, t: bigint, endpoint: bigint): bigint {
		this.wire?.closed(endpoint, t);
		const te = this.call(
			th,
			t,
			this.delay(0.01, 0.04),
			AFD.AfdClose!,
			{ Endpoint: endpoint },
			{ Endpoint: endpoint, Status: STATUS_SUCCESS },
		);
		return this.call(
			th,
			te + this.delay(0.002, 0.02),
			this.delay(0.01, 0.05),
			AFD.AfdCleanup!,
			{ Endpoint: endpoint },
			{ Endpoint: endpoint, Status: STATUS_SUCCESS },
		);
	}

	/** A new TCP client connection; null when the connect is refused (the socket is closed). */
	connect(p: Proc, at: bigint): Conn | null {
		const th = this.rng.pick(p.threads);
		const v6 = this.rng.chance(0.3);
		const family = v6 ? AF_INET6 : AF_INET;
		const endpoint = this.endpoint(p);
		let t = this.create(th, at, endpoint, family, SOCK_STREAM, IPPROTO_TCP);
		const port = this.port();
		t = this.bind(
			th,
			t + this.delay(0.01, 0.05),
			endpoint,
			v6 ? '[::]:0' : '0.0.0.0:0',
			v6 ? `[::]:${port}` : `0.0.0.0:${port}`,
		);
		const remote = v6 ? this.rng.pick(REMOTES_V6) : this.rng.pick(REMOTES_V4);
		const refused = this.rng.chance(0.02);
		const rtt = this.delay(1, 40);
		t = this.call(
			th,
			t + this.delay(0.01, 0.1),
			refused ? this.delay(1000, 1030) : rtt + this.delay(0.1, 2),
			AFD.AfdConnectWithAddress!,
			{ Endpoint: endpoint, Address: remote },
			{
				Endpoint: endpoint,
				Status: refused ? STATUS_CONNECTION_REFUSED : STATUS_SUCCESS,
				Address: remote,
			},
		);
		if (refused) {
			this.close(th, t + this.delay(0.05, 0.3), endpoint);
			return null;
		}
		this.wire?.connected(endpoint, port, remote, v6, t);
		// TLS handshake.
		t = this.send(th, t + this.delay(0.05, 0.3), endpoint, 517);
		t = this.receive(
			th,
			t + this.delay(0.01, 0.05),
			endpoint,
			rtt + this.delay(1, 4),
			65536,
			this.rng.int(3800, 5600),
		);
		return { th, endpoint, free: t, exchanges: this.rng.int(4, 400), legacy: false };
	}

	/** A connection made with the legacy events (1, 2, 4, 6). */
	legacyConnect(p: Proc, at: bigint): Conn {
		const th = p.threads[0]!;
		const endpoint = this.endpoint(p);
		const cpu = this.cpuOf(th);
		let t = at;
		this.afd(
			th,
			t,
			AFD.SocketCreate!,
			{
				Endpoint: endpoint,
				AddressFamily: AF_INET,
				SocketType: SOCK_STREAM,
				Protocol: IPPROTO_TCP,
				UserModePid: p.pid,
			},
			{ cpu: cpu },
		);
		t += this.delay(0.05, 0.2);
		this.afd(
			th,
			t,
			AFD.BindIPv4!,
			{ Endpoint: endpoint, Address: '0.0.0.0', Port: this.port(), Status: STATUS_SUCCESS },
			{ cpu: cpu },
		);
		t += this.delay(0.05, 0.2);
		this.afd(
			th,
			t,
			AFD.ConnectIPv4!,
			{
				Endpoint: endpoint,
				Address: this.rng.chance(0.5) ? '93.184.216.34' : '10.0.0.42',
				Port: this.rng.chance(0.5) ? 80 : 8080,
			},
			{ cpu: cpu },
		);
		t += this.delay(2, 60);
		this.afd(
			th,
			t,
			AFD.ConnectCompleted!,
			{ Endpoint: endpoint, Error: STATUS_SUCCESS },
			{ cpu: this.cpuOf(th) },
		);
		return { th, endpoint, free: t, exchanges: this.rng.int(10, 200), legacy: true };
	}

	/** One request/response round on a connection starting at `t`; returns when it is done. */
	exchange(c: Conn, t: bigint): bigint {
		const th = c.th;
		if (c.legacy) {
			const len = this.rng.int(96, 420);
			const buf = this.buffer(th.proc);
			const cpu = this.cpuOf(th);
			this.afd(
				th,
				t,
				AFD.SendPosted!,
				{ Endpoint: c.endpoint, FastPath: 1, BufferCount: 1, Buffer: buf, BufferLength: len },
				{ cpu: cpu },
			);
			t += this.delay(0.02, 0.2);
			this.afd(
				th,
				t,
				AFD.SendCompleted!,
				{ Endpoint: c.endpoint, Buffer: buf, BufferLength: len },
				{ cpu: cpu },
			);
			const parts = this.rng.int(1, 4);
			for (let k = 0; k < parts; k++) {
				t += k === 0 ? this.delay(5, 40) : this.delay(0.1, 3);
				const got = k < parts - 1 ? 1460 : this.rng.int(80, 1460);
				this.afd(
					th,
					t,
					AFD.RecvCompleted!,
					{ Endpoint: c.endpoint, Buffer: this.buffer(th.proc), BufferLength: got },
					{ cpu: this.cpuOf(th) },
				);
			}
			return t;
		}
		const upload = this.rng.chance(0.05);
		t = this.send(
			th,
			t,
			c.endpoint,
			upload ? this.rng.int(16_384, 65_536) : this.rng.int(90, 1800),
		);
		const parts = this.rng.chance(0.1) ? this.rng.int(4, 16) : this.rng.int(1, 3);
		for (let k = 0; k < parts; k++) {
			const wait = k === 0 ? this.delay(0.5, 40) : this.delay(0.02, 1.5);
			const len = this.rng.chance(0.5) ? 16_384 : this.rng.int(200, 16_384);
			t = this.receive(th, t + this.delay(0.005, 0.05), c.endpoint, wait, 65536, len);
		}
		return t;
	}

	closeConn(c: Conn, t: bigint): void {
		if (!c.legacy) {
			this.close(c.th, t, c.endpoint);
			return;
		}
		const cpu = this.cpuOf(c.th);
		this.afd(c.th, t, AFD.Close!, { Endpoint: c.endpoint, Error: STATUS_SUCCESS }, { cpu: cpu });
		this.afd(
			c.th,
			t + this.delay(0.02, 0.2),
			AFD.CleanupShutdown!,
			{ Endpoint: c.endpoint, Error: STATUS_SUCCESS },
			{ cpu: cpu },
		);
	}

	/** A server accepts a connection and serves a few requests. */
	accept(p: Proc, at: bigint): void {
		const th = this.rng.pick(p.threads);
		const peer = `10.0.${this.rng.int(0, 3)}.${this.rng.int(2, 250)}:${this.port()}`;
		this.transport(th, at, AFD.AfdConnectIndicationWithAddress!, {
			Endpoint: p.listener,
			Status: STATUS_SUCCESS,
			Address: peer,
			CurrentBacklog: 1,
		});
		const acc = this.endpoint(p);
		const [le, lx] = LOCATION[AFD.AfdAcceptWithAddress!]!;
		const cpu = this.cpuOf(th);
		let t = at + this.delay(0.01, 0.04);
		this.afd(
			th,
			t,
			AFD.AfdAcceptWithAddress!,
			{ EnterExit: 0, Location: le, Endpoint: p.listener },
			{ cpu: cpu },
		);
		t += this.delay(0.06, 0.2);
		this.afd(
			th,
			t,
			AFD.AfdAcceptWithAddress!,
			{
				EnterExit: 1,
				Location: lx,
				Endpoint: p.listener,
				Buffer: 0,
				BufferLength: 0,
				Status: STATUS_SUCCESS,
				Address: peer,
				AcceptEndpoint: acc,
				CurrentBacklog: 0,
			},
			{ cpu: cpu },
		);
		const requests = this.rng.int(1, 6);
		for (let i = 0; i < requests; i++) {
			t = this.receive(
				th,
				t + this.delay(0.02, 0.1),
				acc,
				this.delay(0.2, 20),
				8192,
				this.rng.int(180, 1400),
			);
			t = this.send(th, t + this.delay(0.3, 4), acc, this.rng.int(600, 64_000));
		}
		this.close(th, t + this.delay(0.1, 2), acc);
	}

	/** A DNS query over the Dnscache UDP socket. */
	dns(p: Proc, at: bigint): void {
		const th = this.rng.pick(p.threads);
		const server = this.rng.pick(DNS_SERVERS);
		const len = this.rng.int(28, 60);
		const v = { Endpoint: p.listener, BufferCount: 1, Buffer: this.buffer(p), BufferLength: len };
		let t = this.call(
			th,
			at,
			this.delay(0.02, 0.08),
			AFD.AfdSendToWithAddress!,
			{ ...v, Address: server },
			{ ...v, Status: STATUS_SUCCESS, Address: server },
		);
		const answer = this.rng.int(len + 16, len + 220);
		const rv = { Endpoint: p.listener, BufferCount: 1, Buffer: this.buffer(p) };
		const wait = this.delay(2, 14);
		this.transport(th, t + wait - this.delay(0.01, 0.03), AFD.AfdDataIndicationWithAddress!, {
			Endpoint: p.listener,
			Buffer: 0xffffa50c34000000n + BigInt(this.rng.int(0, 0xfff) * 0x100),
			BufferLength: answer,
			Address: server,
		});
		t += this.delay(0.01, 0.05);
		this.call(
			th,
			t,
			wait,
			AFD.AfdReceiveFromWithAddress!,
			{ ...rv, BufferLength: 1472 },
			{ ...rv, BufferLength: answer, Status: STATUS_SUCCESS, Address: server },
		);
	}

	/** Everything that starts in the window [from, from + WINDOW). */
	window(from: bigint): void {
		const at = (): bigint => from + BigInt(this.rng.int(0, Number(WINDOW) - 1));
		for (const p of this.procs) {
			const role = p.spec.role;
			if (role === 'server') {
				if (this.rng.chance(0.35)) this.accept(p, at());
				continue;
			}
			if (role === 'dns') {
				if (this.rng.chance(0.25)) this.dns(p, at());
				continue;
			}
			// Keep the connection pool full; refused connects come back later.
			if (p.conns.length < p.spec.conns && this.rng.chance(0.3)) {
				const c = role === 'legacy' ? this.legacyConnect(p, at()) : this.connect(p, at());
				if (c) p.conns.push(c);
			}
			for (let i = 0; i < p.conns.length; i++) {
				const c = p.conns[i]!;
				if (c.free >= from + WINDOW || !this.rng.chance(0.45)) continue;
				const start = c.free > from ? c.free + this.delay(0.01, 0.5) : at();
				c.free = this.exchange(c, start) + this.delay(0.5, 30);
				if (--c.exchanges <= 0) {
					this.closeConn(c, c.free);
					p.conns.splice(i--, 1);
				}
			}
		}
	}
}

/** Writes the trace to `path` (via a temporary file) and its facts to `path` with .json. */
export function generate(
	path: string,
	sizeMB: number,
	log: (line: string) => void = () => {},
	options: { capture?: boolean } = {},
): TraceMeta {
	const began = performance.now();
	const target = sizeMB * 1024 * 1024;
	mkdirSync(dirname(path), { recursive: true });
	// Unique per process: two benchmarks may generate the same file at once (the last rename wins).
	const tmp = `${path}.${process.pid}.partial`;
	const fd = openSync(tmp, 'w');
	let written = 0;
	let nextLog = 0;
	try {
		const w = new EtlWriter({
			pointerSize: 8,
			cpus: CPUS,
			bufferSize: BUFFER_SIZE,
			clock: 1,
			perfFreq: 10_000_000n,
			cpuSpeedMHz: 2995,
			startTime: START,
			bootTime: START - 4_271_250_000_000n,
			build: 22621,
			loggerName: 'winsock-verbose',
			logFileName: 'C:\\Users\\alice\\AppData\\Local\\Temp\\winsock-verbose.etl',
			controllerPid: 7788,
			controllerTid: 7792,
			loggerId: 0x22,
			truth: false,
			sink: (chunk) => {
				let done = 0;
				while (done < chunk.length) done += writeSync(fd, chunk, done, chunk.length - done);
				written += chunk.length;
			},
		});
		w.addHeaderRecord({
			kind: 'system',
			hookId: 0x50,
			pid: 7788,
			tid: 7792,
			payload: new Uint8Array(48),
		});
		const wire = options.capture ? new CaptureWire(w, new Prng(SEED ^ 0x5a5a)) : null;
		const sc = new Scenario(w, wire);
		sc.startProcesses();
		let from = START + WINDOW;
		// finish() then writes the buffers still open, one per CPU (all CPUs are busy).
		while (written + CPUS * BUFFER_SIZE < target) {
			sc.window(from);
			from += WINDOW;
			w.release(from);
			if (written >= nextLog) {
				log(`  generating: ${(written / 1048576).toFixed(0)} / ${sizeMB} MB`);
				nextLog += 128 * 1048576;
			}
		}
		const file = w.finish();
		writeSync(fd, file.bytes, 0, file.bytes.length, 0);
		const fileBytes = written;
		if (fileBytes < target) throw new Error(`wrote ${fileBytes} bytes, fewer than ${target}`);
		const meta: TraceMeta = {
			generatorVersion: GENERATOR_VERSION,
			seed: SEED,
			sizeMB,
			fileBytes,
			// + the logfile header record and hook 0x50
			records: sc.count.records + 2 + (wire?.events ?? 0),
			...(wire ? { capture: { events: wire.events, frames: wire.frames, bytes: wire.bytes } } : {}),
			buffers: file.buffers.length,
			afdEvents: Object.fromEntries([...sc.count.afd.entries()].sort((a, b) => a[0] - b[0])),
			byHeaderType: { EVENT32: sc.count.event32, EVENT64: sc.count.event64 },
			processes: sc.procs.length,
			startTime: START_ISO,
			endTime: filetimeToIso(file.endTime),
			traceSeconds: Number(file.endTime - START) / 1e7,
			generateSeconds: (performance.now() - began) / 1000,
		};
		closeSync(fd);
		renameSync(tmp, path);
		writeFileSync(metaPath(path), `${JSON.stringify(meta, null, '\t')}\n`);
		return meta;
	} catch (e) {
		closeSync(fd);
		rmSync(tmp, { force: true });
		throw e;
	}
}

/** Deletes cached traces (and their .json) written by other generator versions. */
export function removeStale(): void {
	if (!existsSync(CACHE_DIR)) return;
	for (const f of readdirSync(CACHE_DIR)) {
		const m = /^winsock-\d+mb-v(\d+)\.(etl|json|etl\.\d+\.partial)$/.exec(f);
		if (m && Number(m[1]) !== GENERATOR_VERSION) rmSync(join(CACHE_DIR, f));
	}
}

export function metaPath(etlPath: string): string {
	return etlPath.replace(/\.etl$/, '.json');
}

export function cached(sizeMB: number): boolean {
	const p = cachePath(sizeMB);
	return existsSync(p) && existsSync(metaPath(p));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
	const args = process.argv.slice(2);
	const sizeAt = args.indexOf('--size-mb');
	const sizeMB = sizeAt >= 0 ? Number(args[sizeAt + 1]) : 1024;
	if (!Number.isInteger(sizeMB) || sizeMB < 1)
		throw new Error('--size-mb needs a positive integer');
	const outAt = args.indexOf('--out');
	const out = outAt >= 0 ? args[outAt + 1]! : cachePath(sizeMB);
	const meta = generate(out, sizeMB, (l) => process.stderr.write(`${l}\n`), {
		capture: args.includes('--capture'),
	});
	process.stdout.write(`${JSON.stringify(meta)}\n`);
}
