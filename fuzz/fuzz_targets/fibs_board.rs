#![no_main]
// See docs/FUZZING.md: the checks live in gulbara::fuzz_targets::fibs_board.
libfuzzer_sys::fuzz_target!(|data: &[u8]| gulbara::fuzz_targets::fibs_board(data));
