//! Which IP addresses an avatar request may connect to.
//!
//! The rule is an allow-list by construction: an IPv4 address is public
//! unless it falls in one of the special-purpose ranges below; an IPv6
//! address is public only inside global unicast `2000::/3`, minus its
//! special-purpose blocks. IPv6 forms that carry an IPv4 address
//! (IPv4-mapped `::ffff:0:0/96`, IPv4-compatible `::/96`, NAT64
//! `64:ff9b::/96`, 6to4 `2002::/16`) are unwrapped and the embedded IPv4
//! address is judged instead. Host *names* are never looked at: only the
//! addresses a resolver produced.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// `true` when `ip` is a globally routable unicast address that an avatar
/// request may connect to.
///
/// Refused: unspecified, loopback, private (RFC 1918, IPv6 ULA), shared
/// address space (CGNAT `100.64.0.0/10`), link-local (including the cloud
/// metadata address `169.254.169.254`), multicast, broadcast,
/// documentation, benchmarking (`198.18.0.0/15`), IETF protocol
/// assignments, reserved (`240.0.0.0/4`), deprecated site-local, Teredo and
/// every IPv6 address outside `2000::/3`.
///
/// ```
/// use remote_image::is_public_ip;
/// assert!(is_public_ip("93.184.216.34".parse().unwrap()));
/// assert!(!is_public_ip("::ffff:10.0.0.1".parse().unwrap()));
/// assert!(!is_public_ip("169.254.169.254".parse().unwrap()));
/// ```
pub fn is_public_ip(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => is_public_v4(v4),
        IpAddr::V6(v6) => is_public_v6(v6),
    }
}

/// IPv4 special-purpose ranges (IANA registry), as (network, prefix length).
const V4_REFUSED: &[([u8; 4], u8)] = &[
    ([0, 0, 0, 0], 8),       // "this network"
    ([10, 0, 0, 0], 8),      // private
    ([100, 64, 0, 0], 10),   // shared address space (CGNAT)
    ([127, 0, 0, 0], 8),     // loopback
    ([169, 254, 0, 0], 16),  // link-local, cloud metadata
    ([172, 16, 0, 0], 12),   // private
    ([192, 0, 0, 0], 24),    // IETF protocol assignments
    ([192, 0, 2, 0], 24),    // documentation TEST-NET-1
    ([192, 88, 99, 0], 24),  // deprecated 6to4 relay anycast
    ([192, 168, 0, 0], 16),  // private
    ([198, 18, 0, 0], 15),   // benchmarking
    ([198, 51, 100, 0], 24), // documentation TEST-NET-2
    ([203, 0, 113, 0], 24),  // documentation TEST-NET-3
    ([224, 0, 0, 0], 4),     // multicast
    ([240, 0, 0, 0], 4),     // reserved, and 255.255.255.255 broadcast
];

fn is_public_v4(ip: Ipv4Addr) -> bool {
    let addr = u32::from(ip);
    !V4_REFUSED.iter().any(|&(net, len)| {
        let mask = u32::MAX << (32 - u32::from(len));
        addr & mask == u32::from(Ipv4Addr::from(net)) & mask
    })
}

/// IPv6 special-purpose blocks inside `2000::/3`, as (network, prefix length).
const V6_REFUSED_IN_GLOBAL: &[(u128, u8)] = &[
    (0x2001_0000_0000_0000_0000_0000_0000_0000, 23), // IETF protocol assignments, Teredo, ORCHID
    (0x2001_0db8_0000_0000_0000_0000_0000_0000, 32), // documentation
    (0x3fff_0000_0000_0000_0000_0000_0000_0000, 20), // documentation (RFC 9637)
];

fn in_v6(addr: u128, net: u128, len: u8) -> bool {
    let mask = if len == 0 {
        0
    } else {
        u128::MAX << (128 - u32::from(len))
    };
    addr & mask == net & mask
}

fn is_public_v6(ip: Ipv6Addr) -> bool {
    if let Some(v4) = embedded_v4(ip) {
        return is_public_v4(v4);
    }
    let addr = u128::from(ip);
    // Only global unicast 2000::/3 may be public at all; this refuses ::,
    // ::1, fc00::/7, fe80::/10, fec0::/10, ff00::/8, 100::/64, 64:ff9b:1::/48...
    if !in_v6(addr, 0x2000 << 112, 3) {
        return false;
    }
    !V6_REFUSED_IN_GLOBAL
        .iter()
        .any(|&(net, len)| in_v6(addr, net, len))
}

/// The IPv4 address carried by an IPv4-mapped, IPv4-compatible, NAT64
/// (well-known prefix) or 6to4 IPv6 address.
fn embedded_v4(ip: Ipv6Addr) -> Option<Ipv4Addr> {
    let addr = u128::from(ip);
    let low32 = Ipv4Addr::from((addr & 0xffff_ffff) as u32);
    if in_v6(addr, 0xffff_0000_0000, 96) {
        return Some(low32); // ::ffff:a.b.c.d (mapped)
    }
    if in_v6(addr, 0, 96) {
        // ::a.b.c.d (compatible); :: and ::1 unwrap to 0.0.0.0 and 0.0.0.1,
        // both refused as "this network".
        return Some(low32);
    }
    if in_v6(addr, 0x0064_ff9b << 96, 96) {
        return Some(low32); // 64:ff9b::a.b.c.d (NAT64 well-known prefix)
    }
    if in_v6(addr, 0x2002 << 112, 16) {
        // 2002:AABB:CCDD::/48 (6to4) carries AA.BB.CC.DD in bits 16..48.
        return Some(Ipv4Addr::from(((addr >> 80) & 0xffff_ffff) as u32));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn public(s: &str) -> bool {
        is_public_ip(s.parse().unwrap())
    }

    #[test]
    fn refuses_special_ipv4() {
        for s in [
            "0.0.0.0",
            "0.1.2.3",
            "10.0.0.1",
            "10.255.255.255",
            "100.64.0.1",
            "100.127.255.255",
            "127.0.0.1",
            "127.255.0.1",
            "169.254.169.254",
            "172.16.0.1",
            "172.31.255.255",
            "192.0.0.8",
            "192.0.2.1",
            "192.88.99.1",
            "192.168.1.1",
            "198.18.0.1",
            "198.19.255.255",
            "198.51.100.7",
            "203.0.113.9",
            "224.0.0.1",
            "239.255.255.250",
            "240.0.0.1",
            "255.255.255.255",
        ] {
            assert!(!public(s), "{s} must be refused");
        }
    }

    #[test]
    fn accepts_public_ipv4_next_to_refused_ranges() {
        for s in [
            "1.1.1.1",
            "8.8.8.8",
            "9.255.255.255",
            "11.0.0.0",
            "100.63.255.255",
            "100.128.0.0",
            "126.255.255.255",
            "128.0.0.0",
            "169.253.255.255",
            "172.15.255.255",
            "172.32.0.0",
            "192.0.3.0",
            "192.167.255.255",
            "192.169.0.0",
            "198.17.255.255",
            "198.20.0.0",
            "223.255.255.255",
        ] {
            assert!(public(s), "{s} must be accepted");
        }
    }

    #[test]
    fn unwraps_ipv4_inside_ipv6() {
        for s in [
            "::ffff:10.0.0.1",
            "::ffff:127.0.0.1",
            "::ffff:169.254.169.254",
            "::127.0.0.1",
            "::10.0.0.1",
            "64:ff9b::127.0.0.1",
            "64:ff9b::a9fe:a9fe",
            "2002:7f00:1::",
            "2002:a00:1::1",
            "2002:c0a8:101::1",
        ] {
            assert!(!public(s), "{s} must be refused");
        }
        for s in ["::ffff:8.8.8.8", "64:ff9b::8.8.8.8", "2002:808:808::1"] {
            assert!(public(s), "{s} must be accepted");
        }
    }

    #[test]
    fn refuses_special_ipv6() {
        for s in [
            "::",
            "::1",
            "fc00::1",
            "fd12:3456::1",
            "fe80::1",
            "fec0::1",
            "ff02::1",
            "ff0e::1",
            "100::1",
            "64:ff9b:1::1",
            "2001::1",
            "2001:0:4136:e378:8000:63bf:3fff:fdd2",
            "2001:10::1",
            "2001:db8::1",
            "3fff::1",
            "4000::1",
            "::2:0:0:1",
        ] {
            assert!(!public(s), "{s} must be refused");
        }
    }

    #[test]
    fn accepts_global_ipv6() {
        for s in [
            "2606:4700:4700::1111",
            "2a00:1450:4001:80b::200e",
            "2001:4860::8888",
        ] {
            assert!(public(s), "{s} must be accepted");
        }
    }
}
