//! The templates' static art: our own drawings, in code with tiny-skia,
//! each drawn once per process ([`cached`]) at its natural size.

use std::sync::OnceLock;

use tiny_skia::{PathBuilder, Pixmap, Transform};

use super::backdrops;
use super::cards::{self, Card};
use super::cards_misc::{self, Licence};
use super::memes;
use super::rng::Lcg;
use super::social;
use crate::paint::{
    Canvas, base_layer, circle_path, linear, parse_svg, poly, radial, rect_path, rgba, rrect_path,
    shader_paint,
};
use crate::text::{Align, FontFace, TextBox, TextStyle, VAlign};

/// Static art pixmaps, one per [`Art`], drawn on first use.
static ART_CACHE: [OnceLock<Pixmap>; Art::COUNT] = [const { OnceLock::new() }; Art::COUNT];

/// A piece of static art a template places. Its size is [`Art::size`]; a
/// placement of another size scales it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Art {
    /// 512×512: a Soviet red wash, darker at the edges, the gold hammer
    /// and sickle in its upper corner as on the flag.
    ComradeWash,
    /// 512×512: six translucent rainbow stripes.
    Rainbow,
    /// 512×512: cracks radiating from an impact, and a glare.
    GlassCracks,
    /// 512×512: steel bars and a cross bar.
    JailBars,
    /// 512×512: a dimming vignette and a dark band with "MISSION PASSED"
    /// in gold and "RESPECT +" beneath, in a heavy serif.
    PassedBanner,
    /// 512×112: the red "TRIGGERED" banner.
    TriggeredBanner,
    /// 512×512: a dimming vignette and a dark band with "WASTED" in red,
    /// in a heavy serif.
    WastedBanner,
    /// 148×239: a cartoon hand patting, palm down, its sleeve coming down
    /// from the top edge.
    Hand,
    /// 600×300: deep space with stars, a nebula and a far planet.
    Space,
    /// 600×600: the dark backdrop of `lied` and its photo's shadow.
    LiedBackdrop,
    /// 600×600: the vignette and film lines over `lied`'s photo.
    LiedVignette,
    /// 800×800: the smug face of `nobitches`, on orange rays.
    NoBitchesFace,
    /// 800×800: the four-panel comic of `its-so-stupid`, the empty sign
    /// held up in the last panel.
    StupidComic,
    /// 260×90: the hands gripping the sign's corners in `its-so-stupid`.
    StupidHands,
    /// 900×600: the height chart, siren glow and placard of `lolice`.
    LoliceScene,
    /// 700×800: the backdrop and the empty disc case of `series`.
    SeriesBackdrop,
    /// 700×800: the case of `series` again with its cover's window cut
    /// out, the title band, a sheen and the hands holding it.
    SeriesCase,
    /// 1200×600 welcome background `blobday`: pastel blobs under a
    /// morning sky.
    BgBlobday,
    /// 1200×600 welcome background `blobnight`: glowing blobs in a violet
    /// night.
    BgBlobnight,
    /// 1200×600 welcome background `gaming1`: a neon synthwave horizon.
    BgGaming1,
    /// 1200×600 welcome background `gaming2`: a glowing circuit board.
    BgGaming2,
    /// 1200×600 welcome background `gaming3`: a pixel-art arcade landscape.
    BgGaming3,
    /// 1200×600 welcome background `gaming4`: red esports slashes.
    BgGaming4,
    /// 1200×600 welcome background `night`: a city skyline under the moon.
    BgNight,
    /// 1200×600 welcome background `rainbow`: a rainbow over clouds.
    BgRainbow,
    /// 1200×600 welcome background `rainbowgradient`: every hue, smoothly.
    BgRainbowGradient,
    /// 1200×600 welcome background `space`: nebulae and a ringed planet.
    BgSpace,
    /// 1200×600 welcome background `stars`: a sky full of stars.
    BgStars,
    /// 1200×600 welcome background `stars2`: constellations and shooting
    /// stars.
    BgStars2,
    /// 1200×600 welcome background `sunset`: the sun setting over the sea.
    BgSunset,
    /// Welcome card 1's panel and avatar ring.
    Welcome1,
    /// Welcome card 2's pill card and ring.
    Welcome2,
    /// Welcome card 3's angled panel and photo frame.
    Welcome3,
    /// Welcome card 4's ribbon and ring.
    Welcome4,
    /// Welcome card 5's instant photo and text panel.
    Welcome5,
    /// Welcome card 6's card under the text and the avatar's ring.
    Welcome6,
    /// Welcome card 7's badge, confetti and gold ring.
    Welcome7,
    /// 900×300, rank card 1: a soft sheen from the top left and a faint
    /// fan of lines, inside the card's rounded corners.
    RankSheen,
    /// 900×300, rank card 2: diagonal stripes over the left panel and the
    /// shadow of its edge.
    RankStripes,
    /// 900×300, rank card 3: a neon horizon and a perspective grid.
    RankNeonGrid,
    /// 900×300, rank card 4: a fading dot grid and a hairline frame.
    RankDots,
    /// 900×300, rank card 5: a honeycomb fading to the right.
    RankHexes,
    /// 900×300, rank card 6: concentric arcs from the right edge.
    RankArcs,
    /// 900×300, rank card 7: flowing lines over the top band.
    RankWaves,
    /// 900×300, rank card 8: a striped sunset, scan lines and pixel corners.
    RankRetro,
    /// 900×300, rank card 9: soft lights behind a frosted panel.
    RankGlass,
    /// 1200×630, `sage`: a warm landscape, the turtle and the quote's
    /// panel with its opening mark and signature.
    SageCard,
    /// 800×800, `sage2`: a night sky with the moon, the turtle and an
    /// empty speech bubble.
    Sage2Night,
    /// 900×560, `horny`: the pink licence card and the photo's frame.
    HornyLicence,
    /// 900×560, `simpcard`: the lilac membership card and the photo's
    /// frame.
    SimpCard,
    /// 1680×800, `namecard`: a glass panel over soft glows, the avatar's
    /// ring and the birthday row's cake.
    NamecardGlass,
    /// 1088×48: the post's action icons (reply, repost, like, share) in
    /// the light theme's grey.
    PostActionsLight,
    /// The same in the dim theme's grey.
    PostActionsDim,
    /// The same in the dark theme's grey.
    PostActionsDark,
    /// 40×40: the video comment's light grey thumbs-up.
    ThumbUp,
    /// 40×40: the video comment's light grey thumbs-down.
    ThumbDown,
    /// 450×600 (drawn at 600×800), `wanted`: the aged paper poster, its print and the portrait's frame.
    WantedPoster,
    /// 255×255 (drawn at 340×340), `wanted`: grain, a fold and a dark rim over the portrait.
    WantedPhotoAge,
    /// 270×18 (drawn at 360×24), `wanted`: the ornament in place of a blank name.
    WantedRule,
    /// 700×800, `rip`: a dusk sky, a grassy hill and the engraved gravestone.
    RipScene,
    /// 220×220, `rip`: the stone over the avatar with its oval window cut out.
    RipOval,
    /// 560×560 (drawn at 800×800), `trash`: a brick alley, bags, flies and the bin's dark inside.
    TrashAlley,
    /// 322×238 (drawn at 460×340), `trash`: the bin's front over the avatar.
    TrashBin,
    /// 800×480, `delete`: a desktop and the "Delete this file?" dialog.
    DeleteDialog,
    /// 560×560 (drawn at 800×800), `beautiful`: a museum wall, the gilded frame, the plaque and a rope.
    BeautifulGallery,
    /// 240×240 (drawn at 320×320), `beautiful`: a varnish sheen over the painting.
    BeautifulVarnish,
    /// 640×480 (drawn at 800×600), `stonks`: a trading screen with climbing candles and a green arrow.
    StonksChart,
    /// 720×352 (drawn at 900×440), `ship`: a pink-to-violet card with drifting hearts, the
    /// two portraits' rings and the love meter's empty hearts.
    ShipBackdrop,
    /// 176×160 (drawn at 220×200), `ship`: the big glossy heart the percentage sits in.
    ShipHeart,
    /// 30×27 (drawn at 38×34), `ship`: one lit heart of the love meter.
    HeartPip,
    /// 640×360 (drawn at 800×450), `kiss`: a soft pink backdrop with a pale heart and
    /// sparkles.
    KissScene,
    /// 640×360 (drawn at 800×450), `kiss`: blush, rising hearts and smack marks over the pair.
    KissFront,
    /// 640×360 (drawn at 800×450), `slap`: a comic burst of rays and halftone dots.
    SlapScene,
    /// 640×360 (drawn at 800×450), `slap`: the open hand mid-swing, speed lines, the impact
    /// star and "SLAP!".
    SlapFront,
    /// 640×360 (drawn at 800×450), `hug`: a warm peach backdrop with a pale heart and
    /// sparkles.
    HugScene,
    /// 640×360 (drawn at 800×450), `hug`: two arms crossing around the pair, hearts and
    /// squeeze lines.
    HugFront,
    /// 512×512, `fuse`: a violet vignette, a swirl of light and sparkles.
    FuseGlow,
    /// 700×350 (drawn at 1000×500), `vs`: blue and red panels split by a white slash, with
    /// "WHO WOULD WIN?".
    VsScene,
    /// 700×350 (drawn at 1000×500), `vs`: the portraits' frames, the "VS" badge and lightning.
    VsFront,
    /// 390×312 (drawn at 600×480), `heart-locket`: dark velvet and the gold chain.
    LocketBack,
    /// 156×150 (drawn at 240×230), `heart-locket`: one open half of the
    /// gold locket, its round window cut through.
    LocketHalf,
    /// 156×150 (drawn at 240×230), `heart-locket`: the locket's engraved front.
    LocketLid,
    /// 390×312 (drawn at 600×480), `heart-locket`: twinkles and hearts
    /// around the open locket.
    LocketSparkle,
}

impl Art {
    /// How many kinds of art there are.
    pub const COUNT: usize = 83;

    /// Every kind of art, in declaration order.
    pub const ALL: [Art; Art::COUNT] = [
        Art::ComradeWash,
        Art::Rainbow,
        Art::GlassCracks,
        Art::JailBars,
        Art::PassedBanner,
        Art::TriggeredBanner,
        Art::WastedBanner,
        Art::Hand,
        Art::Space,
        Art::LiedBackdrop,
        Art::LiedVignette,
        Art::NoBitchesFace,
        Art::StupidComic,
        Art::StupidHands,
        Art::LoliceScene,
        Art::SeriesBackdrop,
        Art::SeriesCase,
        Art::BgBlobday,
        Art::BgBlobnight,
        Art::BgGaming1,
        Art::BgGaming2,
        Art::BgGaming3,
        Art::BgGaming4,
        Art::BgNight,
        Art::BgRainbow,
        Art::BgRainbowGradient,
        Art::BgSpace,
        Art::BgStars,
        Art::BgStars2,
        Art::BgSunset,
        Art::Welcome1,
        Art::Welcome2,
        Art::Welcome3,
        Art::Welcome4,
        Art::Welcome5,
        Art::Welcome6,
        Art::Welcome7,
        Art::RankSheen,
        Art::RankStripes,
        Art::RankNeonGrid,
        Art::RankDots,
        Art::RankHexes,
        Art::RankArcs,
        Art::RankWaves,
        Art::RankRetro,
        Art::RankGlass,
        Art::SageCard,
        Art::Sage2Night,
        Art::HornyLicence,
        Art::SimpCard,
        Art::NamecardGlass,
        Art::PostActionsLight,
        Art::PostActionsDim,
        Art::PostActionsDark,
        Art::ThumbUp,
        Art::ThumbDown,
        Art::WantedPoster,
        Art::WantedPhotoAge,
        Art::WantedRule,
        Art::RipScene,
        Art::RipOval,
        Art::TrashAlley,
        Art::TrashBin,
        Art::DeleteDialog,
        Art::BeautifulGallery,
        Art::BeautifulVarnish,
        Art::StonksChart,
        Art::ShipBackdrop,
        Art::ShipHeart,
        Art::HeartPip,
        Art::KissScene,
        Art::KissFront,
        Art::SlapScene,
        Art::SlapFront,
        Art::HugScene,
        Art::HugFront,
        Art::FuseGlow,
        Art::VsScene,
        Art::VsFront,
        Art::LocketBack,
        Art::LocketHalf,
        Art::LocketLid,
        Art::LocketSparkle,
    ];

    /// Its stable name: how a template file refers to it (`art = "hand"`).
    /// Names never change once released; the match is exhaustive, so a new
    /// kind of art cannot be added without one.
    pub const fn name(self) -> &'static str {
        match self {
            Art::ComradeWash => "comrade-wash",
            Art::Rainbow => "rainbow",
            Art::GlassCracks => "glass-cracks",
            Art::JailBars => "jail-bars",
            Art::PassedBanner => "passed-banner",
            Art::TriggeredBanner => "triggered-banner",
            Art::WastedBanner => "wasted-banner",
            Art::Hand => "hand",
            Art::Space => "space",
            Art::LiedBackdrop => "lied-backdrop",
            Art::LiedVignette => "lied-vignette",
            Art::NoBitchesFace => "nobitches-face",
            Art::StupidComic => "its-so-stupid-comic",
            Art::StupidHands => "its-so-stupid-hands",
            Art::LoliceScene => "lolice-scene",
            Art::SeriesBackdrop => "series-backdrop",
            Art::SeriesCase => "series-case",
            Art::BgBlobday => "bg-blobday",
            Art::BgBlobnight => "bg-blobnight",
            Art::BgGaming1 => "bg-gaming1",
            Art::BgGaming2 => "bg-gaming2",
            Art::BgGaming3 => "bg-gaming3",
            Art::BgGaming4 => "bg-gaming4",
            Art::BgNight => "bg-night",
            Art::BgRainbow => "bg-rainbow",
            Art::BgRainbowGradient => "bg-rainbowgradient",
            Art::BgSpace => "bg-space",
            Art::BgStars => "bg-stars",
            Art::BgStars2 => "bg-stars2",
            Art::BgSunset => "bg-sunset",
            Art::Welcome1 => "welcome1",
            Art::Welcome2 => "welcome2",
            Art::Welcome3 => "welcome3",
            Art::Welcome4 => "welcome4",
            Art::Welcome5 => "welcome5",
            Art::Welcome6 => "welcome6",
            Art::Welcome7 => "welcome7",
            Art::RankSheen => "rank-sheen",
            Art::RankStripes => "rank-stripes",
            Art::RankNeonGrid => "rank-neon-grid",
            Art::RankDots => "rank-dots",
            Art::RankHexes => "rank-hexes",
            Art::RankArcs => "rank-arcs",
            Art::RankWaves => "rank-waves",
            Art::RankRetro => "rank-retro",
            Art::RankGlass => "rank-glass",
            Art::SageCard => "sage-card",
            Art::Sage2Night => "sage2-night",
            Art::HornyLicence => "horny-licence",
            Art::SimpCard => "simpcard",
            Art::NamecardGlass => "namecard-glass",
            Art::PostActionsLight => "post-actions-light",
            Art::PostActionsDim => "post-actions-dim",
            Art::PostActionsDark => "post-actions-dark",
            Art::ThumbUp => "thumb-up",
            Art::ThumbDown => "thumb-down",
            Art::WantedPoster => "wanted-poster",
            Art::WantedPhotoAge => "wanted-photo-age",
            Art::WantedRule => "wanted-rule",
            Art::RipScene => "rip-scene",
            Art::RipOval => "rip-oval",
            Art::TrashAlley => "trash-alley",
            Art::TrashBin => "trash-bin",
            Art::DeleteDialog => "delete-dialog",
            Art::BeautifulGallery => "beautiful-gallery",
            Art::BeautifulVarnish => "beautiful-varnish",
            Art::StonksChart => "stonks-chart",
            Art::ShipBackdrop => "ship-backdrop",
            Art::ShipHeart => "ship-heart",
            Art::HeartPip => "heart-pip",
            Art::KissScene => "kiss-scene",
            Art::KissFront => "kiss-front",
            Art::SlapScene => "slap-scene",
            Art::SlapFront => "slap-front",
            Art::HugScene => "hug-scene",
            Art::HugFront => "hug-front",
            Art::FuseGlow => "fuse-glow",
            Art::VsScene => "vs-scene",
            Art::VsFront => "vs-front",
            Art::LocketBack => "locket-back",
            Art::LocketHalf => "locket-half",
            Art::LocketLid => "locket-lid",
            Art::LocketSparkle => "locket-sparkle",
        }
    }

    /// The art of this [`Art::name`], if any.
    pub fn from_name(name: &str) -> Option<Art> {
        Art::ALL.into_iter().find(|a| a.name() == name)
    }

    /// The welcome backgrounds, in the order of their URL names
    /// (`blobday` … `sunset`).
    pub const BACKDROPS: [Art; 13] = [
        Art::BgBlobday,
        Art::BgBlobnight,
        Art::BgGaming1,
        Art::BgGaming2,
        Art::BgGaming3,
        Art::BgGaming4,
        Art::BgNight,
        Art::BgRainbow,
        Art::BgRainbowGradient,
        Art::BgSpace,
        Art::BgStars,
        Art::BgStars2,
        Art::BgSunset,
    ];

    /// Width and height in pixels, as kept: its design size, or for the
    /// art of a meme whose canvas is stored smaller than its design (drawn
    /// in its design coordinates, then resampled once), that size scaled,
    /// to the nearest pixel.
    pub fn size(self) -> (u32, u32) {
        super::stored::size_at(self.design_size(), self.stored_scale())
    }

    /// How much smaller than its design the art is kept (1 for most): it is
    /// drawn in its design coordinates, at its design size, then resampled
    /// once to [`Art::size`].
    fn stored_scale(self) -> f32 {
        use crate::template::memes_one::{
            BEAUTIFUL_STORED, STONKS_STORED, TRASH_STORED, WANTED_STORED,
        };
        match self {
            Art::WantedPoster | Art::WantedPhotoAge | Art::WantedRule => WANTED_STORED,
            Art::TrashAlley | Art::TrashBin => TRASH_STORED,
            Art::BeautifulGallery | Art::BeautifulVarnish => BEAUTIFUL_STORED,
            Art::StonksChart => STONKS_STORED,
            _ => pairs::stored_scale(self).unwrap_or(1.0),
        }
    }

    /// The width and height in pixels it is drawn at.
    fn design_size(self) -> (u32, u32) {
        if let Some(card) = self.card() {
            let (_, _, w, h) = card.region();
            return (w as u32, h as u32);
        }
        match self {
            Art::TriggeredBanner => (TRIGGERED_WIDTH as u32, 112),
            Art::Hand => (148, 239),
            Art::Space => (600, 300),
            Art::LiedBackdrop | Art::LiedVignette => (600, 600),
            Art::NoBitchesFace | Art::StupidComic => (800, 800),
            Art::StupidHands => (260, 90),
            Art::LoliceScene => (900, 600),
            Art::SeriesBackdrop | Art::SeriesCase => (700, 800),
            Art::SageCard => (1200, 630),
            Art::Sage2Night => (800, 800),
            Art::HornyLicence | Art::SimpCard => (900, 560),
            Art::NamecardGlass => (1680, 800),
            a if Art::BACKDROPS.contains(&a) => (1200, 600),
            Art::RankSheen
            | Art::RankStripes
            | Art::RankNeonGrid
            | Art::RankDots
            | Art::RankHexes
            | Art::RankArcs
            | Art::RankWaves
            | Art::RankRetro
            | Art::RankGlass => rank::SIZE,
            Art::PostActionsLight | Art::PostActionsDim | Art::PostActionsDark => {
                social::ACTIONS_SIZE
            }
            Art::ThumbUp | Art::ThumbDown => social::THUMB_SIZE,
            Art::WantedPoster => (600, 800),
            Art::WantedPhotoAge => (340, 340),
            Art::WantedRule => (360, 24),
            Art::RipScene => (700, 800),
            Art::RipOval => (220, 220),
            Art::TrashAlley => (800, 800),
            Art::TrashBin => (460, 340),
            Art::DeleteDialog => (800, 480),
            Art::BeautifulGallery => (800, 800),
            Art::BeautifulVarnish => (320, 320),
            Art::StonksChart => (800, 600),
            _ => pairs::size(self).unwrap_or((512, 512)),
        }
    }

    fn index(self) -> usize {
        self as usize
    }

    /// The welcome card this art is the art of, if it is one.
    pub(super) const fn card(self) -> Option<Card> {
        Some(match self {
            Art::Welcome1 => Card::Classic,
            Art::Welcome2 => Card::Pill,
            Art::Welcome3 => Card::Split,
            Art::Welcome4 => Card::Ribbon,
            Art::Welcome5 => Card::Polaroid,
            Art::Welcome6 => Card::BottomBar,
            Art::Welcome7 => Card::Badge,
            _ => return None,
        })
    }
}

/// The art's pixmap, drawn on first use and kept for the process.
pub(super) fn cached(art: Art) -> &'static Pixmap {
    ART_CACHE[art.index()].get_or_init(|| kept(art, draw(art)))
}

/// `drawn` (the art at its design size) at the size it is kept, resampled
/// once when that is smaller.
fn kept(art: Art, drawn: Pixmap) -> Pixmap {
    let (w, h) = art.size();
    if (drawn.width(), drawn.height()) == (w, h) {
        return drawn;
    }
    // Fixed sizes, never empty: a failure is a bug every test of the art
    // catches.
    crate::resize::resample_premultiplied(&drawn, w, h).expect("art resamples to its size")
}

/// Whether every pixel of the art is opaque (found once per process): a
/// frame started as a copy of it stays opaque under every source-over
/// layer, so it needs no un-premultiply.
pub(super) fn is_opaque(art: Art) -> bool {
    static OPAQUE: [OnceLock<bool>; Art::COUNT] = [const { OnceLock::new() }; Art::COUNT];
    *OPAQUE[art.index()].get_or_init(|| crate::paint::is_opaque(cached(art)))
}

fn draw(art: Art) -> Pixmap {
    if let Some(pixmap) = pairs::draw(art) {
        return pixmap;
    }
    match art {
        Art::LiedBackdrop => return base_layer(memes::lied_backdrop()),
        Art::LiedVignette => return base_layer(memes::lied_vignette()),
        Art::NoBitchesFace => return base_layer(memes::nobitches_face()),
        Art::StupidComic => return base_layer(memes::stupid_comic()),
        Art::StupidHands => return base_layer(memes::stupid_hands()),
        Art::LoliceScene => return base_layer(memes::lolice_scene()),
        Art::SeriesBackdrop => return base_layer(memes::series_backdrop()),
        Art::SeriesCase => return base_layer(memes::series_case()),
        Art::SageCard => return base_layer(cards_misc::sage_base()),
        Art::Sage2Night => return base_layer(cards_misc::sage2_base()),
        Art::HornyLicence => return base_layer(cards_misc::licence_base(Licence::Horny)),
        Art::SimpCard => return base_layer(cards_misc::licence_base(Licence::Simp)),
        Art::NamecardGlass => return base_layer(cards_misc::namecard_base()),
        Art::WantedPoster => return base_layer(memes_one::wanted_poster()),
        Art::WantedPhotoAge => return base_layer(memes_one::wanted_photo_age()),
        Art::WantedRule => return base_layer(memes_one::wanted_rule()),
        Art::RipScene => return base_layer(memes_one::rip_scene()),
        Art::RipOval => return base_layer(memes_one::rip_oval()),
        Art::TrashAlley => return base_layer(memes_one::trash_alley()),
        Art::TrashBin => return base_layer(memes_one::trash_bin()),
        Art::DeleteDialog => return base_layer(memes_one::delete_dialog()),
        Art::BeautifulGallery => return base_layer(memes_one::beautiful_gallery()),
        Art::BeautifulVarnish => return base_layer(memes_one::beautiful_varnish()),
        Art::StonksChart => return base_layer(memes_one::stonks_chart()),
        _ => {}
    }
    if let Some(card) = art.card() {
        return cards::draw(card).pixmap;
    }
    let (w, h) = art.design_size();
    let mut c = Canvas::new(w, h).expect("fixed art size");
    match art {
        Art::ComradeWash => comrade(&mut c),
        Art::Rainbow => rainbow(&mut c),
        Art::GlassCracks => glass(&mut c),
        Art::JailBars => jail(&mut c),
        Art::PassedBanner => banner(&mut c, Banner::Passed),
        Art::TriggeredBanner => triggered(&mut c),
        Art::WastedBanner => banner(&mut c, Banner::Wasted),
        Art::Hand => hand(&mut c),
        Art::Space => space(&mut c),
        Art::BgBlobday => backdrops::blobday(&mut c),
        Art::BgBlobnight => backdrops::blobnight(&mut c),
        Art::BgGaming1 => backdrops::gaming1(&mut c),
        Art::BgGaming2 => backdrops::gaming2(&mut c),
        Art::BgGaming3 => backdrops::gaming3(&mut c),
        Art::BgGaming4 => backdrops::gaming4(&mut c),
        Art::BgNight => backdrops::night(&mut c),
        Art::BgRainbow => backdrops::rainbow(&mut c),
        Art::BgRainbowGradient => backdrops::rainbowgradient(&mut c),
        Art::BgSpace => backdrops::space(&mut c),
        Art::BgStars => backdrops::stars_bg(&mut c),
        Art::BgStars2 => backdrops::stars2(&mut c),
        Art::BgSunset => backdrops::sunset(&mut c),
        Art::RankSheen => rank::sheen(&mut c),
        Art::RankStripes => rank::stripes(&mut c),
        Art::RankNeonGrid => rank::neon_grid(&mut c),
        Art::RankDots => rank::dots(&mut c),
        Art::RankHexes => rank::hexes(&mut c),
        Art::RankArcs => rank::arcs(&mut c),
        Art::RankWaves => rank::waves(&mut c),
        Art::RankRetro => rank::retro(&mut c),
        Art::RankGlass => rank::glass(&mut c),
        Art::PostActionsLight => social::actions(&mut c, 0),
        Art::PostActionsDim => social::actions(&mut c, 1),
        Art::PostActionsDark => social::actions(&mut c, 2),
        Art::ThumbUp => social::thumb_icon(&mut c, false),
        Art::ThumbDown => social::thumb_icon(&mut c, true),
        _ => unreachable!("drawn above"),
    }
    c.pixmap
}

mod memes_one;
pub(super) mod pairs;
mod rank;

fn star_path(cx: f32, cy: f32, r: f32, inner: f32) -> tiny_skia::Path {
    let pts: Vec<(f32, f32)> = (0..10)
        .map(|i| {
            let a = std::f32::consts::PI * (i as f32 / 5.0) - std::f32::consts::FRAC_PI_2;
            let rr = if i % 2 == 0 { r } else { r * inner };
            (cx + rr * a.cos(), cy + rr * a.sin())
        })
        .collect();
    poly(&pts)
}

/// Where comrade's emblem goes: its centre and its scale (of the 512 px
/// drawing).
pub(super) const COMRADE_EMBLEM: (f32, f32, f32) = (148.0, 146.0, 0.55);

/// The comrade overlay: the picture washed in Soviet red, darker at the
/// edges, the gold hammer and sickle in its upper corner as on the flag (a
/// public-domain symbol, drawn as our own art in
/// `assets/art/hammer-sickle.svg`).
fn comrade(c: &mut Canvas) {
    c.fill_all(linear(
        0.0,
        0.0,
        512.0,
        512.0,
        &[(0.0, rgba(0xd8141e, 182)), (1.0, rgba(0xb00c14, 186))],
    ));
    c.fill_all(radial(
        256.0,
        256.0,
        380.0,
        &[(0.5, rgba(0x000000, 0)), (1.0, rgba(0x3a0004, 120))],
    ));
    // The emblem in the upper corner at the hoist, as on the flag, so the
    // face stays in view under the wash.
    let (cx, cy, k) = (COMRADE_EMBLEM.0, COMRADE_EMBLEM.1, COMRADE_EMBLEM.2);
    c.glow(cx, cy, 150.0 * k / 0.55, 0xffc21a, 40);
    let emblem = parse_svg(include_bytes!("../../assets/art/hammer-sickle.svg"));
    c.svg(
        &emblem,
        Transform::from_scale(k, k).post_translate(cx - 256.0 * k, cy - 256.0 * k),
    );
}

fn rainbow(c: &mut Canvas) {
    const STRIPES: [u32; 6] = [0xe40303, 0xff8c00, 0xffed00, 0x008026, 0x004dff, 0x750787];
    let h = 512.0 / 6.0;
    for (i, hex) in STRIPES.into_iter().enumerate() {
        c.color(
            &rect_path(0.0, i as f32 * h, 512.0, h + 1.0),
            rgba(hex, 110),
        );
    }
    // A soft sheen across the stripes.
    c.fill_all(linear(
        0.0,
        0.0,
        512.0,
        512.0,
        &[
            (0.0, rgba(0xffffff, 40)),
            (0.5, rgba(0xffffff, 0)),
            (1.0, rgba(0x000000, 30)),
        ],
    ));
}

fn glass(c: &mut Canvas) {
    // A cool tint and a diagonal glare.
    c.fill_all(linear(
        0.0,
        0.0,
        512.0,
        512.0,
        &[(0.0, rgba(0xcfe8ff, 46)), (1.0, rgba(0x8fb4d9, 40))],
    ));
    let glare = poly(&[(40.0, 0.0), (170.0, 0.0), (0.0, 170.0), (0.0, 40.0)]);
    c.color(&glare, rgba(0xffffff, 46));
    let glare2 = poly(&[(230.0, 0.0), (262.0, 0.0), (0.0, 262.0), (0.0, 230.0)]);
    c.color(&glare2, rgba(0xffffff, 30));
    // Cracks from the impact: jagged radial lines and broken rings.
    let (ix, iy) = (318.0f32, 206.0f32);
    let mut rng = Lcg(27);
    let spokes = 15;
    let mut ends = Vec::new();
    for i in 0..spokes {
        let base = i as f32 / spokes as f32 * std::f32::consts::TAU + rng.next() * 0.3;
        let mut pb = PathBuilder::new();
        pb.move_to(ix, iy);
        let mut r = 0.0;
        let mut pts = Vec::new();
        while r < 720.0 {
            r += 40.0 + rng.next() * 70.0;
            let a = base + (rng.next() - 0.5) * 0.22;
            let p = (ix + r * a.cos(), iy + r * a.sin());
            pb.line_to(p.0, p.1);
            pts.push(p);
        }
        ends.push(pts);
        if let Some(path) = pb.finish() {
            c.stroke(&path, rgba(0x000000, 60), 3.2);
            c.stroke(&path, rgba(0xffffff, 200), 1.4);
        }
    }
    for ring in 0..4 {
        let mut pb = PathBuilder::new();
        for (i, spoke) in ends.iter().enumerate() {
            let Some(&(x, y)) = spoke.get(ring) else {
                continue;
            };
            if i == 0 || rng.next() < 0.25 {
                pb.move_to(x, y);
            } else {
                pb.line_to(x, y);
            }
        }
        if let Some(path) = pb.finish() {
            c.stroke(&path, rgba(0x000000, 40), 2.6);
            c.stroke(&path, rgba(0xffffff, 150), 1.1);
        }
    }
    // The impact: a bright, splintered star.
    c.glow(ix, iy, 46.0, 0xffffff, 150);
    c.color(&star_path(ix, iy, 22.0, 0.3), rgba(0xffffff, 230));
}

fn jail(c: &mut Canvas) {
    // A dark, cold vignette.
    c.fill_all(radial(
        256.0,
        256.0,
        380.0,
        &[(0.45, rgba(0x000000, 0)), (1.0, rgba(0x05080c, 150))],
    ));
    let bar = |c: &mut Canvas, x: f32, y: f32, w: f32, h: f32, vertical: bool| {
        let path = rrect_path(x, y, w, h, w.min(h) / 2.0);
        c.shadow(&path, 6.0, 6.0, 90);
        let stops = [
            (0.0, rgba(0x2b3036, 255)),
            (0.3, rgba(0x9aa3ad, 255)),
            (0.45, rgba(0xe3e8ee, 255)),
            (0.7, rgba(0x5d656e, 255)),
            (1.0, rgba(0x1d2126, 255)),
        ];
        let shader = if vertical {
            linear(x, 0.0, x + w, 0.0, &stops)
        } else {
            linear(0.0, y, 0.0, y + h, &stops)
        };
        c.fill(&path, &shader_paint(shader));
    };
    for i in 0..6 {
        let x = 22.0 + i as f32 * 90.0;
        bar(c, x, -20.0, 28.0, 552.0, true);
    }
    for y in [70.0, 412.0] {
        bar(c, -20.0, y, 552.0, 30.0, false);
    }
    // Rivets where the bars cross.
    for i in 0..6 {
        let x = 36.0 + i as f32 * 90.0;
        for y in [85.0, 427.0] {
            let rivet = circle_path(x, y, 7.0);
            c.fill(
                &rivet,
                &shader_paint(radial(
                    x - 2.0,
                    y - 2.0,
                    8.0,
                    &[(0.0, rgba(0xf4f6f8, 255)), (1.0, rgba(0x4a5058, 255))],
                )),
            );
        }
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Banner {
    Passed,
    Wasted,
}

/// The family of the banners' lettering: a heavy serif display face, as
/// the game's screens letter "wasted" and "mission passed".
const BANNER_FACE: FontFace = FontFace::Family("Roboto Slab");

/// The game's end-of-mission screens: the picture dimmed towards the
/// edges, a dark band across the middle whose light rims keep it visible
/// on a dark picture too, and the heavy lettering in the band.
fn banner(c: &mut Canvas, kind: Banner) {
    c.fill_all(radial(
        256.0,
        256.0,
        380.0,
        &[(0.4, rgba(0x000000, 20)), (1.0, rgba(0x000000, 130))],
    ));
    let (y, h, rim) = match kind {
        Banner::Wasted => (198.0, 116.0, 0xd0d0d0),
        Banner::Passed => (172.0, 168.0, 0xf2c14e),
    };
    // The band: darkest in the middle, lighter towards the ends.
    c.fill(
        &rect_path(0.0, y, 512.0, h),
        &shader_paint(linear(
            0.0,
            0.0,
            512.0,
            0.0,
            &[
                (0.0, rgba(0x000000, 150)),
                (0.25, rgba(0x000000, 205)),
                (0.75, rgba(0x000000, 205)),
                (1.0, rgba(0x000000, 150)),
            ],
        )),
    );
    for edge in [y - 1.0, y + h - 2.0] {
        c.fill(
            &rect_path(0.0, edge, 512.0, 3.0),
            &shader_paint(linear(
                0.0,
                0.0,
                512.0,
                0.0,
                &[
                    (0.0, rgba(rim, 40)),
                    (0.5, rgba(rim, 200)),
                    (1.0, rgba(rim, 40)),
                ],
            )),
        );
    }
    let (word, fill, size, top, box_h) = match kind {
        Banner::Wasted => ("WASTED", [0xc8, 0x1f, 0x26, 255], 104.0, y + 4.0, h - 8.0),
        Banner::Passed => (
            "MISSION PASSED",
            [0xf5, 0xb8, 0x24, 255],
            56.0,
            y + 14.0,
            84.0,
        ),
    };
    heavy_word(c, word, fill, size, TextBox::new(14.0, top, 484.0, box_h));
    if kind == Banner::Passed {
        heavy_word(
            c,
            "RESPECT +",
            [0xff, 0xff, 0xff, 255],
            34.0,
            TextBox::new(14.0, y + 96.0, 484.0, 56.0),
        );
    }
}

/// A word in the banner face, made heavier than the font (its own colour
/// stroked round it) inside a black edge.
fn heavy_word(c: &mut Canvas, word: &str, fill: [u8; 4], size: f32, area: TextBox) {
    let edge = TextStyle::new(BANNER_FACE, size)
        .color([0x08, 0x08, 0x08, 255])
        .align(Align::Center)
        .valign(VAlign::Middle)
        .outline([0x08, 0x08, 0x08, 255], size / 11.0);
    let layout = c.text(word, &edge, area, 12.0).expect("fixed banner text");
    // The fill over the same glyphs, its own stroke making them heavier.
    let face = TextStyle::new(BANNER_FACE, size)
        .color(fill)
        .align(Align::Center)
        .valign(VAlign::Middle)
        .outline(fill, size / 30.0);
    c.draw_layout(&layout, &face, area);
}

/// The width of the TRIGGERED banner: the canvas's.
const TRIGGERED_WIDTH: f32 = 512.0;

fn triggered(c: &mut Canvas) {
    let path = rect_path(0.0, 8.0, TRIGGERED_WIDTH, 104.0);
    c.fill(
        &path,
        &shader_paint(linear(
            0.0,
            8.0,
            0.0,
            112.0,
            &[(0.0, rgba(0xff2a1f, 255)), (1.0, rgba(0xb50d0d, 255))],
        )),
    );
    c.color(
        &rect_path(0.0, 0.0, TRIGGERED_WIDTH, 8.0),
        rgba(0x1a0000, 220),
    );
    c.color(
        &rect_path(0.0, 8.0, TRIGGERED_WIDTH, 3.0),
        rgba(0xff8a80, 255),
    );
    let style = TextStyle::new(FontFace::Meme, 76.0)
        .color([0xff, 0xff, 0xff, 255])
        .align(Align::Center)
        .valign(VAlign::Middle)
        .outline([0x3a, 0x00, 0x00, 255], 5.0);
    c.text(
        "TRIGGERED",
        &style,
        TextBox::new(8.0, 10.0, TRIGGERED_WIDTH - 16.0, 100.0),
        24.0,
    )
    .expect("fixed banner text");
}

/// The patting hand (`assets/art/hand.svg`): the sleeve comes down from
/// the top edge, so that no placement shows where it ends, to the cuff on
/// the wrist; the back of the hand, four fingers and the thumb are one
/// outlined shape.
fn hand(c: &mut Canvas) {
    let hand = parse_svg(include_bytes!("../../assets/art/hand.svg"));
    // Drawn at 1.3 times the drawing's units (114×184).
    c.svg(&hand, Transform::from_scale(1.3, 1.3));
}

fn space(c: &mut Canvas) {
    c.fill_all(linear(
        0.0,
        0.0,
        600.0,
        300.0,
        &[(0.0, rgba(0x070b1f, 255)), (1.0, rgba(0x150a2e, 255))],
    ));
    // Nebulae.
    c.glow(460.0, 70.0, 230.0, 0x6a3fb5, 70);
    c.glow(120.0, 250.0, 200.0, 0x1f6fb5, 55);
    c.glow(300.0, 160.0, 140.0, 0xb53f8f, 25);
    // Stars: many faint, some bright with a glow.
    let mut rng = Lcg(2024);
    for i in 0..220 {
        let (x, y) = (rng.next() * 600.0, rng.next() * 300.0);
        let bright = i % 11 == 0;
        let r = if bright {
            1.6 + rng.next()
        } else {
            0.5 + rng.next() * 0.9
        };
        let a = (110.0 + rng.next() * 145.0) as u8;
        if bright {
            c.glow(x, y, r * 5.0, 0xcfe0ff, 90);
        }
        c.color(&circle_path(x, y, r), rgba(0xffffff, a));
    }
    // A far ringed planet in the upper right, clear of the text.
    let (px, py, pr) = (536.0, 58.0, 28.0);
    c.glow(px, py, pr * 2.2, 0xff9d5c, 40);
    c.fill(
        &circle_path(px, py, pr),
        &shader_paint(radial(
            px - 12.0,
            py - 14.0,
            pr * 1.5,
            &[
                (0.0, rgba(0xffc27a, 255)),
                (0.6, rgba(0xd8694a, 255)),
                (1.0, rgba(0x5a1e2e, 255)),
            ],
        )),
    );
    let ring = {
        let r = tiny_skia::Rect::from_xywh(px - 48.0, py - 8.0, 96.0, 16.0).expect("ring");
        PathBuilder::from_oval(r).expect("ring")
    };
    let tilt = Transform::identity().pre_rotate_at(-16.0, px, py);
    c.stroke_t(&ring, rgba(0xffe0b8, 170), 3.0, tilt);
}
