//! The content engine: the content pack and the operator's media, loaded
//! once, and the `/facts/<type>` bodies serialised at load.

use std::time::Instant;

use actix_web::web::Bytes;
use content::{ContentPack, DirPack, FactType, MediaLibrary, embedded_pack};
use serde::Serialize;

use super::StartupError;
use crate::config::Settings;

/// The loaded content and the self-hosted media, shared by every worker.
#[derive(Debug)]
pub struct ContentState {
    /// Facts, links and quotes (self-hosted media links included).
    pub pack: ContentPack,
    /// The files served under `/media` (empty without `--media-dir`).
    pub media: MediaLibrary,
    /// The JSON body of `/facts/<type>` for every fact, serialised at start:
    /// indexed by `FactType::index`, then as `pack.facts(t)`.
    fact_bodies: Vec<Vec<Bytes>>,
}

impl ContentState {
    /// Loads the generated pack `<data dir>/content` when it exists, else the
    /// embedded one, then adds `--media-dir` files; logs which pack is used.
    pub fn load(settings: &Settings) -> Result<Self, StartupError> {
        let start = Instant::now();
        let generated = settings.data_dir.join("content");
        let pack = if generated.is_dir() {
            ContentPack::load(&DirPack::new(&generated))
        } else {
            tracing::info!(dir = %generated.display(), "no generated content pack; using the embedded one");
            ContentPack::load(&embedded_pack())
        };
        let mut pack = pack.map_err(|e| StartupError::Data {
            what: "content pack",
            reason: e.to_string(),
        })?;
        let media = match &settings.media_dir {
            None => MediaLibrary::default(),
            Some(dir) => {
                let Some(public_url) = &settings.public_url else {
                    return Err(StartupError::Data {
                        what: "media dir",
                        reason: "--media-dir needs --public-url (the address clients reach this server at)"
                            .to_owned(),
                    });
                };
                let media =
                    MediaLibrary::scan(dir, public_url).map_err(|e| StartupError::Data {
                        what: "media dir",
                        reason: e.to_string(),
                    })?;
                for skipped in media.skipped() {
                    tracing::warn!(path = %skipped.path.display(), reason = skipped.reason, "media file not served");
                }
                tracing::info!(dir = %dir.display(), files = media.len(), base = media.base_url(), "media dir scanned");
                pack.add_media(&media);
                media
            }
        };
        let s = pack.summary();
        tracing::info!(
            origin = %pack.origin(),
            facts = s.facts,
            links = s.links,
            quotes = s.quotes,
            load_ms = start.elapsed().as_secs_f64() * 1000.0,
            "content pack loaded"
        );
        let fact_bodies = FactType::ALL
            .iter()
            .map(|&t| {
                pack.facts(t)
                    .iter()
                    .map(|fact| Bytes::from(to_json(&FactBody { fact })))
                    .collect()
            })
            .collect();
        Ok(Self {
            pack,
            media,
            fact_bodies,
        })
    }

    /// The body of `/facts/<t>` for a fact drawn uniformly: a shared
    /// buffer, no serialisation per request.
    pub fn random_fact_body(&self, t: FactType) -> Bytes {
        let i = self.pack.random_fact_index(t, &mut rand::rng());
        self.fact_bodies[t.index()][i].clone()
    }
}

/// Body of `/facts/:type`.
#[derive(Debug, Serialize)]
pub struct FactBody<'a> {
    /// A fact.
    pub fact: &'a str,
}

/// `body` as JSON text (empty if it cannot be serialised, which no body
/// type of this crate can fail).
pub fn to_json<T: Serialize>(body: &T) -> String {
    serde_json::to_string(body).unwrap_or_default()
}
