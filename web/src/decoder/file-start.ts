// What a file that is not an ETL trace holds at offset 0, said in words: the formats people
// mistake for a trace (a capture converted to pcapng, the .cab that wraps a trace, a text export)
// by their signatures, else text or the first bytes in hex.

/** Signatures at offset 0: the bytes (hex) and what they are. */
const SIGNATURES: readonly (readonly [string, string])[] = [
	['0a0d0d0a', 'a pcapng capture'],
	['d4c3b2a1', 'a pcap capture'],
	['a1b2c3d4', 'a pcap capture'],
	['4d534346', 'a .cab archive'],
	['504b0304', 'a .zip archive'],
	['1f8b', 'a gzip archive'],
	['377abcaf271c', 'a 7-Zip archive'],
	['456c6646696c6500', 'a Windows event log (.evtx)'],
	['25504446', 'a PDF document'],
	['fffe', 'UTF-16 text'],
	['efbbbf', 'UTF-8 text'],
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

/** What the first bytes of a file are, e.g. `text ("hello, world")` or `a pcapng capture`. */
export function describeFileStart(head: Uint8Array): string {
	const start = hexOf(head.subarray(0, 8)).replace(/ /g, '');
	for (const [magic, what] of SIGNATURES) if (start.startsWith(magic)) return what;
	const sample = head.subarray(0, 256);
	if (isText(sample)) {
		const text = String.fromCharCode(...sample)
			.replace(/\s+/g, ' ')
			.trim();
		const shown = text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS).trimEnd()}…` : text;
		return `text (${JSON.stringify(shown)})`;
	}
	return `the bytes ${hexOf(head.subarray(0, SHOWN_BYTES))}${head.length > SHOWN_BYTES ? ' …' : ''}`;
}
