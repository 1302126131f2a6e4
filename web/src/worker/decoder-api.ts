// The decoder worker's API put together: the catalogue, the opened traces, the imports and the
// queries, each method wrapped once so that whatever it throws reaches the page as a coded
// failure. Its parts that reach outside the worker (the database, the file copies, the side
// workers, the storage estimate) are given, so tests can run it in Node.
import { msg } from '../i18n/render.ts';
import { openTrace } from '../decoder/etl-file.ts';
import { blobSource } from '../decoder/source.ts';
import { ok } from '../lib/result.ts';
import type { DecoderApi } from './api.ts';
import { Catalog, browserTraceFiles, type LibraryDB, type TraceFiles } from './catalog.ts';
import { fingerprint } from './fingerprint.ts';
import { guardedApi } from './guard.ts';
import { browserEstimate, type StorageEstimate } from './import-open.ts';
import { ImportNotices } from './import-notices.ts';
import { ImportRun, type ImportDeps } from './import-run.ts';
import { OpenTraces } from './open-traces.ts';
import { PacketService } from './packet-service.ts';
import { QueryService } from './query-service.ts';
import { RequestLoad } from './request-load.ts';
import { browserSideJobs, useSideWorkers, type SideJobs } from './side-jobs.ts';
import { openStore } from '../store/db.ts';

export interface DecoderParts {
	readonly module: () => Promise<WebAssembly.Module>;
	readonly openDb?: () => Promise<LibraryDB>;
	readonly files?: TraceFiles;
	readonly side?: SideJobs;
	readonly estimate?: StorageEstimate;
}

export interface Decoder {
	readonly api: DecoderApi;
	readonly catalog: Catalog;
	readonly traces: OpenTraces;
	readonly queries: QueryService;
}

export function decoderApi(parts: DecoderParts): Decoder {
	const catalog = new Catalog(
		parts.openDb ?? (() => openStore()),
		parts.files ?? browserTraceFiles,
	);
	const traces = new OpenTraces(catalog, parts.module);
	/** Requests of the page being answered: an import lets them in at every buffer meanwhile. */
	const load = new RequestLoad();
	const queries = new QueryService(catalog, traces, (p) => load.park(p));
	const packets = new PacketService(catalog, traces);
	const notices = new ImportNotices();
	const imports: ImportDeps = {
		catalog,
		traces,
		notices,
		side: parts.side ?? browserSideJobs,
		estimate: parts.estimate ?? browserEstimate,
		othersWaiting: () => load.waiting,
	};
	/** A request the page waits on (its answer a few turns of the event loop away). */
	const answer = <A extends unknown[], R>(f: (...args: A) => Promise<R>) => load.answer(f);
	const methods: DecoderApi = {
		async useSideWorkers(start) {
			useSideWorkers(start);
			return ok(undefined);
		},
		async readFacts(file) {
			const opened = await openTrace(blobSource(file), await parts.module(), file.name);
			return opened.ok ? ok(opened.value.facts) : opened;
		},
		listTraces: async () => ok(await catalog.list()),
		fingerprintOf: async (file) => ok(await fingerprint(blobSource(file))),
		importFile: (file, onProgress) => ImportRun.start(imports, file, onProgress),
		resumeImport: (id, file, onProgress) => ImportRun.resume(imports, id, file, onProgress),
		async cancelImport(id) {
			catalog.cancel(id);
			return ok(undefined);
		},
		followImport: async (id, listener) => ok(notices.follow(id, listener)),
		unfollowImport: async (n) => ok(notices.unfollow(n)),
		renameTrace: (id, to) => catalog.rename(id, to),
		deleteTrace: (id) => catalog.remove(id),
		openTrace: answer((id) => queries.opened(id)),
		query: answer((id, filter, range, head, marked) =>
			queries.query(id, filter, range, head, marked),
		),
		ruleMatches: answer((id, filters, indexes, marked) =>
			queries.ruleMatches(id, filters, indexes, marked),
		),
		rows: answer((h, offset, limit) => queries.rows(h, offset, limit)),
		histogram: answer((h, from, to, bins) => queries.histogram(h, from, to, bins)),
		groupBy: answer((h, key, limit) => queries.groupBy(h, key, limit)),
		details: answer((id, index) => queries.details(id, index)),
		eventRows: answer((id, indexes) => queries.eventRows(id, indexes)),
		payloadValues: answer((id, indexes, names) => queries.payloadValues(id, indexes, names)),
		sockets: answer((id) => queries.sockets(id)),
		findings: answer((id) => queries.findings(id)),
		positionOf: answer((h, index) => queries.positionOf(h, index)),
		vocabulary: (id) => queries.vocabulary(id),
		trust: (id) => queries.trust(id),
		statistics: (h) => queries.statistics(h),
		ioGraph: answer((id, source, interval) => queries.ioGraph(id, source, interval)),
		pivot: answer((h, columns, limit) => queries.pivot(h, columns, limit)),
		exportPivot: (h, columns, format, write) => queries.exportPivot(h, columns, format, write),
		exportRows: (h, format, write) => queries.exportRows(h, format, write),
		exportTable: (id, table, format, only, write) =>
			queries.exportTable(id, table, format, only, write),
		packets: answer((id, filter, head) => packets.query(id, filter, head)),
		packetRows: answer((id, filter, offset, limit) => packets.rows(id, filter, offset, limit)),
		packetDetails: answer((id, number) => packets.details(id, number)),
		socketPackets: answer((id, socket) => packets.socket(id, socket)),
		hasPackets: answer((id) => packets.hasPackets(id)),
		packetStatistics: answer((id) => packets.statistics(id)),
		exportPcapng: (id, pick, write) => packets.exportPcapng(id, pick, write),
		exportPacketTable: (id, pick, format, write) =>
			packets.exportPacketTable(id, pick, format, write),
	};
	const api = guardedApi(methods, {
		readFacts: (file) => msg('failure.what.readFacts', { name: file.name }),
		listTraces: () => msg('failure.what.listTraces'),
		fingerprintOf: (file) => msg('failure.what.fingerprintOf', { name: file.name }),
		useSideWorkers: () => msg('failure.what.useSideWorkers'),
		importFile: (file) => msg('failure.what.importFile', { name: file.name }),
		resumeImport: (_id, file) => msg('failure.what.resumeImport', { name: file.name }),
		cancelImport: () => msg('failure.what.cancelImport'),
		followImport: () => msg('failure.what.followImport'),
		unfollowImport: () => msg('failure.what.unfollowImport'),
		renameTrace: () => msg('failure.what.renameTrace'),
		deleteTrace: () => msg('failure.what.deleteTrace'),
		openTrace: () => msg('failure.what.openTrace'),
		query: () => msg('failure.what.query'),
		ruleMatches: () => msg('failure.what.ruleMatches'),
		rows: () => msg('failure.what.rows'),
		histogram: () => msg('failure.what.histogram'),
		groupBy: () => msg('failure.what.groupBy'),
		details: (_id, index) => msg('failure.what.details', { index }),
		eventRows: () => msg('failure.what.eventRows'),
		payloadValues: () => msg('failure.what.payloadValues'),
		sockets: () => msg('failure.what.sockets'),
		findings: () => msg('failure.what.findings'),
		positionOf: () => msg('failure.what.positionOf'),
		vocabulary: () => msg('failure.what.vocabulary'),
		trust: () => msg('failure.what.trust'),
		statistics: () => msg('failure.what.statistics'),
		ioGraph: () => msg('failure.what.ioGraph'),
		pivot: () => msg('failure.what.pivot'),
		exportPivot: () => msg('failure.what.exportPivot'),
		exportRows: () => msg('failure.what.exportRows'),
		exportTable: (_id, table) => msg('failure.what.exportTable', { table }),
		packets: () => msg('failure.what.packets'),
		packetRows: () => msg('failure.what.packetRows'),
		packetDetails: (_id, number) => msg('failure.what.packetDetails', { number }),
		socketPackets: () => msg('failure.what.socketPackets'),
		hasPackets: () => msg('failure.what.hasPackets'),
		packetStatistics: () => msg('failure.what.packetStatistics'),
		exportPcapng: () => msg('failure.what.exportPcapng'),
		exportPacketTable: () => msg('failure.what.exportPacketTable'),
	});
	return { api, catalog, traces, queries };
}
