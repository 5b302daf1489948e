//! The serde structs of the file format, one per TOML table. Every field
//! that a check may complain about keeps its span ([`Spanned`]), so that an
//! error names its line. Tables refuse fields they do not know.
//!
//! Layers and text pieces are flat tables (a `kind`, or the key that says
//! what the piece is, and the fields of that kind) rather than serde enums,
//! so that an unknown or misplaced field is reported at its own line.

use serde::{Deserialize, Serialize};
use toml::Spanned;

/// The version check reads only `format`, before anything else: a file of
/// a newer format is refused as such, not for its new fields.
#[derive(Deserialize)]
pub(super) struct Version {
    pub format: Option<Spanned<toml::Value>>,
}

/// A whole template file.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Doc {
    pub format: Spanned<u32>,
    pub name: Spanned<String>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    pub size: Spanned<[u32; 2]>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fonts: Vec<Spanned<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeline: Option<Spanned<TimelineFile>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub camera: Option<Spanned<CameraFile>>,
    #[serde(default, rename = "param", skip_serializing_if = "Vec::is_empty")]
    pub params: Vec<Spanned<ParamFile>>,
    #[serde(default, rename = "layer")]
    pub layers: Vec<Spanned<LayerFile>>,
}

/// `[timeline]`.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct TimelineFile {
    pub frames: Spanned<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delay_ms: Option<Spanned<u32>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delay_param: Option<Spanned<String>>,
}

/// `[camera]`.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct CameraFile {
    pub content: Spanned<[u32; 2]>,
    pub offsets: Spanned<Vec<[u32; 2]>>,
    /// `[[camera.backdrop]]`: layers on the whole canvas under the picture.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub backdrop: Vec<Spanned<LayerFile>>,
}

/// One `[[param]]`.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ParamFile {
    pub name: Spanned<String>,
    #[serde(rename = "type")]
    pub kind: Spanned<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_chars: Option<Spanned<u32>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<Spanned<u64>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<Spanned<u64>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub options: Option<Spanned<Vec<String>>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<Spanned<toml::Value>>,
    pub doc: Spanned<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected: Option<Spanned<String>>,
}

/// One `[[layer]]`: `kind` says which fields it takes.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct LayerFile {
    pub kind: Spanned<String>,
    /// Conditions, outermost first: `"name"` (the parameter is set) or
    /// `"!name"` (it is not).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub when: Option<Spanned<Vec<String>>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub art: Option<Spanned<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<Spanned<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arts: Option<Spanned<Vec<String>>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub param: Option<Spanned<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<Spanned<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shape: Option<Spanned<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<Spanned<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<Spanned<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub style: Option<Spanned<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<Spanned<Vec<Spanned<PieceFile>>>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replaced_by: Option<Spanned<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub face: Option<Spanned<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub family: Option<Spanned<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<Spanned<f32>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_size: Option<Spanned<f32>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<Spanned<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outline: Option<Spanned<OutlineFile>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub align: Option<Spanned<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub valign: Option<Spanned<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reveal: Option<Spanned<RevealFile>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub palette: Option<Spanned<PaletteFile>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub area: Option<Spanned<[f32; 4]>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paint: Option<Spanned<PaintFile>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stroke: Option<Spanned<f32>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub track: Option<Spanned<PaintFile>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fill: Option<Spanned<PaintFile>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mask: Option<Spanned<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grey: Option<Spanned<bool>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tint: Option<Spanned<TintFile>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub place: Option<Spanned<Vec<PlaceFile>>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line_spacing: Option<Spanned<f32>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub margin: Option<Spanned<f32>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lead: Option<Spanned<LeadFile>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub markup: Option<Spanned<MarkupFile>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<Spanned<[f32; 2]>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub right: Option<Spanned<f32>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub items: Option<Spanned<Vec<Spanned<ItemFile>>>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sides: Option<Spanned<[u32; 2]>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warp: Option<Spanned<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tone: Option<Spanned<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strength: Option<Spanned<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub speed: Option<Spanned<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<Spanned<String>>,
    /// Written last: the writer puts these after the layer's own fields,
    /// as `[[layer.below]]` tables.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub below: Option<Spanned<Vec<Spanned<LayerFile>>>>,
}

/// One item of a row layer's `items`: `kind` says which fields it takes.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ItemFile {
    pub kind: Spanned<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub when: Option<Spanned<Vec<String>>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub items: Option<Spanned<Vec<Spanned<ItemFile>>>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shape: Option<Spanned<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub area: Option<Spanned<[f32; 4]>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub art: Option<Spanned<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub param: Option<Spanned<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arts: Option<Spanned<Vec<String>>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<Spanned<[f32; 2]>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<Spanned<Vec<Spanned<PieceFile>>>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replaced_by: Option<Spanned<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub face: Option<Spanned<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub family: Option<Spanned<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<Spanned<f32>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paint: Option<Spanned<PaintFile>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_width: Option<Spanned<f32>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dy: Option<Spanned<f32>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gap: Option<Spanned<f32>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub advance: Option<Spanned<f32>>,
}

impl Default for LayerFile {
    fn default() -> LayerFile {
        LayerFile {
            kind: Spanned::new(0..0, String::new()),
            when: None,
            place: None,
            art: None,
            file: None,
            arts: None,
            param: None,
            mask: None,
            grey: None,
            tint: None,
            source: None,
            text: None,
            replaced_by: None,
            face: None,
            family: None,
            size: None,
            min_size: None,
            color: None,
            outline: None,
            align: None,
            valign: None,
            reveal: None,
            palette: None,
            area: None,
            paint: None,
            shape: None,
            stroke: None,
            value: None,
            max: None,
            style: None,
            track: None,
            fill: None,
            line_spacing: None,
            margin: None,
            lead: None,
            markup: None,
            at: None,
            right: None,
            items: None,
            sides: None,
            below: None,
            warp: None,
            tone: None,
            strength: None,
            speed: None,
            side: None,
        }
    }
}

/// Where a layer is in one frame.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct PlaceFile {
    pub x: f32,
    pub y: f32,
    pub w: f32,
    pub h: f32,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub rotation: f32,
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub opacity: f32,
}

fn is_zero(v: &f32) -> bool {
    *v == 0.0
}

fn one() -> f32 {
    1.0
}

fn is_one(v: &f32) -> bool {
    *v == 1.0
}

/// An avatar's tint.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct TintFile {
    pub color: Spanned<String>,
    pub strength: Spanned<f32>,
}

/// A text outline.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct OutlineFile {
    pub color: Spanned<String>,
    pub width: Spanned<f32>,
}

/// Typed-out text.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RevealFile {
    pub from: Spanned<u32>,
    pub to: Spanned<u32>,
}

/// Text colours chosen by a choice parameter.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct PaletteFile {
    pub param: Spanned<String>,
    pub colors: Spanned<Vec<String>>,
    pub light_outline: Spanned<String>,
}

impl Default for ItemFile {
    fn default() -> ItemFile {
        ItemFile {
            kind: Spanned::new(0..0, String::new()),
            when: None,
            items: None,
            text: None,
            replaced_by: None,
            face: None,
            family: None,
            size: None,
            paint: None,
            max_width: None,
            dy: None,
            gap: None,
            art: None,
            param: None,
            arts: None,
            at: None,
            advance: None,
            shape: None,
            area: None,
        }
    }
}

/// A colour that may be a parameter's: `color` (`"#rrggbb"` or
/// `"#rrggbbaa"`), `param` (a colour parameter) with an `alpha`, or
/// `pick` (a choice parameter) with one of `colors` per option.
#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct PaintFile {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<Spanned<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub param: Option<Spanned<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alpha: Option<Spanned<u8>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pick: Option<Spanned<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub colors: Option<Spanned<Vec<String>>>,
}

/// A growing text's lead: the room above it taken when a condition holds.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct LeadFile {
    /// The condition, as a layer's `when` writes one.
    pub when: Spanned<String>,
    /// The room, pixels.
    pub by: Spanned<f32>,
}

/// A growing text's chat markup: the colours of mentions and chips.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct MarkupFile {
    pub mention: Spanned<PaintFile>,
    pub mention_chip: Spanned<PaintFile>,
    pub code_chip: Spanned<PaintFile>,
}

/// One piece of a text slot's text: which key it has says what it is.
#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct PieceFile {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lit: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub param: Option<Spanned<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub upper: Option<Spanned<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plain: Option<Spanned<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub handle: Option<Spanned<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compact: Option<Spanned<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub with: Option<Spanned<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub if_set: Option<Spanned<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub if_given: Option<Spanned<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pieces: Option<Vec<Spanned<PieceFile>>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flag: Option<Spanned<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub yes: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub no: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pick: Option<Spanned<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub texts: Option<Spanned<Vec<String>>>,
}
