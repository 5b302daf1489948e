//! The colour tools: `/canvas/hex`, `/canvas/rgb`, `/canvas/colorviewer`.

use actix_web::http::header;
use actix_web::{HttpResponse, web};
use colour::{HEX_FORMS, Rgb, TRIPLE_FORMS};
use serde::{Deserialize, Serialize};

use super::required;
use crate::error::ApiError;

/// Side of the `/canvas/colorviewer` square, in pixels.
pub const COLORVIEWER_SIZE: u32 = 256;

/// Registers the colour routes.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(super::get("/canvas/hex", to_hex))
        .service(super::get("/canvas/rgb", to_rgb))
        .service(super::get(crate::catalogue::COLORVIEWER, colorviewer));
}

#[derive(Debug, Deserialize)]
struct RgbQuery {
    rgb: Option<String>,
}

#[derive(Debug, Deserialize)]
struct HexQuery {
    hex: Option<String>,
}

/// Body of `/canvas/hex`.
#[derive(Debug, Serialize)]
pub struct HexBody {
    /// `#RRGGBB`, upper case.
    pub hex: String,
    /// The input channels as decimal text.
    pub original: OriginalRgb,
}

/// The `original` member of [`HexBody`].
#[derive(Debug, Serialize)]
pub struct OriginalRgb {
    /// Red, decimal text.
    pub red: String,
    /// Green, decimal text.
    pub green: String,
    /// Blue, decimal text.
    pub blue: String,
}

/// Body of `/canvas/rgb`.
#[derive(Debug, Serialize)]
pub struct RgbBody {
    /// Red, 0–255.
    pub r: u8,
    /// Green, 0–255.
    pub g: u8,
    /// Blue, 0–255.
    pub b: u8,
}

fn parse_hex(q: &HexQuery) -> Result<Rgb, ApiError> {
    let raw = required(&q.hex, "hex", HEX_FORMS)?;
    Rgb::parse_hex(raw).map_err(|source| ApiError::Colour {
        name: "hex",
        source,
    })
}

async fn to_hex(q: web::Query<RgbQuery>) -> Result<HttpResponse, ApiError> {
    let raw = required(&q.rgb, "rgb", TRIPLE_FORMS)?;
    let c = Rgb::parse_triple(raw).map_err(|source| ApiError::Colour {
        name: "rgb",
        source,
    })?;
    Ok(deterministic(HttpResponse::Ok()).json(HexBody {
        hex: c.to_hex(),
        original: OriginalRgb {
            red: c.r.to_string(),
            green: c.g.to_string(),
            blue: c.b.to_string(),
        },
    }))
}

async fn to_rgb(q: web::Query<HexQuery>) -> Result<HttpResponse, ApiError> {
    let c = parse_hex(&q)?;
    Ok(deterministic(HttpResponse::Ok()).json(RgbBody {
        r: c.r,
        g: c.g,
        b: c.b,
    }))
}

async fn colorviewer(q: web::Query<HexQuery>) -> Result<HttpResponse, ApiError> {
    let c = parse_hex(&q)?;
    let img = canvas_render::solid(COLORVIEWER_SIZE, COLORVIEWER_SIZE, c.to_array())?;
    let png = canvas_render::encode_png(&img)?;
    Ok(deterministic(HttpResponse::Ok())
        .content_type("image/png")
        .body(png))
}

/// Marks a response whose body depends only on the URL as cacheable.
fn deterministic(mut b: actix_web::HttpResponseBuilder) -> actix_web::HttpResponseBuilder {
    b.insert_header((header::CACHE_CONTROL, "public, max-age=86400"));
    b
}
