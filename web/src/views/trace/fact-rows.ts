// The trace facts panel as data: which header values are shown, under which label, in which
// group. Kept out of the component so the panel stays a plain loop over rows.
//
// Each value part that carries `fact` is rendered with data-fact="<fact>"; those names are what
// the e2e tests (and anyone scripting the page) rely on, so they are stable.
import type { TraceFacts } from '../../decoder/types.ts';
import {
	formatBigCount,
	formatCount,
	formatDuration,
	formatFrequency,
	formatHex32,
	formatTimeZoneBias,
	formatTimerResolution,
	formatUtc,
} from '../format.ts';
import { msg, type Lang, type Text } from '../../i18n/render.ts';

/** 8 → "64-bit" / "64 位"; anything else is unusual. */
function pointerBits(bytes: number): Text {
	if (bytes === 8) return msg('facts.bits-64');
	return bytes === 4 ? msg('facts.bits-32') : msg('facts.bits-unusual');
}

/** The clock's frequency ("10 MHz"), or that the header does not say a usable one. */
function frequency(ticksPerSecond: string): Text {
	const hz = Number(ticksPerSecond);
	return Number.isFinite(hz) && hz > 0
		? formatFrequency(ticksPerSecond)
		: msg('facts.frequency-unknown');
}

export interface FactPart {
	readonly text: Text;
	/** Stable name for data-fact; parts without one are commentary. */
	readonly fact?: string;
	readonly tone?: 'muted' | 'warn';
	readonly mono?: boolean;
}

export interface FactRow {
	readonly label: Text;
	/** The TRACE_LOGFILE_HEADER field behind the value, for readers who know the SDK. */
	readonly source: string;
	readonly parts: readonly FactPart[];
}

export interface FactGroup {
	readonly title: Text;
	readonly rows: readonly FactRow[];
}

const muted = (text: Text): FactPart => ({ text, tone: 'muted' });
const lost = (n: number, fact: string): FactPart => ({
	text: formatCount(n),
	fact,
	tone: n > 0 ? 'warn' : undefined,
});

export function buildFactGroups(f: TraceFacts, lang: Lang = 'en'): FactGroup[] {
	const duration = formatDuration(f.startFiletime, f.endFiletime, lang);
	return [
		{
			title: msg('facts.group.trace'),
			rows: [
				{
					label: msg('facts.file-name'),
					source: 'File.name',
					parts: [{ text: f.fileName, fact: 'fileName' }],
				},
				{
					label: msg('facts.size'),
					source: 'File.size',
					parts: [
						{ text: { bytes: f.fileSize }, fact: 'fileSize' },
						{
							text: msg('facts.bytes', { count: formatCount(f.fileSize) }),
							fact: 'fileSizeBytes',
							tone: 'muted',
						},
					],
				},
				{
					label: msg('facts.logger-name'),
					source: 'LoggerName',
					parts: [f.loggerName ? { text: f.loggerName, fact: 'loggerName' } : none('loggerName')],
				},
				{
					label: msg('facts.log-file-name'),
					source: 'LogFileName',
					parts: [
						f.logFileName
							? { text: f.logFileName, fact: 'logFileName', mono: true }
							: none('logFileName'),
					],
				},
				{
					label: msg('facts.log-file-mode'),
					source: 'LogFileMode',
					parts: [{ text: formatHex32(f.logFileMode), fact: 'logFileMode', mono: true }],
				},
			],
		},
		{
			title: msg('facts.group.recorded-on'),
			rows: [
				{
					label: msg('facts.windows-build'),
					source: 'ProviderVersion',
					parts: [{ text: String(f.build), fact: 'build' }],
				},
				{
					label: msg('facts.version'),
					source: 'VersionDetail',
					parts: [{ text: f.version, fact: 'version' }],
				},
				{
					label: msg('facts.cpus'),
					source: 'NumberOfProcessors, CpuSpeedInMHz',
					parts: [
						{ text: String(f.cpus), fact: 'cpus' },
						...(f.cpuSpeedMHz > 0
							? [muted(msg('facts.at-mhz', { mhz: formatCount(f.cpuSpeedMHz) }))]
							: []),
					],
				},
				{
					label: msg('facts.pointer-size'),
					source: 'PointerSize',
					parts: [
						{ text: String(f.pointerSize), fact: 'pointerSize' },
						muted(msg('facts.pointer-bytes', { bits: pointerBits(f.pointerSize) })),
					],
				},
				{
					label: msg('facts.time-zone'),
					source: 'TimeZone.Bias',
					parts: [{ text: formatTimeZoneBias(f.timeZoneBias), fact: 'timeZone' }],
				},
			],
		},
		{
			title: msg('facts.group.clock'),
			rows: [
				{
					label: msg('facts.clock-type'),
					source: 'ReservedFlags',
					parts: [
						{ text: f.clockName, fact: 'clockName' },
						muted(msg('facts.type')),
						{ text: String(f.clockType), fact: 'clockType', tone: 'muted' },
					],
				},
				{
					label: msg('facts.frequency'),
					source: 'PerfFreq',
					parts: [
						{ text: frequency(f.perfFreq), fact: 'perfFreqHuman' },
						{
							text: msg('facts.ticks-per-second', { ticks: formatBigCount(f.perfFreq) }),
							fact: 'perfFreq',
							tone: 'muted',
						},
					],
				},
				{
					label: msg('facts.start-utc'),
					source: 'StartTime',
					parts: [{ text: formatUtc(f.startTime), fact: 'startTime', mono: true }],
				},
				{
					label: msg('facts.end-utc'),
					source: 'EndTime',
					parts: [{ text: formatUtc(f.endTime), fact: 'endTime', mono: true }],
				},
				{
					label: msg('facts.duration'),
					source: 'EndTime − StartTime',
					parts: [duration ? { text: duration, fact: 'duration' } : none('duration')],
				},
				{
					label: msg('facts.timer-resolution'),
					source: 'TimerResolution',
					parts: [
						{ text: formatTimerResolution(f.timerResolution, lang), fact: 'timerResolution' },
					],
				},
			],
		},
		{
			title: msg('facts.group.buffers'),
			rows: [
				{
					label: msg('facts.buffer-size'),
					source: 'BufferSize',
					parts: [
						{ text: { bytes: f.bufferSize }, fact: 'bufferSize' },
						{
							text: msg('facts.bytes', { count: formatCount(f.bufferSize) }),
							fact: 'bufferSizeBytes',
							tone: 'muted',
						},
					],
				},
				{
					label: msg('facts.buffers-written'),
					source: 'BuffersWritten',
					parts: [{ text: formatCount(f.buffersWritten), fact: 'buffersWritten' }],
				},
				{
					label: msg('facts.events-lost'),
					source: 'EventsLost',
					parts: [lost(f.eventsLost, 'eventsLost')],
				},
				{
					label: msg('facts.buffers-lost'),
					source: 'BuffersLost',
					parts: [lost(f.buffersLost, 'buffersLost')],
				},
			],
		},
	];
}

/** A value the header leaves empty; still carries its data-fact so tests can find it. */
function none(fact: string): FactPart {
	return { text: msg('facts.not-recorded'), fact, tone: 'muted' };
}

/** A plain-language warning when the session dropped data, or null for a complete trace. */
export function describeLoss(f: TraceFacts): Text | null {
	if (f.eventsLost === 0 && f.buffersLost === 0) return null;
	const parts: Text[] = [];
	if (f.eventsLost > 0)
		parts.push(msg('facts.lost-events', { count: f.eventsLost, n: formatCount(f.eventsLost) }));
	if (f.buffersLost > 0)
		parts.push(msg('facts.lost-buffers', { count: f.buffersLost, n: formatCount(f.buffersLost) }));
	return msg('facts.loss', {
		lost: parts.length === 2 ? msg('facts.and', { a: parts[0]!, b: parts[1]! }) : parts[0]!,
	});
}
