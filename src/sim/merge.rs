//! Joining the directories of `simulate --shard` runs into exactly the files one whole run
//! writes. The shards must be every slice of one experiment, once, each holding every row its
//! `run.json` counts; their files are streamed record by record, never read whole.

use std::fs;
use std::io::{BufWriter, Write};
use std::ops::Range;
use std::path::{Path, PathBuf};

use super::output::{self, Checkpoint, OutputError, Rows, RunFile, RunInfo, State};
use super::record::{GameRecord, Hex64, MatchRecord, MoveRecord};
use super::runner::{units, Place, Shard};
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
    #[error("`{}` and `{}` are shards of different experiments ({})", first.display(), other.display(), differences.join("; "))]
    Mixed {
        /// The first shard given.
        first: PathBuf,
        /// One that differs from it.
        other: PathBuf,
        /// How ([`RunInfo::differences`], with the number of shards).
        differences: Vec<String>,
    },
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
    /// A shard file with a row that is not the one its place in the run calls for.
    #[error("`{}` row {row}: {what}; merge only the files `simulate --shard` wrote", path.display())]
    Row {
        /// The file.
        path: PathBuf,
        /// The row, from 1 (the header not counted).
        row: u64,
        /// What is wrong with it.
        what: String,
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
                .ok_or_else(|| MergeError::NotAShard(dir.clone()))?;
            parts.push(Part {
                dir: dir.clone(),
                shard,
                file,
            });
        }
        // The whole run a shard is part of: its command without the `--shard` it ends with.
        let experiment = |p: &Part| {
            let run = &p.file.run;
            let flag = shard_flag(p.shard);
            RunInfo {
                shard: None,
                command: run
                    .command
                    .strip_suffix(&flag)
                    .unwrap_or(&run.command)
                    .to_string(),
                ..run.clone()
            }
        };
        let first = parts.first().ok_or(MergeError::NoShards)?;
        let (m, whole) = (first.shard.m, experiment(first));
        if let Some(other) = parts
            .iter()
            .find(|p| p.shard.m != m || experiment(p) != whole)
        {
            let mut differences = whole.differences(&experiment(other));
            if other.shard.m != m {
                differences.insert(0, format!("shards: {m} there, {} here", other.shard.m));
            }
            return Err(MergeError::Mixed {
                first: first.dir.clone(),
                other: other.dir.clone(),
                differences,
            });
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
        let merged = self.write(&path, date);
        if merged.is_err() {
            // Shards found wrong on the way (a row out of place) leave no half merge behind.
            let _ = dir.clear();
        }
        merged
    }

    /// The merge's files, written into `path`, committed.
    fn write(&self, path: &Path, date: &str) -> Result<Merged, MergeError> {
        let (whole, path) = (&self.whole, path.to_path_buf());
        let disk: &mut dyn Disk = &mut RealDisk;
        let parts = &self.parts;
        let rounds = if whole.matches {
            Follows::Rounds
        } else {
            Follows::One
        };
        let games = self.copy::<GameRecord>(disk, "games.csv", &path, rounds, |r| r.games)?;
        let moves = if whole.moves {
            self.copy::<MoveRecord>(disk, "moves.csv", &path, Follows::Any, |r| r.moves)?
        } else {
            (0, 0)
        };
        let matches = if whole.matches {
            self.copy::<MatchRecord>(disk, "matches.csv", &path, Follows::One, |r| r.matches)?
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

/// `--shard K/M` as a shard's command ends with it.
pub fn shard_flag(shard: Shard) -> String {
    format!(" --shard {shard}")
}

/// How the rows of a file follow the units of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Follows {
    /// One row a unit: the games of a run of single games, the matches of a match run.
    One,
    /// One or more: the rounds of each match.
    Rounds,
    /// Any number, none included: the moves (a game may end before its first move).
    Any,
}

/// The columns that say which unit a row belongs to.
struct Columns {
    variant: usize,
    /// `game`, or `match` in `matches.csv`.
    index: usize,
    /// Absent from `moves.csv`.
    seed: Option<usize>,
}

impl Columns {
    fn find(header: &csv::ByteRecord) -> Columns {
        let at = |name: &str| header.iter().position(|c| c == name.as_bytes());
        Columns {
            variant: at("variant").expect("every file of a run names the variant"),
            index: at("game")
                .or_else(|| at("match"))
                .expect("every file of a run numbers its units"),
            seed: at("seed"),
        }
    }
}

impl Shards {
    /// Streams `name` of every shard, in order, into `name.partial` in `dir`: one header
    /// (which every shard must have), then every row, each checked to be of the unit its
    /// place calls for (variant, index and seed, in the order `follows` says), and counted
    /// against each shard's run.json. Returns the bytes written and the rows.
    fn copy<T: serde::Serialize + Default>(
        &self,
        disk: &mut dyn Disk,
        name: &str,
        dir: &Path,
        follows: Follows,
        rows: impl Fn(&Rows) -> u64,
    ) -> Result<(u64, u64), MergeError> {
        let header = csv::ReaderBuilder::new()
            .has_headers(false)
            .from_reader(&output::header::<T>()[..])
            .byte_records()
            .next()
            .expect("a header")
            .expect("a header parses");
        let columns = Columns::find(&header);
        let target = dir.join(format!("{name}.partial"));
        let file = disk.create(&target).map_err(FileError::at(&target))?;
        let mut out = csv::Writer::from_writer(BufWriter::new(file));
        out.write_byte_record(&header)
            .map_err(OutputError::csv(&target))?;
        let mut total = 0;
        let mut record = csv::ByteRecord::new();
        for part in &self.parts {
            let path = part.dir.join(name);
            let mut reader = csv::Reader::from_path(&path).map_err(OutputError::csv(&path))?;
            if *reader.byte_headers().map_err(OutputError::csv(&path))? != header {
                return Err(MergeError::Columns(path));
            }
            let units = part.shard.units(self.units);
            // The unit of the last row, and the rows so far.
            let (mut last, mut found) = (None::<u64>, 0);
            while reader
                .read_byte_record(&mut record)
                .map_err(OutputError::csv(&path))?
            {
                found += 1;
                let unit = self
                    .unit_of(&record, &columns, units.clone(), last, follows)
                    .map_err(|what| MergeError::Row {
                        path: path.clone(),
                        row: found,
                        what,
                    })?;
                last = Some(unit);
                out.write_byte_record(&record)
                    .map_err(OutputError::csv(&target))?;
            }
            let expected = rows(&part.file.rows);
            if found != expected {
                return Err(MergeError::RowCount {
                    path,
                    found,
                    expected,
                });
            }
            let ends = last.map_or(units.start, |u| u + 1);
            if follows != Follows::Any && ends != units.end {
                return Err(MergeError::Row {
                    path,
                    row: found,
                    what: format!("the rows end at unit {ends} of the run, not {}", units.end),
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

    /// The unit of the run a row belongs to, if it is one `follows` allows after `last` within
    /// `units`, with the seed of its place; else what is wrong.
    fn unit_of(
        &self,
        record: &csv::ByteRecord,
        columns: &Columns,
        units: Range<u64>,
        last: Option<u64>,
        follows: Follows,
    ) -> Result<u64, String> {
        let whole = &self.whole;
        let field = |i: usize| String::from_utf8_lossy(record.get(i).unwrap_or_default());
        let label = field(columns.variant);
        let variant = whole
            .variants
            .iter()
            .position(|v| v.name == label)
            .ok_or_else(|| format!("variant `{label}` is not one of the run's"))?;
        let per_variant = whole.agents.len() as u64 * 2 * whole.games;
        let index = field(columns.index)
            .parse::<u64>()
            .ok()
            .filter(|&i| i < per_variant)
            .ok_or_else(|| format!("`{}` is not a game of the run", field(columns.index)))?;
        let unit = variant as u64 * per_variant + index;
        let next = last.map_or(units.start, |u| u + 1);
        let allowed = match follows {
            Follows::One => unit == next,
            Follows::Rounds => unit == next || Some(unit) == last,
            Follows::Any => last.map_or(unit >= units.start, |last| unit >= last),
        };
        if !allowed || !units.contains(&unit) {
            return Err(format!(
                "game {index} of `{label}` is not the one that follows here in this shard \
                 (units {}..{} of the run)",
                units.start, units.end
            ));
        }
        if let Some(seed) = columns.seed {
            let place = Place::of(unit, whole.agents.len(), whole.games, whole.seed);
            let expected = Hex64(place.seed).to_string();
            if field(seed) != expected {
                return Err(format!(
                    "game {index} of `{label}` has seed {}, not {expected} (the run's seed is {})",
                    field(seed),
                    whole.seed
                ));
            }
        }
        Ok(unit)
    }
}
