// Names for the numbers that are easy to mix up, as aliases (they cost nothing at run time): a
// time in ticks is not a FILETIME nor milliseconds, and an event's index in the trace is not its
// position among the rows a filter matched.

/** 100 ns intervals since 1601-01-01 UTC, kept as bigint (they exceed 2^53). */
export type Filetime = bigint;

/** 100 ns ticks since the trace's StartTime: the `time` column, time ranges, the timeline. */
export type Ticks = number;

export type Milliseconds = number;

/**
 * An event's place in the whole trace: its record's index in time order, which is also its global
 * row in the columns (chunk by chunk, each chunk's rows after the ones before it).
 */
export type EventIndex = number;

/** A row of one chunk: 0 to the chunk's rows − 1. */
export type ChunkRow = number;

/** A place among the rows a selection matched: 0 is its first match, whatever its EventIndex. */
export type RowPosition = number;
