// Frames from the capture providers' events, in the order the trace gives them (time order):
// NDIS-PacketCapture 1001/1003 fragments reassembled by their keywords, as etl2pcapng does
// (KW_PACKET_START … KW_PACKET_END; the frame's time is its last fragment's), direction from
// KW_SEND/KW_RECEIVE and the link type from the media keywords; PktMon 160/170 one frame per
// appearance, with the component descriptions (20) and addresses (65/66/70) naming interfaces.
import { ipv6 } from '../net/ip.ts';
import type { DecodedBuffer } from '../decoder/decoded-buffer.ts';
import {
	NDIS_KEYWORDS,
	NDIS_MEDIA,
	PKTMON_DROP_REASONS,
	PKTMON_PACKET_TYPES,
	type LinkName,
} from '../generated/packet-capture.ts';
import { msg, type Msg } from '../i18n/render.ts';
import { macText } from './frame-reader.ts';
import { CaptureEvent, NDISCAP_CODE } from './capture-fields.ts';
import { dissect } from './dissect.ts';
import type { CaptureInterface, Direction, Frame } from './types.ts';

/** Something wrong with how packets were logged, and where: the event's record index and file offset. */
export interface CaptureProblem {
	readonly index: number;
	/** File offset of the event (of its compressed buffer, when it is in one). */
	readonly offset: number;
	/** `record at file offset 0x…` (or its place in a compressed buffer). */
	readonly where: Msg;
	readonly what: Msg;
}

/** Largest frame a reassembly holds (etl2pcapng's MAX_PACKET_SIZE): more is a lie or a loss. */
const MAX_FRAME = 65535;
/** NDIS_NET_BUFFER_LIST_INFO slot of the 802.1Q tag in a vmswitch event's OOB data. */
const OOB_VLAN_SLOT = 4;

interface Pending {
	parts: Uint8Array[];
	size: number;
	count: number;
	startIndex: number;
	start: { offset: number; text: Msg };
}

interface MutableInterface {
	key: string;
	source: 'ndis' | 'pktmon';
	link: LinkName;
	name: string;
	description: string;
	ipv4: string[];
	ipv6: string[];
	mac: string | null;
}

function ndisLink(keyword: bigint): LinkName {
	for (const m of NDIS_MEDIA) if (m.keyword === null || (keyword & m.keyword) !== 0n) return m.link;
	return 'ethernet';
}

function ndisDirection(keyword: bigint): Direction | null {
	if (keyword & NDIS_KEYWORDS.send) return 'out';
	if (keyword & NDIS_KEYWORDS.receive) return 'in';
	return null;
}

export class PacketCapture {
	readonly frames: Frame[] = [];
	readonly problems: CaptureProblem[] = [];
	/** Capture events seen (fragments, metadata, PktMon packets and descriptions). */
	events = 0;
	readonly #interfaces = new Map<string, MutableInterface>();
	/** PktMon components by id: names and addresses, logged at the end of a capture. */
	readonly #components = new Map<
		number,
		{ name: string; description: string; ipv4: string[]; ipv6: string[]; mac: string | null }
	>();
	readonly #pending = new Map<string, Pending>();
	readonly #ev = new CaptureEvent();
	readonly #pointerSize: number;
	/** Called with each frame as it is completed (a stream reader); frames are kept unless `keep` is false. */
	readonly #onFrame: ((f: Frame) => void) | null;
	readonly #keep: boolean;
	#count = 0;

	constructor(
		options: { pointerSize?: number; onFrame?: (f: Frame) => void; keep?: boolean } = {},
	) {
		this.#pointerSize = options.pointerSize ?? 8;
		this.#onFrame = options.onFrame ?? null;
		this.#keep = options.keep ?? true;
	}

	/** Record i of a buffer, the index-th record of the trace (decode order). */
	feed(buf: DecodedBuffer, i: number, index: number): void {
		const ev = this.#ev;
		if (!ev.set(buf, i)) return;
		this.events++;
		if (ev.provider === NDISCAP_CODE) {
			if (ev.id === 1001 || ev.id === 1003) this.#ndisFragment(ev, index);
			return;
		}
		switch (ev.id) {
			case 20: {
				const c = this.#component(ev.num('Id'));
				if (c) {
					c.name = ev.text('Name') ?? c.name;
					c.description = ev.text('Description') ?? c.description;
				}
				return;
			}
			case 65:
			case 66: {
				const c = this.#component(ev.num('ComponentId'));
				const b = ev.bytes('IpAddress');
				if (!c || !b) return;
				if (ev.id === 65 && b.length === 4) c.ipv4.push([...b].join('.'));
				if (ev.id === 66 && b.length === 16) c.ipv6.push(ipv6(b, 0));
				return;
			}
			case 70: {
				const c = this.#component(ev.num('ComponentId'));
				const b = ev.bytes('Value');
				if (c && b && b.length === 6) c.mac = macText(b, 0);
				return;
			}
			case 160:
			case 170:
				this.#pktmonPacket(ev, index);
		}
	}

	/** Ends the capture: a frame still waiting for its last fragment is reported. */
	finish(): void {
		for (const [key, p] of this.#pending)
			this.problems.push({
				index: p.startIndex,
				offset: p.start.offset,
				where: p.start.text,
				what: msg('capture.no-last-fragment', {
					start: p.startIndex,
					interface: key,
					fragments: p.count,
					bytes: p.size,
				}),
			});
		this.#pending.clear();
	}

	/** The interfaces frames came through, with the names PktMon gave its components. */
	interfaces(): CaptureInterface[] {
		return [...this.#interfaces.values()].map((f) => {
			const id = f.source === 'pktmon' ? Number(f.key.split(':')[1]) : -1;
			const c = this.#components.get(id);
			return c
				? {
						...f,
						name: c.name || f.name,
						description: c.description || f.description,
						ipv4: c.ipv4,
						ipv6: c.ipv6,
						mac: c.mac,
					}
				: { ...f };
		});
	}

	/** The machine's addresses as PktMon's components name them. */
	localAddresses(): string[] {
		return [...this.#components.values()].flatMap((c) => [...c.ipv4, ...c.ipv6]);
	}

	#component(id: number | null) {
		if (id === null) return null;
		let c = this.#components.get(id);
		if (!c)
			this.#components.set(id, (c = { name: '', description: '', ipv4: [], ipv6: [], mac: null }));
		return c;
	}

	#interface(
		key: string,
		source: 'ndis' | 'pktmon',
		link: LinkName,
		name: string,
		description: string,
	) {
		let f = this.#interfaces.get(key);
		if (!f) {
			f = { key, source, link, name, description, ipv4: [], ipv6: [], mac: null };
			this.#interfaces.set(key, f);
		}
		return f;
	}

	#ndisFragment(ev: CaptureEvent, index: number): void {
		const keyword = ev.keyword;
		const lower = ev.num('LowerIfIndex');
		const miniport = ev.num('MiniportIfIndex');
		const fragment = ev.bytes('Fragment');
		if (lower === null || fragment === null) {
			const size = ev.num('FragmentSize');
			this.problems.push({
				index,
				...this.#where(ev),
				what:
					size === null
						? msg('capture.ndis-ends-early', { id: ev.id })
						: msg('capture.ndis-fragment-past', { id: ev.id, size }),
			});
			return;
		}
		let key = `ndis:${lower}`;
		let name = `eth:${lower}`;
		let description = `LWF over IfIndex ${lower}${miniport !== null && miniport !== lower ? ` (miniport ${miniport})` : ''}`;
		if (ev.id === 1003) {
			const port = ev.num('SourcePortId') ?? 0;
			const vlan = this.#oobVlan(ev.bytes('OOBData'));
			key = `ndis:${lower}:${port}:${vlan}`;
			name = `vmswitch:${ev.text('SourcePortName') ?? port}:${vlan}`;
			description = `vSwitch port ${port} (${ev.text('SourceNicType') ?? ''} ${ev.text('SourceNicName') ?? ''}) over IfIndex ${lower}`;
		}
		const link = ndisLink(keyword);
		this.#interface(key, 'ndis', link, name, description);
		const start = (keyword & NDIS_KEYWORDS.packetStart) !== 0n;
		const end = (keyword & NDIS_KEYWORDS.packetEnd) !== 0n;
		let p = this.#pending.get(key);
		if (start && p) {
			this.problems.push({
				index: p.startIndex,
				offset: p.start.offset,
				where: p.start.text,
				what: msg('capture.lost-last-fragment', {
					start: p.startIndex,
					interface: key,
					index,
					fragments: p.count,
				}),
			});
			p = undefined;
		}
		if (!start && !p) {
			this.problems.push({
				index,
				...this.#where(ev),
				what: msg('capture.no-first-fragment', { index, interface: key }),
			});
			return;
		}
		if (!p) p = { parts: [], size: 0, count: 0, startIndex: index, start: ev.where() };
		if (p.size + fragment.length > MAX_FRAME) {
			this.problems.push({
				index,
				...this.#where(ev),
				what: msg('capture.too-big', {
					start: p.startIndex,
					interface: key,
					max: MAX_FRAME,
					index,
				}),
			});
			this.#pending.delete(key);
			return;
		}
		p.parts.push(fragment.slice());
		p.size += fragment.length;
		p.count++;
		if (!end) {
			this.#pending.set(key, p);
			return;
		}
		this.#pending.delete(key);
		const bytes = p.parts.length === 1 ? p.parts[0]! : concat(p.parts, p.size);
		if (link === 'ieee80211' && bytes.length > 1) bytes[1]! &= 0xbf; // decrypted: clear Protected
		this.#emit({
			index,
			filetime: ev.time,
			interfaceKey: key,
			direction: ndisDirection(keyword),
			link,
			bytes,
			originalLength: null,
			headerPid: ev.pid,
			headerTid: ev.tid,
			pktGroupId: null,
			appearance: null,
			dropReason: null,
			dropReasonName: null,
			dropLocation: null,
			fragments: p.count,
			problem: null,
		});
	}

	#where(ev: CaptureEvent): { offset: number; where: Msg } {
		const w = ev.where();
		return { offset: w.offset, where: w.text };
	}

	#oobVlan(oob: Uint8Array | null): number {
		const at = OOB_VLAN_SLOT * this.#pointerSize;
		if (!oob || oob.length < at + 4) return 0;
		const v = oob[at]! | (oob[at + 1]! << 8);
		return (v >> 4) & 0xfff;
	}

	#pktmonPacket(ev: CaptureEvent, index: number): void {
		const payload = ev.bytes('Payload');
		const component = ev.num('ComponentId');
		if (payload === null || component === null) {
			this.problems.push({
				index,
				...this.#where(ev),
				what: msg('capture.pktmon-payload-past', {
					id: ev.id,
					size: ev.num('LoggedPayloadSize') ?? '?',
				}),
			});
			return;
		}
		const type = ev.num('PacketType') ?? 0;
		const link = PKTMON_PACKET_TYPES[type];
		if (!link) {
			this.problems.push({
				index,
				...this.#where(ev),
				what: msg('capture.pktmon-not-frame', { id: ev.id, type }),
			});
			return;
		}
		const key = `pktmon:${component}`;
		this.#interface(key, 'pktmon', link, `component ${component}`, `PktMon component ${component}`);
		const drop = ev.id === 170;
		const reason = drop ? ev.num('DropReason') : null;
		const original = ev.num('OriginalPayloadSize');
		this.#emit({
			index,
			filetime: ev.time,
			interfaceKey: key,
			// The direction tag's values are not documented: left unknown rather than guessed.
			direction: null,
			link,
			bytes: payload.slice(),
			originalLength: original,
			headerPid: ev.pid,
			headerTid: ev.tid,
			pktGroupId: ev.big('PktGroupId'),
			appearance: ev.num('AppearanceCount'),
			dropReason: reason,
			dropReasonName: reason === null ? null : (PKTMON_DROP_REASONS[reason] ?? null),
			dropLocation: drop ? ev.num('DropLocation') : null,
			fragments: 1,
			problem: null,
		});
	}

	#emit(f: Omit<Frame, 'number' | 'dissection'>): void {
		const frame: Frame = { ...f, number: this.#count++, dissection: dissect(f.bytes, f.link) };
		if (this.#keep) this.frames.push(frame);
		this.#onFrame?.(frame);
	}
}

function concat(parts: readonly Uint8Array[], size: number): Uint8Array {
	const out = new Uint8Array(size);
	let at = 0;
	for (const p of parts) {
		out.set(p, at);
		at += p.length;
	}
	return out;
}
