// User Timing marks of the moments a user waits for, seen in DevTools' performance panel and read
// by bench:ingest: a trace asked for (a file to import, or one from the library), and a trace
// view's first rows on screen.

export const MARK_OPEN = 'sockscope:open';
export const MARK_FIRST_ROWS = 'sockscope:first-rows';
