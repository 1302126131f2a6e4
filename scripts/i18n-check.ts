// Fails when a message key is used but missing in a language, defined but never used, or when
// en.ts and zh.ts hold different keys (npm run check). A key is used where the source calls
// t('key'), msg('key') or key('key'); a template key (`finding.${kind}.title`) uses every key it
// matches and must match one. It also applies scripts/i18n-rules.ts: the glossary
// (schema/glossary-zh.json) over zh.ts and the Chinese schemas, Latin/CJK spacing, and no literal
// text in .svelte markup but the names in MARKUP_ALLOWED, and no new English prose built in the
// .ts modules that feed the page (builderLiterals).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { en } from '../web/src/i18n/en.ts';
import { zh } from '../web/src/i18n/zh.ts';
import {
	builderLiterals,
	glossaryProblems,
	markupLiterals,
	spacingProblems,
	type GlossaryTerm,
} from './i18n-rules.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const PLURAL = /_(zero|one|two|few|many|other)$/;
const base = (k: string) => k.replace(PLURAL, '');

function files(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
		d.isDirectory()
			? files(join(dir, d.name))
			: /\.(ts|svelte)$/.test(d.name)
				? [join(dir, d.name)]
				: [],
	);
}

const problems: string[] = [];
const catalogs = { en, zh } as const;
const bases = (c: Record<string, string>) => new Set(Object.keys(c).map(base));
const enBases = bases(en);
const zhBases = bases(zh);
for (const k of enBases) if (!zhBases.has(k)) problems.push(`zh.ts lacks ${k}`);
for (const k of zhBases) if (!enBases.has(k)) problems.push(`en.ts lacks ${k}`);
for (const k of Object.keys(en))
	if (PLURAL.test(k) && !(`${base(k)}_one` in en && `${base(k)}_other` in en))
		problems.push(`en.ts: ${base(k)} needs _one and _other`);
for (const k of Object.keys(zh))
	if (PLURAL.test(k) && !(`${base(k)}_other` in zh))
		problems.push(`zh.ts: ${base(k)} needs _other`);

const used = new Set<string>();
const call = /\b(?:t|msg|key)\(\s*(['"`])((?:(?!\1).)+)\1/g;
for (const file of files(join(root, 'web/src'))) {
	if (file.includes(`${join('web', 'src', 'i18n')}`)) continue;
	const text = readFileSync(file, 'utf8');
	for (const m of text.matchAll(call)) {
		const key = m[2]!;
		const where = `${file.slice(root.length + 1)}: ${key}`;
		if (m[1] === '`' && key.includes('${')) {
			const pattern = new RegExp(
				'^' +
					key
						.split(/\$\{[^}]*\}/)
						.map((s) => s.replace(/[.*+?^$()|[\]\\{}]/g, '\\$&'))
						.join('[^.]+') +
					'$',
			);
			const hits = [...enBases].filter((k) => pattern.test(k));
			if (hits.length === 0) problems.push(`${where} matches no key`);
			for (const h of hits) used.add(h);
			continue;
		}
		used.add(key);
		for (const [lang, c] of Object.entries(catalogs))
			if (!bases(c).has(key)) problems.push(`${where} is missing in ${lang}.ts`);
	}
}
for (const k of enBases) if (!used.has(k)) problems.push(`unused key ${k}`);

// Names, not words: the product, a provider, a unit.
const MARKUP_ALLOWED = ['Sockscope', 'Winsock', 'MB/s', '· MB/s'];
const glossary = (
	JSON.parse(readFileSync(join(root, 'schema/glossary-zh.json'), 'utf8')) as {
		terms: GlossaryTerm[];
	}
).terms;
for (const [k, v] of Object.entries(zh))
	for (const p of [...glossaryProblems(v, glossary), ...spacingProblems(v)])
		problems.push(`zh.ts ${k}: ${p}`);
for (const name of ['winsock-afd-zh.json', 'status-notes-zh.json']) {
	const data = JSON.parse(readFileSync(join(root, 'schema', name), 'utf8')) as Record<
		string,
		unknown
	>;
	delete data['about'];
	const walk = (o: unknown, at: string): void => {
		if (typeof o === 'string')
			for (const p of [...glossaryProblems(o, glossary), ...spacingProblems(o)])
				problems.push(`schema/${name} ${at}: ${p}`);
		else if (o && typeof o === 'object')
			for (const [k, v] of Object.entries(o)) walk(v, at ? `${at}.${k}` : k);
	};
	walk(data, '');
}
for (const file of files(join(root, 'web/src')))
	if (file.endsWith('.svelte'))
		for (const p of markupLiterals(readFileSync(file, 'utf8'), MARKUP_ALLOWED))
			problems.push(`${file.slice(root.length + 1)}: literal ${p} (use the catalogue)`);

// English prose built in .ts modules that reach the page, outside the catalogue, fails. The
// folders whose text is English by design are left out: the command line, and the decoder's, the
// store's and the exports' English, which the page replaces with the message each carries beside it.
const BUILDER_DIRS = /^web\/src\/(cli|decoder|generated|i18n|export|store|lib)\//;
for (const file of files(join(root, 'web/src'))) {
	const rel = file
		.slice(root.length + 1)
		.split('\\')
		.join('/');
	if (!file.endsWith('.ts') || BUILDER_DIRS.test(rel)) continue;
	for (const l of builderLiterals(readFileSync(file, 'utf8')))
		problems.push(`${rel}:${l.line}: English built outside the catalogue: "${l.text}"`);
}

if (problems.length) {
	for (const p of [...new Set(problems)]) console.error(`i18n: ${p}`);
	process.exit(1);
}
console.log(`i18n: ${enBases.size} keys, each in en and zh, each used`);
