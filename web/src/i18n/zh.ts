// 简体中文 messages: the same keys as en.ts (plural forms: only key_other, Chinese has one).
// scripts/i18n-check.ts (npm run check) fails on a key missing here or unused.
export const zh: Record<string, string> = {
	// ---- findings ----
	'finding.connect-refused.title': '连接被拒绝：{{subject}}',
	'finding.connect-refused.explanation_other':
		'来自 {{subject}} 的 {{count}} 次连接被拒绝（{{statuses}}）。{{why}}',
	'finding.connect-timeout.title': '连接超时：{{subject}}',
	'finding.connect-timeout.explanation_other':
		'来自 {{subject}} 的 {{count}} 次连接超时（{{statuses}}）：对端始终没有应答 SYN；它可能已关闭、不可达，或数据包被防火墙丢弃。',
	'finding.connect-failed.title': '连接失败：{{subject}}',
	'finding.connect-failed.explanation_other':
		'来自 {{subject}} 的 {{count}} 次连接失败（{{statuses}}）。{{why}}',
	'finding.retry-storm.title': '重试风暴：{{subject}}',
	'finding.retry-storm.explanation_other':
		'来自 {{subject}} 的 {{count}} 次失败连接发生在 {{span}} 之内：应用程序不断重试一个不接受连接的对端；不带退避的重试会浪费端口和时间。',
	'finding.afd-abort.title': '被 AFD 中止：{{subject}}',
	'finding.afd-abort.explanation_other':
		'{{count}} 个连接被 AFD 自身中止（{{subject}}），而不是被应用程序或对端中止。',
	'finding.transport-abort.title': '被传输层重置：{{subject}}',
	'finding.transport-abort.explanation_other':
		'{{count}} 个连接被传输层终止（{{subject}}）：通常是对端或中间设备发出的 TCP 重置，或重传超时。',
	'finding.datagram-dropped.title': '数据报被丢弃：{{subject}}',
	'finding.datagram-dropped.explanation_other':
		'{{count}} 个数据报（{{bytes}}）在应用程序读取之前被 AFD 丢弃（{{subject}}）。',
	'finding.datagram-dropped.explanation-buffer_other':
		'{{count}} 个数据报（{{bytes}}）在应用程序读取之前被 AFD 丢弃（{{subject}}）。该套接字没有待处理的接收请求，且缓冲区已满：请更快地读取，或增大 SO_RCVBUF。',
	'finding.open-at-end.title': '跟踪结束时仍打开：{{subject}}',
	'finding.open-at-end.explanation_other':
		'{{subject}} 的 {{count}} 个套接字在跟踪结束时仍处于打开状态。长连接和监听套接字属于正常；不断累积而不关闭的套接字则是泄漏。',
	'finding.io-after-close.title': '关闭后的 I/O：{{subject}}',
	'finding.io-after-close.explanation_other':
		'{{subject}} 的 {{sockets}}上有 {{count}} 个请求发生在该套接字的 closesocket 之后：这是关闭后使用的错误，或两个线程在没有协调的情况下共用一个套接字。',
	'finding.sockets_other': '{{count}} 个套接字',
	'finding.tiny-send-storm.title': '小包发送风暴：{{subject}}',
	'finding.tiny-send-storm.explanation_other':
		'{{subject}} 的 {{sockets}}上有 {{count}} 次不超过 {{bytes}} 字节的发送，在 {{window}} 内至少 {{least}} 次：每次都要一次系统调用，往往还要一个数据包；请合并写入（缓冲，或用 WSASend 聚集发送）。',
	'finding.busy-poll.title': '忙轮询 select/poll 循环：{{subject}}',
	'finding.busy-poll.explanation_other':
		'{{subject}} 的 {{count}} 次 select/poll 调用达到每 {{window}} {{least}} 次或更多：不等待就轮询的循环会消耗 CPU；请带超时等待，或使用重叠 I/O。',
	'finding.port-exhaustion.title': '端口耗尽：{{subject}}',
	'finding.port-exhaustion.explanation_other':
		'{{subject}} 的 {{count}} 次绑定因没有空闲的本地端口而失败（{{statuses}}）。处于 TIME_WAIT 或同时打开的套接字过多：请复用连接，或扩大动态端口范围。',
	'finding.address-in-use.title': '地址已被占用：{{subject}}',
	'finding.address-in-use.explanation_other':
		'{{subject}} 的 {{count}} 次绑定失败，因为另一个套接字占用了该地址（{{statuses}}）。',
	'finding.bind-failed.title': '绑定失败：{{subject}}',
	'finding.bind-failed.explanation_other':
		'{{subject}} 的 {{count}} 次绑定失败（{{statuses}}）。{{why}}',

	// ---- stories ----
	'story.socket': '套接字',
	'story.labelled-socket': '{{label}} 套接字',
	'story.since-before-trace': '在跟踪开始前打开',
	'story.since-no-create': '创建不在跟踪中',
	'story.unknown-address': '未知地址',
	'story.unknown-peer': '未知对端',
	'story.listened': '{{who}} 在 {{local}} 上监听',
	'story.listened-accepts_other': '，接受了 {{count}} 个连接',
	'story.early-socket': '（套接字{{since}}）',
	'story.accepted': '{{who}} 接受了来自 {{remote}} 的连接',
	'story.on': '，本地地址 {{local}}',
	'story.connected': '{{who}} 连接到 {{to}}',
	'story.in': '，用时 {{duration}}',
	'story.an-error': '一个错误',
	'story.how-refused': '被拒绝',
	'story.how-timed-out': '超时',
	'story.how-failed': '失败',
	'story.connect-failed': '{{who}} 尝试连接到 {{to}}：{{how}}（{{name}}）',
	'story.after': '，{{duration}} 后',
	'story.connecting': '{{who}} 正在连接到 {{to}}',
	'story.used': '{{who}} 使用了一个{{kind}}（{{since}}）',
	'story.used-to': '{{who}} 使用了一个通往 {{remote}} 的{{kind}}（{{since}}）',
	'story.datagrams': '{{who}} 与 {{remote}} 交换了数据报',
	'story.from': '，本地地址 {{local}}',
	'story.bind-failed': '{{who}} 无法绑定{{kind}}（{{error}}：{{why}}）',
	'story.opened': '{{who}} 打开了一个{{kind}}',
	'story.reason': '原因 {{reason}}',
	'story.still-open': '跟踪结束时仍处于打开状态',
	'story.aborted-afd': '被 AFD 中止（{{reason}}）',
	'story.reset-transport': '被传输层重置（{{reason}}）',
	'story.closed-peer': '由对端关闭',
	'story.closed-app': '由应用程序关闭',
	'story.end-unknown': '其结束不在跟踪中',
	'story.sent': '发送 {{bytes}}',
	'story.received': '接收 {{bytes}}',
	'story.dropped_other': '{{count}} 个数据报被丢弃（{{reasons}}）',
	'story.after-close_other': 'closesocket 之后有 {{count}} 个请求',
};
