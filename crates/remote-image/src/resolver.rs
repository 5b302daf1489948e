//! The address guard: a ureq [`Resolver`] that refuses private networks.
//!
//! ureq calls its resolver for the first request *and for every redirect
//! hop*, and connects only to the addresses the resolver returned. Checking
//! inside the resolver therefore closes DNS rebinding (the addresses checked
//! are the addresses connected to) and open redirects to internal hosts.
//! The guard also re-checks the scheme and the absence of user information
//! on every hop.

use std::fmt;
use std::net::IpAddr;
use std::sync::Arc;

use ureq::config::Config;
use ureq::http::Uri;
use ureq::unversioned::resolver::{ResolvedSocketAddrs, Resolver};
use ureq::unversioned::transport::NextTimeout;

use crate::address::is_public_ip;

/// Marker carried inside a `ureq::Error::Io` to say that the guard refused
/// an address (so the fetcher can tell it apart from a network failure).
#[derive(Debug)]
pub(crate) struct Refused;

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("refused address")
    }
}

impl std::error::Error for Refused {}

/// Marker for a redirect to a URL the fetcher would not accept as input.
#[derive(Debug)]
pub(crate) struct BadHop(pub(crate) &'static str);

impl fmt::Display for BadHop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

impl std::error::Error for BadHop {}

/// Which resolved addresses the guard lets through.
#[derive(Debug, Clone, Default)]
pub(crate) struct AddressPolicy {
    /// Let every address through (tests against a loopback fixture host).
    pub allow_private: bool,
    /// Non-public addresses let through anyway.
    pub allowed: Vec<IpAddr>,
}

impl AddressPolicy {
    fn permits(&self, ip: IpAddr) -> bool {
        self.allow_private || is_public_ip(ip) || self.allowed.contains(&ip)
    }
}

/// Wraps a resolver and refuses the whole answer when any address in it is
/// not permitted (a name answering both public and private addresses is
/// treated as hostile, not filtered).
pub(crate) struct GuardedResolver {
    inner: Arc<dyn Resolver>,
    policy: AddressPolicy,
}

impl GuardedResolver {
    pub(crate) fn new(inner: Arc<dyn Resolver>, policy: AddressPolicy) -> Self {
        Self { inner, policy }
    }
}

impl fmt::Debug for GuardedResolver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GuardedResolver")
            .field("inner", &self.inner)
            .field("policy", &self.policy)
            .finish()
    }
}

/// Checks the parts of a URI that must hold on every hop.
pub(crate) fn check_uri(uri: &Uri) -> Result<(), &'static str> {
    match uri.scheme_str() {
        Some("http" | "https") => {}
        Some(_) => return Err("only http and https URLs are accepted"),
        None => return Err("the URL must be absolute (http:// or https://)"),
    }
    let Some(authority) = uri.authority() else {
        return Err("the URL has no host");
    };
    if authority.as_str().contains('@') {
        return Err("user information (user@host) is not accepted");
    }
    if authority.host().is_empty() {
        return Err("the URL has no host");
    }
    Ok(())
}

impl Resolver for GuardedResolver {
    fn resolve(
        &self,
        uri: &Uri,
        config: &Config,
        timeout: NextTimeout,
    ) -> Result<ResolvedSocketAddrs, ureq::Error> {
        if let Err(reason) = check_uri(uri) {
            return Err(ureq::Error::Io(std::io::Error::other(BadHop(reason))));
        }
        let addrs = self.inner.resolve(uri, config, timeout)?;
        if addrs.is_empty() {
            return Err(ureq::Error::HostNotFound);
        }
        if addrs.iter().any(|a| !self.policy.permits(a.ip())) {
            // No log line: a client chooses the URL, so it could fill the
            // log; the caller counts the `RefusedAddress` it becomes.
            return Err(ureq::Error::Io(std::io::Error::other(Refused)));
        }
        Ok(addrs)
    }
}
