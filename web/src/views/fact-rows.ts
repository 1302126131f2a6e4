// The trace facts panel as data: which header values are shown, under which label, in which
// group. Kept out of the component so the panel stays a plain loop over rows.
//
// Each value part that carries `fact` is rendered with data-fact="<fact>"; those names are what
// the e2e tests (and anyone scripting the page) rely on, so they are stable.
import type { TraceFacts } from '../decoder/types.ts';
import {
	describePointerSize,
	formatBigCount,
	formatBytes,
	formatCount,
	formatDuration,
	formatFrequency,
	formatHex32,
	formatTimeZoneBias,
	formatTimerResolution,
	formatUtc,
} from './format.ts';

export interface FactPart {
	readonly text: string;
	/** Stable name for data-fact; parts without one are commentary. */
	readonly fact?: string;
	readonly tone?: 'muted' | 'warn';
	readonly mono?: boolean;
}

export interface FactRow {
	readonly label: string;
	/** The TRACE_LOGFILE_HEADER field behind the value, for readers who know the SDK. */
	readonly source: string;
	readonly parts: readonly FactPart[];
}

export interface FactGroup {
	readonly title: string;
	readonly rows: readonly FactRow[];
}

const muted = (text: string): FactPart => ({ text, tone: 'muted' });
const lost = (n: number, fact: string): FactPart => ({
	text: formatCount(n),
	fact,
	tone: n > 0 ? 'warn' : undefined,
});

export function buildFactGroups(f: TraceFacts): FactGroup[] {
	const duration = formatDuration(f.startFiletime, f.endFiletime);
	return [
		{
			title: 'Trace',
			rows: [
				{
					label: 'File name',
					source: 'File.name',
					parts: [{ text: f.fileName, fact: 'fileName' }],
				},
				{
					label: 'Size',
					source: 'File.size',
					parts: [
						{ text: formatBytes(f.fileSize), fact: 'fileSize' },
						{ text: `${formatCount(f.fileSize)} bytes`, fact: 'fileSizeBytes', tone: 'muted' },
					],
				},
				{
					label: 'Logger name',
					source: 'LoggerName',
					parts: [f.loggerName ? { text: f.loggerName, fact: 'loggerName' } : none('loggerName')],
				},
				{
					label: 'Log file name',
					source: 'LogFileName',
					parts: [
						f.logFileName
							? { text: f.logFileName, fact: 'logFileName', mono: true }
							: none('logFileName'),
					],
				},
				{
					label: 'Log file mode',
					source: 'LogFileMode',
					parts: [{ text: formatHex32(f.logFileMode), fact: 'logFileMode', mono: true }],
				},
			],
		},
		{
			title: 'Recorded on',
			rows: [
				{
					label: 'Windows build',
					source: 'ProviderVersion',
					parts: [{ text: String(f.build), fact: 'build' }],
				},
				{
					label: 'Version',
					source: 'VersionDetail',
					parts: [{ text: f.version, fact: 'version' }],
				},
				{
					label: 'CPUs',
					source: 'NumberOfProcessors, CpuSpeedInMHz',
					parts: [
						{ text: String(f.cpus), fact: 'cpus' },
						...(f.cpuSpeedMHz > 0 ? [muted(`at ${formatCount(f.cpuSpeedMHz)} MHz`)] : []),
					],
				},
				{
					label: 'Pointer size',
					source: 'PointerSize',
					parts: [
						{ text: String(f.pointerSize), fact: 'pointerSize' },
						muted(`bytes (${describePointerSize(f.pointerSize)})`),
					],
				},
				{
					label: 'Time zone',
					source: 'TimeZone.Bias',
					parts: [{ text: formatTimeZoneBias(f.timeZoneBias), fact: 'timeZone' }],
				},
			],
		},
		{
			title: 'Clock',
			rows: [
				{
					label: 'Clock type',
					source: 'ReservedFlags',
					parts: [
						{ text: f.clockName, fact: 'clockName' },
						muted('· type'),
						{ text: String(f.clockType), fact: 'clockType', tone: 'muted' },
					],
				},
				{
					label: 'Frequency',
					source: 'PerfFreq',
					parts: [
						{ text: formatFrequency(f.perfFreq), fact: 'perfFreqHuman' },
						{ text: `${formatBigCount(f.perfFreq)} ticks/s`, fact: 'perfFreq', tone: 'muted' },
					],
				},
				{
					label: 'Start (UTC)',
					source: 'StartTime',
					parts: [{ text: formatUtc(f.startTime), fact: 'startTime', mono: true }],
				},
				{
					label: 'End (UTC)',
					source: 'EndTime',
					parts: [{ text: formatUtc(f.endTime), fact: 'endTime', mono: true }],
				},
				{
					label: 'Duration',
					source: 'EndTime − StartTime',
					parts: [duration ? { text: duration, fact: 'duration' } : none('duration')],
				},
				{
					label: 'Timer resolution',
					source: 'TimerResolution',
					parts: [{ text: formatTimerResolution(f.timerResolution), fact: 'timerResolution' }],
				},
			],
		},
		{
			title: 'Buffers',
			rows: [
				{
					label: 'Buffer size',
					source: 'BufferSize',
					parts: [
						{ text: formatBytes(f.bufferSize), fact: 'bufferSize' },
						{ text: `${formatCount(f.bufferSize)} bytes`, fact: 'bufferSizeBytes', tone: 'muted' },
					],
				},
				{
					label: 'Buffers written',
					source: 'BuffersWritten',
					parts: [{ text: formatCount(f.buffersWritten), fact: 'buffersWritten' }],
				},
				{ label: 'Events lost', source: 'EventsLost', parts: [lost(f.eventsLost, 'eventsLost')] },
				{
					label: 'Buffers lost',
					source: 'BuffersLost',
					parts: [lost(f.buffersLost, 'buffersLost')],
				},
			],
		},
	];
}

/** A value the header leaves empty; still carries its data-fact so tests can find it. */
function none(fact: string): FactPart {
	return { text: 'not recorded', fact, tone: 'muted' };
}

/** A plain-language warning when the session dropped data, or null for a complete trace. */
export function describeLoss(f: TraceFacts): string | null {
	if (f.eventsLost === 0 && f.buffersLost === 0) return null;
	const parts = [];
	if (f.eventsLost > 0) parts.push(plural(f.eventsLost, 'event'));
	if (f.buffersLost > 0) parts.push(plural(f.buffersLost, 'buffer'));
	return (
		`This trace is incomplete: the session lost ${parts.join(' and ')} while recording. ` +
		'Some sockets may be missing events. Bigger or more buffers (logman -bs and -nb), or ' +
		'level 4 instead of 5, make losses less likely.'
	);
}

function plural(n: number, noun: string): string {
	return `${formatCount(n)} ${noun}${n === 1 ? '' : 's'}`;
}
