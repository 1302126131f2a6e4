// Durations and socket kinds as a person reads them (stories, findings, the CLI).
import { ADDRESS_FAMILIES, IP_PROTOCOLS, SOCKET_TYPES } from '../generated/codes.ts';

/** 0.4 ms, 38 ms, 1.02 s, 41.2 s, 2 min 3 s, 1 h 2 min. */
/** Duration units in each language the page speaks (the CLI's are the English ones). */
const DURATION_UNITS = {
	en: { ms: 'ms', s: 's', min: 'min', h: 'h' },
	zh: { ms: '毫秒', s: '秒', min: '分', h: '小时' },
} as const;

export function formatDuration(ms: number, lang: keyof typeof DURATION_UNITS = 'en'): string {
	const u = DURATION_UNITS[lang];
	if (ms < 10) return `${trim(ms.toFixed(1))} ${u.ms}`;
	if (ms < 1000) return `${Math.round(ms)} ${u.ms}`;
	const s = ms / 1000;
	if (s < 10) return `${trim(s.toFixed(2))} ${u.s}`;
	if (s < 60) return `${trim(s.toFixed(1))} ${u.s}`;
	if (s < 3600) return `${Math.floor(s / 60)} ${u.min} ${Math.round(s % 60)} ${u.s}`;
	return `${Math.floor(s / 3600)} ${u.h} ${Math.round((s % 3600) / 60)} ${u.min}`;
}

function trim(x: string): string {
	return x.replace(/\.?0+$/, '');
}

/** 'TCP', 'UDP', or the Winsock names when the pair is not the usual one. */
export function protocolLabel(type: number | null, protocol: number | null): string {
	if (protocol === 6 || (type === 1 && (protocol === 0 || protocol === null))) return 'TCP';
	if (protocol === 17 || (type === 2 && (protocol === 0 || protocol === null))) return 'UDP';
	if (type === 3) return 'raw';
	return protocol !== null ? (IP_PROTOCOLS[protocol] ?? `protocol ${protocol}`) : 'socket';
}

export function familyName(family: number | null): string | null {
	return family === null ? null : (ADDRESS_FAMILIES[family] ?? String(family));
}

export function typeName(type: number | null): string | null {
	return type === null ? null : (SOCKET_TYPES[type] ?? String(type));
}

export function protocolName(protocol: number | null): string | null {
	return protocol === null ? null : (IP_PROTOCOLS[protocol] ?? String(protocol));
}

/** 100 ns ticks → milliseconds. */
export function ticksToMs(ticks: number): number {
	return ticks / 10_000;
}
