// A trace whose strings are HTML: what a malicious or merely odd capture could carry. Every string
// the page shows from a trace (logger and log file name, process image name, TraceLogging fields,
// the file name itself) holds markup that would run script if it were ever inserted as HTML.
import { filetimeFromIso } from '../builders/bytes.ts';
import { AF_INET, IPPROTO_TCP, SOCK_STREAM, afdId } from '../builders/afd-vocabulary.ts';
import {
	EtlWriter,
	KERNEL_PROCESS_PROVIDER,
	PROCESS_START_DESCRIPTOR,
	processStartPayload,
} from '../builders/etl-writer.ts';

/** Sets window.__pwned if it is ever parsed as HTML (onerror fires: "x" is not an image). */
export const HOSTILE_MARKUP = '<img src=x onerror=window.__pwned=1>';
/** The same payload as a script element, for sinks that would take it that way. */
export const HOSTILE_SCRIPT = '<script>window.__pwned=2</script>';
/** The name the file is handed over with. */
export const HOSTILE_FILE_NAME = `${HOSTILE_MARKUP}.etl`;
/** Process id whose image name is the markup; its socket event puts it in the events table. */
export const HOSTILE_PID = 6666;

const START = filetimeFromIso('2026-03-14T09:26:53.5897932Z');
const ms = (n: number) => START + BigInt(n) * 10_000n;

export function hostileTrace(): Uint8Array {
	const w = new EtlWriter({
		startTime: START,
		loggerName: HOSTILE_MARKUP,
		logFileName: `C:\\traces\\${HOSTILE_MARKUP}.etl`,
	});
	w.addEvent({
		cpu: 0,
		time: ms(1),
		pid: 4,
		tid: 8,
		provider: KERNEL_PROCESS_PROVIDER,
		...PROCESS_START_DESCRIPTOR,
		payload: processStartPayload({
			processId: HOSTILE_PID,
			createTime: ms(1),
			parentProcessId: 4,
			sessionId: 1,
			imageName: `\\Device\\HarddiskVolume3\\${HOSTILE_MARKUP}`,
		}),
	});
	w.addAfd({
		cpu: 0,
		time: ms(2),
		pid: HOSTILE_PID,
		tid: HOSTILE_PID + 1,
		id: afdId('AfdCreate'),
		values: {
			EnterExit: 1,
			Location: 11,
			Process: 0xffffa00012345080n,
			Endpoint: 0xffffa00012346000n,
			AddressFamily: AF_INET,
			SocketType: SOCK_STREAM,
			Protocol: IPPROTO_TCP,
			ProcessId: HOSTILE_PID,
			Status: 0,
		},
	});
	w.addTraceLogging({
		cpu: 0,
		time: ms(3),
		pid: HOSTILE_PID,
		tid: HOSTILE_PID + 1,
		providerName: 'Sockscope-Hostile',
		eventName: HOSTILE_MARKUP,
		fields: [
			{ name: 'Message', type: 'utf16', value: HOSTILE_MARKUP },
			{ name: 'Script', type: 'ansi', value: HOSTILE_SCRIPT },
		],
	});
	return w.finish().bytes;
}
