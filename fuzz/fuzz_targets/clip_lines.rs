#![no_main]
// See docs/FUZZING.md: the checks live in gulbara::fuzz_targets::clip_lines.
libfuzzer_sys::fuzz_target!(|data: &[u8]| gulbara::fuzz_targets::clip_lines(data));
