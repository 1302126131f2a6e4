// The lanes' time axis: the timeline's round ticks (time-ticks.ts) placed as fractions of the
// lanes' width, each label kept inside the axis (the first and last are aligned to its edges
// rather than centred on their tick), and the spacing of the grid lines drawn behind the lanes.
import { CHAR_PX, timeTicks, type TickMode } from '../timeline/time-ticks.ts';

export interface LaneTick {
	/** Ticks (100 ns) since the trace start. */
	readonly at: number;
	/** Where on the axis, as a fraction of its width (0–1). */
	readonly x: number;
	readonly label: string;
	/** How the label sits on its tick: centred, or from an edge of the axis that would cut it. */
	readonly align: 'start' | 'middle' | 'end';
}

export interface LaneAxis {
	readonly ticks: readonly LaneTick[];
	/** Pixels between two ticks, and from the axis's left edge to the first (0 when none). */
	readonly stepPx: number;
	readonly firstPx: number;
}

/** The ticks over `axis` (ticks since the start) for lanes `width` pixels wide. */
export function laneAxis(
	axis: { readonly from: number; readonly to: number },
	width: number,
	mode: TickMode,
	startFiletime: string,
): LaneAxis {
	if (!(width > 0) || axis.to <= axis.from) return { ticks: [], stepPx: 0, firstPx: 0 };
	const span = axis.to - axis.from;
	const scale = timeTicks(axis.from, axis.to, width, mode, startFiletime);
	const ticks = scale.ticks.map(({ at, label }) => {
		const x = (at - axis.from) / span;
		const half = (label.length * CHAR_PX) / 2;
		const align: LaneTick['align'] =
			x * width < half ? 'start' : (1 - x) * width < half ? 'end' : 'middle';
		return { at, x, label, align };
	});
	return {
		ticks,
		stepPx: (scale.step / span) * width,
		firstPx: ticks.length > 0 ? ticks[0]!.x * width : 0,
	};
}
