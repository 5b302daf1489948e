//! Re-encodes PNG files with `encode_rgba`: for each, the colour type and
//! bytes written, the median and minimum time of a number of encodes, and
//! a check that the written file decodes to the same visible pixels.
//!
//! Run: `cargo run --release -p png-writer --example encode_files --
//! [-n <encodes>] <file.png>…` (only 8-bit files; each is read as RGBA).

use std::time::Instant;

#[path = "../benches/support/decode.rs"]
mod decode;
use decode::decode;

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
        let (w, h, rgba) = decode(&std::fs::read(path).expect("readable")).expect("an 8-bit PNG");
        let mut times = Vec::with_capacity(runs);
        for _ in 0..runs {
            let t = Instant::now();
            encoder.encode_rgba_into(w, h, &rgba, &mut out).unwrap();
            times.push(t.elapsed().as_secs_f64() * 1e3);
        }
        times.sort_by(f64::total_cmp);
        let (_, _, back) = decode(&out).expect("the written PNG");
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
