//! A loopback HTTP/1.1 fixture host for tests, on std threads.
//!
//! It serves avatars drawn in code and every hostile answer the avatar
//! fetcher must survive, and counts connections and hits per path so tests
//! can assert what was (or was never) contacted. One request per
//! connection (`Connection: close`). Never used outside tests.
//!
//! | path | answer |
//! | --- | --- |
//! | `/ok.png`, `/ok.jpg`, `/ok.gif` (2 frames), `/ok.webp` | a 64×48 avatar |
//! | `/avatar512.png` | a 512×512 avatar |
//! | `/anim/WxHxN.gif` | [`animated_gif`] of N frames of W×H (each side at most 1024, N at most 64) |
//! | `/big.png` | a 2000×1000 avatar (to test normalising) |
//! | `/gzip.png` | `/ok.png` sent with `Content-Encoding: gzip` |
//! | `/delayed.png?MS` | `/ok.png` after MS milliseconds |
//! | `/slow.png` | headers, then one byte every 100 ms for 30 s |
//! | `/hang` | accepts and answers nothing for 60 s |
//! | `/redirect/N` | 302 to `/redirect/N+1`, forever |
//! | `/redirect-to?TARGET` | 302 to TARGET (verbatim) |
//! | `/huge.png` | a PNG header announcing 100000×100000 |
//! | `/truncated.png` | the first half of a PNG, with a matching length |
//! | `/html.png` | an HTML page labelled `image/png` |
//! | `/bomb.png` | a small gzip body inflating to 16 MiB |
//! | `/announce-huge.png` | `Content-Length: 1000000000000`, short body |
//! | `/ok.bmp` | a BMP image |
//! | `/status/NNN` | an HTML page with status NNN |

use std::collections::HashMap;
use std::io::{Cursor, Read, Write};
use std::net::{IpAddr, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::thread;
use std::time::{Duration, Instant};

use image::{ImageFormat, Rgba, RgbaImage};

#[derive(Debug, Default)]
struct Counters {
    connections: AtomicUsize,
    hits: Mutex<HashMap<String, usize>>,
    /// Per path: when each request's head was read and when its answer was
    /// written (for answers written whole).
    spans: Mutex<HashMap<String, Vec<(Instant, Instant)>>>,
}

/// A running fixture host. Its threads live until the test process ends.
#[derive(Debug, Clone)]
pub struct FixtureHost {
    addr: SocketAddr,
    counters: Arc<Counters>,
}

impl FixtureHost {
    /// Starts a host on `127.0.0.1`, on a free port.
    pub fn start() -> Self {
        Self::start_on("127.0.0.1".parse().expect("loopback parses"))
    }

    /// Starts a host on `ip` (a loopback address such as `127.0.0.2`), on a
    /// free port.
    pub fn start_on(ip: IpAddr) -> Self {
        let listener = TcpListener::bind(SocketAddr::new(ip, 0)).expect("bind fixture host");
        let addr = listener.local_addr().expect("fixture address");
        let counters = Arc::new(Counters::default());
        let shared = Arc::clone(&counters);
        thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { continue };
                shared.connections.fetch_add(1, Ordering::SeqCst);
                let shared = Arc::clone(&shared);
                thread::spawn(move || handle(stream, &shared));
            }
        });
        Self { addr, counters }
    }

    /// The socket address the host listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// `http://IP:PORT` + `path`.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// TCP connections accepted so far.
    pub fn connections(&self) -> usize {
        self.counters.connections.load(Ordering::SeqCst)
    }

    /// Requests served so far for `path` (query string excluded).
    pub fn hits(&self, path: &str) -> usize {
        let hits = self.counters.hits.lock().expect("hits lock");
        hits.get(path).copied().unwrap_or(0)
    }

    /// For each answer written whole for `path` so far, in the order they
    /// ended: when its request was read and when its answer was written.
    /// Tests use it to tell whether requests overlapped in time.
    pub fn spans(&self, path: &str) -> Vec<(Instant, Instant)> {
        let spans = self.counters.spans.lock().expect("spans lock");
        spans.get(path).cloned().unwrap_or_default()
    }

    /// Requests served so far for every path starting with `prefix`.
    pub fn hits_with_prefix(&self, prefix: &str) -> usize {
        let hits = self.counters.hits.lock().expect("hits lock");
        hits.iter()
            .filter(|(p, _)| p.starts_with(prefix))
            .map(|(_, n)| n)
            .sum()
    }
}

/// An avatar of `width`×`height` drawn in code: diagonal colour ramps.
pub fn avatar(width: u32, height: u32) -> RgbaImage {
    RgbaImage::from_fn(width, height, |x, y| {
        let r = (x * 255 / width.max(1)) as u8;
        let g = (y * 255 / height.max(1)) as u8;
        let b = ((x + y) % 256) as u8;
        Rgba([r, g, b, 255])
    })
}

/// `image` encoded in `format`.
pub fn encode(image: &RgbaImage, format: ImageFormat) -> Vec<u8> {
    let mut out = Cursor::new(Vec::new());
    match format {
        ImageFormat::Jpeg => image::DynamicImage::ImageRgba8(image.clone())
            .into_rgb8()
            .write_to(&mut out, format),
        _ => image.write_to(&mut out, format),
    }
    .expect("encode fixture image");
    out.into_inner()
}

/// The PNG served at `/ok.png`.
pub fn ok_png() -> &'static [u8] {
    static PNG: OnceLock<Vec<u8>> = OnceLock::new();
    PNG.get_or_init(|| encode(&avatar(64, 48), ImageFormat::Png))
}

/// The PNG served at `/avatar512.png`.
pub fn avatar512_png() -> &'static [u8] {
    static PNG: OnceLock<Vec<u8>> = OnceLock::new();
    PNG.get_or_init(|| encode(&avatar(512, 512), ImageFormat::Png))
}

fn two_frame_gif() -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut encoder = image::codecs::gif::GifEncoder::new(&mut out);
        let red = RgbaImage::from_pixel(64, 48, Rgba([255, 0, 0, 255]));
        let blue = RgbaImage::from_pixel(64, 48, Rgba([0, 0, 255, 255]));
        encoder
            .encode_frames([image::Frame::new(red), image::Frame::new(blue)])
            .expect("encode gif");
    }
    out
}

/// An animated GIF of `frames` frames of `width`×`height`: a light square
/// moving right over a dark background with a transparent top-left
/// corner, 70 ms a frame, looping forever.
pub fn animated_gif(width: u32, height: u32, frames: u32) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut encoder = image::codecs::gif::GifEncoder::new_with_speed(&mut out, 30);
        encoder
            .set_repeat(image::codecs::gif::Repeat::Infinite)
            .expect("repeat");
        let side = (width.min(height) / 4).max(1);
        for k in 0..frames {
            let left = k * width / frames.max(1);
            let img = RgbaImage::from_fn(width, height, |x, y| {
                if x + y < side {
                    Rgba([0, 0, 0, 0])
                } else if x >= left && x < left + side && y >= height / 2 && y < height / 2 + side {
                    Rgba([250, 220, 40, 255])
                } else {
                    Rgba([30, 40, (y * 255 / height.max(1)) as u8, 255])
                }
            });
            let delay = image::Delay::from_numer_denom_ms(70, 1);
            encoder
                .encode_frame(image::Frame::from_parts(img, 0, 0, delay))
                .expect("encode gif");
        }
    }
    out
}

/// 256 frames of 8×8 (about 10 KB), each one colour of its own, 70 ms
/// each: the smallest avatar with the most frames, and no two frames alike.
pub fn tiny_frames_gif() -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut encoder = image::codecs::gif::GifEncoder::new_with_speed(&mut out, 30);
        encoder
            .set_repeat(image::codecs::gif::Repeat::Infinite)
            .expect("repeat");
        for k in 0..=255u8 {
            let img = RgbaImage::from_pixel(8, 8, Rgba([k, 255 - k, k.wrapping_mul(7), 255]));
            let delay = image::Delay::from_numer_denom_ms(70, 1);
            encoder
                .encode_frame(image::Frame::from_parts(img, 0, 0, delay))
                .expect("encode gif");
        }
    }
    out
}

/// A PNG whose IHDR announces `width`×`height` (CRC fixed up), followed by
/// the data of a 1×1 image.
pub fn png_announcing(width: u32, height: u32) -> Vec<u8> {
    png_announcing_depth(width, height, 8, false)
}

/// [`png_announcing`] of an RGBA PNG with `bit_depth` bits per channel (8
/// or 16), Adam7-interlaced when `interlaced`: a header that decoders size
/// their buffers from.
pub fn png_announcing_depth(width: u32, height: u32, bit_depth: u8, interlaced: bool) -> Vec<u8> {
    let mut png = encode(&avatar(1, 1), ImageFormat::Png);
    // Signature (8) + length (4) + "IHDR" (4), then width, height, bit
    // depth, colour type (6: RGBA), compression, filter, interlace.
    png[16..20].copy_from_slice(&width.to_be_bytes());
    png[20..24].copy_from_slice(&height.to_be_bytes());
    png[24] = bit_depth;
    png[25] = 6;
    png[28] = u8::from(interlaced);
    let mut crc = flate2::Crc::new();
    crc.update(&png[12..29]);
    png[29..33].copy_from_slice(&crc.sum().to_be_bytes());
    png
}

/// A 1×1 24-bit BMP, written by hand (the `bmp` feature of `image` is off).
fn bmp_1x1() -> Vec<u8> {
    let mut b = Vec::new();
    b.extend_from_slice(b"BM");
    b.extend_from_slice(&58u32.to_le_bytes()); // file size
    b.extend_from_slice(&0u32.to_le_bytes()); // reserved
    b.extend_from_slice(&54u32.to_le_bytes()); // pixel data offset
    b.extend_from_slice(&40u32.to_le_bytes()); // BITMAPINFOHEADER size
    b.extend_from_slice(&1i32.to_le_bytes()); // width
    b.extend_from_slice(&1i32.to_le_bytes()); // height
    b.extend_from_slice(&1u16.to_le_bytes()); // planes
    b.extend_from_slice(&24u16.to_le_bytes()); // bits per pixel
    b.extend_from_slice(&[0; 24]); // compression, sizes, resolution, palette
    b.extend_from_slice(&[0, 0, 255, 0]); // one red pixel, row padded to 4
    b
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    enc.write_all(data).expect("gzip");
    enc.finish().expect("gzip finish")
}

fn bomb() -> &'static [u8] {
    static BOMB: OnceLock<Vec<u8>> = OnceLock::new();
    BOMB.get_or_init(|| {
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        enc.write_all(b"\x89PNG\r\n\x1a\n").expect("gzip");
        let zeros = vec![0u8; 1 << 20];
        for _ in 0..16 {
            enc.write_all(&zeros).expect("gzip");
        }
        enc.finish().expect("gzip finish")
    })
}

struct Reply {
    status: u16,
    headers: Vec<(&'static str, String)>,
    body: Vec<u8>,
}

impl Reply {
    fn image(body: Vec<u8>, content_type: &str) -> Self {
        Self {
            status: 200,
            headers: vec![("Content-Type", content_type.to_owned())],
            body,
        }
    }

    fn redirect(location: String) -> Self {
        Self {
            status: 302,
            headers: vec![("Location", location)],
            body: Vec::new(),
        }
    }
}

fn read_request_target(stream: &mut TcpStream) -> Option<String> {
    stream.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
    let mut buf = Vec::new();
    let mut chunk = [0u8; 1024];
    while !buf.windows(4).any(|w| w == b"\r\n\r\n") {
        let n = stream.read(&mut chunk).ok()?;
        if n == 0 || buf.len() > 64 << 10 {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
    }
    let head = String::from_utf8_lossy(&buf);
    let line = head.lines().next()?;
    let mut parts = line.split(' ');
    let _method = parts.next()?;
    parts.next().map(str::to_owned)
}

/// `WxHxN.gif` of `/anim/`, within its caps.
fn anim_size(name: &str) -> Option<(u32, u32, u32)> {
    let mut it = name.strip_suffix(".gif")?.split('x').map(str::parse::<u32>);
    let (w, h, n) = (it.next()?.ok()?, it.next()?.ok()?, it.next()?.ok()?);
    (it.next().is_none()
        && (1..=1024).contains(&w)
        && (1..=1024).contains(&h)
        && (1..=64).contains(&n))
    .then_some((w, h, n))
}

fn handle(mut stream: TcpStream, counters: &Counters) {
    let Some(target) = read_request_target(&mut stream) else {
        return;
    };
    let started = Instant::now();
    let (path, query) = match target.split_once('?') {
        Some((p, q)) => (p.to_owned(), q.to_owned()),
        None => (target.clone(), String::new()),
    };
    *counters
        .hits
        .lock()
        .expect("hits lock")
        .entry(path.clone())
        .or_default() += 1;

    let reply = match path.as_str() {
        "/ok.png" => Reply::image(ok_png().to_vec(), "image/png"),
        "/ok.jpg" => Reply::image(encode(&avatar(64, 48), ImageFormat::Jpeg), "image/jpeg"),
        "/ok.gif" => Reply::image(two_frame_gif(), "image/gif"),
        "/ok.webp" => Reply::image(encode(&avatar(64, 48), ImageFormat::WebP), "image/webp"),
        "/anim.gif" => Reply::image(animated_gif(64, 48, 6), "image/gif"),
        "/many-frames.gif" => Reply::image(animated_gif(2, 2, 300), "image/gif"),
        "/tiny-frames.gif" => Reply::image(tiny_frames_gif(), "image/gif"),
        "/ok.bmp" => Reply::image(bmp_1x1(), "image/bmp"),
        "/avatar512.png" => Reply::image(avatar512_png().to_vec(), "image/png"),
        "/big.png" => {
            static BIG: OnceLock<Vec<u8>> = OnceLock::new();
            let png = BIG.get_or_init(|| encode(&avatar(2000, 1000), ImageFormat::Png));
            Reply::image(png.clone(), "image/png")
        }
        "/gzip.png" => {
            let mut r = Reply::image(gzip(ok_png()), "image/png");
            r.headers.push(("Content-Encoding", "gzip".to_owned()));
            r
        }
        "/bomb.png" => {
            let mut r = Reply::image(bomb().to_vec(), "image/png");
            r.headers.push(("Content-Encoding", "gzip".to_owned()));
            r
        }
        "/delayed.png" => {
            let ms = query.parse().unwrap_or(200);
            thread::sleep(Duration::from_millis(ms));
            Reply::image(ok_png().to_vec(), "image/png")
        }
        "/huge.png" => Reply::image(png_announcing(100_000, 100_000), "image/png"),
        "/truncated.png" => {
            let png = encode(&avatar(64, 64), ImageFormat::Png);
            Reply::image(png[..png.len() / 2].to_vec(), "image/png")
        }
        "/html.png" => Reply::image(
            b"<!doctype html><html><body>secret internal page</body></html>".to_vec(),
            "image/png",
        ),
        "/announce-huge.png" => {
            let head = "HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: 1000000000000\r\nConnection: close\r\n\r\n";
            let _ = stream.write_all(head.as_bytes());
            let _ = stream.write_all(ok_png());
            return;
        }
        "/slow.png" => {
            let head = "HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: 100000\r\nConnection: close\r\n\r\n";
            if stream.write_all(head.as_bytes()).is_err() {
                return;
            }
            for _ in 0..300 {
                thread::sleep(Duration::from_millis(100));
                if stream.write_all(b"\x89").is_err() {
                    return;
                }
            }
            return;
        }
        "/hang" => {
            thread::sleep(Duration::from_secs(60));
            return;
        }
        "/redirect-to" => Reply::redirect(query),
        p if p.starts_with("/anim/") => match anim_size(&p["/anim/".len()..]) {
            Some((w, h, n)) => Reply::image(animated_gif(w, h, n), "image/gif"),
            None => Reply {
                status: 404,
                ..Reply::image(Vec::new(), "text/plain")
            },
        },
        p if p.starts_with("/redirect/") => {
            let n: u32 = p["/redirect/".len()..].parse().unwrap_or(0);
            Reply::redirect(format!("/redirect/{}", n + 1))
        }
        p if p.starts_with("/status/") => Reply {
            status: p["/status/".len()..].parse().unwrap_or(500),
            headers: vec![("Content-Type", "text/html".to_owned())],
            body: b"<html>upstream error page with 10.0.0.7 inside</html>".to_vec(),
        },
        _ => Reply {
            status: 404,
            headers: vec![("Content-Type", "text/plain".to_owned())],
            body: b"no such fixture".to_vec(),
        },
    };
    write_reply(&mut stream, &reply);
    counters
        .spans
        .lock()
        .expect("spans lock")
        .entry(path)
        .or_default()
        .push((started, Instant::now()));
}

fn write_reply(stream: &mut TcpStream, reply: &Reply) {
    let mut head = format!("HTTP/1.1 {} Fixture\r\n", reply.status);
    for (name, value) in &reply.headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str(&format!(
        "Content-Length: {}\r\nConnection: close\r\n\r\n",
        reply.body.len()
    ));
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.write_all(&reply.body);
    let _ = stream.flush();
}
