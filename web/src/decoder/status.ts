import { NTSTATUS, NTSTATUS_EXPLAIN_ZH, WSA_ERRORS } from '../generated/codes.ts';

export interface StatusExplained {
	readonly value: number;
	readonly hex: string;
	readonly name: string;
	readonly wsa: string | null;
	readonly wsaCode: number | null;
	readonly explanation: string;
	readonly isError: boolean;
}

const SEVERITY = ['success', 'informational', 'warning', 'error'];
const WSA_BY_NAME = new Map(Object.entries(WSA_ERRORS).map(([code, e]) => [e.name, Number(code)]));

/** NTSTATUS → name, the nearest Winsock error and a one-line explanation. */
export function explainStatus(value: number): StatusExplained {
	const v = value >>> 0;
	const hex = '0x' + v.toString(16).toUpperCase().padStart(8, '0');
	const known = NTSTATUS[v];
	const severity = v >>> 30;
	const firstSentence = (s: string) => s.replace(/^\{[^}]*\}\s*/, '').split(/(?<=\.)\s/)[0] ?? s;
	return {
		value: v,
		hex,
		name: known?.name ?? hex,
		wsa: known?.wsa ?? null,
		wsaCode: known?.wsa ? (WSA_BY_NAME.get(known.wsa) ?? null) : null,
		explanation:
			known?.explain ??
			(known ? firstSentence(known.message) : `An NTSTATUS of severity ${SEVERITY[severity]}.`),
		isError: severity === 3,
	};
}

const SEVERITY_ZH = ['成功', '信息', '警告', '错误'];

/** What an NTSTATUS means, in English or Simplified Chinese. */
export function statusExplanation(value: number, lang: 'en' | 'zh'): string {
	const v = value >>> 0;
	if (lang === 'en') return explainStatus(v).explanation;
	return NTSTATUS_EXPLAIN_ZH[v] ?? `严重级别为“${SEVERITY_ZH[v >>> 30]}”的 NTSTATUS。`;
}
