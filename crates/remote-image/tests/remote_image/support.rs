//! Shared helpers: fetchers with test settings and a stub resolver.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::Mutex;
use std::time::Duration;

use remote_image::{AvatarFetcher, FetchConfig, ResolvedSocketAddrs, Resolver};
use ureq::config::Config;
use ureq::http::Uri;
use ureq::unversioned::transport::NextTimeout;

/// Test settings: short timeouts, a 1 MiB byte cap.
pub fn config() -> FetchConfig {
    FetchConfig {
        connect_timeout: Duration::from_secs(1),
        overall_timeout: Duration::from_secs(3),
        max_bytes: 1 << 20,
        ..FetchConfig::default()
    }
}

/// A fetcher trusting loopback fixtures (`allow_private`).
pub fn permissive() -> AvatarFetcher {
    AvatarFetcher::new(FetchConfig {
        allow_private: true,
        ..config()
    })
}

/// A stub DNS: each name answers a scripted list of addresses; a name with
/// several scripts answers them in turn (the last one repeats), which
/// simulates DNS rebinding.
#[derive(Debug, Default)]
pub struct StubResolver {
    answers: Mutex<HashMap<String, Vec<Vec<SocketAddr>>>>,
    lookups: Mutex<Vec<String>>,
}

impl StubResolver {
    pub fn new() -> Self {
        Self::default()
    }

    /// `host` answers `addrs` on its next lookup.
    pub fn answer(self, host: &str, addrs: &[SocketAddr]) -> Self {
        self.answers
            .lock()
            .unwrap()
            .entry(host.to_owned())
            .or_default()
            .push(addrs.to_vec());
        self
    }
}

impl Resolver for StubResolver {
    fn resolve(
        &self,
        uri: &Uri,
        _config: &Config,
        _timeout: NextTimeout,
    ) -> Result<ResolvedSocketAddrs, ureq::Error> {
        let host = uri.host().unwrap_or_default().to_owned();
        self.lookups.lock().unwrap().push(host.clone());
        let mut answers = self.answers.lock().unwrap();
        let Some(script) = answers.get_mut(&host) else {
            // IP literals resolve to themselves, as with the system resolver.
            let literal = host.trim_start_matches('[').trim_end_matches(']');
            let Ok(ip) = literal.parse::<IpAddr>() else {
                return Err(ureq::Error::HostNotFound);
            };
            let mut out = self.empty();
            out.push(SocketAddr::new(ip, uri.port_u16().unwrap_or(80)));
            return Ok(out);
        };
        let addrs = if script.len() > 1 {
            script.remove(0)
        } else {
            script[0].clone()
        };
        let mut out = self.empty();
        for a in addrs {
            out.push(a);
        }
        Ok(out)
    }
}

pub fn sock(ip: &str, port: u16) -> SocketAddr {
    SocketAddr::new(ip.parse::<IpAddr>().unwrap(), port)
}
