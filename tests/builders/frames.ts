// Hand-built network frames for the packet tests and the capture scenarios: Ethernet (with an
// optional 802.1Q tag), ARP, IPv4, IPv6 (with extension headers), TCP (flags, options), UDP,
// ICMPv6 neighbor solicitation and DNS messages (names compressed after their first use).

export const MAC_A = '02:00:00:00:00:0a';
export const MAC_B = '02:00:00:00:00:0b';
export const BROADCAST = 'ff:ff:ff:ff:ff:ff';

const mac = (s: string) => s.split(':').map((x) => parseInt(x, 16));
const be16 = (v: number) => [(v >> 8) & 0xff, v & 0xff];
const be32 = (v: number) => [(v >>> 24) & 0xff, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff];
const v4 = (s: string) => s.split('.').map(Number);

export function v6(s: string): number[] {
	const [head, tail] = s.includes('::') ? s.split('::') : [s, null];
	const h = head ? head.split(':') : [];
	const t = tail ? tail.split(':') : [];
	const groups = [...h, ...Array(8 - h.length - t.length).fill('0'), ...t];
	if (tail === null && h.length !== 8) throw new Error(`bad IPv6 ${s}`);
	return groups.flatMap((g) => be16(parseInt(g || '0', 16)));
}

export function ethernet(
	type: number,
	payload: Uint8Array | number[],
	o: { src?: string; dst?: string; vlan?: number } = {},
): Uint8Array {
	const tag = o.vlan === undefined ? [] : [0x81, 0x00, ...be16(o.vlan)];
	return Uint8Array.from([
		...mac(o.dst ?? MAC_B),
		...mac(o.src ?? MAC_A),
		...tag,
		...be16(type),
		...payload,
	]);
}

function checksum(b: number[]): number {
	let sum = 0;
	for (let k = 0; k < b.length; k += 2) sum += (b[k]! << 8) | (b[k + 1] ?? 0);
	while (sum > 0xffff) sum = (sum & 0xffff) + (sum >> 16);
	return ~sum & 0xffff;
}

export function ipv4(
	src: string,
	dst: string,
	proto: number,
	payload: Uint8Array | number[],
	o: { totalLength?: number; ihl?: number; fragOffset?: number } = {},
): number[] {
	const ihl = o.ihl ?? 5;
	const total = o.totalLength ?? 20 + payload.length;
	const h = [
		0x40 | ihl,
		0,
		...be16(total),
		0x12,
		0x34,
		...be16(0x4000 | ((o.fragOffset ?? 0) / 8)),
		128,
		proto,
		0,
		0,
		...v4(src),
		...v4(dst),
	];
	const c = checksum(h);
	h[10] = c >> 8;
	h[11] = c & 0xff;
	return [...h, ...payload];
}

/** IPv6 with optional extension headers given as [next header number, 8·n bytes body]. */
export function ipv6(
	src: string,
	dst: string,
	proto: number,
	payload: Uint8Array | number[],
	ext: readonly { type: number; body: number[] }[] = [],
): number[] {
	const chain: number[] = [];
	const types = [...ext.map((e) => e.type), proto];
	ext.forEach((e, k) => {
		chain.push(types[k + 1]!, (e.body.length + 2) / 8 - 1, ...e.body);
	});
	const rest = [...chain, ...payload];
	return [0x60, 0, 0, 0, ...be16(rest.length), types[0]!, 64, ...v6(src), ...v6(dst), ...rest];
}

export const TCP = { FIN: 1, SYN: 2, RST: 4, PSH: 8, ACK: 16 } as const;

export function tcp(
	sport: number,
	dport: number,
	flags: number,
	o: {
		seq?: number;
		ack?: number;
		window?: number;
		mss?: number;
		wscale?: number;
		payload?: number[];
	} = {},
): number[] {
	const opts: number[] = [];
	if (o.mss !== undefined) opts.push(2, 4, ...be16(o.mss));
	if (o.wscale !== undefined) opts.push(1, 3, 3, o.wscale);
	while (opts.length % 4) opts.push(0);
	const off = (20 + opts.length) / 4;
	return [
		...be16(sport),
		...be16(dport),
		...be32(o.seq ?? 1000),
		...be32(o.ack ?? 0),
		off << 4,
		flags,
		...be16(o.window ?? 64240),
		0,
		0,
		0,
		0,
		...opts,
		...(o.payload ?? []),
	];
}

export function udp(sport: number, dport: number, payload: Uint8Array | number[]): number[] {
	return [...be16(sport), ...be16(dport), ...be16(8 + payload.length), 0, 0, ...payload];
}

export function arpRequest(senderIp: string, targetIp: string, sender = MAC_A): number[] {
	return [
		0,
		1,
		8,
		0,
		6,
		4,
		0,
		1,
		...mac(sender),
		...v4(senderIp),
		0,
		0,
		0,
		0,
		0,
		0,
		...v4(targetIp),
	];
}

/** An ICMPv6 neighbor solicitation for `target`. */
export function neighborSolicitation(target: string): number[] {
	return [135, 0, 0, 0, 0, 0, 0, 0, ...v6(target)];
}

function dnsName(name: string, seen: Map<string, number>, at: number): number[] {
	const out: number[] = [];
	const labels = name.split('.');
	for (let k = 0; k < labels.length; k++) {
		const rest = labels.slice(k).join('.');
		const ptr = seen.get(rest);
		if (ptr !== undefined) return [...out, 0xc0 | (ptr >> 8), ptr & 0xff];
		seen.set(rest, at + out.length);
		const l = labels[k]!;
		out.push(l.length, ...[...l].map((c) => c.charCodeAt(0)));
	}
	return [...out, 0];
}

/** A DNS query or response (A answers for `answers`, names compressed against earlier ones). */
export function dns(o: {
	id: number;
	name: string;
	type?: number;
	answers?: readonly string[];
}): number[] {
	const seen = new Map<string, number>();
	const answers = o.answers ?? [];
	const response = o.answers !== undefined;
	const out = [
		...be16(o.id),
		response ? 0x81 : 0x01,
		response ? 0x80 : 0x00,
		0,
		1,
		...be16(answers.length),
		0,
		0,
		0,
		0,
	];
	out.push(...dnsName(o.name, seen, out.length), ...be16(o.type ?? 1), 0, 1);
	for (const a of answers) {
		out.push(...dnsName(o.name, seen, out.length), 0, 1, 0, 1, ...be32(300), 0, 4, ...v4(a));
	}
	return out;
}
