//! Regression tests for issue 7 ("outputs never lose data, every bad input gets a clear
//! error"), one or more per numbered finding: `r7_<finding>_<what>`. Each failed before the fix.

use std::fs::{self, File};
use std::io;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use sowlab::agents::AgentSpec;
use sowlab::outdir::disk::{Disk, RealDisk};
use sowlab::outdir::{Kind, OutDir};
use sowlab::sim::output::{self, Finish, Job, OutputError, RunInfo};
use sowlab::sim::runner::{Entrant, Experiment};

use super::util::{path, root, sowlab, text, untimed, variant};

// ------------------------------------------------------------------------------ helpers

/// Every file under `dir` with its bytes, by path relative to `dir`, sorted.
fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut files = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(at) = pending.pop() {
        for entry in fs::read_dir(&at).expect("a readable directory") {
            let entry = entry.expect("a readable entry").path();
            if entry.is_dir() {
                pending.push(entry);
            } else {
                let bytes = fs::read(&entry).expect("a readable file");
                files.push((entry.strip_prefix(dir).unwrap().to_path_buf(), bytes));
            }
        }
    }
    files.sort();
    files
}

/// The binary, for runs that must be started, watched or stopped from outside.
fn command() -> Command {
    let mut cmd = Command::new(assert_cmd::cargo::cargo_bin("sowlab"));
    cmd.current_dir(root());
    cmd
}

/// Waits (up to 30 s) until `ready` holds.
fn wait_until(what: &str, ready: impl Fn() -> bool) {
    let start = Instant::now();
    while !ready() {
        assert!(start.elapsed() < Duration::from_secs(30), "never: {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Whether the `.sowlab` marker of `dir` names process `pid` as the run holding it.
fn held_by(dir: &Path, pid: u32) -> bool {
    fs::read_to_string(dir.join(".sowlab")).is_ok_and(|t| t.contains(&format!("\"pid\": {pid}")))
}

/// Runs `sowlab ARGS` with a time limit; the output.
fn run(args: &[&str], limit: Duration) -> Output {
    let output = sowlab()
        .args(args)
        .timeout(limit)
        .output()
        .expect("sowlab runs");
    assert!(
        !text(&output.stderr).contains("panicked"),
        "sowlab {args:?} panicked: {}",
        text(&output.stderr)
    );
    output
}

const SECONDS: Duration = Duration::from_secs(120);

/// `simulate variants/hoyito-i.sow --games GAMES --agents random,random --out OUT EXTRA...`.
fn simulate_args<'a>(games: &'a str, out: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "simulate",
        "variants/hoyito-i.sow",
        "--games",
        games,
        "--agents",
        "random,random",
        "--out",
        out,
    ];
    args.extend(extra);
    args
}

fn simulate(games: &str, out: &Path, extra: &[&str]) -> Output {
    let out = out.display().to_string();
    let output = run(&simulate_args(games, &out, extra), SECONDS);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    output
}

/// A run of a million games into `out`, started in the background.
fn long_run(out: &Path) -> Child {
    command()
        .args(simulate_args("1000000", &out.display().to_string(), &[]))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("sowlab starts")
}

fn stop(mut child: Child) {
    let _ = child.kill();
    let _ = child.wait();
}

// ------------------------------------------------------------------------------ 1: data loss

/// `compare` and `sweep` deleted any `--out` holding a `run.json`: a simulation, a project
/// folder, a simulation with the user's notes beside it. Now they refuse, and every file is
/// still there, byte for byte; `simulate` refuses a folder holding the user's own `games.csv`.
#[test]
fn r7_1_a_directory_sowlab_did_not_write_as_a_report_is_never_deleted() {
    let tmp = tempfile::tempdir().unwrap();
    let simulation = tmp.path().join("simulation");
    simulate("20", &simulation, &["--moves"]);
    let project = tmp.path().join("project");
    fs::create_dir_all(project.join("src")).unwrap();
    fs::write(project.join("run.json"), "{\"mine\": true}\n").unwrap();
    fs::write(project.join("src/main.rs"), "fn main() {}\n").unwrap();
    let noted = tmp.path().join("noted");
    simulate("10", &noted, &[]);
    fs::write(noted.join("notes.txt"), "what I saw\n").unwrap();
    for dir in [&simulation, &project, &noted] {
        let before = snapshot(dir);
        let out = dir.display().to_string();
        let compare = [
            "compare",
            "variants/hoyito-i.sow",
            "--games",
            "2",
            "--agents",
            "random,random",
            "--out",
            &out,
        ];
        let sweep = [
            "sweep",
            "variants/hoyito-i.sow",
            "--set",
            "holes=6..7",
            "--games",
            "2",
            "--agents",
            "random,random",
            "--out",
            &out,
        ];
        for args in [&compare[..], &sweep[..]] {
            let output = run(args, SECONDS);
            let stderr = text(&output.stderr);
            assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
            assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
            assert!(stderr.contains(&out), "{args:?}: {stderr}");
            assert!(snapshot(dir) == before, "{args:?} changed {out}");
        }
    }
    // The user's notes also survive `simulate` into the folder, with or without --resume.
    let before = snapshot(&noted);
    for extra in [&[][..], &["--resume"]] {
        let output = run(
            &simulate_args("10", &noted.display().to_string(), extra),
            SECONDS,
        );
        assert_eq!(output.status.code(), Some(2), "{}", text(&output.stderr));
        assert!(snapshot(&noted) == before);
    }
    // A folder with the user's own games.csv is not a place to simulate into.
    let mine = tmp.path().join("mine");
    fs::create_dir(&mine).unwrap();
    fs::write(mine.join("games.csv"), "my,own\n1,2\n").unwrap();
    let before = snapshot(&mine);
    let out = mine.display().to_string();
    for extra in [&[][..], &["--resume"]] {
        let output = run(&simulate_args("10", &out, extra), SECONDS);
        let stderr = text(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains("games.csv"), "{stderr}");
        assert!(snapshot(&mine) == before);
    }
}

// ------------------------------------------------------------------------------ 2: two runs

/// Two runs on one `--out` both played every game and then broke the directory. Now the
/// second is refused at once, naming the first run's process.
#[test]
fn r7_2_a_second_run_on_a_directory_in_use_is_refused_at_once() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("busy");
    let first = long_run(&out);
    let pid = first.id();
    wait_until("the first run holds the directory", || held_by(&out, pid));
    let started = Instant::now();
    let output = run(
        &simulate_args("1000000", &out.display().to_string(), &[]),
        SECONDS,
    );
    let waited = started.elapsed();
    let resumed = run(
        &simulate_args("1000000", &out.display().to_string(), &["--resume"]),
        SECONDS,
    );
    stop(first);
    let expected = format!(
        "error: `{}` is in use by another sowlab run (process {pid})\n",
        out.display()
    );
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(text(&output.stderr), expected);
    assert_eq!(resumed.status.code(), Some(2));
    assert_eq!(text(&resumed.stderr), expected);
    assert!(
        waited < Duration::from_secs(5),
        "refused only after {waited:?}"
    );

    // Two reports to one --out: the second is refused while the first builds its report.
    let report = tmp.path().join("report");
    let compare = |games: &'static str| {
        let out = report.display().to_string();
        let mut cmd = command();
        cmd.args([
            "compare",
            "variants/hoyito-i.sow",
            "--games",
            games,
            "--agents",
            "random,random",
            "--out",
            &out,
        ]);
        cmd
    };
    let first = compare("1000000")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let pid = first.id();
    let scratch = tmp.path().join(".report.partial");
    wait_until("the first compare holds its scratch directory", || {
        held_by(&scratch, pid)
    });
    let second = compare("2").output().unwrap();
    stop(first);
    assert_eq!(second.status.code(), Some(2));
    assert_eq!(
        text(&second.stderr),
        format!(
            "error: `{}` is in use by another sowlab run (process {pid})\n",
            report.display()
        )
    );
}

// ------------------------------------------------------------------------------ 3: commit

/// The file system, except that its `k`-th operation (from 0) fails without being done, as a
/// crash or a full disk would at that step.
struct FailAt {
    k: usize,
    seen: usize,
}

impl FailAt {
    fn step(&mut self) -> io::Result<()> {
        self.seen += 1;
        if self.seen - 1 == self.k {
            return Err(io::Error::other("injected failure"));
        }
        Ok(())
    }
}

impl Disk for FailAt {
    fn create(&mut self, path: &Path) -> io::Result<File> {
        self.step()?;
        RealDisk.create(path)
    }
    fn write(&mut self, path: &Path, bytes: &[u8]) -> io::Result<()> {
        self.step()?;
        RealDisk.write(path, bytes)
    }
    fn rename(&mut self, from: &Path, to: &Path) -> io::Result<()> {
        self.step()?;
        RealDisk.rename(from, to)
    }
    fn remove(&mut self, path: &Path) -> io::Result<()> {
        self.step()?;
        RealDisk.remove(path)
    }
}

/// Hoyito I and Ayoayo, random against random, 700 games per seat order: 2,800 games in
/// several chunks, with moves; or, with `matches`, Hoyito I and Ba-awa, 3 matches per seat
/// order (a chunk each), without moves.
fn chunked_run(matches: bool) -> (Experiment, RunInfo) {
    let (games, second) = if matches {
        (3, "ba-awa")
    } else {
        (700, "ayoayo")
    };
    let info = RunInfo {
        tool: "sowlab".into(),
        version: "test".into(),
        commit: "test".into(),
        command: "test".into(),
        variants: Vec::new(),
        agents: vec!["random,random".parse().unwrap()],
        games,
        seed: 11,
        moves: !matches,
        matches,
        opening: 0,
        shard: None,
    };
    let experiment = Experiment {
        variants: vec![
            ("Hoyito I".into(), variant("hoyito-i")),
            (second.into(), variant(second)),
        ],
        pairings: vec![[AgentSpec::Random, AgentSpec::Random].map(Entrant::from)],
        games,
        seed: 11,
        record_moves: !matches,
        matches,
        opening: 0,
    };
    (experiment, info)
}

/// Writes the run into `dir` through `disk`, as `simulate` does, without finishing the
/// directory when it fails: the process died there.
fn write_run(
    disk: &mut dyn Disk,
    experiment: &Experiment,
    info: &RunInfo,
    dir: &Path,
    resume: bool,
) -> Result<Finish, OutputError> {
    write_counted(disk, experiment, info, dir, resume, &AtomicUsize::new(0))
}

/// [`write_run`], counting in `chunks` the chunks handed to the writer.
fn write_counted(
    disk: &mut dyn Disk,
    experiment: &Experiment,
    info: &RunInfo,
    dir: &Path,
    resume: bool,
    chunks: &AtomicUsize,
) -> Result<Finish, OutputError> {
    let job = Job {
        experiment,
        info,
        units: 0..experiment.units(),
        date: "2026-12-01".into(),
        // A checkpoint after every chunk: every step of writing is tried.
        checkpoint_every: std::time::Duration::ZERO,
    };
    let never = AtomicBool::new(false);
    let mut out = OutDir::open(dir, Kind::Run)?;
    // Told once before the first chunk, then after each.
    let count = |_, _| {
        chunks.fetch_add(1, Ordering::Relaxed);
    };
    let finish = output::run_on(disk, &job, &mut out, resume, &never, count)?;
    chunks.fetch_sub(1, Ordering::Relaxed);
    out.finish()?;
    Ok(finish)
}

/// A kill or a full disk between two steps of writing a run (between renaming games.csv and
/// writing run.json, say) left a directory that neither `--resume` nor a new run could
/// finish. Now the run is stopped at each step of its writing in turn, and then either
/// started again by a new run (nothing was committed yet) or refused by it with a message
/// saying to add --resume, and resumed: every time to the files of an uninterrupted run,
/// byte for byte.
#[test]
fn r7_3_a_run_stopped_at_any_step_of_its_writing_resumes_to_the_same_files() {
    for matches in [false, true] {
        stopped_at_every_step(matches);
    }
}

fn stopped_at_every_step(matches: bool) {
    let (experiment, info) = chunked_run(matches);
    let tmp = tempfile::tempdir().unwrap();
    let whole = tmp.path().join("whole");
    let chunks = AtomicUsize::new(0);
    let finish = write_counted(&mut RealDisk, &experiment, &info, &whole, false, &chunks).unwrap();
    let chunks = chunks.into_inner();
    assert!(chunks > 1, "{chunks} chunks");
    assert!(matches!(finish, Finish::Complete { units, .. } if units == experiment.units()));
    let complete = untimed(finish);
    let expected = snapshot(&whole);
    let (mut steps, mut restarted, mut resumed) = (0, 0, 0);
    for k in 0.. {
        let dir = tmp.path().join(format!("stopped-at-{k}"));
        let mut disk = FailAt { k, seen: 0 };
        match write_run(&mut disk, &experiment, &info, &dir, false) {
            Ok(finish) => {
                // No step left to stop at.
                assert_eq!(untimed(finish), complete);
                assert_eq!(snapshot(&dir), expected);
                steps = k;
                break;
            }
            Err(e) => assert!(e.to_string().contains("injected failure"), "step {k}: {e}"),
        }
        let stopped = snapshot(&dir);
        match write_run(&mut RealDisk, &experiment, &info, &dir, false) {
            Ok(finish) => {
                assert_eq!(untimed(finish), complete, "step {k}");
                restarted += 1;
            }
            Err(e) => {
                resumed += 1;
                let message = e.to_string();
                assert!(message.contains("add --resume"), "step {k}: {message}");
                assert!(
                    snapshot(&dir) == stopped,
                    "step {k}: the refusal changed files"
                );
                let finish = write_run(&mut RealDisk, &experiment, &info, &dir, true)
                    .unwrap_or_else(|e| panic!("step {k}: {e}"));
                assert_eq!(untimed(finish), complete, "step {k}");
            }
        }
        assert!(snapshot(&dir) == expected, "step {k}: the files differ");
    }
    // While playing: two files created (games and moves, or games and matches), a checkpoint
    // per chunk (written, renamed). Then the commit: the checkpoint, summary.csv and run.json
    // (each written, renamed), two renames, the checkpoint removed. Before the first
    // checkpoint there is nothing to resume.
    assert_eq!(steps, 2 + chunks * 2 + 9, "the steps of writing a run");
    assert_eq!((restarted, resumed), (4, steps - 4));
}

// ------------------------------------------------------------------------------ 4: merge

fn merge(shards: &[&Path], out: &Path) -> Output {
    let mut cmd = sowlab();
    cmd.arg("merge").args(shards).arg("--out").arg(out);
    let output = cmd.timeout(SECONDS).output().unwrap();
    assert!(!text(&output.stderr).contains("panicked"));
    output
}

const RUN_FILES: [&str; 4] = ["games.csv", "moves.csv", "summary.csv", "run.json"];

/// `merge` accepted a shard with rows missing, and shards with no games had no CSV header,
/// so merging them failed. Now the row counts are checked against each shard's `run.json`,
/// and shards without games merge.
#[test]
fn r7_4_merge_checks_row_counts_and_merges_shards_without_games() {
    let tmp = tempfile::tempdir().unwrap();
    let at = |name: &str| tmp.path().join(name);
    // One game per seat order: two games, so shard 1 of 3 has none.
    simulate("1", &at("whole"), &["--moves", "--seed", "5"]);
    for k in 1..=3 {
        let shard = format!("{k}/3");
        simulate(
            "1",
            &at(&format!("s{k}")),
            &["--moves", "--seed", "5", "--shard", &shard],
        );
    }
    let empty = fs::read_to_string(at("s1").join("games.csv")).unwrap();
    assert!(empty.starts_with("variant,rules_hash,game,"), "{empty:?}");
    assert_eq!(empty.lines().count(), 1, "only the header: {empty:?}");
    let output = merge(&[&at("s3"), &at("s1"), &at("s2")], &at("merged"));
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    for name in RUN_FILES {
        assert!(
            fs::read(at("whole").join(name)).unwrap() == fs::read(at("merged").join(name)).unwrap(),
            "{name} differs"
        );
    }

    // A shard that lost its last row.
    for k in 1..=2 {
        let shard = format!("{k}/2");
        simulate(
            "40",
            &at(&format!("t{k}")),
            &["--seed", "5", "--shard", &shard],
        );
    }
    let games = at("t2").join("games.csv");
    let kept: Vec<String> = fs::read_to_string(&games)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    fs::write(&games, kept[..kept.len() - 1].join("\n") + "\n").unwrap();
    let output = merge(&[&at("t1"), &at("t2")], &at("short"));
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("39 rows") && stderr.contains("40"),
        "{stderr}"
    );
    assert!(!at("short").join("games.csv").exists());

    // The same shard twice, a missing shard, shards of two experiments.
    simulate("40", &at("other"), &["--seed", "6", "--shard", "2/2"]);
    for (shards, says) in [
        (vec![at("t1"), at("t1")], "shard 1/2 is given twice"),
        (vec![at("t1")], "shard 2/2 is missing"),
        (vec![at("t1"), at("other")], "different experiments"),
    ] {
        let shards: Vec<&Path> = shards.iter().map(PathBuf::as_path).collect();
        let output = merge(&shards, &at("bad"));
        let stderr = text(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(says), "{says:?} not in {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
    }
}

// ------------------------------------------------------------------------------ 5: numbers

/// `--games 9223372036854775808` made empty files and exited 0; `trace --random 4294967295`
/// tried to allocate 64 GB. Numbers out of their documented range are refused by the parser.
#[test]
fn r7_5_numbers_out_of_range_are_refused_before_anything_runs() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let out_arg = out.display().to_string();
    for games in [
        "9223372036854775808",
        "18446744073709551616",
        "1000000001",
        "0",
        "-1",
        "",
    ] {
        let output = run(&simulate_args(games, &out_arg, &[]), SECONDS);
        assert_eq!(output.status.code(), Some(2), "--games {games}");
        assert!(
            text(&output.stderr).contains("--games"),
            "{}",
            text(&output.stderr)
        );
        assert!(!out.exists(), "--games {games} wrote {out_arg}");
    }
    for shard in ["0/3", "4/3", "1/0", "1/99999999999999999999", "1", "a/b"] {
        let output = run(&simulate_args("5", &out_arg, &["--shard", shard]), SECONDS);
        assert_eq!(output.status.code(), Some(2), "--shard {shard}");
        assert!(!out.exists());
    }
    for random in ["4294967295", "10000001", "-1"] {
        let output = run(
            &[
                "trace",
                "variants/hoyito-i.sow",
                "--random",
                random,
                "--json",
            ],
            Duration::from_secs(20),
        );
        let stderr = text(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "--random {random}: {stderr}");
        assert!(stderr.contains("--random"), "{stderr}");
    }
    let output = run(&["simulate", "--help"], SECONDS);
    let help = text(&output.stdout);
    assert!(help.contains("1 to 1000000000"), "{help}");
}

// ------------------------------------------------------------------------------ 6: rule files

/// Writes `text` to `dir/name`; the path.
fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let file = dir.join(name);
    fs::write(&file, text).unwrap();
    file
}

const GAME: &str = "game \"G\" { source: \"a test\" }\n";

/// `check FILE` within `limit`: exit code, stderr and the time it took.
fn check(file: &Path, limit: Duration) -> (Option<i32>, String, Duration) {
    let started = Instant::now();
    let output = run(&["check", &file.display().to_string()], limit);
    (
        output.status.code(),
        text(&output.stderr),
        started.elapsed(),
    )
}

/// `extends "/dev/zero"` grew without limit, an extended FIFO blocked forever, a diamond of
/// `extends` doubled the work per file, and `check` was quadratic in the number of errors.
#[test]
fn r7_6_hostile_rule_files_are_refused_quickly() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let fifo = dir.join("fifo.sow");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    for (parent, why) in [
        ("/dev/zero", "not a `.sow` file"),
        ("fifo.sow", "not a regular file"),
        (".", "not a `.sow` file"),
    ] {
        let file = write(dir, "child.sow", &format!("extends \"{parent}\"\n{GAME}"));
        let (code, stderr, _) = check(&file, Duration::from_secs(20));
        assert_eq!(code, Some(1), "extends {parent}: {stderr}");
        assert!(stderr.contains(why), "{stderr}");
        assert!(stderr.contains("child.sow:1:9]"), "located: {stderr}");
    }
    // Over the size limit: refused without reading it all.
    let big = write(
        dir,
        "big.sow",
        &format!("{GAME}{}", "# padding\n".repeat(200_000)),
    );
    let (code, stderr, _) = check(&big, SECONDS);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("larger than 1 MB"), "{stderr}");
    // A chain of 20 files is deeper than `extends` may go.
    write(dir, "d0.sow", GAME);
    for i in 1..20 {
        write(
            dir,
            &format!("d{i}.sow"),
            &format!("extends \"d{}.sow\"\n", i - 1),
        );
    }
    let (code, stderr, _) = check(&dir.join("d19.sow"), SECONDS);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("more than 16"), "{stderr}");
    // Diamonds 16 deep: every file reaches the one before it by two paths, so the first is
    // at the end of 65,536 paths from the top (5 s before, when each path read its files
    // again). Each file is read once.
    write(dir, "m0.sow", GAME);
    for i in 1..17 {
        write(
            dir,
            &format!("m{i}.sow"),
            &format!("extends \"m{}.sow\"\nextends \"m{}.sow\"\n", i - 1, i - 1),
        );
    }
    let (code, stderr, took) = check(&dir.join("m16.sow"), SECONDS);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(took < Duration::from_secs(2), "the diamond took {took:?}");
    // 20,000 duplicate rules: 19,999 errors, reported in linear time.
    let many = write(
        dir,
        "many.sow",
        &format!(
            "{GAME}board {{\n{}}}\n",
            "  holes: 6 per row\n".repeat(20_000)
        ),
    );
    let (code, stderr, took) = check(&many, SECONDS);
    assert_eq!(code, Some(1));
    assert_eq!(stderr.matches("sowlab::duplicate").count(), 19_999);
    assert!(took < Duration::from_secs(3), "20,000 errors took {took:?}");
}

// ------------------------------------------------------------------------------ 7: resources

/// `--threads 10000` was accepted; `check 2>/dev/full` panicked; resuming over a truncated
/// `.partial` padded it with zero bytes and played every game before failing.
#[test]
fn r7_7_threads_closed_streams_and_truncated_partials() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("run");
    let out_arg = out.display().to_string();
    for threads in ["10000", "0", "-2", "x"] {
        let flag = format!("--threads={threads}");
        let output = run(&simulate_args("5", &out_arg, &[&flag]), SECONDS);
        let stderr = text(&output.stderr);
        assert_eq!(
            output.status.code(),
            Some(2),
            "--threads {threads}: {stderr}"
        );
        assert!(stderr.contains("--threads"), "{stderr}");
        assert!(!out.exists());
    }
    // Diagnostics to a full stderr: the exit code still says what `check` found.
    let full = || File::options().write(true).open("/dev/full").unwrap();
    for (file, code) in [("tests/bad/duplicate.sow", 1), ("variants/kalah.sow", 0)] {
        let status = command()
            .args(["check", file])
            .stdout(full())
            .stderr(full())
            .status()
            .unwrap();
        assert_eq!(
            status.code(),
            Some(if code == 0 { 2 } else { code }),
            "{file}"
        );
    }
    // A closed stdout is a clean exit, never a panic.
    let mut child = command()
        .args(["trace", "variants/hoyito-i.sow", "--random", "100000"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert!(output.stderr.is_empty(), "{}", text(&output.stderr));

    // Killed after a checkpoint, then the partial file is cut short.
    let child = long_run(&out);
    wait_until("a checkpoint", || out.join("checkpoint.json").exists());
    stop(child);
    let partial = out.join("games.csv.partial");
    File::options()
        .write(true)
        .open(&partial)
        .unwrap()
        .set_len(10)
        .unwrap();
    let started = Instant::now();
    let output = run(&simulate_args("1000000", &out_arg, &["--resume"]), SECONDS);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("games.csv.partial") && stderr.contains("shorter"),
        "{stderr}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "it played first"
    );
    assert_eq!(
        fs::metadata(&partial).unwrap().len(),
        10,
        "the partial file was changed"
    );
}

/// `merge` read whole shard files into memory (534 MB for a 522 MB `moves.csv`). Now it
/// streams them: shards of 100 MB of moves each merge in 64 MB of address space.
#[test]
fn r7_7_merge_streams_shard_files_larger_than_its_memory() {
    let tmp = tempfile::tempdir().unwrap();
    let at = |name: &str| tmp.path().join(name);
    for k in 1..=2 {
        let shard = format!("{k}/2");
        simulate(
            "40000",
            &at(&format!("s{k}")),
            &["--moves", "--shard", &shard],
        );
    }
    let moves = |dir: &str| fs::metadata(at(dir).join("moves.csv")).unwrap().len();
    assert!(moves("s2") > 64 << 20, "a shard of {} bytes", moves("s2"));
    let output = Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 65536 && exec \"$0\" \"$@\"")
        .arg(assert_cmd::cargo::cargo_bin("sowlab"))
        .arg("merge")
        .args([at("s1"), at("s2")])
        .arg("--out")
        .arg(at("merged"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let mut header = String::new();
    io::BufRead::read_line(
        &mut io::BufReader::new(File::open(at("s1").join("moves.csv")).unwrap()),
        &mut header,
    )
    .unwrap();
    let header = header.len() as u64;
    assert_eq!(moves("merged"), moves("s1") + moves("s2") - header);
}

// ------------------------------------------------------------------------------ 8: messages

/// Messages that were wrong: `--resume` advised where it is not accepted, a cap limit that is
/// not the real one, a missing file given a made-up location and exit code 1, only the first
/// syntax error shown, an illegal move without the legal ones, an empty file accepted.
#[test]
fn r7_8_messages_say_what_is_true() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    // merge into a finished run: nothing about --resume, which merge does not take.
    simulate("20", &dir.join("s1"), &["--shard", "1/2"]);
    simulate("20", &dir.join("s2"), &["--shard", "2/2"]);
    simulate("20", &dir.join("whole"), &[]);
    let output = merge(&[&dir.join("s1"), &dir.join("s2")], &dir.join("whole"));
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(!stderr.contains("--resume"), "{stderr}");

    // The real limits of --set.
    for (set, limit) in [
        ("cap=99999999999", "10000000"),
        ("holes=70000", "16"),
        ("seeds=99999999999", "1000"),
    ] {
        let output = run(&["check", "variants/kalah.sow", "--set", set], SECONDS);
        let stderr = text(&output.stderr);
        assert!(stderr.contains(limit), "--set {set}: {stderr}");
        assert!(
            !stderr.contains("4294967295") && !stderr.contains("65535"),
            "{stderr}"
        );
    }

    // A missing file: exit 2, and no made-up location.
    for args in [
        &["check", "nope.sow"][..],
        &["trace", "nope.sow", "--random", "3"],
        &["explain", "nope.sow"],
    ] {
        let output = run(args, SECONDS);
        let stderr = text(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(!stderr.contains("nope.sow:1:1"), "{stderr}");
        assert!(stderr.contains("cannot read `nope.sow`"), "{stderr}");
    }

    // Every syntax error of a file.
    let file = write(
        dir,
        "typos.sow",
        &format!(
            "{GAME}board {{\n  holes 6 per row\n  seeds: 4 per hole\n}}\nsowing {{\n  rellay: when occupied\n}}\nplayers {{ count: 2 }}\nend {{\n  move cap 200, to owners\n}}\n"
        ),
    );
    let (code, stderr, _) = check(&file, SECONDS);
    assert_eq!(code, Some(1), "{stderr}");
    for at in [
        "typos.sow:3:9]",
        "typos.sow:7:3]",
        "typos.sow:9:1]",
        "typos.sow:11:12]",
    ] {
        assert!(stderr.contains(at), "no error at {at}: {stderr}");
    }
    assert_eq!(stderr.matches("sowlab::syntax").count(), 4, "{stderr}");

    // An illegal move: why, and which holes are legal.
    let output = run(
        &["trace", "variants/hoyito-i.sow", "--moves", "0,0"],
        SECONDS,
    );
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert_eq!(
        stderr,
        "error: move 2: hole 0 cannot be played: it is not the mover's hole; north can play 6, 7, 9, 10, 11\n"
    );

    // An empty file, and a file with no `game` block, are not variants.
    let empty = write(dir, "empty.sow", "");
    let blocks = write(
        dir,
        "blocks.sow",
        "# only a board\nboard { holes: 6 per row }\n",
    );
    for (file, at) in [(&empty, "empty.sow:1:1]"), (&blocks, "blocks.sow:2:1]")] {
        let (code, stderr, _) = check(file, SECONDS);
        assert_eq!(code, Some(1), "{stderr}");
        assert!(stderr.contains("no `game` block"), "{stderr}");
        assert!(stderr.contains(at), "{stderr}");
    }

    // An interrupted compare says to run it again, not to --resume.
    let report = dir.join("report");
    let child = command()
        .args([
            "compare",
            "variants/hoyito-i.sow",
            "--games",
            "1000000",
            "--agents",
            "random,random",
            "--out",
        ])
        .arg(&report)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let scratch = dir.join(".report.partial");
    wait_until("a checkpoint", || scratch.join("checkpoint.json").exists());
    let interrupted = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(interrupted.success());
    let output = child.wait_with_output().unwrap();
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("interrupted"), "{stderr}");
    assert!(!stderr.contains("--resume"), "{stderr}");
    assert!(!report.exists());
}

// ------------------------------------------------------------------------------ 9: closing line

/// Finished runs printed nothing. Every command that writes files ends with one line on
/// stderr: how many games, where, which files.
#[test]
fn r7_9_commands_that_write_files_say_what_they_wrote() {
    let tmp = tempfile::tempdir().unwrap();
    let at = |name: &str| tmp.path().join(name);
    let last_line = |output: &Output| {
        assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
        text(&output.stderr)
            .lines()
            .last()
            .unwrap_or_default()
            .to_string()
    };
    let line = last_line(&simulate("1200", &at("run"), &["--moves"]));
    assert_eq!(
        line,
        format!(
            "wrote 2,400 games to {}/ (games.csv, moves.csv, summary.csv, run.json)",
            at("run").display()
        )
    );
    simulate("3", &at("s1"), &["--shard", "1/2"]);
    let line = last_line(&simulate("3", &at("s2"), &["--shard", "2/2"]));
    assert_eq!(
        line,
        format!(
            "wrote 3 games to {}/ (games.csv, summary.csv, run.json)",
            at("s2").display()
        )
    );
    let line = last_line(&merge(&[&at("s1"), &at("s2")], &at("merged")));
    assert_eq!(
        line,
        format!(
            "merged 2 shards: wrote 6 games to {}/ (games.csv, summary.csv, run.json)",
            at("merged").display()
        )
    );
    let report = at("report").display().to_string();
    let output = run(
        &[
            "compare",
            "variants/hoyito-i.sow",
            "variants/oware.sow",
            "--games",
            "5",
            "--agents",
            "random,random",
            "--out",
            &report,
        ],
        SECONDS,
    );
    let line = last_line(&output);
    assert!(
        line.starts_with(&format!(
            "wrote 20 games to {report}/ (index.html, index.md, "
        )),
        "{line}"
    );
    // Six charts for each of the two seatings, and each variant's start drawn.
    assert!(
        line.ends_with(", 12 charts and 2 board diagrams)"),
        "{line}"
    );
    let sweep = at("sweep").display().to_string();
    let output = run(
        &[
            "sweep",
            "variants/hoyito-i.sow",
            "--set",
            "holes=6..7",
            "--games",
            "5",
            "--agents",
            "random,random",
            "--out",
            &sweep,
        ],
        SECONDS,
    );
    let line = last_line(&output);
    assert!(
        line.starts_with(&format!(
            "wrote 20 games to {sweep}/ (index.html, index.md, sweep.csv"
        )),
        "{line}"
    );
}

// ------------------------------------------------------------------------------ 10: drop cap

/// Drop-cap hits were counted but never written, and under `endless moves: end the game` a
/// sowing that reached the drop cap was refused instead of ending the game.
#[test]
fn r7_10_the_drop_cap_ends_the_game_under_end_the_game_and_is_reported() {
    let tmp = tempfile::tempdir().unwrap();
    let file = write(
        tmp.path(),
        "hoyito-ii-ends.sow",
        &format!(
            "extends \"{}\"\nend {{\n  endless moves: end the game\n}}\n",
            path("variants/hoyito-ii.sow").display()
        ),
    );
    let output = run(
        &[
            "trace",
            &file.display().to_string(),
            "--moves",
            "2,8,3,11,3,9,11,4",
        ],
        SECONDS,
    );
    let stdout = text(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    // The last move reaches the drop cap: the game ends, the board swept by side.
    assert!(
        stdout.ends_with(
            "move 8: south plays hole 4\n\
             \x20      11 10  9  8  7  6   North\n\
             \x20    [  0  0  0  0  0  0 ]  store 20\n\
             \x20    [  0  0  0  0  0  0 ]  store 28\n\
             \x20       0  1  2  3  4  5   South\n\
             game over (endless-move): south wins\n"
        ),
        "{stdout}"
    );
    // The columns.
    let out = tmp.path().join("run");
    simulate("3", &out, &[]);
    let games = fs::read_to_string(out.join("games.csv")).unwrap();
    let header = games.lines().next().unwrap();
    assert!(
        header.contains(",endless_refused,drop_cap_hits,end_reason,"),
        "{header}"
    );
    let summary = fs::read_to_string(out.join("summary.csv")).unwrap();
    assert!(
        summary
            .lines()
            .next()
            .unwrap()
            .ends_with(",games_with_endless_refusals,games_with_drop_cap_hits"),
        "{summary}"
    );
}
