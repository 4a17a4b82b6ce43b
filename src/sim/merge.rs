//! Joining the directories of `simulate --shard` runs into exactly the files one whole run
//! writes. The shards must be every slice of one experiment, once, each holding every row its
//! `run.json` counts; their files are streamed record by record, never read whole.

use std::fs;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use super::output::{self, Checkpoint, OutputError, Rows, RunFile, RunInfo, State};
use super::record::{GameRecord, MatchRecord, MoveRecord};
use super::runner::{units, Shard};
use crate::outdir::disk::{Disk, FileError, RealDisk};
use crate::outdir::{OutDir, OutDirError};

/// Why shards cannot be merged.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    /// A shard that is still running, or stopped.
    #[error("`{}` is an unfinished run; finish it first (its `sowlab simulate` command again, with --resume)", .0.display())]
    Unfinished(PathBuf),
    /// Nothing to merge.
    #[error("no shards given")]
    NoShards,
    /// A directory without a run.
    #[error("`{}` holds no run of sowlab's (no run.json)", .0.display())]
    NotARun(PathBuf),
    /// A finished run that is not a shard.
    #[error("`{}` is not a shard: its run.json has no `shard` K/M", .0.display())]
    NotAShard(PathBuf),
    /// The same slice twice.
    #[error("shard {0} is given twice")]
    Twice(Shard),
    /// A slice not given.
    #[error("shard {0} is missing")]
    Missing(Shard),
    /// Slices of two experiments.
    #[error("`{}` and `{}` are shards of different experiments (variants, agents, games, seed or number of shards)", .0.display(), .1.display())]
    Mixed(PathBuf, PathBuf),
    /// A shard whose run.json does not fit its slice.
    #[error("`{}` holds {found} games (or matches), but shard {shard} of its experiment has {expected}", dir.display())]
    ShardSize {
        /// The shard.
        dir: PathBuf,
        /// Which.
        shard: Shard,
        /// Games its run.json counts.
        found: u64,
        /// Games in the slice.
        expected: u64,
    },
    /// A run.json that counts more games than fit in 64 bits.
    #[error("`{}` describes more games than can be counted", .0.display())]
    TooManyGames(PathBuf),
    /// A shard file with rows missing (or extra).
    #[error("`{}` has {found} rows; its run.json says {expected}", path.display())]
    RowCount {
        /// The file.
        path: PathBuf,
        /// Rows in it.
        found: u64,
        /// Rows run.json counts.
        expected: u64,
    },
    /// A shard file with other columns (made by another version).
    #[error("`{}` has other columns than this sowlab writes; merge shards made by one version", .0.display())]
    Columns(PathBuf),
    /// `--out` holds an unfinished run of something else.
    #[error("`{}` holds an unfinished run; choose another --out for the merge", .0.display())]
    OutUnfinished(PathBuf),
    /// Reading a shard or writing the merged run.
    #[error(transparent)]
    Output(#[from] OutputError),
}

impl From<FileError> for MergeError {
    fn from(e: FileError) -> MergeError {
        MergeError::Output(e.into())
    }
}

impl From<OutDirError> for MergeError {
    fn from(e: OutDirError) -> MergeError {
        MergeError::Output(e.into())
    }
}

/// What a merge wrote.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Merged {
    /// Shards merged.
    pub shards: usize,
    /// Games in the merged files, or matches.
    pub units: u64,
    /// In a match run: the rounds.
    pub rounds: Option<u64>,
}

/// A shard: its directory, slice and run.json.
struct Part {
    dir: PathBuf,
    shard: Shard,
    file: RunFile,
}

/// Shard directories checked to be every slice of one experiment, once, sorted: ready to be
/// merged.
pub struct Shards {
    parts: Vec<Part>,
    /// The experiment they are slices of.
    whole: RunInfo,
    /// Its units (games).
    units: u64,
}

impl Shards {
    /// Reads the shards' run.json files (the directories in any order) and checks them.
    ///
    /// # Errors
    /// No shards; unfinished, missing, duplicate or mismatched shards; shards whose run.json
    /// does not fit their slice.
    pub fn read(dirs: &[PathBuf]) -> Result<Shards, MergeError> {
        let mut parts = Vec::new();
        for dir in dirs {
            let file = match output::state(dir)? {
                State::Complete(file) => file,
                State::Unfinished(_) => return Err(MergeError::Unfinished(dir.clone())),
                State::Empty => return Err(MergeError::NotARun(dir.clone())),
            };
            let shard = file
                .run
                .shard
                .as_deref()
                .and_then(|s| s.parse::<Shard>().ok())
                .ok_or_else(|| MergeError::NotAShard(dir.clone()))?;
            parts.push(Part {
                dir: dir.clone(),
                shard,
                file,
            });
        }
        let experiment = |p: &Part| RunInfo {
            shard: None,
            ..p.file.run.clone()
        };
        let first = parts.first().ok_or(MergeError::NoShards)?;
        let (m, whole) = (first.shard.m, experiment(first));
        if let Some(other) = parts
            .iter()
            .find(|p| p.shard.m != m || experiment(p) != whole)
        {
            return Err(MergeError::Mixed(first.dir.clone(), other.dir.clone()));
        }
        parts.sort_by_key(|p| p.shard.k);
        if let Some(pair) = parts.windows(2).find(|w| w[0].shard == w[1].shard) {
            return Err(MergeError::Twice(pair[0].shard));
        }
        let gap = (1..=m).find(|&k| parts.get(k as usize - 1).is_none_or(|p| p.shard.k != k));
        if let Some(k) = gap {
            return Err(MergeError::Missing(Shard { k, m }));
        }
        let total = units(whole.variants.len(), whole.agents.len(), whole.games)
            .ok_or_else(|| MergeError::TooManyGames(parts[0].dir.clone()))?;
        for part in &parts {
            let expected = part.shard.units(total);
            let expected = expected.end - expected.start;
            if part.file.units() != expected {
                return Err(MergeError::ShardSize {
                    dir: part.dir.clone(),
                    shard: part.shard,
                    found: part.file.units(),
                    expected,
                });
            }
        }
        Ok(Shards {
            parts,
            whole,
            units: total,
        })
    }

    /// Joins the shards into `dir`, producing exactly the files a whole run of the same
    /// experiment writes (with `date`, the day of the merge, in run.json).
    ///
    /// # Errors
    /// Shard files whose rows or columns do not match their run.json; unreadable or
    /// unwritable files; a `dir` that holds another run.
    pub fn merge_into(&self, dir: &mut OutDir, date: &str) -> Result<Merged, MergeError> {
        let whole = &self.whole;
        let path = dir.path().to_path_buf();
        match output::state(&path)? {
            State::Empty => {}
            // A merge of these shards that stopped: it is done again.
            State::Unfinished(c) if c.run == *whole => {}
            State::Unfinished(_) => return Err(MergeError::OutUnfinished(path)),
            State::Complete(_) => return Err(OutputError::Finished(path).into()),
        }
        dir.claim(&output::names(&path))?;
        let disk: &mut dyn Disk = &mut RealDisk;
        let parts = &self.parts;
        let games = copy::<GameRecord>(disk, parts, "games.csv", &path, |r| r.games)?;
        let moves = if whole.moves {
            copy::<MoveRecord>(disk, parts, "moves.csv", &path, |r| r.moves)?
        } else {
            (0, 0)
        };
        let matches = if whole.matches {
            copy::<MatchRecord>(disk, parts, "matches.csv", &path, |r| r.matches)?
        } else {
            (0, 0)
        };
        let checkpoint = Checkpoint {
            run: whole.clone(),
            date: date.to_string(),
            next: self.units,
            games_bytes: games.0,
            moves_bytes: moves.0,
            matches_bytes: matches.0,
            rows: Rows {
                games: games.1,
                moves: moves.1,
                matches: matches.1,
            },
        };
        output::commit(disk, &path, &checkpoint, None)?;
        Ok(Merged {
            shards: parts.len(),
            units: if whole.matches { matches.1 } else { games.1 },
            rounds: whole.matches.then_some(games.1),
        })
    }
}

/// Streams `name` of every shard, in order, into `name.partial` in `dir`: one header (which
/// every shard must have), then every row, counted against each shard's run.json. Returns
/// the bytes written and the rows.
fn copy<T: serde::Serialize + Default>(
    disk: &mut dyn Disk,
    parts: &[Part],
    name: &str,
    dir: &Path,
    rows: impl Fn(&Rows) -> u64,
) -> Result<(u64, u64), MergeError> {
    let header = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(&output::header::<T>()[..])
        .byte_records()
        .next()
        .expect("a header")
        .expect("a header parses");
    let target = dir.join(format!("{name}.partial"));
    let file = disk.create(&target).map_err(FileError::at(&target))?;
    let mut out = csv::Writer::from_writer(BufWriter::new(file));
    let csv_error = |path: &Path| {
        let path = path.to_path_buf();
        move |source| MergeError::Output(OutputError::Csv { path, source })
    };
    out.write_byte_record(&header).map_err(csv_error(&target))?;
    let mut total = 0;
    let mut record = csv::ByteRecord::new();
    for part in parts {
        let path = part.dir.join(name);
        let mut reader = csv::Reader::from_path(&path).map_err(csv_error(&path))?;
        if *reader.byte_headers().map_err(csv_error(&path))? != header {
            return Err(MergeError::Columns(path));
        }
        let mut found = 0;
        while reader
            .read_byte_record(&mut record)
            .map_err(csv_error(&path))?
        {
            out.write_byte_record(&record).map_err(csv_error(&target))?;
            found += 1;
        }
        let expected = rows(&part.file.rows);
        if found != expected {
            return Err(MergeError::RowCount {
                path,
                found,
                expected,
            });
        }
        total += found;
    }
    let mut file = out
        .into_inner()
        .map_err(|e| FileError::at(&target)(e.into_error()))?;
    file.flush().map_err(FileError::at(&target))?;
    let bytes = fs::metadata(&target).map_err(FileError::at(&target))?.len();
    Ok((bytes, total))
}
