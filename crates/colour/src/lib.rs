//! Colour parsing and conversion for the colour tools.
//!
//! Two textual forms are accepted:
//!
//! * **hex**: six hexadecimal digits `RRGGBB`, or the three-digit shorthand
//!   `RGB` (each digit doubled), in either case, with an optional leading `#`;
//! * **triple**: three decimal integers `r,g,b`, each `0..=255`, spaces
//!   around the numbers tolerated.
//!
//! Anything else is a [`ColourError`] whose message names the accepted forms.
//!
//! ```
//! use colour::Rgb;
//! let c: Rgb = "#4b007d".parse::<colour::Hex>().unwrap().into();
//! assert_eq!(c, Rgb::new(75, 0, 125));
//! assert_eq!(Rgb::parse_triple("75, 0,125").unwrap().to_hex(), "#4B007D");
//! ```
#![warn(missing_docs)]

use std::fmt;
use std::str::FromStr;

/// The longest input either parser looks at; longer input is refused
/// before any work is done.
pub const MAX_INPUT_LEN: usize = 64;

/// An sRGB colour with 8 bits per channel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rgb {
    /// Red, 0–255.
    pub r: u8,
    /// Green, 0–255.
    pub g: u8,
    /// Blue, 0–255.
    pub b: u8,
}

/// Why a colour could not be parsed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ColourError {
    /// The input was empty (or only spaces).
    #[error("is empty; expected {expected}")]
    Empty {
        /// The accepted forms, for the message.
        expected: &'static str,
    },
    /// The input was longer than [`MAX_INPUT_LEN`].
    #[error("is too long; expected {expected}")]
    TooLong {
        /// The accepted forms, for the message.
        expected: &'static str,
    },
    /// The input is not a hex colour.
    #[error("is not a hex colour; expected {HEX_FORMS}")]
    InvalidHex,
    /// The input is not an `r,g,b` triple of integers 0–255.
    #[error("is not an r,g,b colour; expected {TRIPLE_FORMS}")]
    InvalidTriple,
}

/// The accepted hex forms, as used in error messages.
pub const HEX_FORMS: &str = "six hexadecimal digits RRGGBB (e.g. 4B007D; a leading # and the 3-digit shorthand are tolerated)";
/// The accepted triple forms, as used in error messages.
pub const TRIPLE_FORMS: &str = "three comma-separated integers 0-255 as r,g,b (e.g. 75,0,125)";

impl Rgb {
    /// A colour from its three channels.
    pub const fn new(r: u8, g: u8, b: u8) -> Self {
        Self { r, g, b }
    }

    /// Parses a hex colour (see the crate docs for the accepted forms).
    pub fn parse_hex(input: &str) -> Result<Self, ColourError> {
        let s = input.trim();
        if s.is_empty() {
            return Err(ColourError::Empty {
                expected: HEX_FORMS,
            });
        }
        if s.len() > MAX_INPUT_LEN {
            return Err(ColourError::TooLong {
                expected: HEX_FORMS,
            });
        }
        let digits = s.strip_prefix('#').unwrap_or(s);
        if !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(ColourError::InvalidHex);
        }
        let nibble = |b: u8| -> u8 {
            match b {
                b'0'..=b'9' => b - b'0',
                b'a'..=b'f' => b - b'a' + 10,
                _ => b - b'A' + 10,
            }
        };
        let d = digits.as_bytes();
        match d.len() {
            6 => Ok(Self::new(
                nibble(d[0]) << 4 | nibble(d[1]),
                nibble(d[2]) << 4 | nibble(d[3]),
                nibble(d[4]) << 4 | nibble(d[5]),
            )),
            3 => Ok(Self::new(
                nibble(d[0]) * 17,
                nibble(d[1]) * 17,
                nibble(d[2]) * 17,
            )),
            _ => Err(ColourError::InvalidHex),
        }
    }

    /// Parses an `r,g,b` triple (see the crate docs for the accepted forms).
    pub fn parse_triple(input: &str) -> Result<Self, ColourError> {
        let s = input.trim();
        if s.is_empty() {
            return Err(ColourError::Empty {
                expected: TRIPLE_FORMS,
            });
        }
        if s.len() > MAX_INPUT_LEN {
            return Err(ColourError::TooLong {
                expected: TRIPLE_FORMS,
            });
        }
        let mut parts = s.split(',');
        let mut next = || -> Result<u8, ColourError> {
            let p = parts.next().ok_or(ColourError::InvalidTriple)?.trim();
            if p.is_empty() || p.len() > 3 || !p.bytes().all(|b| b.is_ascii_digit()) {
                return Err(ColourError::InvalidTriple);
            }
            p.parse::<u8>().map_err(|_| ColourError::InvalidTriple)
        };
        let (r, g, b) = (next()?, next()?, next()?);
        if parts.next().is_some() {
            return Err(ColourError::InvalidTriple);
        }
        Ok(Self::new(r, g, b))
    }

    /// `#RRGGBB`, upper case.
    pub fn to_hex(self) -> String {
        format!("#{:02X}{:02X}{:02X}", self.r, self.g, self.b)
    }

    /// The channels as an array `[r, g, b]`.
    pub const fn to_array(self) -> [u8; 3] {
        [self.r, self.g, self.b]
    }
}

impl fmt::Display for Rgb {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_hex())
    }
}

impl From<[u8; 3]> for Rgb {
    fn from([r, g, b]: [u8; 3]) -> Self {
        Self::new(r, g, b)
    }
}

/// A colour that was given in hex form; parse it with [`str::parse`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hex(pub Rgb);

impl FromStr for Hex {
    type Err = ColourError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Rgb::parse_hex(s).map(Hex)
    }
}

impl From<Hex> for Rgb {
    fn from(h: Hex) -> Self {
        h.0
    }
}

/// A colour that was given as an `r,g,b` triple; parse it with [`str::parse`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Triple(pub Rgb);

impl FromStr for Triple {
    type Err = ColourError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Rgb::parse_triple(s).map(Triple)
    }
}

impl From<Triple> for Rgb {
    fn from(t: Triple) -> Self {
        t.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_forms() {
        let want = Rgb::new(0x4B, 0x00, 0x7D);
        for s in ["4B007D", "4b007d", "#4B007D", " #4b007D ", "#4B007d"] {
            assert_eq!(Rgb::parse_hex(s), Ok(want), "{s}");
        }
        assert_eq!(Rgb::parse_hex("fA0"), Ok(Rgb::new(0xFF, 0xAA, 0x00)));
        assert_eq!(Rgb::parse_hex("#000"), Ok(Rgb::new(0, 0, 0)));
    }

    #[test]
    fn hex_rejects() {
        for s in [
            "4B007", "4B007DD", "##4B007D", "GG0000", "4B 07D", "+4B007D", "é12345", "0x4B00",
        ] {
            assert_eq!(Rgb::parse_hex(s), Err(ColourError::InvalidHex), "{s}");
        }
        assert!(matches!(Rgb::parse_hex(""), Err(ColourError::Empty { .. })));
        assert!(matches!(
            Rgb::parse_hex(&"a".repeat(100)),
            Err(ColourError::TooLong { .. })
        ));
    }

    #[test]
    fn triple_forms() {
        assert_eq!(Rgb::parse_triple("75,0,125"), Ok(Rgb::new(75, 0, 125)));
        assert_eq!(Rgb::parse_triple(" 75 , 0 ,125 "), Ok(Rgb::new(75, 0, 125)));
        assert_eq!(
            Rgb::parse_triple("255,255,255"),
            Ok(Rgb::new(255, 255, 255))
        );
        assert_eq!(Rgb::parse_triple("007,0,0"), Ok(Rgb::new(7, 0, 0)));
    }

    #[test]
    fn triple_rejects() {
        for s in [
            "256,0,0", "1,2", "1,2,3,4", "-1,0,0", "a,b,c", "1.5,2,3", "1,,3", "1 2 3", "+1,2,3",
            "0001,2,3",
        ] {
            assert_eq!(Rgb::parse_triple(s), Err(ColourError::InvalidTriple), "{s}");
        }
        assert!(matches!(
            Rgb::parse_triple(" "),
            Err(ColourError::Empty { .. })
        ));
    }

    #[test]
    fn errors_name_the_forms() {
        assert!(ColourError::InvalidHex.to_string().contains("RRGGBB"));
        assert!(ColourError::InvalidTriple.to_string().contains("r,g,b"));
    }

    #[test]
    fn hex_output_is_upper_case() {
        assert_eq!(Rgb::new(75, 0, 125).to_hex(), "#4B007D");
        assert_eq!(Rgb::new(0xab, 0xcd, 0xef).to_string(), "#ABCDEF");
    }

    proptest::proptest! {
        #[test]
        fn round_trips(r: u8, g: u8, b: u8) {
            let c = Rgb::new(r, g, b);
            proptest::prop_assert_eq!(Rgb::parse_hex(&c.to_hex()), Ok(c));
            proptest::prop_assert_eq!(Rgb::parse_hex(&c.to_hex().to_lowercase()), Ok(c));
            proptest::prop_assert_eq!(Rgb::parse_triple(&format!("{r},{g},{b}")), Ok(c));
        }

        #[test]
        fn never_panics(s in "\\PC{0,80}") {
            let _ = Rgb::parse_hex(&s);
            let _ = Rgb::parse_triple(&s);
        }
    }
}
