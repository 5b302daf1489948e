//! Colour parsing: `hex` and `rgb` query values never panic, and whatever
//! parses round-trips through its canonical form.
#![no_main]

use colour::Rgb;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(c) = Rgb::parse_hex(s) {
        let hex = c.to_hex();
        assert_eq!(hex.len(), 7, "{hex}");
        assert_eq!(Rgb::parse_hex(&hex[1..]).ok(), Some(c), "{s:?} -> {hex}");
    }
    if let Ok(c) = Rgb::parse_triple(s) {
        let text = format!("{},{},{}", c.r, c.g, c.b);
        assert_eq!(Rgb::parse_triple(&text).ok(), Some(c), "{s:?} -> {text}");
    }
});
