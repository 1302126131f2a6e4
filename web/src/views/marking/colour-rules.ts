// Colouring rules, as Wireshark's: each a filter and a colour; a row takes the colour of the
// first enabled rule it matches. The worker tests the rules on the rows on screen
// (worker/api.ts ruleMatches); the colours are tints of the theme's background, so that the
// text keeps its contrast in the light and the dark theme (state/theme.css).

export const RULE_COLOURS = ['red', 'orange', 'yellow', 'green', 'blue', 'purple', 'grey'] as const;
export type RuleColour = (typeof RULE_COLOURS)[number];

export const PRESETS = ['errors', 'aborts', 'dns'] as const;

export interface ColourRule {
	/** The user's name for it ('' for a default rule not renamed: its preset's name is shown). */
	readonly name: string;
	readonly preset?: (typeof PRESETS)[number];
	readonly filter: string;
	readonly colour: RuleColour;
	readonly enabled: boolean;
}

export interface ColourRules {
	/** All rules off at once, the list kept. */
	readonly enabled: boolean;
	readonly rules: readonly ColourRule[];
}

/** Errors first: a failed abort is an error before it is an abort. */
export const DEFAULT_RULES: ColourRules = {
	enabled: true,
	rules: [
		{ name: '', preset: 'errors', filter: 'status:error', colour: 'red', enabled: true },
		{
			name: '',
			preset: 'aborts',
			filter:
				// i18n: data (a filter)
				'event:AfdAbort or status:STATUS_CONNECTION_RESET or status:STATUS_CONNECTION_ABORTED',
			colour: 'orange',
			enabled: true,
		},
		{
			name: '',
			preset: 'dns',
			// i18n: data (a filter)
			filter: 'provider:Microsoft-Windows-DNS-Client or rport:53',
			colour: 'blue',
			enabled: true,
		},
	],
};

const KEY = 'sockscope.colour-rules';

/** Most rules a list holds (each is tested on every row drawn). */
export const MAX_RULES = 24;

type Storage = Pick<globalThis.Storage, 'getItem' | 'setItem'>;

const isRule = (r: unknown): r is ColourRule => {
	const x = r as ColourRule;
	return (
		typeof r === 'object' &&
		r !== null &&
		typeof x.name === 'string' &&
		typeof x.filter === 'string' &&
		(RULE_COLOURS as readonly string[]).includes(x.colour) &&
		typeof x.enabled === 'boolean' &&
		(x.preset === undefined || PRESETS.includes(x.preset))
	);
};

export function loadColourRules(storage: Storage | null): ColourRules {
	try {
		const v = JSON.parse(storage?.getItem(KEY) ?? 'null') as Partial<ColourRules> | null;
		if (!v || typeof v !== 'object' || !Array.isArray(v.rules)) return DEFAULT_RULES;
		return {
			enabled: v.enabled !== false,
			rules: v.rules.filter(isRule).slice(0, MAX_RULES),
		};
	} catch {
		return DEFAULT_RULES;
	}
}

export function storeColourRules(storage: Storage | null, rules: ColourRules): void {
	try {
		storage?.setItem(KEY, JSON.stringify(rules));
	} catch {
		// Storage may be off: the rules then last until the page closes.
	}
}

/** The filters the worker tests, in order: the enabled rules' (none when all are off). */
export function activeFilters(rules: ColourRules): string[] {
	if (!rules.enabled) return [];
	return rules.rules.filter((r) => r.enabled && r.filter.trim() !== '').map((r) => r.filter);
}

/**
 * Each row's colour from the worker's answer (per row, the first active filter it matches, or
 * -1): event index → colour.
 */
export function rowColours(
	rules: ColourRules,
	indexes: readonly number[],
	firstMatch: readonly number[],
): Map<number, RuleColour> {
	const active = rules.enabled
		? rules.rules.filter((r) => r.enabled && r.filter.trim() !== '')
		: [];
	const out = new Map<number, RuleColour>();
	indexes.forEach((index, k) => {
		const rule = active[firstMatch[k] ?? -1];
		if (rule) out.set(index, rule.colour);
	});
	return out;
}

/** The list with rule `at` replaced (null: removed), or one added at the end (`at` = length). */
export function editRule(rules: ColourRules, at: number, rule: ColourRule | null): ColourRules {
	const list = [...rules.rules];
	if (rule === null) list.splice(at, 1);
	else if (at >= list.length) list.push(rule);
	else list[at] = rule;
	return { ...rules, rules: list.slice(0, MAX_RULES) };
}

/** The list with rule `at` moved one place up (-1) or down (1). */
export function moveRule(rules: ColourRules, at: number, by: -1 | 1): ColourRules {
	const to = at + by;
	if (to < 0 || to >= rules.rules.length) return rules;
	const list = [...rules.rules];
	[list[at], list[to]] = [list[to]!, list[at]!];
	return { ...rules, rules: list };
}
