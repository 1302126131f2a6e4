/** A case-insensitive matcher for a glob with * and ?; without wildcards it matches exactly. */
export function globMatcher(pattern: string): (s: string) => boolean {
	const p = pattern.toLowerCase();
	if (!/[*?]/.test(p)) return (s) => s.toLowerCase() === p;
	const re = new RegExp(
		'^' +
			p
				.replace(/[.+^${}()|[\]\\]/g, '\\$&')
				.replace(/\*/g, '.*')
				.replace(/\?/g, '.') +
			'$',
		's',
	);
	return (s) => re.test(s.toLowerCase());
}
