import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
	builderLiterals,
	glossaryProblems,
	markupLiterals,
	spacingProblems,
	type GlossaryTerm,
} from '../../scripts/i18n-rules.ts';

const glossary = (
	JSON.parse(readFileSync(new URL('../../schema/glossary-zh.json', import.meta.url), 'utf8')) as {
		terms: GlossaryTerm[];
	}
).terms;

describe('glossary', () => {
	it('fails on a planted wrong variant and names the right term', () => {
		const p = glossaryProblems('{{who}} 在 {{local}} 上监听', glossary);
		expect(p).toHaveLength(1);
		expect(p[0]).toContain('侦听');
	});
	it('passes the right term and an allowed phrase', () => {
		expect(glossaryProblems('{{who}} 在 {{local}} 上侦听', glossary)).toEqual([]);
		expect(glossaryProblems('跟踪会话丢失了事件', glossary)).toEqual([]);
		expect(glossaryProblems('两个会话', glossary)).toHaveLength(1);
	});
});

describe('Latin/CJK spacing', () => {
	it('fails on a Latin word touching Chinese on either side', () => {
		expect(spacingProblems('一个TCP 套接字')).toHaveLength(1);
		expect(spacingProblems('一个 TCP套接字')).toHaveLength(1);
		expect(spacingProblems('3秒')).toHaveLength(1);
	});
	it('passes spaced text, placeholders and full-width punctuation', () => {
		expect(spacingProblems('一个 TCP 套接字')).toEqual([]);
		expect(spacingProblems('{{count}}个套接字（{{what}}）')).toEqual([]);
		expect(spacingProblems('连接被拒绝：TCP')).toEqual([]);
	});
});

describe('literal text in .svelte markup', () => {
	const svelte = (markup: string) =>
		`<script lang="ts">\n\tconst label = 'Not markup';\n</script>\n${markup}\n<style>p { color: red; }</style>`;
	it('fails on planted text between tags and in a title attribute', () => {
		expect(markupLiterals(svelte('<p>Open a trace</p>'))).toEqual(['text "Open a trace"']);
		expect(markupLiterals(svelte('<b title="Close it">{t("x")}</b>'))).toEqual([
			'title="Close it"',
		]);
	});
	it('passes catalogue calls, expressions with > and allowed names', () => {
		expect(markupLiterals(svelte("<p>{t('a')} {n > 0 ? t('b') : ''}</p>"))).toEqual([]);
		expect(markupLiterals(svelte('<h1>Sockscope</h1>'), ['Sockscope'])).toEqual([]);
		expect(markupLiterals(svelte('<p title={t("c")}>·</p>'))).toEqual([]);
	});
});

describe('English built in .ts modules', () => {
	it('finds a sentence built for people outside the catalogue', () => {
		const planted = [
			'export const label = (s: S) => `aborted: ${s.reason} after the close`;',
			"\treturn { message: 'the socket was reset by the peer' };",
		].join('\n');
		expect(builderLiterals(planted).map((l) => l.line)).toEqual([1, 2]);
		expect(builderLiterals(planted)[1]!.text).toBe('the socket was reset by the peer');
	});

	it('leaves catalogue keys, identifiers, comments, console output, bugs and marked data alone', () => {
		const fine = [
			"import { msg } from '../i18n/render.ts';",
			"const m = msg('tcp.connect-failed', { reason });",
			'// the socket was reset by the peer',
			'/**',
			' * the socket was reset by the peer',
			' */',
			"console.error('decoder worker failed', err);",
			"throw new Error('the table has no such column');",
			'// i18n: data (the command line prints it)',
			"const cli = 'the socket was reset by the peer';",
			"const state: State = 'closed';",
		].join('\n');
		expect(builderLiterals(fine)).toEqual([]);
	});

	it('passes over modules that build their text from the catalogue', () => {
		for (const f of [
			'../../web/src/sockets/tcp.ts',
			'../../web/src/packets/capture.ts',
			'../../web/src/packets/dissect-transport.ts',
		])
			expect(builderLiterals(readFileSync(new URL(f, import.meta.url), 'utf8'))).toEqual([]);
	});
});
