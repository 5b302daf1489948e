//! Benchmarks of the avatar path that runs on every canvas request: the
//! cache hit, and what a miss costs besides the network (decode, normalise).

use criterion::{Criterion, black_box, criterion_group, criterion_main};
use fixture_host::FixtureHost;
use image::ImageFormat;
use remote_image::{
    AvatarFetcher, FetchConfig, ImageLimits, decode_image, is_public_ip, normalize,
};

fn cache_hit(c: &mut Criterion) {
    let host = FixtureHost::start();
    let fetcher = AvatarFetcher::new(FetchConfig {
        allow_private: true,
        ..FetchConfig::default()
    });
    let url = host.url("/avatar512.png");
    fetcher.get(&url).expect("warm the cache");
    c.bench_function("cache_hit_512", |b| {
        b.iter(|| fetcher.get(black_box(&url)).expect("cached"))
    });
}

fn decode(c: &mut Criterion) {
    let png = fixture_host::encode(&fixture_host::avatar(512, 512), ImageFormat::Png);
    let jpeg = fixture_host::encode(&fixture_host::avatar(512, 512), ImageFormat::Jpeg);
    let limits = ImageLimits::default();
    c.bench_function("decode_png_512", |b| {
        b.iter(|| decode_image(black_box(&png), &limits).expect("decodes"))
    });
    c.bench_function("decode_jpeg_512", |b| {
        b.iter(|| decode_image(black_box(&jpeg), &limits).expect("decodes"))
    });
    let big = fixture_host::avatar(2048, 2048);
    c.bench_function("normalize_2048_to_1024", |b| {
        b.iter(|| normalize(black_box(big.clone()), 1024))
    });
}

fn address_check(c: &mut Criterion) {
    let addrs: Vec<std::net::IpAddr> = [
        "8.8.8.8",
        "10.1.2.3",
        "2606:4700::1111",
        "::ffff:192.168.1.1",
    ]
    .iter()
    .map(|s| s.parse().expect("ip"))
    .collect();
    c.bench_function("is_public_ip_x4", |b| {
        b.iter(|| {
            addrs
                .iter()
                .filter(|a| is_public_ip(black_box(**a)))
                .count()
        })
    });
}

criterion_group!(benches, cache_hit, decode, address_check);
criterion_main!(benches);
