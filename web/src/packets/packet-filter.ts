// The packets' filter: terms that must all hold, in the spellings Wireshark users type
// (`tcp.flags.syn`, `frame.len>1000`, `ip.addr==10.0.0.5`, `udp.port==53`, `dns`, `arp`) beside
// Sockscope's own (`pid:4120`, `process:curl`, `socket:…`, `host:example.com`, `reason:closed-port`).
// A term is `field`, `field OP value` (OP is ==, =, :, !=, >, <, >=, <=), negated by a leading
// `!` or `-`. Every string value matches case-insensitively, `*` as a wildcard.
import { english, msg, type Msg } from '../i18n/render.ts';
import { nearest } from '../lib/nearest.ts';
import type { PacketOwner } from './join.ts';
import type { Frame } from './types.ts';

/** What is wrong with a filter: its English text (the CLI's) and the message the page says. */
export class PacketFilterError extends Error {
	constructor(readonly text: Msg) {
		super(english(text));
	}
}

type Value = string | number | boolean | null | readonly (string | number | null)[];
type Getter = (
	f: Frame,
	o: PacketOwner,
	names: (socket: string | null) => readonly string[],
) => Value;

const flag =
	(bit: number): Getter =>
	(f) =>
		f.dissection.tcp ? (f.dissection.tcp.flags & bit) !== 0 : null;
const port =
	(proto: number, which: 'src' | 'dst' | 'any'): Getter =>
	(f) => {
		const d = f.dissection;
		if (d.ipProtocol !== proto) return null;
		return which === 'src' ? d.srcPort : which === 'dst' ? d.dstPort : [d.srcPort, d.dstPort];
	};
const has =
	(name: string): Getter =>
	(f) =>
		f.dissection.layers.some((l) => l.name === name);

const FIELDS: Readonly<Record<string, Getter>> = {
	'frame.len': (f) => f.originalLength ?? f.dissection.wireLength ?? f.bytes.length,
	'frame.cap_len': (f) => f.bytes.length,
	'frame.number': (f) => f.number,
	eth: has('Ethernet'),
	vlan: (f) => f.dissection.vlan,
	'vlan.id': (f) => f.dissection.vlan,
	arp: has('ARP'),
	ip: has('IPv4'),
	ipv6: has('IPv6'),
	'ip.addr': (f) => [f.dissection.srcAddress, f.dissection.dstAddress],
	'ip.src': (f) => f.dissection.srcAddress,
	'ip.dst': (f) => f.dissection.dstAddress,
	'ip.proto': (f) => f.dissection.ipProtocol,
	tcp: has('TCP'),
	udp: has('UDP'),
	icmp: has('ICMP'),
	icmpv6: has('ICMPv6'),
	dns: has('DNS'),
	'tcp.port': port(6, 'any'),
	'tcp.srcport': port(6, 'src'),
	'tcp.dstport': port(6, 'dst'),
	'udp.port': port(17, 'any'),
	'udp.srcport': port(17, 'src'),
	'udp.dstport': port(17, 'dst'),
	'tcp.len': (f) => (f.dissection.tcp ? f.dissection.payloadBytes : null),
	'tcp.seq': (f) => f.dissection.tcp?.seq ?? null,
	'tcp.ack': (f) => f.dissection.tcp?.ack ?? null,
	'tcp.window_size_value': (f) => f.dissection.tcp?.window ?? null,
	'tcp.flags.fin': flag(0x01),
	'tcp.flags.syn': flag(0x02),
	'tcp.flags.reset': flag(0x04),
	'tcp.flags.rst': flag(0x04),
	'tcp.flags.push': flag(0x08),
	'tcp.flags.ack': flag(0x10),
	'dns.qry.name': (f) => f.dissection.dns?.questions.map((q) => q.name) ?? null,
	'dns.a': (f) => f.dissection.dns?.answers.map((a) => a.data) ?? null,
	'dns.flags.response': (f) => f.dissection.dns?.response ?? null,
	'icmp.type': (f) => f.dissection.icmp?.type ?? null,
	malformed: (f) => f.dissection.malformed !== null || f.problem !== null,
	drop: (f) => f.dropReason !== null,
	drop_reason: (f) => f.dropReasonName ?? f.dropReason,
	protocol: (f) => f.dissection.protocol,
	direction: (f) => f.direction,
	interface: (f) => f.interfaceKey,
	header_pid: (f) => f.headerPid,
	pid: (_, o) => o.pid,
	process: (_, o) => o.process,
	socket: (_, o) => o.socket,
	owned: (_, o) => o.socket !== null,
	reason: (_, o) => o.reason,
	host: (f, o, names) => [
		...names(o.socket),
		...(f.dissection.dns?.questions.map((q) => q.name) ?? []),
	],
};

export const PACKET_FILTER_FIELDS: readonly string[] = Object.keys(FIELDS);

export type Test = (
	f: Frame,
	o: PacketOwner,
	names: (socket: string | null) => readonly string[],
) => boolean;

function compare(v: Value, op: string, want: string): boolean {
	if (Array.isArray(v)) {
		const any = v.some((x) => compare(x, op === '!=' ? '==' : op, want));
		return op === '!=' ? !any : any;
	}
	if (v === null) return op === '!=';
	if (typeof v === 'boolean') {
		const w = want === '1' || want.toLowerCase() === 'true';
		return op === '!=' ? v !== w : v === w;
	}
	if (typeof v === 'number' && /^-?\d+(\.\d+)?$/.test(want)) {
		const w = Number(want);
		switch (op) {
			case '>':
				return v > w;
			case '<':
				return v < w;
			case '>=':
				return v >= w;
			case '<=':
				return v <= w;
			case '!=':
				return v !== w;
			default:
				return v === w;
		}
	}
	const text = String(v).toLowerCase();
	const pattern = new RegExp(
		'^' +
			want
				.toLowerCase()
				.replace(/[.+?^${}()|[\]\\]/g, '\\$&')
				.replace(/\*/g, '.*') +
			'$',
	);
	// `process:curl` finds curl.exe: a word without a wildcard matches a prefix too.
	const hit = pattern.test(text) || (!want.includes('*') && text.startsWith(want.toLowerCase()));
	return op === '!=' ? !hit : hit;
}

function truthy(v: Value): boolean {
	if (Array.isArray(v)) return v.some((x) => x !== null);
	return v !== null && v !== false && v !== 0;
}

/** The filter as a test of a frame and its owner; throws PacketFilterError naming what is wrong. */
export function compilePacketFilter(expr: string): Test {
	const tests: Test[] = [];
	for (let term of expr.split(/\s+(?:&&\s+|and\s+)?/i).filter(Boolean)) {
		let negate = false;
		while (term.startsWith('!') || term.startsWith('-')) {
			negate = !negate;
			term = term.slice(1);
		}
		const m = /^([a-z_][a-z0-9_.]*)(?:(==|!=|>=|<=|=|:|>|<)(.*))?$/i.exec(term);
		if (!m) throw new PacketFilterError(msg('packet-filter.term', { term }));
		const name = m[1]!.toLowerCase();
		const get = FIELDS[name];
		if (!get) {
			const near = nearest(name, PACKET_FILTER_FIELDS);
			throw new PacketFilterError(
				near
					? msg('packet-filter.field-near', { name, near })
					: msg('packet-filter.field', { name }),
			);
		}
		const op = m[2] === undefined ? null : m[2] === '=' || m[2] === ':' ? '==' : m[2];
		const value = (m[3] ?? '').replace(/^"(.*)"$/, '$1');
		if (op !== null && value === '')
			throw new PacketFilterError(msg('packet-filter.value', { term: `${name}${m[2]}` }));
		const test: Test =
			op === null
				? (f, o, n) => truthy(get(f, o, n))
				: (f, o, n) => compare(get(f, o, n), op, value);
		tests.push(negate ? (f, o, n) => !test(f, o, n) : test);
	}
	return (f, o, n) => tests.every((t) => t(f, o, n));
}
