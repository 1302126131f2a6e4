// The layering of web/src (see web/src/README.md), checked by `npm run check`. Data flows one way:
// file → worker → WASM decoder → columnar store → queries → views. Each rule names the folders a
// layer may not reach; anything else is allowed.
const page = '^web/src/(views|state|pwa|i18n|App\\.svelte|main\\.ts)';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
	forbidden: [
		{
			name: 'no-cycles',
			comment: 'A cycle makes two modules one: merge them or move what they share.',
			severity: 'error',
			from: { path: '^web/src' },
			to: { circular: true },
		},
		{
			name: 'lib-stands-alone',
			comment: 'lib/ holds generic helpers: nothing in it knows about traces.',
			severity: 'error',
			from: { path: '^web/src/lib/' },
			to: { path: '^web/src/', pathNot: '^web/src/lib/' },
		},
		{
			name: 'net-stands-alone',
			comment:
				'net/ is the one home of addresses (IP text, CIDR ranges, SOCKADDR families): it knows nothing of traces.',
			severity: 'error',
			from: { path: '^web/src/net/' },
			to: { path: '^web/src/', pathNot: '^web/src/(net|lib)/' },
		},
		{
			name: 'generated-is-data',
			comment: 'generated/ is written by scripts/gen.mjs from schema/: data only.',
			severity: 'error',
			from: { path: '^web/src/generated/' },
			to: { path: '^web/src/', pathNot: '^web/src/generated/' },
		},
		{
			name: 'decoder-below-everything',
			comment: 'The decoder reads ETL files; it knows nothing of columns, sockets or the page.',
			severity: 'error',
			from: { path: '^web/src/decoder/' },
			to: { path: '^web/src/', pathNot: '^web/src/(decoder|generated|lib|net)/' },
		},
		{
			name: 'columns-are-shared-types',
			comment: 'columns/ is the store layout that ingest writes and query reads.',
			severity: 'error',
			from: { path: '^web/src/columns/' },
			to: { path: '^web/src/', pathNot: '^web/src/(columns|decoder|generated|lib|net)/' },
		},
		{
			name: 'ingest-and-query-apart',
			comment: 'ingest writes columns, query reads them: they share columns/, never each other.',
			severity: 'error',
			from: { path: '^web/src/(ingest|query)/' },
			to: { path: '^web/src/(ingest|query)/', pathNot: '^web/src/$1/' },
		},
		{
			name: 'ingest-asks-the-socket-rules-only',
			comment:
				"The chunk builder asks the tracker's own rules (header-PID trust, send nesting) so that both decide alike; nothing else of sockets/.",
			severity: 'error',
			from: { path: '^web/src/ingest/' },
			to: {
				path: '^web/src/sockets/',
				pathNot: '^web/src/sockets/(header-pid|send-nesting|locations)\\.ts$',
			},
		},
		{
			name: 'socket-rules-stand-alone',
			comment:
				'header-pid.ts, send-nesting.ts and locations.ts are what ingest/ may ask: they import only generated tables and each other.',
			severity: 'error',
			from: { path: '^web/src/sockets/(header-pid|send-nesting|locations)\\.ts$' },
			to: {
				path: '^web/src/',
				pathNot: '^web/src/(generated/|sockets/(header-pid|send-nesting|locations)\\.ts$)',
			},
		},
		{
			name: 'sockets-and-query-apart',
			comment:
				'The sockets rebuild stories, the query layer reads columns: what both need (addresses, the owners table) lives below them in net/ and columns/.',
			severity: 'error',
			from: { path: '^web/src/(sockets|query)/' },
			to: { path: '^web/src/(sockets|query)/', pathNot: '^web/src/$1/' },
		},
		{
			name: 'store-never-imports-worker',
			comment: 'The store keeps what the worker gives it; the worker drives it, not the reverse.',
			severity: 'error',
			from: { path: '^web/src/store/' },
			to: { path: '^web/src/(worker|query|views|state|pwa|cli|export)/' },
		},
		{
			name: 'below-the-worker',
			comment:
				'Decoding, columns, sockets, queries and exports run in the worker and the CLI alike.',
			severity: 'error',
			from: { path: '^web/src/(decoder|columns|ingest|query|sockets|packets|export|dns|compare)/' },
			to: { path: '^web/src/(worker|store|views|state|pwa|cli)/' },
		},
		{
			name: 'packets-above-sockets',
			comment:
				'packets/ joins frames to the sockets the tracker rebuilt: the tracker and the store layout never need packets.',
			severity: 'error',
			from: { path: '^web/src/(sockets|columns|ingest|query)/' },
			to: { path: '^web/src/packets/' },
		},
		{
			name: 'cli-is-not-the-page',
			comment: 'The command line runs in Node: no worker, IndexedDB or Svelte.',
			severity: 'error',
			from: { path: '^web/src/cli/' },
			to: { path: '^web/src/(worker|store|views|state|pwa)/' },
		},
		{
			name: 'page-talks-to-the-worker-protocol',
			comment: 'The page reaches the worker only through its protocol (worker/api.ts).',
			severity: 'error',
			from: { path: page },
			to: {
				path: '^web/src/(worker|store|ingest|export|cli)/',
				pathNot: '^web/src/worker/(api|side-workers)\\.ts$',
			},
		},
		{
			name: 'page-never-reaches-decoder-internals',
			comment:
				'From the decoder the page may use its vocabulary (types, status names, times and units, field names), never its machinery.',
			severity: 'error',
			from: { path: page },
			to: {
				path: '^web/src/decoder/',
				pathNot: '^web/src/decoder/(types|status|time|units|event-fields|payload-fields)\\.ts$',
			},
		},
	],
	options: {
		doNotFollow: { path: 'node_modules' },
		exclude: { path: '^web/src/generated/.*\\.d\\.ts$' },
		tsPreCompilationDeps: true,
		tsConfig: { fileName: 'tsconfig.json' },
	},
};
