//! Coverage-guided fuzzing of the UCI command parser: any bytes, decoded the
//! way the reader thread decodes stdin, must parse without a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tarpon::uci::command::parse;

fuzz_target!(|data: &[u8]| {
    for line in String::from_utf8_lossy(data).split('\n') {
        let _ = parse(line);
    }
});
