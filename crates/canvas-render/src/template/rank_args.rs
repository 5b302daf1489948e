//! The rank card arguments the golden renders and the contrast tests share
//! (a test-only file: the golden tests include it by path).

/// The published client's rank call.
pub const RANK_CLIENT: &[(&str, &str)] = &[
    ("username", "Ferris"),
    ("level", "12"),
    ("cxp", "340"),
    ("nxp", "1000"),
    ("ctext", "ffffff"),
    ("cbar", "5865f2"),
];

/// Every rank card parameter but the colours.
pub const RANK_FULL: &[(&str, &str)] = &[
    ("username", "Ferris"),
    ("discriminator", "1234"),
    ("level", "42"),
    ("rank", "3"),
    ("cxp", "12345"),
    ("nxp", "20000"),
];
