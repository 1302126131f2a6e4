// The bundled sample's DNS-Client, NameResolution and TCPIP events: chrome's lookups before its
// connections (one answer through a CNAME chain), TCP/IP's view of those connections, curl's
// refused and timed-out connects with their SYN retransmissions, and a rundown of a connection
// still open. Fixed times (no random draws), so the AFD part of the sample is unchanged.
import {
	addDnsLookup,
	addGaiResult,
	addTcpConnect,
	addTcpRundown,
	type DnsItem,
} from './net-payloads.ts';
import type { EtlWriter } from './etl-writer.ts';
import { STATUS_IO_TIMEOUT } from './afd-vocabulary.ts';

const CHROME = 4120;
const CURL = 5200;
/**
 * Header PIDs, which Sockscope does not trust for these providers: the DNS Client service
 * (svchost) for DNS-Client and getaddrinfo events, System for TCP/IP (its payload names the PID).
 */
const DNSCACHE = 1880;
const SYSTEM = 4;
const LOCAL_V4 = '192.168.1.23';
const LOCAL_V6 = '2001:db8:1::23';

/** Chrome's lookups: when (ms), what, and the answer. */
export const SAMPLE_LOOKUPS: { ms: number; name: string; items: DnsItem[]; type?: number }[] = [
	{ ms: 169.8, name: 'www.google.com', items: [{ address: '142.250.74.78' }] },
	{
		ms: 185.2,
		name: 'www.google.com',
		items: [{ address: '2607:f8b0:4004:c07::64' }],
		type: 28,
	},
	{
		ms: 400.9,
		name: 'www.reddit.com',
		items: [{ cname: 'reddit.map.fastly.net' }, { address: '151.101.1.69' }],
	},
	{
		ms: 953.6,
		name: 'www.reddit.com',
		items: [{ cname: 'reddit.map.fastly.net' }, { address: '2a04:4e42::645' }],
		type: 28,
	},
	{ ms: 1478.8, name: 'github.com', items: [{ address: '140.82.112.25' }] },
	{
		ms: 2209.7,
		name: 'www.bing.com',
		items: [
			{ cname: 'www-www.bing.com.trafficmanager.net' },
			{ cname: 'www.bing.com.edgekey.net' },
			{ address: '13.107.42.14' },
		],
	},
];

/** Chrome's connections as TCP/IP logs them: when the connect starts (ms), ports, RTT. */
const CONNECTS: { ms: number; local: string; remote: string; rtt: number }[] = [
	{ ms: 171.6, local: `${LOCAL_V4}:51234`, remote: '142.250.74.78:443', rtt: 14.2 },
	{ ms: 186.1, local: `[${LOCAL_V6}]:51235`, remote: '[2607:f8b0:4004:c07::64]:443', rtt: 12.8 },
	{ ms: 402.7, local: `${LOCAL_V4}:51236`, remote: '151.101.1.69:443', rtt: 21.5 },
	{ ms: 955.0, local: `[${LOCAL_V6}]:51237`, remote: '[2a04:4e42::645]:443', rtt: 19.9 },
	{ ms: 1480.2, local: `${LOCAL_V4}:51238`, remote: '140.82.112.25:443', rtt: 88.4 },
	{ ms: 2210.9, local: `${LOCAL_V4}:51241`, remote: '13.107.42.14:443', rtt: 9.6 },
];

/** TCP/IP's connect timeout (1045) carries STATUS_IO_TIMEOUT. */
const CONNECT_TIMEOUT_STATUS = STATUS_IO_TIMEOUT;
/** Events of this part with an NTSTATUS error: the connect timeout (1183, refused, has no Status). */
export const SAMPLE_NET_ERROR_EVENTS = 1;

export function addSampleNetEvents(w: EtlWriter, at: (ms: number) => bigint): void {
	for (const l of SAMPLE_LOOKUPS)
		addDnsLookup(w, { time: at(l.ms), pid: DNSCACHE, tid: 1912 }, l.name, l.items, {
			type: l.type ?? 1,
		});
	for (const c of CONNECTS)
		addTcpConnect(w, { time: at(c.ms + 0.3), pid: SYSTEM }, c.local, c.remote, {
			outcome: 'connected',
			processId: CHROME,
			stepTicks: BigInt(Math.round(c.rtt * 5000)),
		});
	// curl connects to IP literals: getaddrinfo resolves them to themselves (no name).
	addGaiResult(w, { time: at(897.2), pid: DNSCACHE, tid: 1912 }, '10.0.0.5', ['10.0.0.5']);
	addTcpConnect(w, { time: at(897.5), pid: SYSTEM }, `${LOCAL_V4}:51239`, '10.0.0.5:8081', {
		outcome: 1183,
		synRetransmits: 2,
		stepTicks: 3_300_000n,
		processId: CURL,
	});
	addGaiResult(w, { time: at(2041.4), pid: DNSCACHE, tid: 1912 }, '203.0.113.9', ['203.0.113.9']);
	addTcpConnect(w, { time: at(2041.8), pid: SYSTEM }, `${LOCAL_V4}:51240`, '203.0.113.9:443', {
		outcome: 'timeout',
		status: CONNECT_TIMEOUT_STATUS,
		synRetransmits: 2,
		stepTicks: 5_200_000n,
		processId: CURL,
	});
	// The capture's rundown of the connection still open (its own Pid; header PID is the tool's).
	addTcpRundown(w, { time: at(2300), pid: 9876 }, `${LOCAL_V4}:51241`, '13.107.42.14:443', CHROME);
}
