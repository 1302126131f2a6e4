// Names for kernel (MOF) records, by HookId = Group << 8 | Type. Groups from the
// EVENT_TRACE_GROUP_* constants; types are the common opcodes of each class.
const GROUPS: Record<number, string> = {
	0x00: 'Header',
	0x01: 'DiskIo',
	0x03: 'Process',
	0x04: 'FileIo',
	0x05: 'Thread',
	0x06: 'TcpIp',
	0x07: 'Job',
	0x08: 'UdpIp',
	0x09: 'Registry',
	0x0a: 'DbgPrint',
	0x0b: 'Config',
	0x0d: 'Pool',
	0x0f: 'PerfInfo',
	0x10: 'Heap',
	0x11: 'Object',
	0x12: 'Power',
	0x13: 'Modbound',
	0x14: 'Image',
	0x15: 'Dpc',
	0x16: 'Cc',
	0x17: 'Critsec',
	0x18: 'StackWalk',
	0x19: 'Ums',
	0x1a: 'Alpc',
	0x1b: 'SplitIo',
	0x20: 'PageFault',
};

const TYPES: Record<number, string> = {
	1: 'Start',
	2: 'End',
	3: 'DCStart',
	4: 'DCEnd',
	10: 'Load',
	11: 'Send',
	12: 'Recv',
	36: 'CSwitch',
};

export function kernelEventName(hookId: number): string {
	const group = GROUPS[hookId >> 8] ?? `Group${(hookId >> 8).toString(16)}`;
	const type = hookId & 0xff;
	return `${group}/${TYPES[type] ?? type}`;
}
