// Buffer 0 of every ETL file: BufferType HEADER (4), first record a SYSTEM_TRACE_HEADER with
// HookId 0 whose payload is TRACE_LOGFILE_HEADER (64-bit layout after SYSTEM64, 32-bit after
// SYSTEM32). Its SystemTime is T0, the session clock at StartTime.
import {
	BufferOut_dataPtr,
	HeaderType,
	Status,
	SYSTEM_TRACE_HEADER_SIZE,
	TRACE_LOGFILE_HEADER_BufferSize,
	TRACE_LOGFILE_HEADER_BufferSize_32,
	TRACE_LOGFILE_HEADER_CpuSpeedInMHz,
	TRACE_LOGFILE_HEADER_CpuSpeedInMHz_32,
	TRACE_LOGFILE_HEADER_PerfFreq,
	TRACE_LOGFILE_HEADER_PerfFreq_32,
	TRACE_LOGFILE_HEADER_ReservedFlags,
	TRACE_LOGFILE_HEADER_ReservedFlags_32,
	TRACE_LOGFILE_HEADER_SIZE,
	TRACE_LOGFILE_HEADER_SIZE32,
	TRACE_LOGFILE_HEADER_StartTime,
	TRACE_LOGFILE_HEADER_StartTime_32,
	WMI_BUFFER_HEADER_BufferType,
	WMI_BUFFER_HEADER_SIZE,
	BufferOut_dataSize,
} from './generated/layouts';
import { BUFFER_OUT, INPUT } from './memory-map';
import { openBuffer, setDefaultPointerSize, setExpansionBudget } from './buffer';
import { setClock } from './clock';
import { resetProviders } from './providers';

const ETW_BUFFER_TYPE_HEADER: u32 = 4;

export let logfileAt: usize = 0;
export let logfilePointerSize: u32 = 0;
export let logfileEnd: usize = 0;
export let headerValue: u32 = 0;

export function readHeader(avail: u32): i32 {
	logfileAt = 0;
	headerValue = 0;
	resetProviders();
	setExpansionBudget(0);
	const opened = openBuffer(avail, true);
	if (opened != Status.Ok) return opened;
	const type = <u32>load<u16>(INPUT + WMI_BUFFER_HEADER_BufferType);
	if (type != ETW_BUFFER_TYPE_HEADER) {
		headerValue = type;
		return Status.BadHeaderBuffer;
	}
	const image = <usize>load<u32>(BUFFER_OUT + BufferOut_dataPtr);
	const end = load<u32>(BUFFER_OUT + BufferOut_dataSize);
	const at = WMI_BUFFER_HEADER_SIZE;
	if (at + SYSTEM_TRACE_HEADER_SIZE > end) return Status.NoHeader;
	const p = image + at;
	const marker = load<u32>(p);
	const headerType = (marker >>> 16) & 0xff;
	const hook = <u32>load<u16>(p + 6);
	if (
		marker >>> 24 != 0xc0 ||
		(headerType != HeaderType.System32 && headerType != HeaderType.System64) ||
		hook != 0
	) {
		headerValue = marker;
		return Status.BadLogfileRecord;
	}
	const wide = headerType == HeaderType.System64;
	const size = <u32>load<u16>(p + 4);
	const need =
		SYSTEM_TRACE_HEADER_SIZE + (wide ? TRACE_LOGFILE_HEADER_SIZE : TRACE_LOGFILE_HEADER_SIZE32);
	if (size < need || at + size > end) {
		headerValue = size;
		return Status.BadLogfileRecord;
	}
	const h = p + SYSTEM_TRACE_HEADER_SIZE;
	logfileAt = h;
	logfileEnd = p + size;
	logfilePointerSize = wide ? 8 : 4;
	setDefaultPointerSize(logfilePointerSize);
	const clock = load<u32>(
		h + (wide ? TRACE_LOGFILE_HEADER_ReservedFlags : TRACE_LOGFILE_HEADER_ReservedFlags_32),
	);
	const start = load<i64>(
		h + (wide ? TRACE_LOGFILE_HEADER_StartTime : TRACE_LOGFILE_HEADER_StartTime_32),
	);
	const freq = load<i64>(
		h + (wide ? TRACE_LOGFILE_HEADER_PerfFreq : TRACE_LOGFILE_HEADER_PerfFreq_32),
	);
	const mhz = load<u32>(
		h + (wide ? TRACE_LOGFILE_HEADER_CpuSpeedInMHz : TRACE_LOGFILE_HEADER_CpuSpeedInMHz_32),
	);
	setExpansionBudget(
		load<u32>(h + (wide ? TRACE_LOGFILE_HEADER_BufferSize : TRACE_LOGFILE_HEADER_BufferSize_32)),
	);
	setClock(clock, start, load<i64>(p + 0x10), freq, mhz);
	// Leave buffer 0 ready to be walked from its first record.
	return openBuffer(avail, true);
}
