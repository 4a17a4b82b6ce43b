//! `sowlab simulate` and `sowlab merge`: reproducible whatever the threads, shards merge into
//! a whole run, an interrupted run resumes to the same files, agents have the strength they
//! claim, and bad input is a error with exit code 2 that writes nothing.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use predicates::prelude::*;
use sowlab::agents::AgentSpec;
use sowlab::outdir::{Kind, OutDir};
use sowlab::rules::Side;
use sowlab::sim::output::{self, Finish, Job, RunInfo};
use sowlab::sim::record::{GameRecord, MoveRecord, SummaryRecord};
use sowlab::sim::runner::{Entrant, Experiment};

use super::util::{sowlab, untimed, variant};

const FILES: [&str; 4] = ["games.csv", "moves.csv", "summary.csv", "run.json"];

fn simulate(out: &Path, extra: &[&str]) {
    sowlab()
        .args([
            "simulate",
            "variants/hoyito-i.sow",
            "variants/oware.sow",
            "--games",
            "350",
        ])
        .args(["--agents", "random,greedy", "--agents", "random,random"])
        .args(["--seed", "9", "--moves", "--out"])
        .arg(out)
        .args(extra)
        .assert()
        .success();
}

fn same_files(a: &Path, b: &Path) {
    for name in FILES {
        let (x, y) = (
            std::fs::read(a.join(name)).unwrap(),
            std::fs::read(b.join(name)).unwrap(),
        );
        assert!(
            x == y,
            "{name} differs between {} and {}",
            a.display(),
            b.display()
        );
    }
}

#[test]
fn output_is_byte_identical_whatever_the_number_of_threads() {
    let dir = tempfile::tempdir().unwrap();
    let (one, two) = (dir.path().join("one"), dir.path().join("two"));
    simulate(&one, &["--threads", "1"]);
    simulate(&two, &["--threads", "2"]);
    same_files(&one, &two);
    let games = std::fs::read_to_string(one.join("games.csv")).unwrap();
    assert_eq!(games.lines().count(), 1 + 2 * 2 * 2 * 350);
}

#[test]
fn shards_merge_into_exactly_the_files_of_a_whole_run() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole");
    simulate(&whole, &[]);
    let shards: Vec<PathBuf> = (1..=3)
        .map(|k| dir.path().join(format!("shard{k}")))
        .collect();
    // Shards may run in any order, anywhere.
    for k in [3, 1, 2] {
        simulate(&shards[k - 1], &["--shard", &format!("{k}/3")]);
    }
    let merged = dir.path().join("merged");
    sowlab()
        .arg("merge")
        .args(&shards)
        .arg("--out")
        .arg(&merged)
        .assert()
        .success();
    same_files(&whole, &merged);
    // An incomplete set is refused.
    sowlab()
        .arg("merge")
        .args(&shards[..2])
        .arg("--out")
        .arg(dir.path().join("bad"))
        .assert()
        .code(2);
}

fn experiment() -> (Experiment, RunInfo) {
    let variants = vec![
        ("Hoyito I".into(), variant("hoyito-i")),
        ("Ayoayo".into(), variant("ayoayo")),
    ];
    let info = RunInfo {
        tool: "sowlab".into(),
        version: "test".into(),
        commit: "test".into(),
        command: "test".into(),
        variants: Vec::new(),
        agents: vec!["random,random".parse().unwrap()],
        games: 1500,
        seed: 3,
        moves: true,
        matches: false,
        opening: 0,
        shard: None,
    };
    let experiment = Experiment {
        variants,
        pairings: vec![[AgentSpec::Random, AgentSpec::Random].map(Entrant::from)],
        games: 1500,
        seed: 3,
        record_moves: true,
        matches: false,
        opening: 0,
    };
    (experiment, info)
}

/// `simulate`'s time between checkpoints.
const EVERY: Duration = output::CHECKPOINT_EVERY;

/// Runs all of `experiment` into `dir` (opened as a run directory), as `simulate` does, with
/// checkpoints `checkpoint_every` apart.
fn write(
    experiment: &Experiment,
    info: &RunInfo,
    dir: &Path,
    resume: bool,
    stop: &AtomicBool,
    progress: impl Fn(u64, u64) + Sync,
    checkpoint_every: Duration,
) -> Result<Finish, output::OutputError> {
    let job = Job {
        experiment,
        info,
        units: 0..experiment.units(),
        date: "2026-12-01".into(),
        checkpoint_every,
    };
    let mut dir = OutDir::open(dir, Kind::Run)?;
    let finish = output::run(&job, &mut dir, resume, stop, progress)?;
    dir.finish()?;
    Ok(finish)
}

/// Runs the whole experiment into `dir` but stops it after its first batch, as Ctrl-C does.
fn interrupted(experiment: &Experiment, info: &RunInfo, dir: &Path) -> Finish {
    interrupted_after(experiment, info, dir, 0, EVERY)
}

/// Runs the whole experiment into `dir`, with checkpoints `every` apart, but stops it after
/// the batch that takes it past `units` units.
fn interrupted_after(
    experiment: &Experiment,
    info: &RunInfo,
    dir: &Path,
    units: u64,
    every: Duration,
) -> Finish {
    let stop = AtomicBool::new(false);
    let progress = |done, _| {
        if done > units {
            stop.store(true, Ordering::Relaxed);
        }
    };
    write(experiment, info, dir, false, &stop, progress, every).unwrap()
}

/// The experiment, and its run written whole into `dir/whole`.
fn whole_run(dir: &Path) -> (Experiment, RunInfo, Finish) {
    let (experiment, info) = experiment();
    let never = AtomicBool::new(false);
    let whole = dir.join("whole");
    let complete = write(&experiment, &info, &whole, false, &never, |_, _| {}, EVERY).unwrap();
    (experiment, info, complete)
}

#[test]
fn an_interrupted_run_resumes_to_the_same_files_as_a_whole_run() {
    let dir = tempfile::tempdir().unwrap();
    let (experiment, info, complete) = whole_run(dir.path());
    let (whole, broken) = (dir.path().join("whole"), dir.path().join("broken"));
    let never = AtomicBool::new(false);
    assert!(matches!(complete, Finish::Complete { units, .. } if units == experiment.units()));

    // Stop after the first batch, as Ctrl-C does.
    let finish = interrupted(&experiment, &info, &broken);
    assert!(
        matches!(finish, Finish::Interrupted { done } if done > 0 && done < experiment.units())
    );
    assert!(
        !broken.join("games.csv").exists(),
        "no final file before the run is complete"
    );
    // A kill in the middle of a write leaves a torn row after the checkpoint.
    let partial = broken.join("games.csv.partial");
    let mut torn = std::fs::read(&partial).unwrap();
    torn.extend_from_slice(b"Hoyito I,deadbeef,99");
    std::fs::write(&partial, torn).unwrap();
    // Without --resume the directory is refused, and left alone.
    assert!(matches!(
        write(&experiment, &info, &broken, false, &never, |_, _| {}, EVERY),
        Err(output::OutputError::Unfinished(_))
    ));
    let finish = write(&experiment, &info, &broken, true, &never, |_, _| {}, EVERY).unwrap();
    assert_eq!(untimed(finish), untimed(complete));
    same_files(&whole, &broken);
    assert!(!broken.join("checkpoint.json").exists());
}

#[test]
fn an_interrupted_run_checkpoints_the_batches_written_since_its_last_checkpoint() {
    let dir = tempfile::tempdir().unwrap();
    let (experiment, info, complete) = whole_run(dir.path());
    let broken = dir.path().join("broken");
    // An hour between checkpoints: only the first batch's is written while playing, and the
    // stop after the second batch (or third, already played) writes the rest.
    let hour = Duration::from_secs(3600);
    let finish = interrupted_after(&experiment, &info, &broken, 1024, hour);
    let Finish::Interrupted { done } = finish else {
        panic!("not interrupted: {finish:?}")
    };
    assert!(done > 1024 && done < experiment.units(), "{done}");
    let text = std::fs::read_to_string(broken.join("checkpoint.json")).unwrap();
    let checkpoint: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(checkpoint["next"], done, "{text}");
    let partial = std::fs::metadata(broken.join("games.csv.partial")).unwrap();
    assert_eq!(checkpoint["games_bytes"], partial.len(), "{text}");
    let never = AtomicBool::new(false);
    let finish = write(&experiment, &info, &broken, true, &never, |_, _| {}, hour).unwrap();
    assert_eq!(untimed(finish), untimed(complete));
    same_files(&dir.path().join("whole"), &broken);
}

#[test]
fn resume_refuses_a_directory_holding_another_experiment() {
    let (experiment, info) = experiment();
    let dir = tempfile::tempdir().unwrap();
    interrupted(&experiment, &info, dir.path());
    assert!(dir.path().join("checkpoint.json").exists());
    let other = RunInfo { seed: 4, ..info };
    let never = AtomicBool::new(false);
    assert!(matches!(
        write(
            &experiment,
            &other,
            dir.path(),
            true,
            &never,
            |_, _| {},
            EVERY
        ),
        Err(output::OutputError::Different { .. })
    ));
}

#[test]
fn csv_rows_round_trip_through_serde() {
    let dir = tempfile::tempdir().unwrap();
    simulate(dir.path(), &[]);
    for (name, check) in [
        ("games.csv", round_trip::<GameRecord> as fn(&str) -> usize),
        ("moves.csv", round_trip::<MoveRecord>),
        ("summary.csv", round_trip::<SummaryRecord>),
    ] {
        let text = std::fs::read_to_string(dir.path().join(name)).unwrap();
        assert!(check(&text) > 0, "{name} is empty");
    }
}

/// Reads every row, writes them back, and checks the bytes are the same; returns the rows.
fn round_trip<T: serde::de::DeserializeOwned + serde::Serialize>(text: &str) -> usize {
    let rows: Vec<T> = csv::Reader::from_reader(text.as_bytes())
        .deserialize()
        .collect::<Result<_, _>>()
        .unwrap();
    let mut out = csv::Writer::from_writer(Vec::new());
    for row in &rows {
        out.serialize(row).unwrap();
    }
    assert_eq!(String::from_utf8(out.into_inner().unwrap()).unwrap(), text);
    rows.len()
}

fn wins(out: &Path, agent: &str) -> (usize, usize) {
    let mut reader = csv::Reader::from_path(out.join("games.csv")).unwrap();
    let rows: Vec<GameRecord> = reader.deserialize().collect::<Result<_, _>>().unwrap();
    let won = rows
        .iter()
        .filter(|r| {
            (r.winner == Some(Side::South) && *r.south_agent == *agent)
                || (r.winner == Some(Side::North) && *r.north_agent == *agent)
        })
        .count();
    (won, rows.len())
}

/// Plays `games` Oware games per seat order between the two agents of `pairing`.
fn oware(pairing: &str, games: &str, seed: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    sowlab()
        .args([
            "simulate",
            "variants/oware.sow",
            "--games",
            games,
            "--agents",
            pairing,
            "--seed",
            seed,
            "--out",
        ])
        .arg(dir.path())
        .assert()
        .success();
    dir
}

#[test]
fn alpha_beta_beats_random_in_at_least_nine_oware_games_of_ten() {
    let dir = oware("alphabeta:3,random", "50", "1");
    let (won, games) = wins(dir.path(), "alphabeta:3");
    assert!(won * 10 >= games * 9, "alphabeta:3 won {won} of {games}");
}

#[test]
fn a_deeper_search_beats_a_shallower_one() {
    let dir = oware("alphabeta:4,alphabeta:1", "20", "2");
    let (deep, games) = wins(dir.path(), "alphabeta:4");
    let (shallow, _) = wins(dir.path(), "alphabeta:1");
    assert!(
        deep > 2 * shallow && deep * 2 > games,
        "deep {deep}, shallow {shallow} of {games}"
    );
}

#[test]
fn mcts_beats_random() {
    let dir = oware("mcts:200,random", "10", "3");
    let (won, games) = wins(dir.path(), "mcts:200");
    assert!(won * 10 >= games * 8, "mcts won {won} of {games}");
}

#[test]
fn bad_input_is_an_error_with_exit_code_2_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a-file");
    std::fs::write(&file, "not a directory").unwrap();
    let not_writable = file.join("sub").display().to_string();
    let cases: [(&[&str], &str); 5] = [
        (
            &[
                "variants/hoyito-i.sow",
                "--games",
                "5",
                "--agents",
                "random,wizard",
            ],
            "unknown agent `wizard`",
        ),
        (
            &[
                "variants/hoyito-i.sow",
                "--games",
                "0",
                "--agents",
                "random,random",
            ],
            "invalid value '0' for '--games <N>': 0 is not in 1..=1000000000",
        ),
        (
            &[
                "variants/missing.sow",
                "--games",
                "5",
                "--agents",
                "random,random",
            ],
            "cannot read `variants/missing.sow`",
        ),
        (
            &[
                "variants/hoyito-i.sow",
                "--games",
                "5",
                "--agents",
                "random,random",
                "--shard",
                "4/3",
            ],
            "invalid value '4/3' for '--shard <K/M>'",
        ),
        (
            &[
                "variants/hoyito-i.sow",
                "--games",
                "5",
                "--agents",
                "random,random",
                "--out",
                &not_writable,
            ],
            "a-file",
        ),
    ];
    for (i, (args, message)) in cases.into_iter().enumerate() {
        let out = dir.path().join(format!("out{i}"));
        let mut args: Vec<&str> = args.to_vec();
        let out_arg = out.display().to_string();
        if !args.contains(&"--out") {
            args.extend(["--out", &out_arg]);
        }
        // The error on one line; to a usage error clap adds a pointer to --help.
        sowlab()
            .arg("simulate")
            .args(&args)
            .assert()
            .code(2)
            .stderr(predicate::function(|s: &str| {
                let mut lines = s.lines().filter(|l| !l.is_empty());
                let first = lines.next().unwrap_or_default();
                first.starts_with("error: ")
                    && first.contains(message)
                    && lines.all(|l| l == "For more information, try '--help'.")
            }));
        assert!(
            !out.join("games.csv").exists() && !out.join("summary.csv").exists(),
            "case {i} wrote results"
        );
    }
}

#[test]
fn resume_starts_a_new_run_and_leaves_a_finished_one_alone() {
    // A batch script can always pass --resume (the README's Slurm example does).
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let run = || {
        sowlab()
            .args([
                "simulate",
                "variants/hoyito-i.sow",
                "--games",
                "20",
                "--agents",
                "random,random",
                "--resume",
                "--out",
            ])
            .arg(&out)
            .assert()
            .success();
        std::fs::read(out.join("games.csv")).unwrap()
    };
    let first = run();
    assert_eq!(first, run());
}
