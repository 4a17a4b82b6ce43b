//! Solving Kalah on six holes a row, the published values checked on every iteration:
//! (6,1) and (6,2) under the empty-capture rule (Irving, Donkers & Uiterwijk 2000: +2, +10)
//! and under the standard rule of `variants/kalah.sow` (+2 and +6, by this solver). Larger
//! boards take seconds to minutes each: `benches/solve.sh` times them.
//!
//! `cargo bench --bench solve`

use std::path::Path;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use sowlab::rules::Rules;
use sowlab::solve::{self, Limits};

fn board(file: &str, seeds: u32) -> Rules {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    let settings = [("holes", 6), ("seeds", seeds)].map(|(k, v)| (k.into(), v.to_string()));
    sowlab::lang::compile_path(&path, &settings).expect("shipped variants compile")
}

fn kalah(c: &mut Criterion) {
    let mut group = c.benchmark_group("solve");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10));
    let (empty, standard) = (
        "variants/catalogue/kalah-empty-capture.sow",
        "variants/kalah.sow",
    );
    let boards = [
        ("empty capture (6,1)", empty, 1, 2),
        ("empty capture (6,2)", empty, 2, 10),
        ("standard (6,1)", standard, 1, 2),
        ("standard (6,2)", standard, 2, 6),
    ];
    for (name, file, seeds, margin) in boards {
        let rules = board(file, seeds);
        group.bench_function(name, |b| {
            b.iter(|| {
                let solution = solve::solve(&rules, Limits::default()).expect("solved");
                assert_eq!(solution.value.margin, margin, "{name}");
            })
        });
    }
    group.finish();
}

criterion_group!(benches, kalah);
criterion_main!(benches);
