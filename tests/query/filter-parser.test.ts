import { describe, expect, it } from 'vitest';
import { english, textIn } from '../../web/src/i18n/render.ts';
import { FilterError, formatFilter, parseFilter } from '../../web/src/query/filter-parser.ts';

const errorOf = (src: string) => {
	try {
		parseFilter(src);
	} catch (e) {
		if (e instanceof FilterError) return { message: e.message, at: e.at };
		throw e;
	}
	throw new Error(`no error for ${src}`);
};

describe('filter language', () => {
	it('ANDs terms, groups with or and parentheses, negates with - and not', () => {
		expect(parseFilter('event:connect* status:error')).toEqual({
			type: 'and',
			items: [
				{ type: 'field', field: 'event', op: ':', value: 'connect*', at: 0, valueAt: 6 },
				{ type: 'field', field: 'status', op: ':', value: 'error', at: 15, valueAt: 22 },
			],
		});
		const n = parseFilter('(port:443 or port:80) -pid:4 not level:verbose');
		expect(formatFilter(n)).toBe('(port:443 or port:80) -pid:4 -level:verbose');
		expect(parseFilter('a or b c')).toMatchObject({
			type: 'or',
			items: [{ type: 'text' }, { type: 'and' }],
		});
	});
	it('negates a group with -(…) as with not (…)', () => {
		expect(formatFilter(parseFilter('not (port:443 or port:80)'))).toBe('-(port:443 or port:80)');
		expect(parseFilter('-(port:443 or port:80)')).toMatchObject({
			type: 'not',
			item: { type: 'or' },
		});
	});
	it('comparison operators and quoted values', () => {
		expect(parseFilter('bytes>=1000')).toMatchObject({ field: 'bytes', op: '>=', value: '1000' });
		expect(parseFilter('time<1.5s')).toMatchObject({ field: 'time', op: '<', value: '1.5s' });
		expect(parseFilter('pid!=4')).toMatchObject({ op: '!=', value: '4' });
		expect(parseFilter('process:"my app.exe"')).toMatchObject({
			field: 'process',
			value: 'my app.exe',
		});
		expect(parseFilter('"connection refused"')).toMatchObject({
			type: 'text',
			value: 'connection refused',
		});
		expect(parseFilter('  ')).toBeNull();
	});
	it('IPv6 values keep their colons', () => {
		expect(parseFilter('raddr:2001:db8::/32')).toMatchObject({
			field: 'raddr',
			op: ':',
			value: '2001:db8::/32',
		});
	});
	it('errors point at the position', () => {
		expect(errorOf('port:443 (pid:4')).toEqual({ message: 'missing ")" (at 16)', at: 15 });
		expect(errorOf('port:443 )')).toEqual({ message: 'unexpected ")" (at 10)', at: 9 });
		expect(errorOf('a or')).toEqual({ message: '"or" needs a term after it (at 3)', at: 2 });
		expect(errorOf('bytes>')).toEqual({ message: '"bytes>" needs a value (at 7)', at: 6 });
		expect(errorOf('"open')).toEqual({ message: 'unterminated quote (at 1)', at: 0 });
	});
	it('errors are a code and values the page says in Chinese; English is the message above', () => {
		const zh = (src: string) => {
			try {
				parseFilter(src);
			} catch (e) {
				if (!(e instanceof FilterError)) throw e;
				expect(english(e.whole)).toBe(e.message);
				return textIn('zh', e.whole);
			}
			throw new Error(`${src} parsed`);
		};
		expect(zh('port:443 (pid:4')).toBe('缺少“)”（第 16 个字符处）');
		expect(zh('a or')).toBe('“or”后面需要一个条件（第 3 个字符处）');
		expect(zh('bytes>')).toBe('“bytes>”需要一个值（第 7 个字符处）');
		expect(zh('port<>80')).toBe('未知运算符“<>”；是否要输入“!=”？（第 5 个字符处）');
		expect(zh('port in 80')).toBe('“in”后面需要一个集合：in {80 443}（第 9 个字符处）');
	});
	it('round-trips through formatFilter', () => {
		for (const src of [
			'event:AfdConnect*',
			'status:error -pid:4',
			'(a or b) c',
			'raddr:10.0.0.0/8 rport:443',
			'"two words"',
		])
			expect(formatFilter(parseFilter(src))).toBe(src);
	});
});
