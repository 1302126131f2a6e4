// The names a trace's vocabulary gives its numbers, for the table's Process and Remote name
// columns and the statistics' hosts.
import type { Vocabulary } from '../../worker/api.ts';

/** PID → process name, for the processes whose name the trace tells. */
export function processNamesOf(vocabulary: Vocabulary | null): Map<number, string> {
	return new Map(
		(vocabulary?.processes ?? []).flatMap((p) => (p.name ? [[p.pid, p.name] as const] : [])),
	);
}

/** Remote address → host names from the trace's DNS answers. */
export function hostNamesOf(vocabulary: Vocabulary | null): Map<string, readonly string[]> {
	return new Map(vocabulary?.hosts ?? []);
}
