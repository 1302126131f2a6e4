// Timeouts for the few tests whose work is set by an input they do not choose: vitest's 5 s
// default stays for everything else. These catch a hang, not slowness: each is several times what
// the test takes on a slow machine under load.

/** Decoding whole real fixtures (up to 4.9 MB compressed, tens of MB once expanded). */
export const WHOLE_FIXTURES_MS = 60_000;

/** Running the command line over whole traces (in this process, or a child and its start-up). */
export const CLI_PROCESS_MS = 60_000;

/**
 * Importing the bundled sample (2,570 events, 512 KiB) into a library in Node, with its copy and
 * sockets, once or twice per test: about a second here, more on a slow machine under load.
 */
export const SAMPLE_IMPORT_MS = 30_000;

/**
 * The browser importing the 230 MB generated trace twice in one test (a resume, then afresh):
 * about 35 s on an idle machine, over a minute with the machine's two cores shared.
 */
export const TWO_HUGE_IMPORTS_MS = 240_000;

/**
 * A site update in the browser: two builds served in turn, three page loads, a new service worker
 * installing and taking over, the app started again offline. About 7 s on an idle machine; the
 * takeover alone was seen to pass 30 s with the e2e files sharing two cores.
 */
export const SITE_UPDATE_MS = 240_000;

/**
 * The second build of the site for that test (a vite build): about 15 s on an idle machine; past
 * the hooks' 60 s three times in 24 runs with the load average at 12 to 18 on two cores.
 */
export const SITE_BUILD_MS = 180_000;

/**
 * One step of the Firefox ESR e2e (tests/e2e/firefox/): a page load whose service worker
 * precaches the app, an import, a download, a reload served by the service worker. Each took
 * 0.5–4.5 s here (the file 45 s with Firefox's start); a step polls for 60 s before it fails.
 */
export const FIREFOX_STEP_MS = 120_000;

/**
 * Writing and reading two generated runs of a workload (about 150 sockets each), twice per test:
 * about a second here, several on one loaded core.
 */
export const WORKLOAD_PAIR_MS = 60_000;

/**
 * The first import after going offline: the worker, its WASM and the side workers all come from
 * the service worker's cache, which may have to start again first. About 2 s on an idle machine;
 * once seen to pass 30 s in a CI run with two busy cores.
 */
export const OFFLINE_IMPORT_MS = 90_000;

/** The whole offline walk: two imports, the library, a second tab, each on the slow path above. */
export const OFFLINE_WALK_MS = 240_000;
