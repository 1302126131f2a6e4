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

	// ---- shell (App, theme, language, errors) ----
	'app.link-missing-unnamed': 'the trace it was made from',
	'app.tagline':
		"See what a program's sockets did: open a Windows Winsock (AFD) ETW trace right in your browser.",
	'app.shortcuts-title': 'Keyboard shortcuts (?)',
	'app.keys': 'Keys',
	'app.privacy': 'Nothing leaves your machine: the trace is decoded in this tab.',
	'app.all-traces': 'All traces',
	'app.link-missing-before': 'This link shows a view of ',
	'app.link-missing-after':
		", which this browser's library does not hold. Open that file (it stays on this machine) to see the view.",
	'app.dismiss': 'Dismiss',
	'app.footer':
		'No uploads · no telemetry · no requests to other sites · decoded by a Web Worker in this tab',
	'shell.language': 'Language',
	'theme.system': 'System theme',
	'theme.light': 'Light theme',
	'theme.dark': 'Dark theme',
	'theme.switch-to': 'Switch to: {{theme}} (d)',
	'busy.reading': 'Reading',
	'error.could-not-open': 'Could not open',
	'error.not-etl-hint':
		'Sockscope reads binary Event Trace Log files (<code>.etl</code>) as written by <code>logman</code>, <code>netsh trace</code>, <code>pktmon</code> or WPR. Text exports (<code>.txt</code>, <code>.csv</code>), <code>.cab</code> archives and <code>.pcapng</code> conversions are not traces.',

	// ---- drop zone ----
	'drop.release': 'Release to open the trace',
	'drop.title': 'Drop a Winsock .etl trace here',
	'drop.hint':
		'From <code>logman</code>, <code>netsh trace</code>, <code>pktmon</code> or WPR, with the Microsoft-Windows-Winsock-AFD provider.',
	'drop.choose': 'Choose a trace…',
	'drop.sample': 'Open the sample trace',

	// ---- import progress and library ----
	'import.eta-under-second': 'under a second left',
	'import.eta': '{{seconds}} s left',
	'import.indexing': 'Indexing',
	'import.importing': 'Importing',
	'import.cancel': 'Cancel',
	'import.progress': 'Import progress',
	'import.bytes-of': '{{done}} of {{total}}',
	'import.indexing-detail': 'finding every buffer before events are decoded in time order',
	'import.events': 'events',
	'library.title': 'Your traces',
	'library.new-name': 'New name',
	'library.save': 'Save',
	'library.file': '{{size}} file',
	'library.events': '{{count}} events',
	'library.stored': '{{size}} stored',
	'library.imported-in': 'imported in {{duration}} ({{speed}} MB/s)',
	'library.build': 'Windows build {{build}}',
	'library.resume': 'Resume…',
	'library.rename': 'Rename',
	'library.delete': 'Delete',
	'library.status-importing': 'importing',
	'library.status-interrupted': 'interrupted',
	'library.status-complete': 'complete',
	'library.status-cancelled': 'cancelled',
	'library.status-failed': 'failed',

	// ---- storage and update ----
	'storage.persistent': 'Persistent',
	'storage.persistent-hint': 'The browser keeps stored data until you delete it.',
	'storage.best-effort': 'Best effort',
	'storage.not-asked-hint':
		'Sockscope asks the browser to keep its data when you open your first trace.',
	'storage.denied-hint':
		'The browser may clear stored data when the disk runs low. Installing Sockscope as an app usually makes it persistent.',
	'storage.unknown-persistence': 'Unknown',
	'storage.unsupported-hint': 'This browser does not report it.',
	'storage.offline-ready': 'Ready: Sockscope starts and reads traces without a network.',
	'storage.offline-preparing': 'Saving the app for offline use…',
	'storage.offline-unsupported': 'Not available here (needs https or localhost).',
	'storage.offline-failed': 'Not available: the offline copy could not be saved.',
	'storage.offline-development':
		'Off on the development server (npm run dev); build the site to try it.',
	'storage.offline-copy': 'Offline copy of the app',
	'storage.trace-library': 'Trace library (IndexedDB)',
	'storage.private-files': 'Private files',
	'storage.title': 'On this device',
	'storage.used': 'Storage used',
	'storage.used-of': 'used of',
	'storage.estimate': '(browser estimate)',
	'storage.unknown': 'unknown',
	'storage.persistence': 'Persistence',
	'storage.ask-again': 'Ask again',
	'storage.offline': 'Offline',
	'storage.version': 'Version',
	'storage.stored-traces': 'Stored traces:',
	'storage.none': 'none',
	'storage.trace': 'Trace',
	'storage.stored': 'Stored',
	'storage.delete-named': 'Delete {{name}} from this device',
	'storage.delete': 'Delete',
	'update.title': 'Update available',
	'update.text': 'A new version of Sockscope is ready. This one keeps working until you reload.',
	'update.reloading': 'Reloading…',
	'update.reload': 'Reload',
	'update.later': 'Later',
	'update.offline-title': 'Ready to work offline',
	'update.offline-text': 'Sockscope now opens and reads traces without a network.',
	'update.ok': 'OK',

	// ---- trace view ----
	'trace.panel-events': 'Events',
	'trace.panel-stats': 'Statistics',
	'trace.panel-sockets': 'Sockets',
	'trace.copied': 'Copied {{what}}.',
	'trace.copy-refused': 'The browser did not allow copying to the clipboard.',
	'trace.copied-rows_one': '{{count}} row as {{format}}',
	'trace.copied-rows_other': '{{count}} rows as {{format}}',
	'trace.label': 'Trace {{name}}',
	'trace.hide-facts': 'Hide trace facts',
	'trace.facts': 'Trace facts',
	'trace.cpus_one': '{{count}} CPU',
	'trace.cpus_other': '{{count}} CPUs',
	'trace.starts': 'starts {{time}} UTC',
	'trace.panels': 'Panels',
	'trace.of': 'of',
	'trace.events': 'events',
	'trace.importing': ' (importing…)',
	'trace.whole-trace': 'Whole trace (0)',
	'trace.clear-range': 'Clear the time range',
	'trace.switch-time': 'Switch the time column (t)',
	'trace.time-utc': 'Time: UTC',
	'trace.time-since-start': 'Time: since start',
	'trace.the-value': 'the value',
	'trace.sockets-after-import': 'The sockets are rebuilt once the import is complete.',

	// ---- event table ----
	'table.time-utc-title': 'UTC time of day on {{date}} (t switches)',
	'table.time-s-title': 'Seconds since the trace started (t switches to UTC)',
	'table.time-utc': 'Time (UTC)',
	'table.time-s': 'Time (s)',
	'table.label': 'Events',
	'table.keys': 'Event rows: arrows or j and k move, Enter offers cell actions',
	'table.no-match': 'No events match.',

	// ---- columns ----
	'column.time': 'Time',
	'column.process': 'Process',
	'column.pid': 'PID',
	'column.tid': 'TID',
	'column.cpu': 'CPU',
	'column.event': 'Event',
	'column.level': 'Level',
	'column.endpoint': 'Endpoint',
	'column.local': 'Local',
	'column.remote': 'Remote',
	'column.bytes': 'Bytes',
	'column.status': 'Status',

	// ---- cell menu and column picker ----
	'cell.actions': 'Cell actions',
	'cell.filter-on': 'Filter on this',
	'cell.exclude': 'Exclude this',
	'cell.copy-value': 'Copy value',
	'columns.button': 'Columns',
	'columns.shown': 'Columns shown',
	'columns.default': 'Default columns',

	// ---- details pane ----
	'details.untitled': '{{provider}} event {{id}}',
	'details.label': 'Event details',
	'details.event': 'event {{index}}',
	'details.close-title': 'Close (Esc)',
	'details.close': 'Close details',
	'details.fields': 'Fields',
	'details.narrow-to': 'Narrow the filter to {{term}}',
	'details.narrow-to-event': 'Narrow the filter to this event',
	'details.filter': 'filter',
	'details.header': 'Header',
	'details.bytes': 'Bytes',
	'details.payload-from': 'payload from {{offset}}',
};
