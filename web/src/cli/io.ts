// Where a run reads and writes: the process's own streams, or a test's.
export interface Io {
	readonly stdin: NodeJS.ReadableStream;
	readonly stdout: NodeJS.WritableStream & { isTTY?: boolean };
	readonly stderr: NodeJS.WritableStream & { isTTY?: boolean };
}
