// A trace kept on this device, as the storage panel lists it (the library's TraceSummary mapped
// down to what storage management needs).
export interface StoredTrace {
	/** The library's key. */
	readonly id: number;
	readonly name: string;
	/** Bytes the trace takes in storage (not the size of the original file). */
	readonly bytes: number;
}
