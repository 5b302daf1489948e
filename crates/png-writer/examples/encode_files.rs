//! Re-encodes PNG files with `encode_rgba`: for each, the colour type and
//! bytes written, the median and minimum time of a number of encodes, and
//! a check that the written file decodes to the same visible pixels.
//!
//! Run: `cargo run --release -p png-writer --example encode_files --
//! [-n <encodes>] <file.png>…` (only 8-bit files; each is read as RGBA).

use std::time::Instant;

/// An 8-bit PNG as RGBA, by the `png` crate.
fn decode(bytes: &[u8]) -> (u32, u32, Vec<u8>) {
    let mut dec = png::Decoder::new(bytes);
    dec.set_transformations(png::Transformations::normalize_to_color8());
    let mut reader = dec.read_info().expect("a PNG");
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).expect("a frame");
    let bytes = &buf[..info.buffer_size()];
    let px: Vec<u8> = match info.color_type {
        png::ColorType::Rgba => bytes.to_vec(),
        png::ColorType::Rgb => bytes
            .chunks_exact(3)
            .flat_map(|p| [p[0], p[1], p[2], 255])
            .collect(),
        png::ColorType::GrayscaleAlpha => bytes
            .chunks_exact(2)
            .flat_map(|p| [p[0], p[0], p[0], p[1]])
            .collect(),
        png::ColorType::Grayscale => bytes.iter().flat_map(|&g| [g, g, g, 255]).collect(),
        png::ColorType::Indexed => unreachable!("expanded"),
    };
    (info.width, info.height, px)
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut runs = 30;
    if args.first().is_some_and(|a| a == "-n") {
        runs = args
            .get(1)
            .and_then(|n| n.parse().ok())
            .expect("-n <count>");
        args.drain(..2);
    }
    let mut encoder = png_writer::Encoder::new();
    let mut out = Vec::new();
    let mut total = 0;
    for path in &args {
        let (w, h, rgba) = decode(&std::fs::read(path).expect("readable"));
        let mut times = Vec::with_capacity(runs);
        for _ in 0..runs {
            let t = Instant::now();
            encoder.encode_rgba_into(w, h, &rgba, &mut out).unwrap();
            times.push(t.elapsed().as_secs_f64() * 1e3);
        }
        times.sort_by(f64::total_cmp);
        let (_, _, back) = decode(&out);
        assert!(
            back.len() == rgba.len()
                && back
                    .chunks_exact(4)
                    .zip(rgba.chunks_exact(4))
                    .all(|(b, p)| if p[3] == 0 { b == [0; 4] } else { b == p }),
            "{path}: the written file decodes to the same visible pixels"
        );
        total += out.len();
        println!(
            "{path}: {w}x{h} type {} {} bytes, median {:.3} ms, min {:.3} ms",
            out[25],
            out.len(),
            times[runs / 2],
            times[0]
        );
    }
    println!("total {total} bytes");
}
