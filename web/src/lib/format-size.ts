// Counts and byte sizes as text, one way everywhere (the page, the CLI, stories and findings).
// Numbers use en-US grouping on purpose: the page, the CLI and bug reports then show the same
// text whatever the browser locale.

const group = new Intl.NumberFormat('en-US');

/** 212992 → "212,992". */
export function formatCount(n: number | bigint): string {
	return group.format(n);
}

/**
 * 212992 → "208 KiB"; below 1 KiB the exact count ("512 bytes", in Chinese "512 字节"). Binary
 * units, 3 digits.
 */
export function formatBytes(n: number, lang: 'en' | 'zh' = 'en'): string {
	const units = ['KiB', 'MiB', 'GiB', 'TiB'];
	if (n < 1024) return `${formatCount(n)} ${lang === 'zh' ? '字节' : n === 1 ? 'byte' : 'bytes'}`;
	let value = n / 1024;
	let unit = 0;
	while (value >= 1024 && unit < units.length - 1) {
		value /= 1024;
		unit++;
	}
	return `${threeDigits(value)} ${units[unit]}`;
}

/** About three significant digits, no exponents or trailing zeros: 1.5, 12.4, 208, 999.9 → "1000". */
export function threeDigits(value: number): string {
	return value >= 100 ? String(Math.round(value)) : trimZeros(value.toPrecision(3));
}

/** "1.50" → "1.5", "208" → "208", "10.0" → "10". */
export function trimZeros(fixed: string): string {
	return fixed.includes('.') ? fixed.replace(/\.?0+$/, '') : fixed;
}
