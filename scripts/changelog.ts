// The latest entry of CHANGELOG.md (and of its Chinese translation, CHANGELOG.zh.md), for the
// update prompt: the build writes them to changes.json beside the page (vite.config.ts). The
// prompt fetches it from the server, so it shows the entry of the version waiting to take over,
// not of the one running.
import type { ChangelogEntry } from '../web/src/lib/changelog-entry.ts';

export type { ChangelogEntry };

export function latestEntry(markdown: string): ChangelogEntry | null {
	const at = markdown.search(/^## /m);
	if (at < 0) return null;
	const rest = markdown.slice(at + 3);
	const end = rest.search(/^## /m);
	const body = end < 0 ? rest : rest.slice(0, end);
	const [title, ...lines] = body.split('\n');
	const items: string[] = [];
	for (const line of lines) {
		if (/^- /.test(line)) items.push(line.slice(2).trim());
		else if (/^\s+\S/.test(line) && items.length)
			items[items.length - 1] = joinWrapped(items[items.length - 1]!, line.trim());
	}
	return { title: title!.trim(), items };
}

/** CJK characters and full-width punctuation: a line wrapped between two of them has no space. */
const CJK = /[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]/;

function joinWrapped(before: string, after: string): string {
	return CJK.test(before.at(-1) ?? '') && CJK.test(after[0] ?? '')
		? before + after
		: `${before} ${after}`;
}

/** The version an entry's title starts with ("0.1.0" of "0.1.0 (unreleased)" and of "0.1.0（未发布）"). */
export function entryVersion(e: ChangelogEntry): string {
	return e.title.split(/[\s（(]/)[0]!;
}

/** The translation's latest entry, when it is of the English one's version (else not yet written). */
export function translatedEntry(
	english: ChangelogEntry | null,
	translated: ChangelogEntry | null,
): ChangelogEntry | null {
	return english && translated && entryVersion(english) === entryVersion(translated)
		? translated
		: null;
}
