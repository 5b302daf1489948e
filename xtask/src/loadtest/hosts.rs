//! The loopback avatar host the load test starts: it serves PNG avatars (one
//! fixed, many "fresh" ones under distinct URLs, the fixed one after a pause)
//! and hostile behaviours for the fault tests (stall, reset, drip, redirect
//! loop, garbage, pixel bomb).
//!
//! Plain `std::net`, one thread per connection with a hard cap on live
//! connections; every wait is bounded, so the host never outlives the run by
//! more than a few seconds.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::thread;
use std::time::{Duration, Instant};

/// Most connections served at once; more are closed at once.
const MAX_LIVE: usize = 512;
/// How long a stalling or dripping response lasts at most.
const FAULT_SPAN: Duration = Duration::from_secs(30);
/// Number of distinct "fresh" avatar images (their URLs are all distinct).
const VARIANTS: usize = 64;

/// The big animated avatar: 128 frames of 512² (32 Mi decoded pixels, the
/// server's default cap).
pub const ANIMATED_AVATAR: &str = "anim-512x128.gif";
/// 256 frames of 8×8 (about 10 KB), each a colour of its own: the most
/// frames an avatar may have, in the fewest bytes.
pub const TINY_FRAMES_AVATAR: &str = "anim-8x256.gif";
/// 2 frames of 4096² (the `max_animation_pixels` cap in two frames): a
/// decode over the decode budget.
pub const LARGE_FRAMES_AVATAR: &str = "anim-4096x2.gif";

/// Counters of what the host served.
#[derive(Debug, Default)]
pub struct HostStats {
    /// Requests answered with an avatar PNG.
    pub avatars: AtomicU64,
    /// Requests answered with a fault behaviour.
    pub faults: AtomicU64,
}

/// A running avatar host; stops accepting when dropped.
#[derive(Debug)]
pub struct AvatarHost {
    /// Where it listens (always 127.0.0.1).
    pub addr: SocketAddr,
    /// What it served.
    pub stats: Arc<HostStats>,
    stop: Arc<AtomicBool>,
}

impl AvatarHost {
    /// Binds 127.0.0.1 on a free port and serves in background threads.
    pub fn start() -> std::io::Result<Self> {
        Self::start_on(std::net::Ipv4Addr::LOCALHOST.into())
    }

    /// Binds `ip` (a local address, e.g. a container network's gateway) on a
    /// free port and serves in background threads.
    pub fn start_on(ip: std::net::IpAddr) -> std::io::Result<Self> {
        let listener = TcpListener::bind((ip, 0))?;
        listener.set_nonblocking(true)?;
        let addr = listener.local_addr()?;
        let stop = Arc::new(AtomicBool::new(false));
        let stats = Arc::new(HostStats::default());
        let images = Arc::new(Images::new());
        let live = Arc::new(AtomicUsize::new(0));
        {
            let stop = stop.clone();
            let stats = stats.clone();
            thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    match listener.accept() {
                        Ok((s, _)) => {
                            if live.load(Ordering::Relaxed) >= MAX_LIVE {
                                continue; // dropped: closed at once
                            }
                            live.fetch_add(1, Ordering::Relaxed);
                            let (images, stats, live, stop) =
                                (images.clone(), stats.clone(), live.clone(), stop.clone());
                            thread::spawn(move || {
                                let _ = serve(s, &images, &stats, &stop);
                                live.fetch_sub(1, Ordering::Relaxed);
                            });
                        }
                        Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                            thread::sleep(Duration::from_millis(2));
                        }
                        Err(_) => thread::sleep(Duration::from_millis(10)),
                    }
                }
            });
        }
        Ok(Self { addr, stats, stop })
    }
}

impl Drop for AvatarHost {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// Pre-encoded PNGs.
struct Images {
    fixed: Vec<u8>,
    fresh: Vec<Vec<u8>>,
    bomb: Vec<u8>,
    /// `/avatar/big/1024.png`, `/avatar/big/4096.png` (8-bit RGBA),
    /// `/avatar/big/4096-16i.png` (16-bit RGBA, interlaced: the costliest
    /// still decode an avatar may ask for), `/avatar/big/anim-512x128.gif`
    /// (128 frames of 512², the most decoded pixels an animation may have),
    /// `/avatar/big/anim-8x256.gif` (256 frames of 8×8) and
    /// `/avatar/big/anim-4096x2.gif` (2 frames of 4096²), made on first use.
    big: std::sync::Mutex<Vec<(String, Arc<Vec<u8>>)>>,
}

impl Images {
    fn new() -> Self {
        Self {
            fixed: png_rgb(256, 256, 0),
            fresh: (1..=VARIANTS as u32)
                .map(|s| png_rgb(256, 256, s))
                .collect(),
            bomb: png_header_only(60_000, 60_000),
            big: std::sync::Mutex::default(),
        }
    }

    fn big(&self, name: &str) -> Option<Arc<Vec<u8>>> {
        let mut big = self.big.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, png)) = big.iter().find(|(n, _)| n == name) {
            return Some(Arc::clone(png));
        }
        let png = Arc::new(match name {
            "1024.png" => png_deflated(1024, 1024, false, false),
            "4096.png" => png_deflated(4096, 4096, false, false),
            "4096-16i.png" => png_deflated(4096, 4096, true, true),
            ANIMATED_AVATAR => gif_animated(512, 512, 128),
            TINY_FRAMES_AVATAR => gif_animated(8, 8, 256),
            LARGE_FRAMES_AVATAR => gif_striped(4096, 4096, 2),
            _ => return None,
        });
        big.push((name.to_owned(), Arc::clone(&png)));
        Some(png)
    }
}

/// Serves requests on one keep-alive connection.
fn serve(
    s: TcpStream,
    images: &Images,
    stats: &HostStats,
    stop: &AtomicBool,
) -> std::io::Result<()> {
    s.set_read_timeout(Some(Duration::from_secs(10)))?;
    s.set_write_timeout(Some(Duration::from_secs(10)))?;
    s.set_nodelay(true)?;
    let mut r = BufReader::new(s.try_clone()?);
    let mut w = s;
    for _ in 0..10_000 {
        let Some(path) = read_request(&mut r)? else {
            return Ok(());
        };
        // A query (`?nonce=` to defeat the server's avatar cache) is ignored.
        let path = path.split('?').next().unwrap_or("/");
        let segs: Vec<&str> = path.trim_start_matches('/').split('/').collect();
        match segs.as_slice() {
            ["avatar", "big", name] => match images.big(name) {
                Some(bytes) => {
                    stats.avatars.fetch_add(1, Ordering::Relaxed);
                    let ctype = if name.ends_with(".gif") {
                        "image/gif"
                    } else {
                        "image/png"
                    };
                    respond(&mut w, "200 OK", ctype, &bytes)?;
                }
                None => respond(&mut w, "404 Not Found", "text/plain", b"not found")?,
            },
            // The fixed avatar after a pause of `ms` (at most the fault span).
            ["slow", ms, _] => {
                let ms = ms.parse::<u64>().unwrap_or(0);
                thread::sleep(Duration::from_millis(ms).min(FAULT_SPAN));
                stats.avatars.fetch_add(1, Ordering::Relaxed);
                respond(&mut w, "200 OK", "image/png", &images.fixed)?;
            }
            ["avatar", "fixed.png"] => {
                stats.avatars.fetch_add(1, Ordering::Relaxed);
                respond(&mut w, "200 OK", "image/png", &images.fixed)?;
            }
            ["avatar", "fresh", name] => {
                stats.avatars.fetch_add(1, Ordering::Relaxed);
                let n: usize = name.trim_end_matches(".png").parse().unwrap_or(0);
                respond(&mut w, "200 OK", "image/png", &images.fresh[n % VARIANTS])?;
            }
            ["fault", kind, n] => {
                stats.faults.fetch_add(1, Ordering::Relaxed);
                return fault(&mut w, kind, n, images, stop);
            }
            _ => respond(&mut w, "404 Not Found", "text/plain", b"not found")?,
        }
    }
    Ok(())
}

/// One fault behaviour; the connection is closed afterwards.
fn fault(
    w: &mut TcpStream,
    kind: &str,
    n: &str,
    images: &Images,
    stop: &AtomicBool,
) -> std::io::Result<()> {
    let until = Instant::now() + FAULT_SPAN;
    match kind {
        // Reads the request, then says nothing until the client gives up.
        "stall" => {
            while Instant::now() < until && !stop.load(Ordering::Relaxed) {
                thread::sleep(Duration::from_millis(100));
                // A closed peer shows up as a failed write of nothing useful;
                // keep it simple: just wait out the span.
            }
            Ok(())
        }
        // Closes the connection without a byte of response.
        "reset" => Ok(()),
        // A valid head announcing a large PNG, then one byte every 100 ms.
        "drip" => {
            w.write_all(
                b"HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: 1048576\r\n\r\n",
            )?;
            for b in images.fixed.iter().cycle() {
                if Instant::now() >= until || stop.load(Ordering::Relaxed) {
                    break;
                }
                w.write_all(&[*b])?;
                thread::sleep(Duration::from_millis(100));
            }
            Ok(())
        }
        // Redirects to the next redirect, forever.
        "redirect" => {
            let next: u64 = n.parse::<u64>().unwrap_or(0).wrapping_add(1);
            let head = format!(
                "HTTP/1.1 302 Found\r\nLocation: /fault/redirect/{next}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
            );
            w.write_all(head.as_bytes())
        }
        // Claims to be a PNG, is not.
        "garbage" => respond_close(
            w,
            "200 OK",
            "image/png",
            b"\x89PNG\r\n\x1a\nthis is not a png at all",
        ),
        // A valid PNG head declaring 60000x60000 pixels (a decompression bomb).
        "bomb" => respond_close(w, "200 OK", "image/png", &images.bomb),
        // A huge body announced up front.
        "huge" => {
            w.write_all(
                b"HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: 1073741824\r\n\r\n",
            )?;
            let chunk = vec![0u8; 64 * 1024];
            let mut sent = 0usize;
            while sent < (1 << 30) && Instant::now() < until && !stop.load(Ordering::Relaxed) {
                w.write_all(&chunk)?;
                sent += chunk.len();
            }
            Ok(())
        }
        _ => respond_close(w, "404 Not Found", "text/plain", b"no such fault"),
    }
}

/// Reads a request head; returns its path, or `None` on a clean close.
fn read_request(r: &mut BufReader<TcpStream>) -> std::io::Result<Option<String>> {
    let mut first = String::new();
    if r.by_ref().take(8192).read_line(&mut first)? == 0 {
        return Ok(None);
    }
    let path = first.split_whitespace().nth(1).unwrap_or("/").to_owned();
    let mut total = first.len();
    loop {
        let mut line = String::new();
        let n = r.by_ref().take(8192).read_line(&mut line)?;
        total += n;
        if n == 0 || total > 64 * 1024 {
            return Ok(None);
        }
        if line == "\r\n" || line == "\n" {
            return Ok(Some(path));
        }
    }
}

fn respond(w: &mut TcpStream, status: &str, ctype: &str, body: &[u8]) -> std::io::Result<()> {
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {ctype}\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    w.write_all(head.as_bytes())?;
    w.write_all(body)
}

fn respond_close(w: &mut TcpStream, status: &str, ctype: &str, body: &[u8]) -> std::io::Result<()> {
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {ctype}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    w.write_all(head.as_bytes())?;
    w.write_all(body)
}

// --- a tiny PNG writer (stored deflate blocks; no dependency needed) -------

fn crc32(data: &[u8]) -> u32 {
    let mut crc = 0xFFFF_FFFFu32;
    for &b in data {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    let start = out.len();
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    let crc = crc32(&out[start..]);
    out.extend_from_slice(&crc.to_be_bytes());
}

fn ihdr(w: u32, h: u32) -> Vec<u8> {
    let mut d = Vec::with_capacity(13);
    d.extend_from_slice(&w.to_be_bytes());
    d.extend_from_slice(&h.to_be_bytes());
    d.extend_from_slice(&[8, 2, 0, 0, 0]); // 8-bit RGB, no interlace
    d
}

/// zlib stream of `raw` in stored (uncompressed) blocks.
fn zlib_stored(raw: &[u8]) -> Vec<u8> {
    let mut z = vec![0x78, 0x01];
    let blocks: Vec<&[u8]> = if raw.is_empty() {
        vec![&[]]
    } else {
        raw.chunks(65_535).collect()
    };
    let last = blocks.len() - 1;
    for (i, b) in blocks.iter().enumerate() {
        z.push(u8::from(i == last));
        let len = b.len() as u16;
        z.extend_from_slice(&len.to_le_bytes());
        z.extend_from_slice(&(!len).to_le_bytes());
        z.extend_from_slice(b);
    }
    let (mut a, mut b) = (1u32, 0u32);
    for &x in raw {
        a = (a + u32::from(x)) % 65_521;
        b = (b + a) % 65_521;
    }
    z.extend_from_slice(&((b << 16) | a).to_be_bytes());
    z
}

/// A `w`×`h` RGB PNG with a gradient that depends on `seed`.
pub fn png_rgb(w: u32, h: u32, seed: u32) -> Vec<u8> {
    let mut raw = Vec::with_capacity(((w * 3 + 1) * h) as usize);
    for y in 0..h {
        raw.push(0); // filter: none
        for x in 0..w {
            raw.push((x.wrapping_mul(255) / w.max(1)) as u8 ^ (seed as u8));
            raw.push((y.wrapping_mul(255) / h.max(1)) as u8);
            raw.push((seed.wrapping_mul(37)) as u8);
        }
    }
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    chunk(&mut out, b"IHDR", &ihdr(w, h));
    chunk(&mut out, b"IDAT", &zlib_stored(&raw));
    chunk(&mut out, b"IEND", &[]);
    out
}

/// A looping animated GIF of `frames` frames of `w`×`h`: diagonal bands of
/// a 256-colour gradient palette moving by three bands a frame, so every
/// frame differs everywhere and each needs a full decode and render, while
/// runs of eight pixels keep the file small (about 2 MB for 128 × 512²,
/// under the server's 8 MiB body cap).
pub fn gif_animated(w: u16, h: u16, frames: u16) -> Vec<u8> {
    let palette: Vec<u8> = (0..=255u8)
        .flat_map(|i| [i, 255 - i, i.wrapping_mul(3)])
        .collect();
    let mut out = Vec::new();
    {
        let mut enc = gif::Encoder::new(&mut out, w, h, &palette).expect("a GIF header");
        enc.set_repeat(gif::Repeat::Infinite).expect("a loop count");
        for k in 0..frames {
            let pixels: Vec<u8> = (0..u32::from(h))
                .flat_map(|y| {
                    (0..u32::from(w)).map(move |x| ((x / 8 + y / 8 + 3 * u32::from(k)) % 256) as u8)
                })
                .collect();
            let mut frame = gif::Frame::from_indexed_pixels(w, h, pixels, None);
            frame.delay = 4;
            enc.write_frame(&frame).expect("a GIF frame");
        }
    }
    out
}

/// A `w`×`h` animated GIF of `frames` frames whose rows are each one
/// colour (bands of 16 rows moving down), so a 4096² frame compresses to
/// well under the server's 8 MiB body cap.
pub fn gif_striped(w: u16, h: u16, frames: u16) -> Vec<u8> {
    let palette: Vec<u8> = (0..=255u8)
        .flat_map(|i| [i, 255 - i, i.wrapping_mul(3)])
        .collect();
    let mut out = Vec::new();
    {
        let mut enc = gif::Encoder::new(&mut out, w, h, &palette).expect("a GIF header");
        enc.set_repeat(gif::Repeat::Infinite).expect("a loop count");
        for k in 0..frames {
            let pixels: Vec<u8> = (0..u32::from(h))
                .flat_map(|y| {
                    let c = ((y / 16 + 5 * u32::from(k)) % 256) as u8;
                    std::iter::repeat_n(c, usize::from(w))
                })
                .collect();
            let mut frame = gif::Frame::from_indexed_pixels(w, h, pixels, None);
            frame.delay = 10;
            enc.write_frame(&frame).expect("a GIF frame");
        }
    }
    out
}

/// A `w`×`h` RGBA PNG, 8 or 16 bits per channel, Adam7-interlaced or not,
/// zlib-compressed (a gradient repeating every 64 pixels, so a 4096² image
/// stays far below the server's 8 MiB body cap).
pub fn png_deflated(w: u32, h: u32, sixteen: bool, interlaced: bool) -> Vec<u8> {
    use std::io::Write as _;
    let bytes_pp = if sixteen { 8 } else { 4 };
    // Adam7 passes: x0, y0, dx, dy; one pass covering everything otherwise.
    let passes: &[(u32, u32, u32, u32)] = if interlaced {
        &[
            (0, 0, 8, 8),
            (4, 0, 8, 8),
            (0, 4, 4, 8),
            (2, 0, 4, 4),
            (0, 2, 2, 4),
            (1, 0, 2, 2),
            (0, 1, 1, 2),
        ]
    } else {
        &[(0, 0, 1, 1)]
    };
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
    let mut row = Vec::new();
    for &(x0, y0, dx, dy) in passes {
        if x0 >= w || y0 >= h {
            continue;
        }
        for y in (y0..h).step_by(dy as usize) {
            row.clear();
            row.push(0); // filter: none
            for x in (x0..w).step_by(dx as usize) {
                let v = ((x % 64) * 4) as u8;
                let px = [v, (y % 64 * 4) as u8, 128, 255];
                for c in px {
                    row.push(c);
                    if bytes_pp == 8 {
                        row.push(c);
                    }
                }
            }
            z.write_all(&row).expect("in memory");
        }
    }
    let idat = z.finish().expect("in memory");
    let mut hdr = Vec::with_capacity(13);
    hdr.extend_from_slice(&w.to_be_bytes());
    hdr.extend_from_slice(&h.to_be_bytes());
    hdr.extend_from_slice(&[if sixteen { 16 } else { 8 }, 6, 0, 0, u8::from(interlaced)]);
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    chunk(&mut out, b"IHDR", &hdr);
    chunk(&mut out, b"IDAT", &idat);
    chunk(&mut out, b"IEND", &[]);
    out
}

/// A PNG whose header declares `w`×`h` but whose data is a single row.
fn png_header_only(w: u32, h: u32) -> Vec<u8> {
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    chunk(&mut out, b"IHDR", &ihdr(w, h));
    chunk(&mut out, b"IDAT", &zlib_stored(&[0; 64]));
    chunk(&mut out, b"IEND", &[]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc_of_iend_is_the_known_value() {
        // Every PNG ends with IEND and the CRC AE 42 60 82.
        assert_eq!(crc32(b"IEND"), 0xAE42_6082);
    }

    #[test]
    fn the_animated_avatar_loops_and_every_frame_differs() {
        let bytes = gif_animated(64, 48, 5);
        let mut opts = gif::DecodeOptions::new();
        opts.set_color_output(gif::ColorOutput::Indexed);
        let mut dec = opts.read_info(bytes.as_slice()).unwrap();
        assert_eq!((dec.width(), dec.height()), (64, 48));
        let mut frames = Vec::new();
        while let Some(f) = dec.read_next_frame().unwrap() {
            assert_eq!((f.width, f.height, f.delay), (64, 48, 4));
            frames.push(f.buffer.to_vec());
        }
        assert_eq!(dec.repeat(), gif::Repeat::Infinite);
        assert_eq!(frames.len(), 5);
        assert!(frames.windows(2).all(|w| w[0] != w[1]));
    }

    #[test]
    fn host_serves_a_png_and_faults() {
        let host = AvatarHost::start().unwrap();
        let mut c = super::super::client::Conn::new(host.addr, Duration::from_secs(5));
        let r = c.get("/avatar/fresh/3.png").unwrap();
        assert_eq!(r.status, 200);
        assert!(r.body.starts_with(b"\x89PNG\r\n\x1a\n"));
        assert_eq!(r.body, png_rgb(256, 256, 4));
        let r = c.get("/fault/redirect/7").unwrap();
        assert_eq!(r.status, 302);
        let mut c = super::super::client::Conn::new(host.addr, Duration::from_secs(5));
        assert!(c.get("/fault/reset/1").is_err());
    }
}
