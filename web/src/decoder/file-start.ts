// What a file that is not an ETL trace holds at offset 0, said in words: the formats people
// mistake for a trace (a capture converted to pcapng, the .cab that wraps a trace, a text export)
// by their signatures, else text or the first bytes in hex; in English (the CLI) and as a
// message for the page (fileStartText).
import type { Message } from '../lib/message.ts';
import { key } from './messages.ts';

/** Signatures at offset 0: the bytes (hex), what they are, and the message saying so. */
const SIGNATURES: readonly (readonly [string, string, Message])[] = [
	['0a0d0d0a', 'a pcapng capture', key('file-start.pcapng', {})],
	['d4c3b2a1', 'a pcap capture', key('file-start.pcap', {})],
	['a1b2c3d4', 'a pcap capture', key('file-start.pcap', {})],
	['4d534346', 'a .cab archive', key('file-start.cab', {})],
	['504b0304', 'a .zip archive', key('file-start.zip', {})],
	['1f8b', 'a gzip archive', key('file-start.gzip', {})],
	['377abcaf271c', 'a 7-Zip archive', key('file-start.7zip', {})],
	['456c6646696c6500', 'a Windows event log (.evtx)', key('file-start.evtx', {})],
	['25504446', 'a PDF document', key('file-start.pdf', {})],
	['fffe', 'UTF-16 text', key('file-start.utf16', {})],
	['efbbbf', 'UTF-8 text', key('file-start.utf8', {})],
];

const SHOWN_BYTES = 16;
const SHOWN_CHARS = 32;

function hexOf(bytes: Uint8Array): string {
	return [...bytes].map((b) => b.toString(16).padStart(2, '0')).join(' ');
}

/** Printable ASCII and the usual white space. */
function isText(bytes: Uint8Array): boolean {
	return (
		bytes.length > 0 &&
		bytes.every((b) => (b >= 0x20 && b < 0x7f) || b === 9 || b === 10 || b === 13)
	);
}

/** What the first bytes are: a known format (its index), a text sample, or bytes in hex. */
function fileStart(head: Uint8Array): { signature: number } | { text: string } | { bytes: string } {
	const start = hexOf(head.subarray(0, 8)).replace(/ /g, '');
	const signature = SIGNATURES.findIndex(([magic]) => start.startsWith(magic));
	if (signature >= 0) return { signature };
	const sample = head.subarray(0, 256);
	if (isText(sample)) {
		const text = String.fromCharCode(...sample)
			.replace(/\s+/g, ' ')
			.trim();
		const shown = text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS).trimEnd()}…` : text;
		return { text: JSON.stringify(shown) };
	}
	return {
		bytes: `${hexOf(head.subarray(0, SHOWN_BYTES))}${head.length > SHOWN_BYTES ? ' …' : ''}`,
	};
}

/** What the first bytes of a file are, e.g. `text ("hello, world")` or `a pcapng capture`. */
export function describeFileStart(head: Uint8Array): string {
	const f = fileStart(head);
	if ('signature' in f) return SIGNATURES[f.signature]![1];
	return 'text' in f ? `text (${f.text})` : `the bytes ${f.bytes}`;
}

/** The same as a catalogue message (its English is describeFileStart's). */
export function fileStartText(head: Uint8Array): Message {
	const f = fileStart(head);
	if ('signature' in f) return SIGNATURES[f.signature]![2];
	return 'text' in f
		? key('file-start.text', { sample: f.text })
		: key('file-start.bytes', { bytes: f.bytes });
}
