// English messages. Keys are checked against their use and against zh.ts by
// scripts/i18n-check.ts (npm run check). Plural forms: key_one / key_other (i18next).
export const en: Record<string, string> = {
	// ---- findings (web/src/sockets/findings.ts) ----
	'finding.connect-refused.title': 'Connections refused: {{subject}}',
	'finding.connect-refused.explanation_one':
		'{{count}} connect from {{subject}} was refused ({{statuses}}). {{why}}',
	'finding.connect-refused.explanation_other':
		'{{count}} connects from {{subject}} were refused ({{statuses}}). {{why}}',
	'finding.connect-timeout.title': 'Connect timeouts: {{subject}}',
	'finding.connect-timeout.explanation_one':
		'{{count}} connect from {{subject}} timed out ({{statuses}}): the peer never answered the SYN; it may be down, unreachable, or dropping packets at a firewall.',
	'finding.connect-timeout.explanation_other':
		'{{count}} connects from {{subject}} timed out ({{statuses}}): the peer never answered the SYN; it may be down, unreachable, or dropping packets at a firewall.',
	'finding.connect-failed.title': 'Failed connects: {{subject}}',
	'finding.connect-failed.explanation_one':
		'{{count}} connect from {{subject}} failed ({{statuses}}). {{why}}',
	'finding.connect-failed.explanation_other':
		'{{count}} connects from {{subject}} failed ({{statuses}}). {{why}}',
	'finding.retry-storm.title': 'Retry storm: {{subject}}',
	'finding.retry-storm.explanation_one':
		'{{count}} failed connect from {{subject}} within {{span}}: the application keeps retrying a peer that does not accept; retries without backoff waste ports and time.',
	'finding.retry-storm.explanation_other':
		'{{count}} failed connects from {{subject}} within {{span}}: the application keeps retrying a peer that does not accept; retries without backoff waste ports and time.',
	'finding.afd-abort.title': 'Aborted by AFD: {{subject}}',
	'finding.afd-abort.explanation_one':
		'{{count}} connection aborted by AFD itself ({{subject}}), not by the application or the peer.',
	'finding.afd-abort.explanation_other':
		'{{count}} connections aborted by AFD itself ({{subject}}), not by the application or the peer.',
	'finding.transport-abort.title': 'Reset by the transport: {{subject}}',
	'finding.transport-abort.explanation_one':
		'{{count}} connection ended by the transport ({{subject}}): usually a TCP reset from the peer or a middlebox, or a retransmission timeout.',
	'finding.transport-abort.explanation_other':
		'{{count}} connections ended by the transport ({{subject}}): usually a TCP reset from the peer or a middlebox, or a retransmission timeout.',
	'finding.datagram-dropped.title': 'Datagrams dropped: {{subject}}',
	'finding.datagram-dropped.explanation_one':
		'{{count}} datagram ({{bytes}}) dropped by AFD before the application read them ({{subject}}).',
	'finding.datagram-dropped.explanation_other':
		'{{count}} datagrams ({{bytes}}) dropped by AFD before the application read them ({{subject}}).',
	'finding.datagram-dropped.explanation-buffer_one':
		'{{count}} datagram ({{bytes}}) dropped by AFD before the application read them ({{subject}}). The socket had no receive posted and its buffer was full: read faster or enlarge SO_RCVBUF.',
	'finding.datagram-dropped.explanation-buffer_other':
		'{{count}} datagrams ({{bytes}}) dropped by AFD before the application read them ({{subject}}). The socket had no receive posted and its buffer was full: read faster or enlarge SO_RCVBUF.',
	'finding.open-at-end.title': 'Open at the end of the trace: {{subject}}',
	'finding.open-at-end.explanation_one':
		'{{count}} socket of {{subject}} was still open when the trace ended. Long-lived connections and listeners are normal; sockets that pile up without being closed are a leak.',
	'finding.open-at-end.explanation_other':
		'{{count}} sockets of {{subject}} were still open when the trace ended. Long-lived connections and listeners are normal; sockets that pile up without being closed are a leak.',
	'finding.io-after-close.title': 'I/O after close: {{subject}}',
	'finding.io-after-close.explanation_one':
		'{{count}} request on {{sockets}} of {{subject}} came after closesocket on that socket: a use-after-close bug, or two threads sharing a socket without coordination.',
	'finding.io-after-close.explanation_other':
		'{{count}} requests on {{sockets}} of {{subject}} came after closesocket on that socket: a use-after-close bug, or two threads sharing a socket without coordination.',
	'finding.sockets_one': '{{count}} socket',
	'finding.sockets_other': '{{count}} sockets',
	'finding.tiny-send-storm.title': 'Tiny-send storm: {{subject}}',
	'finding.tiny-send-storm.explanation_one':
		'{{count}} send of at most {{bytes}} bytes on {{sockets}} of {{subject}}, at least {{least}} within {{window}}: each costs a system call and often a packet; coalesce writes (buffer, or gather with WSASend).',
	'finding.tiny-send-storm.explanation_other':
		'{{count}} sends of at most {{bytes}} bytes on {{sockets}} of {{subject}}, at least {{least}} within {{window}}: each costs a system call and often a packet; coalesce writes (buffer, or gather with WSASend).',
	'finding.busy-poll.title': 'Busy select/poll loop: {{subject}}',
	'finding.busy-poll.explanation_one':
		'{{count}} select/poll call by {{subject}} came at {{least}} or more per {{window}}: a loop that polls without waiting burns CPU; wait with a timeout or use overlapped I/O.',
	'finding.busy-poll.explanation_other':
		'{{count}} select/poll calls by {{subject}} came at {{least}} or more per {{window}}: a loop that polls without waiting burns CPU; wait with a timeout or use overlapped I/O.',
	'finding.port-exhaustion.title': 'Port exhaustion: {{subject}}',
	'finding.port-exhaustion.explanation_one':
		'{{count}} bind by {{subject}} failed for lack of a free local port ({{statuses}}). Too many sockets in TIME_WAIT or open at once: reuse connections, or widen the dynamic port range.',
	'finding.port-exhaustion.explanation_other':
		'{{count}} binds by {{subject}} failed for lack of a free local port ({{statuses}}). Too many sockets in TIME_WAIT or open at once: reuse connections, or widen the dynamic port range.',
	'finding.address-in-use.title': 'Address in use: {{subject}}',
	'finding.address-in-use.explanation_one':
		'{{count}} bind by {{subject}} failed because another socket holds the address ({{statuses}}).',
	'finding.address-in-use.explanation_other':
		'{{count}} binds by {{subject}} failed because another socket holds the address ({{statuses}}).',
	'finding.bind-failed.title': 'Failed binds: {{subject}}',
	'finding.bind-failed.explanation_one':
		'{{count}} bind by {{subject}} failed ({{statuses}}). {{why}}',
	'finding.bind-failed.explanation_other':
		'{{count}} binds by {{subject}} failed ({{statuses}}). {{why}}',

	// ---- stories (web/src/sockets/story.ts) ----
	'story.socket': 'socket',
	'story.labelled-socket': '{{label}} socket',
	'story.since-before-trace': 'opened before the trace began',
	'story.since-no-create': 'whose creation is not in the trace',
	'story.unknown-address': 'an unknown address',
	'story.unknown-peer': 'an unknown peer',
	'story.listened': '{{who}} listened on {{local}}',
	'story.listened-accepts_one': 'and accepted {{count}} connection',
	'story.listened-accepts_other': 'and accepted {{count}} connections',
	'story.early-socket': '(a socket {{since}})',
	'story.accepted': '{{who}} accepted a connection from {{remote}}',
	'story.on': 'on {{local}}',
	'story.connected': '{{who}} connected to {{to}}',
	'story.in': 'in {{duration}}',
	'story.an-error': 'an error',
	'story.how-refused': 'refused',
	'story.how-timed-out': 'timed out',
	'story.how-failed': 'failed',
	'story.connect-failed': '{{who}} tried to connect to {{to}}: {{how}} ({{name}})',
	'story.after': 'after {{duration}}',
	'story.connecting': '{{who}} was connecting to {{to}}',
	'story.used': '{{who}} used a {{kind}} {{since}}',
	'story.used-to': '{{who}} used a {{kind}} to {{remote}} {{since}}',
	'story.datagrams': '{{who}} exchanged datagrams with {{remote}}',
	'story.from': 'from {{local}}',
	'story.bind-failed': '{{who}} could not bind a {{kind}} ({{error}}: {{why}})',
	'story.opened': '{{who}} opened a {{kind}}',
	'story.reason': 'reason {{reason}}',
	'story.still-open': 'still open at the end of the trace',
	'story.aborted-afd': 'aborted by AFD ({{reason}})',
	'story.reset-transport': 'reset by the transport ({{reason}})',
	'story.closed-peer': 'closed by the peer',
	'story.closed-app': 'closed by the application',
	'story.end-unknown': 'its end is not in the trace',
	'story.sent': 'sent {{bytes}}',
	'story.received': 'received {{bytes}}',
	'story.dropped_one': '{{count}} datagram dropped ({{reasons}})',
	'story.dropped_other': '{{count}} datagrams dropped ({{reasons}})',
	'story.after-close_one': '{{count}} request after closesocket',
	'story.after-close_other': '{{count}} requests after closesocket',
};
