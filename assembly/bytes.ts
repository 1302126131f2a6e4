// Little-endian reads at absolute addresses. Bounds are checked by the callers against the
// record or buffer they frame: every read below is preceded by such a check.

// @ts-ignore: decorator
@inline
export function u8at(p: usize): u32 {
	return <u32>load<u8>(p);
}

// @ts-ignore: decorator
@inline
export function u16at(p: usize): u32 {
	return <u32>load<u16>(p);
}

// @ts-ignore: decorator
@inline
export function u32at(p: usize): u32 {
	return load<u32>(p);
}

// @ts-ignore: decorator
@inline
export function i64at(p: usize): i64 {
	return load<i64>(p);
}

// @ts-ignore: decorator
@inline
export function u16be(p: usize): u32 {
	return (<u32>load<u8>(p) << 8) | <u32>load<u8>(p + 1);
}
