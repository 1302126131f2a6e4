// User Timing marks of the moments a user waits for, seen in DevTools' performance panel and read
// by bench:ingest: a file taken for import, and a trace view's first rows on screen.

export const MARK_FILE = 'sockscope:file';
export const MARK_FIRST_ROWS = 'sockscope:first-rows';
