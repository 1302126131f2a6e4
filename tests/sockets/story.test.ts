// A socket's story in words, and the sizes and durations it is told with.
import { describe, expect, it } from 'vitest';
import { formatBytes } from '../../web/src/lib/format-size.ts';
import { formatDuration } from '../../web/src/sockets/format.ts';
import { storyMessageOf, storyOf } from '../../web/src/sockets/story.ts';
import { textIn } from '../../web/src/i18n/render.ts';
import { Lifecycles, SOCK_DGRAM, START } from '../builders/lifecycles.ts';
import { trackBytes } from './track.ts';

describe('story of a socket', () => {
	it('tells the issue example word for word', async () => {
		const lc = new Lifecycles({ families: 'modern' });
		const chrome = lc.process({ pid: 4120, name: 'chrome.exe', eprocess: 0xffffa50c12345080n });
		const s = lc
			.socket(chrome, { at: 10 })
			.bind('0.0.0.0:51234')
			.connect('142.250.74.46:443', { ms: 38 })
			.send(6349)
			.recv(629145)
			.send(6349)
			.recv(629146);
		// closesocket and cleanup take 0.15 ms of the script's clock.
		s.wait(41_200 - Number(s.t - (START + 100_000n)) / 1e4 - 0.15).close();
		lc.socket(chrome, { at: 20, type: SOCK_DGRAM })
			.bind('0.0.0.0:53114')
			.sendto('192.168.1.1:53', 40)
			.drop('192.168.1.1:53', 120)
			.recvfrom('192.168.1.1:53', 120);
		lc.socket(chrome, { at: 30, create: false }).send(10);
		const { tracked } = await trackBytes(lc.finish().file.bytes);
		const [first, second, third] = tracked.sockets.map(storyOf);
		expect(first).toBe(
			'chrome.exe (PID 4120) connected to 142.250.74.46:443 in 38 ms, sent 12.4 KiB, received 1.2 MiB, closed by the application after 41.2 s',
		);
		expect(second).toBe(
			'chrome.exe (PID 4120) exchanged datagrams with 192.168.1.1:53 from 0.0.0.0:53114, sent 40 bytes, received 120 bytes, 1 datagram dropped (Insufficient local buffer space), still open at the end of the trace',
		);
		expect(third).toBe(
			'chrome.exe (PID 4120) used a socket opened before the trace began, sent 10 bytes, received 0 bytes, still open at the end of the trace',
		);
		// In Chinese, when comes before what, in Chinese units.
		const zh = textIn('zh', storyMessageOf(tracked.sockets[0]!));
		expect(zh).toContain('用时 38 毫秒');
		expect(zh.endsWith('41.2 秒后由应用程序关闭')).toBe(true);
		expect(zh).not.toMatch(/\d s\b|后，/);
	});

	it('formats durations in Chinese units', () => {
		expect([38.4, 41_200, 123_000].map((ms) => formatDuration(ms, 'zh'))).toEqual([
			'38 毫秒',
			'41.2 秒',
			'2 分 3 秒',
		]);
	});

	it('formats sizes (binary units, as everywhere on the page) and durations', () => {
		expect([0, 1, 946, 1024, 12_698, 1_258_291, 5 * 2 ** 30].map((n) => formatBytes(n))).toEqual([
			'0 bytes',
			'1 byte',
			'946 bytes',
			'1 KiB',
			'12.4 KiB',
			'1.2 MiB',
			'5 GiB',
		]);
		expect(
			[0.42, 9.9, 38.4, 1024, 41_200, 123_000, 3_725_000].map((ms) => formatDuration(ms)),
		).toEqual(['0.4 ms', '9.9 ms', '38 ms', '1.02 s', '41.2 s', '2 min 3 s', '1 h 2 min']);
	});
});
