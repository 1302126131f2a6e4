// The latest entry of CHANGELOG.md, for the update prompt: the build writes it to changes.json
// beside the page (vite.config.ts). The prompt fetches it from the server, so it shows the
// entry of the version waiting to take over, not of the one running.
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
		else if (/^\s+\S/.test(line) && items.length) items[items.length - 1] += ` ${line.trim()}`;
	}
	return { title: title!.trim(), items };
}
