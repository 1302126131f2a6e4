// The shape of changes.json, which the build writes from CHANGELOG.md (scripts/changelog.ts) and
// the update prompt reads: it lives here so the page never imports from scripts/.
export interface ChangelogEntry {
	/** The entry's heading, e.g. "0.1.0 (unreleased)". */
	readonly title: string;
	/** Its items, as written (Markdown list items without the dash, lines joined). */
	readonly items: readonly string[];
}

/** changes.json: the version waiting to take over, and its entry in each language written. */
export interface ChangesFile {
	readonly version: string;
	readonly entry: ChangelogEntry | null;
	/** From CHANGELOG.zh.md, when its latest entry is of the same version (else null). */
	readonly entryZh?: ChangelogEntry | null;
}
