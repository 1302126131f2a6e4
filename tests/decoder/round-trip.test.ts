// Traces written by the test writer decode back to exactly what was written: every Winsock-AFD
// event with both pointer widths, every record kind, every clock, compressed or not.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FieldType } from '../../web/src/generated/layouts.ts';
import { EVENT_SCHEMAS, PROVIDERS } from '../../web/src/generated/schemas.ts';
import { indexBuffers, type OpenTrace } from '../../web/src/decoder/etl-file.ts';
import { mergeRecords } from '../../web/src/decoder/merge.ts';
import { ProviderTable, recordJson, type RecordJson } from '../../web/src/decoder/record-json.ts';
import { explainStatus } from '../../web/src/decoder/status.ts';
import { english, render, type Msg } from '../../web/src/i18n/render.ts';
import type { Message } from '../../web/src/lib/message.ts';
import {
	AFD_PROVIDER,
	EtlWriter,
	KERNEL_PROCESS_PROVIDER,
	WS2HELP_PROVIDER,
	type EtlWriterOptions,
	type PayloadValue,
	type TruthRecord,
} from '../builders/etl-writer.ts';
import { filetimeFromIso } from '../builders/bytes.ts';
import { afdId } from '../builders/afd-vocabulary.ts';
import { lengthFields, netEvent, type NetProvider } from '../builders/net-payloads.ts';

const NET_KEYS: readonly NetProvider[] = ['dns', 'tcpip', 'nameres', 'ndiscap', 'pktmon'];
import { open, statsOf } from './load.ts';

const START = filetimeFromIso('2026-03-14T09:26:53.5897932Z');
const MS = 10_000n;

async function decodeAll(
	bytes: Uint8Array,
): Promise<{ trace: OpenTrace; records: RecordJson[]; said: (Message | null)[] }> {
	const trace = await open(bytes);
	const index = await indexBuffers(trace);
	const providers = new ProviderTable(trace);
	const records: RecordJson[] = [];
	// Each record's problem as the page says it (the details pane).
	const said: (Message | null)[] = [];
	await mergeRecords(trace, index.buffers, (b, i) => {
		const s = { problem: null as Message | null };
		records.push(recordJson(b, i, trace, providers, s));
		said.push(s.problem);
	});
	return { trace, records, said };
}

/** A value for each schema field type, written by the writer and expected back from the decoder. */
function sample(type: FieldType, k: number, pointerSize: 4 | 8): [PayloadValue, unknown] {
	switch (type) {
		case FieldType.Pointer: {
			const v = pointerSize === 8 ? 0xffffa50c12340000n + BigInt(k) : 0x81230000n + BigInt(k);
			return [v, '0x' + v.toString(16)];
		}
		case FieldType.UInt8:
			return [200 + k, 200 + k];
		case FieldType.UInt16:
			return [60000 + k, 60000 + k];
		case FieldType.Port:
			return [8443 + k, 8443 + k];
		case FieldType.IPv4:
			return [`192.0.2.${k}`, `192.0.2.${k}`];
		case FieldType.IPv6:
			return [`2001:db8::${k.toString(16)}`, `2001:db8::${k.toString(16)}`];
		case FieldType.NTStatus:
			return [0xc0000236, 0xc0000236];
		case FieldType.Int32:
			return [-5 - k, -5 - k];
		case FieldType.Boolean:
			return [1, true];
		case FieldType.SocketAddress:
			return k % 2
				? [`198.51.100.${k}:${1000 + k}`, `198.51.100.${k}:${1000 + k}`]
				: [`[2001:db8::${k}]:${2000 + k}`, `[2001:db8::${k}]:${2000 + k}`];
		case FieldType.UnicodeString:
			return [`name ${k} ✓`, `name ${k} ✓`];
		case FieldType.AnsiString:
			return [`installer${k}.exe`, `installer${k}.exe`];
		case FieldType.Binary: {
			// Eight bytes: a whole element of the counted arrays too.
			const b = Uint8Array.from({ length: 8 }, (_, n) => (k * 16 + n) & 0xff);
			return [b, [...b].map((x) => x.toString(16).padStart(2, '0')).join('')];
		}
		case FieldType.Guid:
			return [
				`0ad614c4-0ef4-4225-8013-f44f37cb03${(k % 100).toString().padStart(2, '0')}`,
				`0ad614c4-0ef4-4225-8013-f44f37cb03${(k % 100).toString().padStart(2, '0')}`,
			];
		default:
			return [100000 + k, 100000 + k];
	}
}

describe('every schema event, both pointer widths', () => {
	for (const header of [8, 4] as const) {
		it(`logfile header ${header * 8}-bit, records EVENT32 and EVENT64 mixed`, async () => {
			const w = new EtlWriter({ pointerSize: header, cpus: 2 });
			const expected: { id: number; provider: string; fields: Record<string, unknown> }[] = [];
			let t = START + MS;
			for (const schema of EVENT_SCHEMAS) {
				const provider = PROVIDERS.find((p) => p.code === schema.provider)!;
				for (const pointerSize of [4, 8] as const) {
					const values: Record<string, PayloadValue> = {};
					const fields: Record<string, unknown> = {};
					const net = NET_KEYS.find((x) => x === provider.key);
					const lengths = net && lengthFields(net, schema.id, schema.version);
					schema.fields.forEach((f, k) => {
						if (f.name === 'AddressLen') return; // written by the writer from the address
						// A SOCKADDR's length field, likewise.
						if (schema.fields[k + 1]?.type === FieldType.SocketAddress) return;
						// A byte field's length (or an array's count), likewise.
						if (lengths?.has(f.name)) return;
						const [v, out] = sample(f.type, k + 1, pointerSize);
						values[f.name] = v;
						fields[f.name] = out;
					});
					const common = {
						cpu: expected.length % 2,
						time: (t += MS),
						pid: 4120,
						tid: 77,
						pointerSize,
					};
					if (provider.key === 'afd') w.addAfd({ ...common, id: schema.id, values });
					else if (net)
						w.addEvent(
							netEvent(net, { ...common, id: schema.id, version: schema.version, values }),
						);
					else {
						const { ws2helpPayload, ws2helpDescriptor } = await import('../builders/etl-writer.ts');
						w.addEvent({
							...common,
							provider: WS2HELP_PROVIDER,
							...ws2helpDescriptor(schema.id),
							payload: ws2helpPayload(schema.id, values),
						});
					}
					expected.push({ id: schema.id, provider: provider.guid, fields });
				}
			}
			const file = w.finish();
			const { records } = await decodeAll(file.bytes);
			const events = records.filter((r) => r.kind === 'event');
			expect(events).toHaveLength(expected.length);
			events.forEach((e, n) => {
				const want = expected[n]!;
				expect(e.providerGuid).toBe(want.provider);
				expect(e.id).toBe(want.id);
				expect(e.problem, `${e.name}`).toBeUndefined();
				for (const [name, value] of Object.entries(want.fields))
					expect(e.fields[name], `${e.name}.${name}`).toEqual(value);
				// DNS-Client and NameResolution statuses are Win32/DNS/WSA error numbers, not NTSTATUS.
				const plain = PROVIDERS.some(
					(p) => (p.key === 'dns' || p.key === 'nameres') && p.guid === want.provider,
				);
				for (const [name, value] of Object.entries(e.fields))
					if (
						!plain &&
						typeof value === 'number' &&
						name.endsWith('Name') === false &&
						/Status|Error/.test(name)
					)
						expect(e.fields[`${name}Name`]).toBe(explainStatus(value).name);
			});
		});
	}
});

function comparable(t: TruthRecord) {
	return {
		kind: t.kind,
		filetime: t.time.toString(),
		cpu: t.cpu,
		pid: t.pid,
		tid: t.tid,
		providerGuid: t.provider,
		id: t.id,
		version: t.version,
		level: t.level,
		opcode: t.opcode,
		task: t.task,
		keyword: '0x' + t.keyword.toString(16),
	};
}

function decodedComparable(r: RecordJson) {
	return {
		kind: r.kind,
		filetime: r.filetime,
		cpu: r.cpu,
		pid: r.pid,
		tid: r.tid,
		providerGuid: r.providerGuid,
		id: r.id,
		version: r.version,
		level: r.level,
		opcode: r.opcode,
		task: r.task,
		keyword: r.keyword,
	};
}

/** A trace with every record kind on several CPUs, interleaved in time. */
function mixedTrace(options: EtlWriterOptions): ReturnType<EtlWriter['finish']> {
	const w = new EtlWriter({ cpus: 4, bufferSize: 4096, ...options });
	let t = START;
	for (let n = 0; n < 400; n++) {
		t += BigInt(1 + ((n * 7919) % 13)) * MS;
		const cpu = (n * 3) % 4;
		const time = n % 17 === 0 ? t - MS : t; // some ties and small steps back across CPUs
		switch (n % 9) {
			case 0:
				w.addSystem({
					cpu,
					time,
					pid: 4,
					tid: 8 + n,
					hookId: 0x0502,
					payload: new Uint8Array(24).fill(n),
				});
				break;
			case 1:
				w.addPerfInfo({ cpu, time, hookId: 0x0f33, payload: new Uint8Array(16).fill(n) });
				break;
			case 2:
				w.addClassic({
					cpu,
					time,
					pid: 100,
					tid: 200,
					guid: 'b3e675d7-2554-4f18-830b-2762732560de',
					type: 64,
					level: 4,
					payload: new Uint8Array(12).fill(n),
				});
				break;
			case 3:
				w.addInstance({
					cpu,
					time,
					pid: 100,
					tid: 201,
					guid: '9b79ee91-b5fd-41c0-a243-4248e266e9d0',
					type: 11,
					instanceId: n,
				});
				break;
			case 4:
				w.addCompact({ cpu, time, pid: 4, tid: 9, hookId: 0x0524 });
				break;
			case 5:
				w.addWpp({
					cpu,
					time,
					messageNumber: 43,
					guid: '2818ef08-6a54-396f-2244-5a6ea4a98cf0',
					pid: 4,
					tid: 0xf4,
					args: new Uint8Array(8).fill(n),
				});
				break;
			case 6:
				w.addTraceLogging({
					cpu,
					time,
					pid: 300,
					tid: 301,
					providerName: 'Sockscope.Test',
					eventName: 'Ping',
					fields: [
						{ name: 'Host', type: 'utf16', value: `host${n}` },
						{ name: 'Count', type: 'uint32', value: n },
					],
				});
				break;
			case 7:
				w.addEvent({
					cpu,
					time,
					pid: 500,
					tid: 501,
					provider: KERNEL_PROCESS_PROVIDER,
					id: 1,
					version: 1,
					level: 4,
					opcode: 1,
					task: 1,
					keyword: 0x10n,
					payload: new Uint8Array(20).fill(n),
					ext: [{ type: 1, data: new Uint8Array(16).fill(7) }],
				});
				break;
			default:
				w.addAfd({
					cpu,
					time,
					pid: 4120,
					tid: 77,
					id: afdId('AfdSend'),
					pointerSize: n % 2 ? 4 : 8,
					values: {
						EnterExit: 1,
						Process: 0xffff0000n,
						Endpoint: 0xffff1000n + BigInt(n),
						BufferLength: n,
					},
				});
		}
	}
	return w.finish();
}

describe('every record kind, in time order across CPUs', () => {
	const cases: [string, EtlWriterOptions][] = [
		['64-bit, QPC 10 MHz', {}],
		['32-bit header layout', { pointerSize: 4 }],
		['compressed buffers', { compress: true }],
		['system-time clock', { clock: 2 }],
		['CPU-cycle clock', { clock: 3, cpuSpeedMHz: 2500 }],
		['Windows 7 buffer context', { procIndexFlag: false }],
	];
	for (const [label, options] of cases) {
		it(label, async () => {
			const file = mixedTrace(options);
			const { records } = await decodeAll(file.bytes);
			expect(records.map(decodedComparable)).toEqual(file.records.map(comparable));
			const tl = records.filter((r) => r.name === 'Ping');
			expect(tl.length).toBeGreaterThan(0);
			for (const r of tl)
				expect(r).toMatchObject({
					provider: 'Sockscope.Test',
					fields: { Host: expect.stringMatching(/^host\d+$/) },
				});
			expect(
				records.filter((r) => r.extended?.some((x) => x.name === 'RELATED_ACTIVITYID')).length,
			).toBeGreaterThan(0);
			const stats = await statsOf(file.bytes);
			expect(stats.compressedBuffers).toBe(file.buffers.filter((b) => b.compressed).length);
			expect(stats.damage).toEqual([]);
		});
	}

	it('a QPC frequency other than 10 MHz converts with integer arithmetic', async () => {
		const perfFreq = 2994853n;
		const file = mixedTrace({ perfFreq });
		const { records } = await decodeAll(file.bytes);
		records.forEach((r, n) => {
			const t = file.records[n]!;
			const delta = t.raw - file.t0;
			expect(BigInt(r.filetime)).toBe(
				file.startTime +
					(delta / perfFreq) * 10_000_000n +
					((delta % perfFreq) * 10_000_000n) / perfFreq,
			);
		});
	});
});

describe('events the schema does not fully describe', () => {
	it('an AFD event version with no schema is shown as such, with its bytes', async () => {
		const w = new EtlWriter({});
		w.addEvent({
			cpu: 0,
			time: START + MS,
			pid: 1,
			tid: 2,
			provider: AFD_PROVIDER,
			id: 1003,
			version: 9,
			payload: new Uint8Array([1, 2, 3, 4]),
		});
		const { records, said } = await decodeAll(w.finish().bytes);
		const at = records.findIndex((r) => r.kind === 'event');
		expect(records[at]!.problem).toBe(
			'no schema for Microsoft-Windows-Winsock-AFD event 1003 version 9',
		);
		expect(english(said[at] as Msg)).toBe(records[at]!.problem);
		expect(render('zh', said[at] as Msg)).toBe(
			'没有 Microsoft-Windows-Winsock-AFD 事件 1003 版本 9 的架构',
		);
		expect(records[at]!.payload).toBe('01020304');
	});

	it('a payload cut short keeps the fields before the cut and names the missing ones', async () => {
		const w = new EtlWriter({});
		w.addEvent({
			cpu: 0,
			time: START + MS,
			pid: 1,
			tid: 2,
			provider: AFD_PROVIDER,
			id: 1,
			payload: new Uint8Array(12).fill(0x11),
		});
		const { records, said } = await decodeAll(w.finish().bytes);
		const at = records.findIndex((r) => r.kind === 'event');
		const e = records[at]!;
		expect(english(said[at] as Msg)).toBe(e.problem);
		expect(render('zh', said[at] as Msg)).toBe(
			'有效负载在 Endpoint、AddressFamily、SocketType、Protocol、UserModePid 之前就结束了',
		);
		expect(e.fields['Process']).toBe('0x1111111111111111');
		expect(e.problem).toBe(
			'payload ends before Endpoint, AddressFamily, SocketType, Protocol, UserModePid',
		);
	});
});

describe('the bundled sample trace', () => {
	const root = join(import.meta.dirname, '../..');
	const truth = JSON.parse(
		readFileSync(join(root, 'tests/fixtures/sample/sample.truth.json'), 'utf8'),
	);
	it('decodes to the counts of its ground truth', async () => {
		const stats = await statsOf(new Uint8Array(readFileSync(join(root, 'public/sample.etl'))));
		expect(stats.damage).toEqual([]);
		expect(stats.records).toBe(truth.totalRecords);
		expect(stats.byKind).toEqual(truth.recordsByKind);
		expect(stats.afdEvents).toEqual(truth.afdEventCounts);
		expect(
			Object.fromEntries(Object.entries(stats.byProvider).map(([g, p]) => [g, p.events])),
		).toEqual(truth.eventsByProvider);
		expect(stats.byHeaderType['EVENT32']).toBe(truth.afdEventsByHeaderType['0x12']);
	});
});
