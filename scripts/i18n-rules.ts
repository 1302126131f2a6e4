// The rules npm run i18n:check applies to what a person reads, as pure functions so tests can
// plant a bad string and see each rule fail: one term per concept (schema/glossary-zh.json),
// a space between Latin words and Chinese, no user-visible literal in .svelte markup, and no
// English prose built in the .ts modules that feed the page.

export interface GlossaryTerm {
	readonly concept: string;
	readonly term: string;
	readonly wrong: readonly string[];
	readonly allow?: readonly string[];
}

/** Where `text` uses a wrong variant of a glossary term (phrases in `allow` are cut out first). */
export function glossaryProblems(text: string, terms: readonly GlossaryTerm[]): string[] {
	const out: string[] = [];
	for (const g of terms) {
		let t = text;
		for (const a of g.allow ?? []) t = t.split(a).join('');
		for (const w of g.wrong)
			if (t.includes(w)) out.push(`uses ${w} for "${g.concept}" (the glossary says ${g.term})`);
	}
	return out;
}

const HAN = '\\p{Script=Han}';
// A Latin word or number touching a Han character with no space; placeholders ({{x}}), tags and
// punctuation are not words. A digit before a measure word is still a number and needs the space.
const LATIN_THEN_HAN = new RegExp(`[A-Za-z0-9][${HAN.slice(0)}]`, 'u');
const HAN_THEN_LATIN = new RegExp(`[${HAN}][A-Za-z0-9]`, 'u');

/** The Latin/CJK spacing slips in one message (placeholders and markup removed first). */
export function spacingProblems(message: string): string[] {
	const text = message
		.replace(/\{\{[^}]*\}\}/g, ' ')
		.replace(/<[^>]*>/g, ' ')
		.replace(/\$t\([^)]*\)/g, ' ');
	const out: string[] = [];
	for (const re of [LATIN_THEN_HAN, HAN_THEN_LATIN]) {
		const m = re.exec(text);
		if (m) out.push(`no space in "${m[0]}"`);
	}
	return out;
}

/**
 * Text a person reads in .svelte markup that does not come from the catalogue: a run of letters
 * between tags, or a title/placeholder/aria-label/alt attribute with a literal value.
 * Script blocks and style blocks are not markup; {expressions} are the catalogue's business.
 */
export function markupLiterals(svelte: string, allowed: readonly string[] = []): string[] {
	const markup = stripExpressions(
		svelte
			.replace(/<script[\s\S]*?<\/script>/g, '')
			.replace(/<style[\s\S]*?<\/style>/g, '')
			.replace(/<!--[\s\S]*?-->/g, ''),
	);
	const out: string[] = [];
	const ok = (s: string) => allowed.includes(s.trim());
	const words = /[\p{L}]{2,}/u;
	// Text between tags ({…} expressions are already cut out).
	for (const m of markup.matchAll(/>([^<>]*)</g)) {
		const text = m[1]!.replace(/\s+/g, ' ').trim();
		if (text && words.test(text) && !ok(text)) out.push(`text "${text}"`);
	}
	for (const m of markup.matchAll(/\b(title|placeholder|aria-label|alt)="([^"{]*)"/g))
		if (words.test(m[2]!) && !ok(m[2]!)) out.push(`${m[1]}="${m[2]}"`);
	return out;
}

function stripExpressions(s: string): string {
	let depth = 0;
	let out = '';
	for (const c of s) {
		if (c === '{') depth++;
		else if (c === '}') depth = Math.max(0, depth - 1);
		else if (depth === 0) out += c;
		else if (c === '\n') out += c;
	}
	return out;
}

/**
 * Strings built for people in a `.ts` module that bypass the catalogue: a string or template
 * literal holding English prose (two words or more, the second lowercase). Comments, console
 * output, errors thrown for a bug (`new Error`, shown as data), object keys and imports are not
 * prose; a line marked `// i18n: data` (or the line after such a comment) keeps its literal on
 * purpose, e.g. the English that only the command line prints.
 */
export function builderLiterals(ts: string): { line: number; text: string }[] {
	const out: { line: number; text: string }[] = [];
	const lines = ts.split('\n');
	let inBlock = false;
	for (let i = 0; i < lines.length; i++) {
		let line = lines[i]!;
		// Block comments (JSDoc): skipped whole lines, as sources here write them.
		if (inBlock) {
			if (line.includes('*/')) inBlock = false;
			continue;
		}
		if (/^\s*\/\*/.test(line)) {
			if (!line.includes('*/')) inBlock = true;
			continue;
		}
		if (/^\s*\/\//.test(line) || /^\s*import\b/.test(line)) continue;
		if (/\bi18n: data\b/.test(line) || /\bi18n: data\b/.test(lines[i - 1] ?? '')) continue;
		if (/\bconsole\.\w+\(|new Error\(|new TypeError\(|new RangeError\(/.test(line)) continue;
		line = line.replace(/\s\/\/ .*$/, '');
		for (const m of line.matchAll(/'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"|`((?:[^`\\]|\\.)*)`/g)) {
			const text = (m[1] ?? m[2] ?? m[3]!).replace(/\$\{[^}]*\}/g, ' ');
			// An object key or a catalogue key is no prose; prose has a space between words.
			if (/^[\w.:-]+$/.test(text)) continue;
			if (/\b[A-Za-z][a-z]+ [a-z]{2,}\b/.test(text))
				out.push({ line: i + 1, text: (m[1] ?? m[2] ?? m[3]!).trim() });
		}
	}
	return out;
}
