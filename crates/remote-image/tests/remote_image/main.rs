//! Integration tests of the avatar fetcher against loopback fixture hosts.
//! No test reaches the real network: names resolve through stub resolvers
//! or are IP literals on 127.0.0.0/8.

mod cache;
mod decode;
mod dns;
mod fetch;
mod support;
