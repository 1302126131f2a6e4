// A reconstructed socket as the tracker reports it: plain data (structured-clone safe, so the
// worker can hand it to the page), with record indexes that lead back to the exact events.
import type { TcpOutcome } from './tcp.ts';

/** How the socket entered the trace. */
export type SocketOrigin =
	/** A create event (legacy 1 or AfdCreate 1000) is in the trace. */
	| 'created'
	/** First named as the accepted endpoint of an accept on a listening socket. */
	| 'accepted'
	/** Its first event is not a create, and its Endpoint had not been seen before. */
	| 'before-trace'
	/** Its Endpoint was used by an earlier socket that was cleaned up, and its create is missing. */
	| 'missing-create';

/** The final state, at the end of the trace. */
// i18n: data (a socket state's identifier, as the CLI prints it; the page says it in its words)
export type SocketState = 'closed' | 'aborted' | 'failed' | 'open at end of trace';

/** Who ended the socket. */
export type EndedBy =
	/** closesocket (or process exit): the application closed it. */
	| 'application'
	/** AFD aborted the connection itself (legacy 7, AfdAbort with an AFD reason). */
	| 'afd-abort'
	/** The transport reset or aborted it (legacy 8, AfdAbort reason 4 or 18). */
	| 'transport-abort'
	/** The peer disconnected (legacy 41, AfdDisconnect 3006) before the application closed it. */
	| 'peer-disconnect'
	/** Its end is not in the trace: the Endpoint was reused without a cleanup event. */
	| 'unknown';

/** A moment of a socket's life: when, and which record says so. */
export interface TimeMark {
	/** 100 ns ticks since the trace's StartTime. */
	readonly ticks: number;
	/** FILETIME as a decimal string (it exceeds 2^53). */
	readonly filetime: string;
	/** ISO 8601 UTC with 7 fractional digits. */
	readonly iso: string | null;
	/** Record index of the event. */
	readonly index: number;
}

export interface ConnectInfo {
	/** Connect requests seen (a socket may try more than once). */
	readonly attempts: number;
	/** 'pending' when the trace ends, or the call returned STATUS_PENDING, before an outcome. */
	readonly outcome: 'connected' | 'failed' | 'pending';
	/** Connect → connect-completed of the successful attempt, in milliseconds. */
	readonly ms: number | null;
	/** Connect → failure of the last failed attempt, in milliseconds. */
	readonly failedAfterMs: number | null;
	/** NTSTATUS of the outcome (0 on success). */
	readonly status: number | null;
	readonly statusName: string | null;
	/** Where it started and where its outcome is. */
	readonly startIndex: number | null;
	readonly endIndex: number | null;
}

export interface OptionChange {
	readonly index: number;
	readonly ticks: number;
	/** AFD option code (AFD_OPTION_ValueMap), or -1 for WSAEventSelect (legacy 32). */
	readonly option: number;
	readonly name: string;
	readonly value: number;
	readonly status: number | null;
}

export interface SocketError {
	readonly index: number;
	readonly ticks: number;
	/** What failed: create, bind, connect, send, receive, accept, close, select. */
	readonly op: string;
	readonly status: number;
	readonly name: string;
}

export interface AbortInfo {
	readonly by: 'afd' | 'transport';
	readonly reason: number;
	readonly reasonName: string | null;
	readonly index: number;
}

export interface DropReason {
	readonly reason: number;
	readonly name: string;
	readonly count: number;
	readonly bytes: number;
}

/**
 * How the socket's PID was learnt. AFD names a process by its EPROCESS address (the Process
 * field); header PIDs are often a kernel or worker context's and are trusted only where noted.
 */
export type SocketPidSource =
	/** Its own create event's ProcessId (AfdCreate) or UserModePid (legacy 1). */
	| 'create'
	/** Another socket's create named the same Process (a socket from before the trace, back-filled). */
	| 'process-map'
	/** The header PID of an event naming its Process at a Location where that PID is the caller's. */
	| 'reliable-location'
	/** The kernel logger's process events, which give each process's EPROCESS. */
	| 'kernel-process'
	/** Accepted on a listening socket whose PID was known. */
	| 'listener'
	/** TCP/IP's connection events or rundown for the same connection (ProcessId, Pid). */
	| 'tcpip'
	/** Weakest: the header PID of an application call's enter at a Location not known either way. */
	| 'caller-header';

/** The datagrams one socket exchanged with one remote address. */
export interface PeerFlow {
	/** 'a.b.c.d:port' / '[v6]:port'. */
	readonly remote: string;
	/** The name looked up for this remote before its first datagram (DNS-Client), else null. */
	readonly remoteName: string | null;
	readonly bytesSent: number;
	readonly bytesReceived: number;
	readonly datagramsSent: number;
	readonly datagramsReceived: number;
	readonly first: TimeMark;
	readonly last: TimeMark;
}

export interface SocketSummary {
	/** `endpoint#generation`: unique in the trace. */
	readonly key: string;
	readonly pid: number | null;
	/** How the PID was learnt (null when it is unknown). */
	readonly pidSource: SocketPidSource | null;
	/** Image name, or `PID n` when the trace names no process for the PID. */
	readonly process: string;
	/** The EPROCESS address from the events' Process field. */
	readonly eprocess: string | null;
	readonly endpoint: string;
	/** Earlier sockets on the same Endpoint address in this trace (addresses are reused). */
	readonly generation: number;
	readonly origin: SocketOrigin;
	readonly family: number | null;
	readonly type: number | null;
	readonly protocol: number | null;
	/** 'a.b.c.d:port' or '[v6]:port'. */
	readonly local: string | null;
	readonly remote: string | null;
	/** Whether it listened (listen succeeded, or connections were indicated on it). */
	readonly listening: boolean;
	/** Key of the listening socket this one was accepted from. */
	readonly listener: string | null;
	/** Connections accepted on it (listening sockets). */
	readonly accepts: number;
	/** The create (or the accept that made it); null when it existed before the trace. */
	readonly opened: TimeMark | null;
	/** The cleanup (legacy 14, AfdCleanup exit); null when still open at the end. */
	readonly closed: TimeMark | null;
	/** closesocket (legacy 13, AfdClose enter). */
	readonly closeRequested: TimeMark | null;
	readonly firstEvent: TimeMark;
	readonly lastEvent: TimeMark;
	readonly state: SocketState;
	/** Null while it is open. */
	readonly endedBy: EndedBy | null;
	readonly connect: ConnectInfo | null;
	/** Completed operations and their bytes (from completions, never from indications). */
	readonly bytesSent: number;
	readonly bytesReceived: number;
	readonly sends: number;
	readonly receives: number;
	/** Operations posted (requested) and the buffer bytes they offered. */
	readonly sendsPosted: number;
	readonly receivesPosted: number;
	readonly bytesSendPosted: number;
	readonly bytesReceivePosted: number;
	readonly sendFailures: number;
	readonly receiveFailures: number;
	/**
	 * Send exits at Locations not known either way that came inside an unfinished send of the same
	 * socket on the same thread: taken as the inner part of one nested send and not counted again
	 * (a guess the figures rest on), and their bytes.
	 */
	readonly nestedSendExits: number;
	readonly nestedSendBytes: number;
	/**
	 * Datagram sockets: the datagrams per remote address, in order of their first datagram (past
	 * 4096 remotes, the rest under the remote 'other remotes').
	 */
	readonly peers: readonly PeerFlow[];
	/** Data the transport indicated (37-39, 3003/3004): the same bytes as the receives, kept apart. */
	readonly indications: number;
	readonly bytesIndicated: number;
	readonly datagramsDropped: number;
	readonly bytesDropped: number;
	readonly dropReasons: readonly DropReason[];
	/** Record indexes of the first drop events (up to 16). */
	readonly dropEvents: readonly number[];
	readonly options: readonly OptionChange[];
	readonly errors: readonly SocketError[];
	/** The NTSTATUS name that best says what went wrong (see tracker rules), or null. */
	readonly error: string | null;
	readonly abort: AbortInfo | null;
	/** Record index of the transport's disconnect indication. */
	readonly peerDisconnect: number | null;
	/** Application I/O requested after closesocket, and the first such events. */
	readonly ioAfterClose: number;
	readonly ioAfterCloseEvents: readonly number[];
	/** Completed sends of at most the tiny-send size, and the event where a storm was detected. */
	readonly tinySends: number;
	readonly tinySendStorm: number | null;
	/** Which event families described it: legacy (1-41) and enter/exit (1000+). */
	readonly legacy: boolean;
	readonly modern: boolean;
	/** Events that name this socket (Endpoint, AcceptEndpoint, Listen Endpoint). */
	readonly eventCount: number;
	/**
	 * Their record indexes in trace order: all of them unless the tracker's per-socket cap was
	 * reached, then the first and the last half-cap (eventCount says how many there were); none
	 * when the tracker keeps none (the CLI, which prints only the count).
	 */
	readonly events: Uint32Array;
	/**
	 * Added after tracking (enrich.ts): the name the application looked up for the remote address
	 * (null when no answer held it before the socket used it), and every name known for it.
	 */
	readonly remoteName?: string | null;
	readonly remoteNames?: readonly string[];
	/** What Microsoft-Windows-TCPIP said about its connection, when the trace has those events. */
	readonly tcp?: TcpOutcome | null;
}

// i18n: data (a socket state's identifier, as the CLI prints it; the page says it in its words)
export const STATE_OPEN: SocketState = 'open at end of trace';
