//! [`AvatarUrl`]: an avatar URL checked once, the value the fetcher and its
//! cache both take.

use std::sync::Arc;

use ureq::http::Uri;

use crate::FetchError;
use crate::resolver::check_uri;

/// An avatar URL that passed every check made before a connection: not
/// empty, at most the configured length, parses as a URI, absolute `http`
/// or `https`, with a host and without user information (`user@`).
///
/// Made by [`AvatarFetcher::parse_url`](crate::AvatarFetcher::parse_url) (or
/// [`AvatarUrl::parse`]); [`AvatarFetcher::fetch`](crate::AvatarFetcher::fetch),
/// [`cached`](crate::AvatarFetcher::cached) and the cache key all take it, so
/// a URL is parsed once however many steps use it. The key is the URI's
/// normalised text ([`as_str`](Self::as_str)), shared, not copied, by clones.
/// Addresses are judged later, by the resolver, on every hop.
///
/// ```
/// use remote_image::AvatarUrl;
/// let url = AvatarUrl::parse("https://example.org/a.png", 2048).unwrap();
/// assert_eq!(url.as_str(), "https://example.org/a.png");
/// assert!(AvatarUrl::parse("ftp://example.org/a.png", 2048).is_err());
/// assert!(AvatarUrl::parse("https://user@example.org/a.png", 2048).is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AvatarUrl {
    uri: Uri,
    key: Arc<str>,
}

impl AvatarUrl {
    /// Checks `url` (see the type's docs); `max_len` is the longest accepted
    /// URL in bytes.
    pub fn parse(url: &str, max_len: usize) -> Result<Self, FetchError> {
        if url.is_empty() {
            return Err(FetchError::InvalidUrl("the URL is empty"));
        }
        if url.len() > max_len {
            return Err(FetchError::UrlTooLong { max: max_len });
        }
        let uri: Uri = url
            .parse()
            .map_err(|_| FetchError::InvalidUrl("the URL does not parse"))?;
        check_uri(&uri).map_err(FetchError::InvalidUrl)?;
        let key = Arc::from(uri.to_string());
        Ok(Self { uri, key })
    }

    /// The URI, for the HTTP client.
    pub(crate) fn uri(&self) -> &Uri {
        &self.uri
    }

    /// The normalised URL text: the cache key.
    pub fn as_str(&self) -> &str {
        &self.key
    }

    /// The cache key, shared.
    pub(crate) fn key(&self) -> Arc<str> {
        Arc::clone(&self.key)
    }
}

impl std::fmt::Display for AvatarUrl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_check_happens_at_parse() {
        let ok = AvatarUrl::parse("http://Example.org:8080/a.png?x=1", 2048).unwrap();
        assert_eq!(ok.uri().host(), Some("Example.org"));
        assert_eq!(ok.to_string(), ok.as_str());
        assert!(matches!(
            AvatarUrl::parse("", 2048),
            Err(FetchError::InvalidUrl(_))
        ));
        assert!(matches!(
            AvatarUrl::parse("http://a.example/xxxxxxxx", 10),
            Err(FetchError::UrlTooLong { max: 10 })
        ));
        for bad in [
            "not a url",
            "/relative.png",
            "file:///etc/passwd",
            "https://user:pw@example.org/a.png",
        ] {
            assert!(
                matches!(AvatarUrl::parse(bad, 2048), Err(FetchError::InvalidUrl(_))),
                "{bad}"
            );
        }
    }

    #[test]
    fn equal_urls_share_one_key() {
        let a = AvatarUrl::parse("https://example.org/a.png", 2048).unwrap();
        let b = a.clone();
        assert!(Arc::ptr_eq(&a.key(), &b.key()));
        assert_eq!(
            a,
            AvatarUrl::parse("https://example.org/a.png", 2048).unwrap()
        );
    }
}
