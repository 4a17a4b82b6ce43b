//! The files of a simulation run, written so that no reader ever sees a half-written one:
//! games and moves stream into `*.partial` files, a checkpoint records how much of them is
//! good, and the final names appear (by rename) only when the run is complete. An interrupted
//! run resumes from its checkpoint; shards of one experiment merge into the files a whole run
//! writes.

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Seek, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use serde::{Deserialize, Serialize};

use super::record::GameRecord;
use super::runner::{Experiment, Played};
use super::stats::Summary;

/// Everything that identifies an experiment's results; written as `run.json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunInfo {
    /// `sowlab`.
    pub tool: String,
    /// The toolkit version.
    pub version: String,
    /// A command that reproduces these files.
    pub command: String,
    /// The variants: file, name, rules hash, readings.
    pub variants: Vec<VariantInfo>,
    /// The agent pairings, each as `A,B`.
    pub agents: Vec<String>,
    /// Games per variant, pairing and seat order.
    pub games: u64,
    /// Master seed; each game's seed is in `games.csv` (derivation: `sim::seed`).
    pub seed: u64,
    /// Whether `moves.csv` was written.
    pub moves: bool,
    /// `K/M` for one shard of a larger run, absent for a whole run.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub shard: Option<String>,
}

/// One variant of a run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VariantInfo {
    /// The file as given.
    pub file: String,
    /// Its name.
    pub name: String,
    /// Content hash of the compiled rules.
    pub rules_hash: String,
    /// `--set` overrides applied.
    pub settings: Vec<String>,
    /// The readings its rules rest on, each as `R7 capture "opposite".if`.
    pub readings: Vec<String>,
}

/// How far an interrupted run got.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Checkpoint {
    run: RunInfo,
    /// Units done (from the start of the run's range).
    next: u64,
    games_bytes: u64,
    moves_bytes: u64,
}

/// Why a run could not be written.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    /// A file could not be written or read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// Why.
        source: io::Error,
    },
    /// A CSV row could not be read or written.
    #[error("{path}: {source}")]
    Csv {
        /// The file.
        path: String,
        /// Why.
        source: csv::Error,
    },
    /// The directory already holds results.
    #[error("`{0}` already holds a run; use --resume to finish it, or another --out")]
    Occupied(String),
    /// `--resume` on a directory whose run differs.
    #[error(
        "`{0}` holds a different run (other variants, agents, games or seed); it was not changed"
    )]
    Different(String),
    /// Shards that do not form one run.
    #[error("cannot merge: {0}")]
    Merge(String),
}

/// The result of [`run`].
#[derive(Debug, PartialEq, Eq)]
pub enum Finish {
    /// All files written.
    Complete,
    /// Stopped early; `--resume` continues.
    Interrupted {
        /// Games done so far.
        done: u64,
    },
}

const GAMES: &str = "games.csv";
const MOVES: &str = "moves.csv";
const SUMMARY: &str = "summary.csv";
const RUN: &str = "run.json";
const CHECKPOINT: &str = "checkpoint.json";

fn io_error(path: &Path) -> impl FnOnce(io::Error) -> OutputError + '_ {
    move |source| OutputError::Io {
        path: path.display().to_string(),
        source,
    }
}

fn csv_error(path: &Path) -> impl FnOnce(csv::Error) -> OutputError + '_ {
    move |source| OutputError::Csv {
        path: path.display().to_string(),
        source,
    }
}

fn partial(dir: &Path, name: &str) -> PathBuf {
    dir.join(format!("{name}.partial"))
}

/// Runs `units` of `experiment` into `dir`, resuming from a checkpoint when `resume` is set.
/// `progress` is told the units done so far after every batch; `stop` ends the run early,
/// at a batch boundary, with a checkpoint.
///
/// # Errors
/// Unwritable directory, a directory that already holds a run (without `resume`), a
/// checkpoint of a different run.
pub fn run(
    experiment: &Experiment,
    info: &RunInfo,
    units: std::ops::Range<u64>,
    dir: &Path,
    resume: bool,
    stop: &AtomicBool,
    progress: impl Fn(u64, u64) + Sync,
) -> Result<Finish, OutputError> {
    fs::create_dir_all(dir).map_err(io_error(dir))?;
    let checkpoint_path = dir.join(CHECKPOINT);
    let previous: Option<Checkpoint> = match fs::read_to_string(&checkpoint_path) {
        Ok(text) => serde_json::from_str(&text).ok(),
        Err(_) => None,
    };
    let occupied = previous.is_some() || dir.join(GAMES).exists() || dir.join(RUN).exists();
    let start = match (&previous, resume) {
        (Some(c), true) if c.run == *info => Some(c),
        (Some(_), true) => return Err(OutputError::Different(dir.display().to_string())),
        (None, true) if dir.join(RUN).exists() => {
            let done: Option<RunInfo> = fs::read_to_string(dir.join(RUN))
                .ok()
                .and_then(|t| serde_json::from_str(&t).ok());
            return if done.as_ref() == Some(info) {
                Ok(Finish::Complete)
            } else {
                Err(OutputError::Different(dir.display().to_string()))
            };
        }
        (_, false) if occupied => return Err(OutputError::Occupied(dir.display().to_string())),
        _ => None,
    };
    let games_path = partial(dir, GAMES);
    let moves_path = partial(dir, MOVES);
    let (mut games, mut moves, first) = match start {
        Some(c) => (
            reopen(&games_path, c.games_bytes)?,
            reopen(&moves_path, c.moves_bytes)?,
            c.next,
        ),
        None => (create(&games_path)?, create(&moves_path)?, units.start),
    };
    let total = units.end - units.start;
    progress(first - units.start, total);
    let done = experiment.run(first..units.end, stop, |next, batch: Vec<Played>| {
        // Buffers are flushed at the end of every batch, so a file's length on disk says
        // whether its header is written yet.
        let fresh = |w: &BufWriter<File>| {
            w.get_ref()
                .metadata()
                .map(|m| m.len() == 0)
                .unwrap_or(false)
        };
        let (games_header, moves_header) = (fresh(&games), fresh(&moves));
        let mut games_csv = csv::WriterBuilder::new()
            .has_headers(games_header)
            .from_writer(&mut games);
        for played in &batch {
            games_csv
                .serialize(&played.game)
                .map_err(csv_error(&games_path))?;
        }
        games_csv.flush().map_err(io_error(&games_path))?;
        drop(games_csv);
        let mut moves_csv = csv::WriterBuilder::new()
            .has_headers(moves_header)
            .from_writer(&mut moves);
        for played in &batch {
            for m in &played.moves {
                moves_csv.serialize(m).map_err(csv_error(&moves_path))?;
            }
        }
        moves_csv.flush().map_err(io_error(&moves_path))?;
        drop(moves_csv);
        games.flush().map_err(io_error(&games_path))?;
        moves.flush().map_err(io_error(&moves_path))?;
        let checkpoint = Checkpoint {
            run: info.clone(),
            next,
            games_bytes: games
                .get_ref()
                .metadata()
                .map_err(io_error(&games_path))?
                .len(),
            moves_bytes: moves
                .get_ref()
                .metadata()
                .map_err(io_error(&moves_path))?
                .len(),
        };
        write_atomically(
            &checkpoint_path,
            serde_json::to_string_pretty(&checkpoint)
                .expect("serialisable")
                .as_bytes(),
        )?;
        progress(next - units.start, total);
        Ok::<(), OutputError>(())
    })?;
    drop((games, moves));
    if done < units.end {
        return Ok(Finish::Interrupted {
            done: done - units.start,
        });
    }
    finish(dir, info)?;
    Ok(Finish::Complete)
}

/// Turns the partial files of a finished run into the final ones: summary, renames, run.json.
fn finish(dir: &Path, info: &RunInfo) -> Result<(), OutputError> {
    let games_path = partial(dir, GAMES);
    write_summary(&games_path, &dir.join(SUMMARY))?;
    fs::rename(&games_path, dir.join(GAMES)).map_err(io_error(&games_path))?;
    let moves_path = partial(dir, MOVES);
    if info.moves {
        fs::rename(&moves_path, dir.join(MOVES)).map_err(io_error(&moves_path))?;
    } else {
        fs::remove_file(&moves_path).map_err(io_error(&moves_path))?;
    }
    let json = serde_json::to_string_pretty(info).expect("serialisable") + "\n";
    write_atomically(&dir.join(RUN), json.as_bytes())?;
    let checkpoint = dir.join(CHECKPOINT);
    if checkpoint.exists() {
        fs::remove_file(&checkpoint).map_err(io_error(&checkpoint))?;
    }
    Ok(())
}

/// Reads `games` (a games CSV) and writes its summary to `to`.
///
/// # Errors
/// Unreadable or malformed games file, unwritable summary.
pub fn write_summary(games: &Path, to: &Path) -> Result<(), OutputError> {
    let mut summary = Summary::default();
    let mut reader = csv::Reader::from_path(games).map_err(csv_error(games))?;
    for record in reader.deserialize::<GameRecord>() {
        summary.add(&record.map_err(csv_error(games))?);
    }
    let mut out = csv::Writer::from_writer(Vec::new());
    for row in summary.rows() {
        out.serialize(row).map_err(csv_error(to))?;
    }
    let bytes = out.into_inner().map_err(|e| OutputError::Io {
        path: to.display().to_string(),
        source: e.into_error(),
    })?;
    write_atomically(to, &bytes)
}

/// Joins shard directories (in any order) into `dir`, producing exactly the files a whole
/// run of the same experiment writes.
///
/// # Errors
/// Missing, duplicate or mismatched shards; unreadable or unwritable files.
pub fn merge(shards: &[PathBuf], dir: &Path) -> Result<RunInfo, OutputError> {
    let mut parts: Vec<(u64, u64, RunInfo, &PathBuf)> = Vec::new();
    for shard in shards {
        let path = shard.join(RUN);
        let text = fs::read_to_string(&path).map_err(io_error(&path))?;
        let info: RunInfo = serde_json::from_str(&text)
            .map_err(|e| OutputError::Merge(format!("{}: {e}", path.display())))?;
        let Some((k, m)) = info
            .shard
            .as_deref()
            .and_then(|s| s.split_once('/'))
            .and_then(|(k, m)| Some((k.parse().ok()?, m.parse().ok()?)))
        else {
            return Err(OutputError::Merge(format!(
                "{} is not a shard (no `shard` in run.json)",
                shard.display()
            )));
        };
        parts.push((k, m, info, shard));
    }
    parts.sort_by_key(|p| p.0);
    let m = parts.first().map_or(0, |p| p.1);
    let whole = parts.first().map(|p| RunInfo {
        shard: None,
        ..p.2.clone()
    });
    let expected: Vec<u64> = (1..=m).collect();
    let got: Vec<u64> = parts.iter().map(|p| p.0).collect();
    if parts.is_empty() || got != expected || parts.iter().any(|p| p.1 != m) {
        return Err(OutputError::Merge(format!(
            "need shards 1..{m} of {m} exactly once, got {got:?}"
        )));
    }
    let whole = whole.expect("parts is not empty");
    if parts.iter().any(|p| {
        RunInfo {
            shard: None,
            ..p.2.clone()
        } != whole
    }) {
        return Err(OutputError::Merge(
            "the shards come from different experiments".into(),
        ));
    }
    fs::create_dir_all(dir).map_err(io_error(dir))?;
    if dir.join(GAMES).exists() || dir.join(RUN).exists() {
        return Err(OutputError::Occupied(dir.display().to_string()));
    }
    for (name, wanted) in [(GAMES, true), (MOVES, whole.moves)] {
        if !wanted {
            continue;
        }
        let target = partial(dir, name);
        let mut out = create(&target)?;
        for (i, part) in parts.iter().enumerate() {
            let source = part.3.join(name);
            let text = fs::read_to_string(&source).map_err(io_error(&source))?;
            // Every shard starts with the header; keep the first one only.
            let body = if i == 0 {
                text.as_str()
            } else {
                text.split_once('\n').map_or("", |(_, rest)| rest)
            };
            out.write_all(body.as_bytes()).map_err(io_error(&target))?;
        }
        out.flush().map_err(io_error(&target))?;
    }
    if !whole.moves {
        create(&partial(dir, MOVES))?;
    }
    finish(dir, &whole)?;
    Ok(whole)
}

fn create(path: &Path) -> Result<BufWriter<File>, OutputError> {
    File::create(path)
        .map(BufWriter::new)
        .map_err(io_error(path))
}

/// Opens a partial file for appending after its last checkpointed byte, dropping anything a
/// killed run wrote after the checkpoint.
fn reopen(path: &Path, length: u64) -> Result<BufWriter<File>, OutputError> {
    let mut file = OpenOptions::new()
        .write(true)
        .open(path)
        .map_err(io_error(path))?;
    file.set_len(length).map_err(io_error(path))?;
    file.seek(io::SeekFrom::End(0)).map_err(io_error(path))?;
    Ok(BufWriter::new(file))
}

/// Writes a whole file under a temporary name, then renames it into place.
fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), OutputError> {
    let tmp = path.with_extension("tmp");
    fs::write(&tmp, bytes).map_err(io_error(&tmp))?;
    fs::rename(&tmp, path).map_err(io_error(path))
}
