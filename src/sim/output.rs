//! The files of a simulation run, written so that no reader ever sees a half-written one and
//! every interruption can be finished: games and moves stream into `*.partial` files, a
//! checkpoint records how much of them is good, and the final files appear by a commit whose
//! every step can be done again after a crash (see [`commit`]). An interrupted run resumes
//! from its checkpoint. Every file operation goes through a [`Disk`], so tests can interrupt
//! the writing at any step.

use std::fs::{self, File};
use std::io::{self, BufWriter, Seek, Write};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::record::Hex64;
use super::record::{GameRecord, MatchRecord, MoveRecord, Row, SummaryRecord};
use super::runner::{Experiment, Place, Played, Shard};
use super::stats::Summary;
use crate::agents::Pairing;
use crate::lang::Setting;
use crate::outdir::disk::{open_own, temporary, write_atomically, Disk, FileError, RealDisk};
use crate::outdir::{OutDir, OutDirError};
use crate::rules::Rules;

/// Everything that identifies an experiment's results.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunInfo {
    /// `sowlab`.
    pub tool: String,
    /// The toolkit version.
    pub version: String,
    /// The git commit the toolkit was built from, or `unknown`.
    #[serde(default)]
    pub commit: String,
    /// A command that reproduces these files.
    pub command: String,
    /// The variants: file, name, rules hash, readings.
    pub variants: Vec<VariantInfo>,
    /// The agent pairings, each written `A,B`.
    pub agents: Vec<Pairing>,
    /// Games per variant, pairing and seat order.
    pub games: u64,
    /// Master seed; each game's seed is in `games.csv` (derivation: `sim::seed`).
    pub seed: u64,
    /// Whether `moves.csv` was written.
    pub moves: bool,
    /// Whether each unit is a match of rounds (`matches.csv` is written).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub matches: bool,
    /// Plies played at random at the start of every game (and round), whoever the agents.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub opening: u32,
    /// `K/M` for one shard of a larger run, absent for a whole run.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub shard: Option<Shard>,
}

impl RunInfo {
    /// Where unit `index` of a variant (the `game` column of its files, or `match` in a match
    /// run) was played: its pairing and seat order. `None` past the run's units.
    pub fn place(&self, index: u64) -> Option<Place> {
        let pairings = self.agents.len();
        let per_variant = u64::try_from(pairings).ok()?.checked_mul(2 * self.games)?;
        (index < per_variant).then(|| Place::of(index, pairings, self.games, self.seed))
    }

    /// How `self`, a run on disk, differs from `other`, the run asked for: one line per
    /// field, naming both values (`seed: 1 there, 2 here`). The command is named only when
    /// nothing else differs, since it follows from the rest.
    pub fn differences(&self, other: &RunInfo) -> Vec<String> {
        let mut out = Vec::new();
        differ(
            &mut out,
            "version",
            self.version.clone(),
            other.version.clone(),
        );
        differ(
            &mut out,
            "build commit",
            self.commit.clone(),
            other.commit.clone(),
        );
        let count = |v: &[VariantInfo]| v.len().to_string();
        differ(
            &mut out,
            "variants",
            count(&self.variants),
            count(&other.variants),
        );
        for (i, (a, b)) in self.variants.iter().zip(&other.variants).enumerate() {
            let n = i + 1;
            differ(
                &mut out,
                &format!("variant {n}'s file"),
                tick(&a.file),
                tick(&b.file),
            );
            differ(
                &mut out,
                &format!("variant {n}'s name"),
                tick(&a.name),
                tick(&b.name),
            );
            differ(
                &mut out,
                &format!("variant {n}'s rules hash"),
                a.rules_hash.to_string(),
                b.rules_hash.to_string(),
            );
            differ(
                &mut out,
                &format!("variant {n}'s --set"),
                tick(&words(&a.settings)),
                tick(&words(&b.settings)),
            );
        }
        differ(
            &mut out,
            "agents",
            tick(&words(&self.agents)),
            tick(&words(&other.agents)),
        );
        differ(
            &mut out,
            "games",
            self.games.to_string(),
            other.games.to_string(),
        );
        differ(
            &mut out,
            "seed",
            self.seed.to_string(),
            other.seed.to_string(),
        );
        differ(
            &mut out,
            "--moves",
            self.moves.to_string(),
            other.moves.to_string(),
        );
        differ(
            &mut out,
            "--match",
            self.matches.to_string(),
            other.matches.to_string(),
        );
        differ(
            &mut out,
            "--opening",
            self.opening.to_string(),
            other.opening.to_string(),
        );
        let shard = |s: &Option<Shard>| s.map_or_else(|| "none".into(), |s| s.to_string());
        differ(&mut out, "shard", shard(&self.shard), shard(&other.shard));
        if out.is_empty() {
            differ(
                &mut out,
                "command",
                tick(&self.command),
                tick(&other.command),
            );
        }
        out
    }
}

/// Adds `name: there there, here here` to `out` if the two differ.
fn differ(out: &mut Vec<String>, name: &str, there: String, here: String) {
    if there != here {
        out.push(format!("{name}: {there} there, {here} here"));
    }
}

/// Values written as text, space-separated.
fn words<T: ToString>(values: &[T]) -> String {
    let words: Vec<String> = values.iter().map(ToString::to_string).collect();
    words.join(" ")
}

fn tick(text: &str) -> String {
    format!("`{text}`")
}

/// One variant of a run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VariantInfo {
    /// The file as given.
    pub file: String,
    /// Its name.
    pub name: String,
    /// Content hash of the compiled rules.
    pub rules_hash: Hex64,
    /// `--set` overrides applied.
    pub settings: Vec<Setting>,
    /// The readings its rules rest on, one per marked rule, in number order.
    pub readings: Vec<ReadingInfo>,
}

/// A reading a variant's rules rest on, as `run.json` records it and reports show it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReadingInfo {
    /// `R7`; a reading a file declares is named with the file, `R17 (kara.sow)`, since each
    /// file numbers its own from R17.
    pub id: String,
    /// The rule it stands on: `capture "opposite".if`, `end.move cap`.
    pub rule: String,
    /// What it says.
    pub text: String,
    /// The file does not state the rule: the language's default applies, resting on this
    /// reading.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub default: bool,
}

impl ReadingInfo {
    /// The readings of `rules`, one per marked rule, in number order.
    pub fn of(rules: &Rules) -> Vec<ReadingInfo> {
        let mut marks: Vec<_> = rules.readings.iter().collect();
        marks.sort_by_key(|m| m.number);
        marks
            .into_iter()
            .map(|m| ReadingInfo {
                id: rules.reading_id(m.number),
                rule: m.rule.clone(),
                text: rules.reading_text(m.number).to_string(),
                default: m.default,
            })
            .collect()
    }
}

/// `run.json`: the experiment, and how many rows its files hold.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunFile {
    /// The experiment.
    #[serde(flatten)]
    pub run: RunInfo,
    /// The day the run started (UTC), `2026-12-01`; a merge's, the day of the merge.
    #[serde(default)]
    pub date: String,
    /// Rows of `games.csv` and `moves.csv`.
    pub rows: Rows,
}

/// Rows of the CSV files, headers not counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rows {
    /// In `games.csv`: one per game (per round, in a match run).
    pub games: u64,
    /// In `moves.csv`: one per move (0 when it is not written).
    pub moves: u64,
    /// In `matches.csv`: one per match (absent for a run of single games).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub matches: u64,
}

fn is_zero<N: Default + PartialEq>(n: &N) -> bool {
    *n == N::default()
}

impl RunFile {
    /// Units the files hold: games, or matches in a match run.
    pub fn units(&self) -> u64 {
        if self.run.matches {
            self.rows.matches
        } else {
            self.rows.games
        }
    }
}

/// How far a run got: written after every batch, and before the commit.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct Checkpoint {
    pub(crate) run: RunInfo,
    /// The day the run started, kept through every resume.
    #[serde(default)]
    pub(crate) date: String,
    /// The next unit to play; the files hold every unit of the run's range before it.
    pub(crate) next: u64,
    pub(crate) games_bytes: u64,
    pub(crate) moves_bytes: u64,
    #[serde(default)]
    pub(crate) matches_bytes: u64,
    pub(crate) rows: Rows,
}

/// Why a run could not be written.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    /// A file operation failed.
    #[error(transparent)]
    File(#[from] FileError),
    /// A CSV row could not be read or written.
    #[error("{}: {source}", path.display())]
    Csv {
        /// The file.
        path: PathBuf,
        /// Why.
        source: csv::Error,
    },
    /// `run.json` or the checkpoint does not read as one.
    #[error("{}: {source}", path.display())]
    Json {
        /// The file.
        path: PathBuf,
        /// Why.
        source: serde_json::Error,
    },
    /// The directory could not be claimed, or is not sowlab's.
    #[error(transparent)]
    Dir(#[from] OutDirError),
    /// A new run on a finished one.
    #[error("`{}` already holds a finished run; choose another --out", .0.display())]
    Finished(PathBuf),
    /// A new run on an unfinished one.
    #[error("`{}` holds an unfinished run; add --resume to the command that started it to finish it, or choose another --out", .0.display())]
    Unfinished(PathBuf),
    /// `--resume` on a directory whose run differs.
    #[error("`{}` holds a different run ({}); nothing was changed", dir.display(), differences.join("; "))]
    Different {
        /// The run's directory.
        dir: PathBuf,
        /// How the run there differs from the one asked for ([`RunInfo::differences`]).
        differences: Vec<String>,
    },
    /// A partial file shorter than its checkpoint: what the checkpoint vouches for is gone.
    #[error("`{}` is {length} bytes, shorter than the {expected} its checkpoint vouches for, so the run cannot be resumed; remove `{}` and start it again", path.display(), dir.display())]
    Truncated {
        /// The partial file.
        path: PathBuf,
        /// The run's directory.
        dir: PathBuf,
        /// Its length.
        length: u64,
        /// The checkpoint's.
        expected: u64,
    },
    /// Files that no step of writing a run leaves behind.
    #[error("`{}` is damaged ({what}); remove it and start the run again", dir.display())]
    Damaged {
        /// The run's directory.
        dir: PathBuf,
        /// What is wrong.
        what: String,
    },
}

/// The result of [`run`].
#[derive(Clone, Debug, PartialEq)]
pub enum Finish {
    /// All files written.
    Complete {
        /// Units (games, or matches) in the files.
        units: u64,
        /// Rows of `games.csv`: the games, or the rounds of the matches.
        rounds: u64,
        /// Seconds spent playing each cell (variant, pairing and seat order, in unit order)
        /// in this process, summed over its threads: a resumed run counts only what it
        /// played itself.
        seconds: Vec<f64>,
    },
    /// `--resume` found the run complete already; nothing was written.
    Unchanged {
        /// Units in the files.
        units: u64,
    },
    /// Stopped early; `--resume` continues.
    Interrupted {
        /// Games done so far.
        done: u64,
    },
}

/// What a directory holds, as far as a run goes.
pub(crate) enum State {
    /// No run yet: a new directory, or one whose first checkpoint was never written.
    Empty,
    /// A run that stopped before it was complete, or while it was being committed.
    Unfinished(Checkpoint),
    /// A complete run.
    Complete(RunFile),
}

const GAMES: &str = "games.csv";
const MOVES: &str = "moves.csv";
const MATCHES: &str = "matches.csv";
const SUMMARY: &str = "summary.csv";
const RUN: &str = "run.json";
const CHECKPOINT: &str = "checkpoint.json";

fn partial(dir: &Path, name: &str) -> PathBuf {
    dir.join(format!("{name}.partial"))
}

/// Every name a run may write in its directory, final or not.
pub(crate) fn names(dir: &Path) -> Vec<String> {
    let mut paths = vec![
        dir.join(GAMES),
        dir.join(MOVES),
        dir.join(MATCHES),
        dir.join(SUMMARY),
        dir.join(RUN),
        partial(dir, GAMES),
        partial(dir, MOVES),
        partial(dir, MATCHES),
        dir.join(CHECKPOINT),
    ];
    for name in [CHECKPOINT, SUMMARY, RUN] {
        paths.push(temporary(&dir.join(name)));
    }
    paths
        .iter()
        .filter_map(|p| p.file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .collect()
}

impl OutputError {
    /// The error of a CSV row of the file at `path`, for `map_err`.
    pub(crate) fn csv(path: &Path) -> impl Fn(csv::Error) -> OutputError + '_ {
        move |source| OutputError::Csv {
            path: path.to_path_buf(),
            source,
        }
    }
}

fn read_json<T: serde::de::DeserializeOwned>(path: &Path) -> Result<Option<T>, OutputError> {
    match fs::read_to_string(path) {
        Ok(text) => serde_json::from_str(&text)
            .map(Some)
            .map_err(|source| OutputError::Json {
                path: path.to_path_buf(),
                source,
            }),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(FileError::at(path)(e).into()),
    }
}

/// Reads `run.json` of a run directory.
///
/// # Errors
/// A missing or malformed file.
pub fn read_run(dir: &Path) -> Result<RunFile, OutputError> {
    let path = dir.join(RUN);
    let text = fs::read_to_string(&path).map_err(FileError::at(&path))?;
    serde_json::from_str(&text).map_err(|source| OutputError::Json { path, source })
}

/// What `dir` holds. The checkpoint is removed last when a run is committed, so while it is
/// there the run is unfinished, whatever else the directory holds.
pub(crate) fn state(dir: &Path) -> Result<State, OutputError> {
    if let Some(checkpoint) = read_json(&dir.join(CHECKPOINT))? {
        return Ok(State::Unfinished(checkpoint));
    }
    Ok(read_json(&dir.join(RUN))?.map_or(State::Empty, State::Complete))
}

/// One run to write: the experiment, its description, and the units to play (all of them,
/// or a shard's).
pub struct Job<'a> {
    /// What to play.
    pub experiment: &'a Experiment,
    /// Its description, for the checkpoint and run.json.
    pub info: &'a RunInfo,
    /// The units to play.
    pub units: Range<u64>,
    /// Today, as run.json records the day a run starts (see `made::today`).
    pub date: String,
    /// How long the run plays between checkpoints after the first ([`CHECKPOINT_EVERY`] for
    /// `simulate`): the play a kill can cost.
    pub checkpoint_every: Duration,
}

/// `simulate`'s time between checkpoints. A checkpoint per batch of games cost a fast variant
/// 3% of its run (each is a file renamed over the last, and the file system writes it out at
/// once); one a second costs nothing measurable.
pub const CHECKPOINT_EVERY: Duration = Duration::from_secs(1);

/// Runs `job` into `dir`. A directory that holds the same run unfinished is resumed when
/// `resume` is set; one that holds it complete is left as it is. `progress` is told the units
/// done so far after every batch; `stop` ends the run early, at a batch boundary, with a
/// checkpoint. A checkpoint follows the first batch, then any batch that ends
/// `job.checkpoint_every` or more after the last checkpoint.
///
/// # Errors
/// An unwritable directory; a directory that holds a run (without `resume`), or a different
/// run; partial files shorter than their checkpoint.
pub fn run(
    job: &Job<'_>,
    dir: &mut OutDir,
    resume: bool,
    stop: &AtomicBool,
    progress: impl Fn(u64, u64) + Sync,
) -> Result<Finish, OutputError> {
    run_on(&mut RealDisk, job, dir, resume, stop, progress)
}

/// [`run`], with every step of writing files done by `disk`.
///
/// # Errors
/// As [`run`], and any error of `disk`.
pub fn run_on(
    disk: &mut dyn Disk,
    job: &Job<'_>,
    dir: &mut OutDir,
    resume: bool,
    stop: &AtomicBool,
    progress: impl Fn(u64, u64) + Sync,
) -> Result<Finish, OutputError> {
    let path = dir.path().to_path_buf();
    let info = job.info;
    let units = job.units.clone();
    let start = match (state(&path)?, resume) {
        (State::Empty, _) => None,
        (State::Unfinished(c), true) if c.run == *info => Some(c),
        (State::Complete(f), true) if f.run == *info => {
            return Ok(Finish::Unchanged { units: f.units() })
        }
        (
            State::Unfinished(Checkpoint { run, .. }) | State::Complete(RunFile { run, .. }),
            true,
        ) => {
            let differences = run.differences(info);
            return Err(OutputError::Different {
                dir: path,
                differences,
            });
        }
        (State::Unfinished(_), false) => return Err(OutputError::Unfinished(path)),
        (State::Complete(_), false) => return Err(OutputError::Finished(path)),
    };
    dir.claim(&names(&path))?;
    let games_path = partial(&path, GAMES);
    let moves_path = partial(&path, MOVES);
    let matches_path = partial(&path, MATCHES);
    // A run that plays all its games in this process counts the summary as it writes them; a
    // resumed one has games from an earlier process, and the commit reads them back instead.
    let mut summary = start
        .is_none()
        .then(|| Summary::new(&info.agents, info.games));
    let mut checkpoint = match start {
        Some(c) => c,
        None => {
            let games = create_with_header::<GameRecord>(disk, &games_path)?;
            let moves = if info.moves {
                create_with_header::<MoveRecord>(disk, &moves_path)?
            } else {
                0
            };
            let matches = if info.matches {
                create_with_header::<MatchRecord>(disk, &matches_path)?
            } else {
                0
            };
            Checkpoint {
                run: info.clone(),
                date: job.date.clone(),
                next: units.start,
                games_bytes: games,
                moves_bytes: moves,
                matches_bytes: matches,
                rows: Rows::default(),
            }
        }
    };
    let mut seconds = Vec::new();
    if checkpoint.next < units.end {
        let mut games = reopen(&path, &games_path, checkpoint.games_bytes)?;
        let mut moves = if info.moves {
            Some(reopen(&path, &moves_path, checkpoint.moves_bytes)?)
        } else {
            None
        };
        let mut matches = if info.matches {
            Some(reopen(&path, &matches_path, checkpoint.matches_bytes)?)
        } else {
            None
        };
        let total = units.end - units.start;
        progress(checkpoint.next - units.start, total);
        let first = checkpoint.next;
        // When the last checkpoint was written, and whether batches were written since.
        let (mut saved, mut unsaved) = (None::<Instant>, false);
        let done = job
            .experiment
            .run(first..units.end, stop, |next, batch: Vec<Played>| {
                let start = next - batch.len() as u64;
                for (unit, played) in (start..).zip(&batch) {
                    let cell = job.experiment.cell(unit);
                    if seconds.len() <= cell {
                        seconds.resize(cell + 1, 0.0);
                    }
                    seconds[cell] += played.seconds;
                }
                let rounds = batch.iter().flat_map(Played::games);
                if let Some(summary) = summary.as_mut() {
                    rounds.clone().for_each(|game| summary.add(game));
                }
                let (bytes, rows) = append(&mut games, &games_path, rounds)?;
                checkpoint.games_bytes = bytes;
                checkpoint.rows.games += rows;
                if let Some(moves) = &mut moves {
                    let all = batch.iter().flat_map(|p| &p.moves);
                    let (bytes, rows) = append(moves, &moves_path, all)?;
                    checkpoint.moves_bytes = bytes;
                    checkpoint.rows.moves += rows;
                }
                if let Some(matches) = &mut matches {
                    let all = batch.iter().filter_map(Played::matched);
                    let (bytes, rows) = append(matches, &matches_path, all)?;
                    checkpoint.matches_bytes = bytes;
                    checkpoint.rows.matches += rows;
                }
                checkpoint.next = next;
                unsaved = true;
                if saved.is_none_or(|at| at.elapsed() >= job.checkpoint_every) {
                    write_checkpoint(disk, &path, &checkpoint)?;
                    (saved, unsaved) = (Some(Instant::now()), false);
                }
                progress(next - units.start, total);
                Ok::<(), OutputError>(())
            })?;
        if done < units.end {
            if unsaved {
                write_checkpoint(disk, &path, &checkpoint)?;
            }
            return Ok(Finish::Interrupted {
                done: done - units.start,
            });
        }
    }
    commit(disk, &path, &checkpoint, summary.as_ref())?;
    Ok(Finish::Complete {
        units: if info.matches {
            checkpoint.rows.matches
        } else {
            checkpoint.rows.games
        },
        rounds: checkpoint.rows.games,
        seconds,
    })
}

/// Appends `records` to a partial file, flushed; returns its new length and the rows added.
fn append<'r, T: Row + 'r>(
    file: &mut BufWriter<File>,
    path: &Path,
    records: impl Iterator<Item = &'r T>,
) -> Result<(u64, u64), OutputError> {
    let mut line = Vec::new();
    let mut rows = 0;
    for record in records {
        line.clear();
        record.write_row(&mut line);
        file.write_all(&line).map_err(FileError::at(path))?;
        rows += 1;
    }
    file.flush().map_err(FileError::at(path))?;
    Ok((length(file, path)?, rows))
}

/// Turns a fully played run's partial files into the final ones, in an order that can be
/// redone from any step after a crash:
///
/// 1. the checkpoint, saying everything is played (it says so already after the last batch;
///    a merge or a run of no games writes its first here);
/// 2. `summary.csv`, from the games: `counted` if the caller counted them all as they were
///    written, else read back from `games.csv`;
/// 3. `run.json`, with the rows the files hold;
/// 4. `games.csv.partial` renamed `games.csv`;
/// 5. `moves.csv.partial` renamed `moves.csv`, and `matches.csv.partial` `matches.csv`;
/// 6. the checkpoint removed.
///
/// Until step 6 the directory is unfinished, and `--resume` starts the commit again; the
/// steps already done are done again (1–3 give the same bytes) or found done (4, 5).
pub(crate) fn commit(
    disk: &mut dyn Disk,
    dir: &Path,
    checkpoint: &Checkpoint,
    counted: Option<&Summary>,
) -> Result<(), OutputError> {
    write_checkpoint(disk, dir, checkpoint)?;
    let games = settled(dir, GAMES, checkpoint.games_bytes)?;
    if checkpoint.run.moves {
        settled(dir, MOVES, checkpoint.moves_bytes)?;
    }
    if checkpoint.run.matches {
        settled(dir, MATCHES, checkpoint.matches_bytes)?;
    }
    let read;
    let summary = match counted {
        Some(summary) => summary,
        None => {
            read = read_summary(&games, &checkpoint.run)?;
            &read
        }
    };
    write_summary(disk, summary, &dir.join(SUMMARY))?;
    let run = RunFile {
        run: checkpoint.run.clone(),
        date: checkpoint.date.clone(),
        rows: checkpoint.rows,
    };
    let json = serde_json::to_string_pretty(&run).expect("serialisable") + "\n";
    write_atomically(disk, &dir.join(RUN), json.as_bytes())?;
    let mut kept = vec![GAMES];
    if checkpoint.run.moves {
        kept.push(MOVES);
    }
    if checkpoint.run.matches {
        kept.push(MATCHES);
    }
    for name in kept {
        let from = partial(dir, name);
        if from.exists() {
            disk.rename(&from, &dir.join(name))
                .map_err(FileError::at(&from))?;
        }
    }
    let checkpoint = dir.join(CHECKPOINT);
    disk.remove(&checkpoint)
        .map_err(FileError::at(&checkpoint))?;
    Ok(())
}

/// The file that holds `name`'s rows at this point of a commit: its partial file, cut back
/// to the checkpoint's length, or the final file if the partial one was renamed already.
fn settled(dir: &Path, name: &str, length: u64) -> Result<PathBuf, OutputError> {
    let path = partial(dir, name);
    match fs::metadata(&path) {
        Ok(_) => {
            reopen(dir, &path, length)?;
            Ok(path)
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            let done = dir.join(name);
            match fs::metadata(&done) {
                Ok(m) if m.len() == length => Ok(done),
                Ok(m) => Err(OutputError::Damaged {
                    dir: dir.to_path_buf(),
                    what: format!("{name} is {} bytes; its checkpoint says {length}", m.len()),
                }),
                Err(_) => Err(OutputError::Damaged {
                    dir: dir.to_path_buf(),
                    what: format!("neither {name}.partial nor {name} is there"),
                }),
            }
        }
        Err(e) => Err(FileError::at(&path)(e).into()),
    }
}

fn write_checkpoint(
    disk: &mut dyn Disk,
    dir: &Path,
    checkpoint: &Checkpoint,
) -> Result<(), OutputError> {
    let json = serde_json::to_string_pretty(checkpoint).expect("serialisable");
    Ok(write_atomically(
        disk,
        &dir.join(CHECKPOINT),
        json.as_bytes(),
    )?)
}

/// The CSV header of records of type `T`: serde names the columns, so it is taken from the
/// serialisation of a record.
pub(crate) fn header<T: Serialize + Default>() -> Vec<u8> {
    let mut out = csv::Writer::from_writer(Vec::new());
    out.serialize(T::default())
        .expect("a default record serialises");
    let bytes = out.into_inner().expect("writing to memory cannot fail");
    let end = bytes.iter().position(|&b| b == b'\n').map_or(0, |i| i + 1);
    bytes[..end].to_vec()
}

/// Creates a partial file holding only the header, so that a run (or shard) of no games
/// still has one; returns its length.
pub(crate) fn create_with_header<T: Serialize + Default>(
    disk: &mut dyn Disk,
    path: &Path,
) -> Result<u64, OutputError> {
    let header = header::<T>();
    let mut file = disk.create(path).map_err(FileError::at(path))?;
    file.write_all(&header).map_err(FileError::at(path))?;
    Ok(header.len() as u64)
}

fn length(file: &BufWriter<File>, path: &Path) -> Result<u64, OutputError> {
    Ok(file
        .get_ref()
        .metadata()
        .map_err(FileError::at(path))?
        .len())
}

/// Opens a partial file for appending after its last checkpointed byte, dropping anything a
/// killed run wrote after the checkpoint. A file shorter than that lost rows the checkpoint
/// vouches for, and is refused before anything is played.
fn reopen(dir: &Path, path: &Path, length: u64) -> Result<BufWriter<File>, OutputError> {
    let mut file = open_own(path, true).map_err(FileError::at(path))?;
    let found = file.metadata().map_err(FileError::at(path))?.len();
    if found < length {
        return Err(OutputError::Truncated {
            path: path.to_path_buf(),
            dir: dir.to_path_buf(),
            length: found,
            expected: length,
        });
    }
    file.set_len(length).map_err(FileError::at(path))?;
    file.seek(io::SeekFrom::End(0))
        .map_err(FileError::at(path))?;
    Ok(BufWriter::new(file))
}

/// The summary of a games CSV, read back (streamed).
fn read_summary(games: &Path, run: &RunInfo) -> Result<Summary, OutputError> {
    let mut summary = Summary::new(&run.agents, run.games);
    let mut reader = csv::Reader::from_path(games).map_err(OutputError::csv(games))?;
    for record in reader.deserialize::<GameRecord>() {
        summary.add(&record.map_err(OutputError::csv(games))?);
    }
    Ok(summary)
}

/// Writes `summary` to `to`: a header alone when there are no games (a shard may have none).
fn write_summary(disk: &mut dyn Disk, summary: &Summary, to: &Path) -> Result<(), OutputError> {
    let rows = summary.rows();
    let bytes = if rows.is_empty() {
        header::<SummaryRecord>()
    } else {
        let mut out = csv::Writer::from_writer(Vec::new());
        for row in rows {
            out.serialize(row).map_err(OutputError::csv(to))?;
        }
        out.into_inner().expect("writing to memory cannot fail")
    };
    Ok(write_atomically(disk, to, &bytes)?)
}
