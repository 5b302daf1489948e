//! Pack load time (it is paid at every server start) and draw cost.

use std::hint::black_box;

use content::{ContentPack, FactType, embedded_pack};
use criterion::{Criterion, criterion_group, criterion_main};
use rand::SeedableRng;

fn load(c: &mut Criterion) {
    let source = embedded_pack();
    c.bench_function("load embedded pack", |b| {
        b.iter(|| ContentPack::load(black_box(&source)).unwrap())
    });
}

fn draw(c: &mut Criterion) {
    let pack = ContentPack::load(&embedded_pack()).unwrap();
    let mut rng = rand::rngs::SmallRng::seed_from_u64(7);
    c.bench_function("random_fact cat", |b| {
        b.iter(|| pack.random_fact(black_box(FactType::Cat), &mut rng).len())
    });
    let mut thread_rng = rand::rng();
    c.bench_function("random_quote thread_rng", |b| {
        b.iter(|| pack.random_quote(&mut thread_rng).id())
    });
}

criterion_group!(benches, load, draw);
criterion_main!(benches);
