//! The whole `sowlab simulate` pipeline on one thread, against the engine alone, in moves per
//! second, for Hoyito I and Oware, random vs random.
//!
//! `cargo bench --bench pipeline`
//!
//! Every benchmark plays the same fixed set of games (`GAMES` per seat order from master seed
//! 1, as `sowlab simulate --games GAMES --agents random,random --seed 1` does), and the moves
//! of those games are counted once beforehand, so every line reports moves/s
//! (`Throughput::Elements` = moves) and the rates compare directly:
//! - `pipeline/VARIANT/simulate`: what `sowlab simulate --threads 1 --out DIR` runs, through
//!   the same library calls (`sim::output::run` on a one-thread rayon pool into an
//!   `OutDir` in a fresh temporary directory: games.csv, summary.csv, run.json, checkpoints).
//!   Games/s = moves/s ÷ the moves per game printed when the bench starts.
//! - `pipeline/VARIANT/sim play, no files`: the same games through `Experiment::play`, unit by
//!   unit, with no output: agents and records, no CSV, no threads.
//! - `pipeline/VARIANT/engine play_random_out`: the same number of games played with
//!   `Game::play_random_out`, the engine's loop that `simulate` runs for two random agents
//!   (moves drawn as `Game::play_random` draws them, one stream per player).
//! - `pipeline/VARIANT/engine random_playout`: the same number of games with
//!   `Game::random_playout`, the engine's fastest random play (`benches/engine.rs` measures
//!   it too, as `random moves/VARIANT`).
//!
//! The throughput target is `simulate` ≥ 85% of `engine play_random_out`: the engine playing
//! the random agents' games, as `simulate` does. `engine random_playout` plays other games of
//! the same law, and docs/speed.md says why those cost Hoyito I less to play.

use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sowlab::agents::AgentSpec;
use sowlab::engine::Game;
use sowlab::outdir::{Kind, OutDir};
use sowlab::rules::Rules;
use sowlab::sim::output::{self, Finish, Job, ReadingInfo, RunInfo, VariantInfo};
use sowlab::sim::record::Hex64;
use sowlab::sim::runner::{Entrant, Experiment, Workspace};

/// Games per seat order: 2 × `GAMES` games per iteration, 16 batches of the runner. A run's
/// fixed costs (its directory, checkpoint and final files, 1 to 2.5 ms) are then 1% to 2.5% of
/// an iteration, near what they are in the runs users make; with 2,048 games they were 10% to
/// 18% of Oware's.
const GAMES: u64 = 8192;
const SEED: u64 = 1;

fn variant_path(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("variants")
        .join(name)
}

fn rules(name: &str) -> Rules {
    sowlab::lang::compile_path(&variant_path(name), &[]).expect("shipped variants compile")
}

/// The experiment and run description `sowlab simulate FILE --games GAMES --agents
/// random,random --seed 1` builds (cli::cmd::simulate::plan).
fn plan(name: &str) -> (Experiment, RunInfo) {
    let rules = rules(name);
    let file = format!("variants/{name}");
    let label = rules.provenance.name.clone();
    let info = RunInfo {
        tool: "sowlab".into(),
        version: sowlab::made::VERSION.into(),
        commit: sowlab::made::COMMIT.into(),
        command: format!(
            "sowlab simulate {file} --games {GAMES} --agents random,random --seed {SEED}"
        ),
        variants: vec![VariantInfo {
            file,
            name: label.clone(),
            rules_hash: Hex64(rules.content_hash()),
            settings: Vec::new(),
            readings: ReadingInfo::of(&rules),
        }],
        agents: vec!["random,random".parse().expect("a pairing")],
        games: GAMES,
        seed: SEED,
        moves: false,
        matches: false,
        opening: 0,
        shard: None,
    };
    let experiment = Experiment {
        variants: vec![(label.into(), rules)],
        pairings: vec![[AgentSpec::Random, AgentSpec::Random].map(Entrant::from)],
        games: GAMES,
        seed: SEED,
        record_moves: false,
        matches: false,
        opening: 0,
    };
    (experiment, info)
}

/// `sowlab simulate … --threads 1 --out DIR` into a new directory under `parent`, as
/// cli::cmd::simulate::execute runs it (without the progress bar and Ctrl-C handler).
fn simulate(experiment: &Experiment, info: &RunInfo, pool: &rayon::ThreadPool, dir: &Path) {
    let mut out = OutDir::open(dir, Kind::Run).expect("a fresh directory");
    let job = Job {
        experiment,
        info,
        units: 0..experiment.units(),
        date: sowlab::made::today(),
        checkpoint_every: output::CHECKPOINT_EVERY,
    };
    let stop = AtomicBool::new(false);
    let finish = pool
        .install(|| output::run(&job, &mut out, false, &stop, |_, _| {}))
        .expect("the run is written");
    assert!(matches!(finish, Finish::Complete { .. }));
    out.finish().expect("the directory is finished");
}

/// The moves of the experiment's games.
fn experiment_moves(experiment: &Experiment) -> u64 {
    let mut workspace = Workspace::default();
    (0..experiment.units())
        .map(|u| {
            let played = experiment.play(u, &mut workspace);
            played
                .games()
                .iter()
                .map(|g| u64::from(g.turns))
                .sum::<u64>()
        })
        .sum()
}

/// `games` random games with `Game::random_playout` from one seeded stream, each in one reused
/// game copied over from the start (as `simulate` plays its games).
fn playouts(rules: &Rules, games: u64) -> u64 {
    let mut rng = ChaCha8Rng::seed_from_u64(SEED);
    let start = Game::new(rules);
    let mut game = start.clone();
    (0..games)
        .map(|_| {
            game.clone_from(&start);
            u64::from(game.random_playout(&mut rng))
        })
        .sum()
}

/// `games` random games with `Game::play_random_out`, from three seeded streams (South's,
/// North's, the unused opening's), in one reused game as above.
fn play_random_outs(rules: &Rules, games: u64) -> u64 {
    let mut streams = [0, 1, 2].map(|k| ChaCha8Rng::seed_from_u64(SEED + k));
    let start = Game::new(rules);
    let mut game = start.clone();
    (0..games)
        .map(|_| {
            game.clone_from(&start);
            u64::from(game.play_random_out(&mut streams, 0))
        })
        .sum()
}

fn pipeline(c: &mut Criterion) {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a one-thread pool");
    for name in ["hoyito-i.sow", "oware.sow"] {
        let (experiment, info) = plan(name);
        let games = experiment.units();
        let rules = &experiment.variants[0].1;
        let moves = experiment_moves(&experiment);
        let (playout_moves, random_moves) =
            (playouts(rules, games), play_random_outs(rules, games));
        eprintln!(
            "pipeline/{}: {games} games per iteration; simulate {moves} moves ({:.1} per game), \
             random_playout {playout_moves}, play_random_out {random_moves}",
            name.trim_end_matches(".sow"),
            moves as f64 / games as f64
        );
        let mut group = c.benchmark_group(format!("pipeline/{}", name.trim_end_matches(".sow")));
        group.sample_size(10);
        group.warm_up_time(Duration::from_secs(1));
        group.measurement_time(Duration::from_secs(5));

        group.throughput(Throughput::Elements(moves));
        group.bench_function("simulate", |b| {
            b.iter_batched(
                || tempfile::tempdir().expect("a temporary directory"),
                |tmp| {
                    simulate(&experiment, &info, &pool, &tmp.path().join("run"));
                    tmp
                },
                BatchSize::PerIteration,
            )
        });
        group.bench_function("sim play, no files", |b| {
            b.iter(|| experiment_moves(&experiment))
        });
        group.throughput(Throughput::Elements(random_moves));
        group.bench_function("engine play_random_out", |b| {
            b.iter(|| play_random_outs(rules, games))
        });
        group.throughput(Throughput::Elements(playout_moves));
        group.bench_function("engine random_playout", |b| {
            b.iter(|| playouts(rules, games))
        });
        group.finish();
    }
}

criterion_group!(benches, pipeline);
criterion_main!(benches);
