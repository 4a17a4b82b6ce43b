//! Endgame tablebases: the exact value of every position with at most K seeds on the board,
//! either player to move, built layer by layer from the empty board up, read by the search,
//! and kept on disk keyed by the rules.
//!
//! # What a value is
//! Where the stores change nothing that follows ([`super::margins_suffice`]) and the rules
//! keep no memory beyond whose turn it is, a position's future is fixed by its board and the
//! player to move. Its value is what perfect play from there adds to South's margin (South's
//! store less North's, after the end rules' awards): the search adds it to the margin at the
//! node. Every starting fill of one board plays alike from a given position, so one tablebase
//! serves them all ([`Rules::play_hash`]).
//!
//! # Building
//! Layer `k` holds every board of `k` seeds, for either player to move, in the order of
//! [`Ranking`]. It is built once every layer below it is: a move either takes seeds off the
//! board (into a store: a lower layer, read) or keeps them all (this layer: computed first,
//! recursively, and kept). A move that keeps every seed on the board must move the seeds
//! forward (the sum of seeds times hole rank in the sowing direction grows), so no position
//! of a layer waits on itself and no position can recur: the repetition rule never fires from
//! a position the tablebase covers. Rules under which a move does otherwise, or that read
//! a memory, the move number or the starter, have no tablebase ([`TablebaseError::Unsupported`]).
//! Positions of a layer are shared out among threads; two threads may work out one position
//! at once, and write the same value.
//!
//! # Files
//! One file a layer, `layer-KK.sowtb` in a directory named for the rules' [`Rules::play_hash`]
//! and hole count, all numbers little-endian:
//!
//! | bytes | what |
//! |---|---|
//! | 8 | `SOWLABTB` |
//! | 4 | format version, 1 |
//! | 4 | holes on the board |
//! | 4 | seeds on the board in this layer, `k` |
//! | 4 | the longest line from a position of this layer to the end of the game, in moves |
//! | 8 | the rules' play hash |
//! | 8 | values that follow: twice the boards of `k` seeds |
//! | 8 | FNV-1a (64 bit) of the values |
//! | n | one signed byte a value: board `i` (in [`Ranking`] order) South to move at `2i`, North at `2i+1` |
//!
//! A file is written whole to a temporary name in its directory and then renamed, so an
//! interrupted run leaves no half-written layer; a file whose header or checksum does not
//! match the rules is refused with the reason, never used.

use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicU32, Ordering};

use rayon::prelude::*;

use crate::engine::{EndReason, Game, Position};
use crate::rules::{Award, Direction, DirectionRule, Rules, Side};

/// The most seeds on the board a tablebase may cover: values are kept in one signed byte.
pub const MAX_SEEDS: u32 = 120;

const MAGIC: &[u8; 8] = b"SOWLABTB";
const VERSION: u32 = 1;
const HEADER_BYTES: usize = 48;

/// Why there is no tablebase, or a file of one was not used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TablebaseError {
    /// The rules have a feature that a value of board and player to move cannot hold.
    #[error("no tablebase for these rules: {0}")]
    Unsupported(&'static str),
    /// A file on disk is not a layer of this tablebase.
    #[error("tablebase file {path} refused: {why}")]
    Refused {
        /// The file.
        path: String,
        /// What does not match.
        why: String,
    },
    /// Reading or writing a file failed.
    #[error("tablebase file {path}: {message}")]
    Io {
        /// The file.
        path: String,
        /// The system's message.
        message: String,
    },
}

/// How a tablebase came to be, layer by layer: what [`Tablebase::open`] reports as it goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LayerReport {
    /// Seeds on the board in this layer.
    pub seeds: u32,
    /// Its values (boards times two).
    pub values: u64,
    /// Read from a file, rather than built.
    pub read: bool,
}

/// The values of every position with at most [`Tablebase::max_seeds`] seeds on the board.
pub struct Tablebase {
    ranking: Ranking,
    layers: Vec<Layer>,
    play_hash: u64,
    /// What [`Game::memory`] is in a game just begun from a position, by player to move: a
    /// position of the search is covered only if its memory is the same.
    fresh: [u64; 2],
    /// Holes owned by North at the start; positions whose owners changed are not covered.
    north: u64,
    /// Layers read from files, rather than built.
    pub read: u32,
}

struct Layer {
    /// Two values a board: South to move, then North.
    values: Vec<i8>,
    /// The longest line from a position of this layer to the end of the game.
    height: u16,
}

impl Tablebase {
    /// The tablebase of `rules`' board up to `max_seeds` seeds: each layer read from `dir`
    /// where a file for it is there, else built (on `threads` threads) and, with `dir`,
    /// written there. `report` hears of each layer as it is ready.
    ///
    /// # Errors
    /// Rules that no tablebase can hold; a file in `dir` for other rules or damaged; a file
    /// that cannot be read or written.
    pub fn open(
        rules: &Rules,
        max_seeds: u32,
        dir: Option<&Path>,
        threads: usize,
        report: &(dyn Fn(LayerReport) + Sync),
    ) -> Result<Tablebase, TablebaseError> {
        let max_seeds = max_seeds.min(MAX_SEEDS);
        let template = Self::template(rules)?;
        let mut fresh = [0; 2];
        for side in [Side::South, Side::North] {
            let mut start = Position::initial(rules);
            start.to_move = side;
            let game = Game::from_position(rules, start);
            if game.to_move() != Some(side) {
                return Err(TablebaseError::Unsupported(
                    "the start position is over or passed, with either player to move",
                ));
            }
            fresh[side.index()] = game.memory();
        }
        let mut base = Tablebase {
            ranking: Ranking::new(rules.holes(), max_seeds),
            layers: Vec::new(),
            play_hash: rules.play_hash(),
            fresh,
            north: template.north,
            read: 0,
        };
        let dir = dir.map(|d| d.join(format!("{:016x}-{}", base.play_hash, rules.holes())));
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads.max(1))
            .stack_size(super::STACK_BYTES / 4)
            .build()
            .expect("threads for the tablebase");
        for seeds in 0..=max_seeds {
            let file = dir
                .as_ref()
                .map(|d| d.join(format!("layer-{seeds:02}.sowtb")));
            let found = match &file {
                Some(file) if file.exists() => Some(base.read_layer(file, seeds)?),
                _ => None,
            };
            let read = found.is_some();
            let layer = match found {
                Some(layer) => layer,
                None => {
                    let layer = pool.install(|| base.build_layer(rules, template, seeds))?;
                    if let Some(file) = &file {
                        base.write_layer(file, seeds, &layer)?;
                    }
                    layer
                }
            };
            base.read += u32::from(read);
            report(LayerReport {
                seeds,
                values: layer.values.len() as u64,
                read,
            });
            base.layers.push(layer);
        }
        Ok(base)
    }

    /// The most seeds on the board a position may hold to be covered.
    pub fn max_seeds(&self) -> u32 {
        self.layers.len() as u32 - 1
    }

    /// Bytes the values take.
    pub fn bytes(&self) -> u64 {
        self.layers.iter().map(|l| l.values.len() as u64).sum()
    }

    /// Whether this tablebase holds the values of `rules`' positions.
    pub fn fits(&self, rules: &Rules) -> bool {
        rules.play_hash() == self.play_hash && rules.holes() == self.ranking.holes
    }

    /// The value of `game` (South's final margin with perfect play) and the longest line
    /// from it to the end of the game, if the tablebase covers it: at most
    /// [`Tablebase::max_seeds`] seeds on the board, no memory but whose turn it is, owners as
    /// at the start. `game` must be of rules the tablebase [`fits`](Tablebase::fits).
    pub fn probe(&self, game: &Game<'_>) -> Option<(i32, u16)> {
        let position = game.position();
        let (seeds, index) = self.ranking.rank(position.board())?;
        let layer = self.layers.get(seeds as usize)?;
        let side = game.to_move()?;
        if game.memory() != self.fresh[side.index()] || !self.plain(position) {
            return None;
        }
        let value = layer.values[2 * index as usize + side.index()];
        Some((i32::from(value) + margin(position), layer.height))
    }

    /// Whether `position` has the owners of the start, and no house, lock or closed hole.
    fn plain(&self, position: &Position) -> bool {
        position.north == self.north
            && position.houses == 0
            && position.locked == 0
            && position.closed == 0
    }

    /// A position of `rules` to build the others from, or why no tablebase can hold them.
    fn template(rules: &Rules) -> Result<Position, TablebaseError> {
        if !super::margins_suffice(rules) {
            return Err(TablebaseError::Unsupported(
                "the stores decide more than the margin (a majority end, a draw for unfinished games or an award that reads them)",
            ));
        }
        if award_to_starter(rules) {
            return Err(TablebaseError::Unsupported(
                "an award goes to the player who started",
            ));
        }
        let mut position = Position::initial(rules);
        let holes = rules.holes();
        position.seeds[..holes].fill(0);
        position.seeds[holes] = position.total;
        position.seeds[holes + 1] = 0;
        Ok(position)
    }

    /// Layer `seeds`, built from the layers below it.
    fn build_layer(
        &self,
        rules: &Rules,
        template: Position,
        seeds: u32,
    ) -> Result<Layer, TablebaseError> {
        let boards = self.ranking.count(seeds);
        let cells: Vec<AtomicU32> = (0..2 * boards).map(|_| AtomicU32::new(0)).collect();
        let builder = Builder {
            rules,
            base: self,
            cells: &cells,
            seeds,
            backwards: rules.program.sowing.direction == DirectionRule::Fixed(Direction::Clockwise),
        };
        const CHUNK: u64 = 4096;
        (0..boards.div_ceil(CHUNK))
            .into_par_iter()
            .try_for_each(|chunk| {
                let mut spare = Vec::new();
                let first = chunk * CHUNK;
                let mut bars = self.ranking.unrank(seeds, first);
                for index in first..boards.min(first + CHUNK) {
                    let mut position = template;
                    self.ranking
                        .board(seeds, &bars, &mut position.seeds[..self.ranking.holes]);
                    for side in [Side::South, Side::North] {
                        position.to_move = side;
                        builder.cell(&mut spare, index, position)?;
                    }
                    self.ranking.next(seeds, &mut bars);
                }
                Ok(())
            })?;
        let mut height = 0;
        let values = cells
            .into_iter()
            .map(|cell| {
                let (value, h) = Cell::unpack(cell.into_inner()).expect("every cell is built");
                height = height.max(h);
                value
            })
            .collect();
        Ok(Layer { values, height })
    }

    fn write_layer(&self, file: &Path, seeds: u32, layer: &Layer) -> Result<(), TablebaseError> {
        let io = |e: std::io::Error| TablebaseError::Io {
            path: file.display().to_string(),
            message: e.to_string(),
        };
        let dir = file.parent().expect("a layer file is in a directory");
        std::fs::create_dir_all(dir).map_err(io)?;
        let values = bytemuck::cast_slice::<i8, u8>(&layer.values);
        let mut bytes = Vec::with_capacity(HEADER_BYTES + values.len());
        bytes.extend_from_slice(MAGIC);
        for word in [
            VERSION,
            self.ranking.holes as u32,
            seeds,
            u32::from(layer.height),
        ] {
            bytes.extend_from_slice(&word.to_le_bytes());
        }
        for word in [self.play_hash, values.len() as u64, fnv1a(values)] {
            bytes.extend_from_slice(&word.to_le_bytes());
        }
        bytes.extend_from_slice(values);
        let temporary = dir.join(format!(
            ".{}.{}.tmp",
            file.file_name().expect("a file name").to_string_lossy(),
            std::process::id()
        ));
        let written = std::fs::File::create(&temporary).and_then(|mut f| {
            f.write_all(&bytes)?;
            f.sync_all()
        });
        if let Err(e) = written.and_then(|()| std::fs::rename(&temporary, file)) {
            let _ = std::fs::remove_file(&temporary);
            return Err(io(e));
        }
        Ok(())
    }

    fn read_layer(&self, file: &Path, seeds: u32) -> Result<Layer, TablebaseError> {
        let path = file.display().to_string();
        let bytes = std::fs::read(file).map_err(|e| TablebaseError::Io {
            path: path.clone(),
            message: e.to_string(),
        })?;
        let refuse = |why: String| TablebaseError::Refused {
            path: path.clone(),
            why,
        };
        if bytes.len() < HEADER_BYTES || &bytes[..8] != MAGIC {
            return Err(refuse("not a sowlab tablebase file".into()));
        }
        let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
        let long = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
        if word(8) != VERSION {
            return Err(refuse(format!(
                "format version {}, this sowlab reads {VERSION}",
                word(8)
            )));
        }
        if long(24) != self.play_hash {
            return Err(refuse(format!(
                "built for other rules (play hash {:016x}, these rules {:016x}): use another \
                 tablebase directory or delete the file",
                long(24),
                self.play_hash
            )));
        }
        let values = &bytes[HEADER_BYTES..];
        let boards = self.ranking.count(seeds);
        if word(12) as usize != self.ranking.holes
            || word(16) != seeds
            || long(32) != 2 * boards
            || values.len() as u64 != 2 * boards
        {
            return Err(refuse(format!(
                "expected {} values of {seeds} seeds on {} holes",
                2 * boards,
                self.ranking.holes
            )));
        }
        if fnv1a(values) != long(40) {
            return Err(refuse(
                "its checksum does not match its values: damaged".into(),
            ));
        }
        Ok(Layer {
            values: bytemuck::cast_slice::<u8, i8>(values).to_vec(),
            height: u16::try_from(word(20)).unwrap_or(u16::MAX),
        })
    }
}

/// Whether an end rule of `rules` awards seeds to the player who started: a position would
/// then be worth something else to games begun by the other player.
fn award_to_starter(rules: &Rules) -> bool {
    let ending = &rules.program.ending;
    [
        ending.last_seeds.map(|r| r.to),
        ending.empty_row.map(|(_, a)| a),
        ending.singletons,
        ending.quiet.map(|(_, a)| a),
        Some(ending.cap_award),
        Some(ending.repetition_award),
    ]
    .into_iter()
    .flatten()
    .any(|a| a == Award::Starter)
}

/// South's store less North's.
fn margin(position: &Position) -> i32 {
    let [south, north] = position.stores();
    i32::from(south) - i32::from(north)
}

/// FNV-1a, 64 bit.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// A value being built: 0 while unknown, else bit 31 set, the value in bits 0-7 and the
/// longest line in bits 8-23.
struct Cell;

impl Cell {
    fn pack(value: i8, height: u16) -> u32 {
        1 << 31 | u32::from(height) << 8 | u32::from(value as u8)
    }

    fn unpack(cell: u32) -> Option<(i8, u16)> {
        (cell != 0).then_some((cell as u8 as i8, (cell >> 8) as u16))
    }
}

/// What building one layer needs.
struct Builder<'a, 'r> {
    rules: &'r Rules,
    base: &'a Tablebase,
    cells: &'a [AtomicU32],
    seeds: u32,
    backwards: bool,
}

impl<'r> Builder<'_, 'r> {
    /// The value of `position` (of this layer's seed count, board `index`), worked out and
    /// kept if it is not yet: what the rest of the game adds to South's margin, and the
    /// longest line.
    fn cell(
        &self,
        spare: &mut Vec<Game<'r>>,
        index: u64,
        position: Position,
    ) -> Result<(i8, u16), TablebaseError> {
        let slot = &self.cells[2 * index as usize + position.to_move.index()];
        if let Some(known) = Cell::unpack(slot.load(Ordering::Relaxed)) {
            return Ok(known);
        }
        let (value, height) = self.work_out(spare, position)?;
        let value = i8::try_from(value).expect("a value within the seeds on the board");
        slot.store(Cell::pack(value, height), Ordering::Relaxed);
        Ok((value, height))
    }

    fn work_out(
        &self,
        spare: &mut Vec<Game<'r>>,
        position: Position,
    ) -> Result<(i32, u16), TablebaseError> {
        let mut game = match spare.pop() {
            Some(mut game) => {
                game.reset(position, 1, None);
                game
            }
            None => Game::from_position(self.rules, position),
        };
        let now = margin(&position);
        let found = if game.is_over() {
            Ok((finished(&game)? - now, 0))
        } else {
            self.best_move(spare, &mut game, now)
        };
        spare.push(game);
        found
    }

    /// The best of `game`'s moves for the player to move, relative to the margin `now`.
    fn best_move(
        &self,
        spare: &mut Vec<Game<'r>>,
        game: &mut Game<'r>,
        now: i32,
    ) -> Result<(i32, u16), TablebaseError> {
        let south = game.to_move() == Some(Side::South);
        let mut best = if south { i32::MIN } else { i32::MAX };
        let mut height = 0u16;
        let mut child = spare.pop().unwrap_or_else(|| game.clone());
        for mv in game.legal_moves() {
            game.play_into(mv, &mut child).expect("legal moves play");
            let (value, below) = match self.after(spare, game.position(), &child) {
                Ok(found) => found,
                Err(e) => {
                    spare.push(child);
                    return Err(e);
                }
            };
            let value = value + margin(child.position()) - now;
            height = height.max(below.saturating_add(1));
            best = if south {
                best.max(value)
            } else {
                best.min(value)
            };
        }
        spare.push(child);
        Ok((best, height))
    }

    /// The value of `child`, a move after `before`, relative to its own margin.
    fn after(
        &self,
        spare: &mut Vec<Game<'r>>,
        before: &Position,
        child: &Game<'r>,
    ) -> Result<(i32, u16), TablebaseError> {
        let position = *child.position();
        if child.is_over() {
            return Ok((finished(child)? - margin(&position), 0));
        }
        let side = child
            .to_move()
            .expect("a game not over has a player to move");
        if child.memory() != self.base.fresh[side.index()] {
            return Err(TablebaseError::Unsupported(
                "a move leaves a memory the rules read (a capture turn, a move number, a last capturer)",
            ));
        }
        if !self.base.plain(&position) {
            return Err(TablebaseError::Unsupported(
                "a move changes who owns a hole, makes a house, locks or closes one",
            ));
        }
        let (seeds, index) = self
            .base
            .ranking
            .rank(position.board())
            .expect("a board within the tablebase's seeds");
        if seeds < self.seeds {
            let layer = &self.base.layers[seeds as usize];
            let value = layer.values[2 * index as usize + side.index()];
            return Ok((i32::from(value), layer.height));
        }
        if seeds > self.seeds {
            return Err(TablebaseError::Unsupported(
                "a move puts seeds back on the board",
            ));
        }
        if seed_rank(before, self.backwards) >= seed_rank(&position, self.backwards) {
            return Err(TablebaseError::Unsupported(
                "a move keeps every seed on the board without moving them forward: positions may recur",
            ));
        }
        // Values are relative to the margin: the child's own stores will do.
        let mut next = position;
        next.to_move = side;
        let (value, height) = self.cell(spare, index, next)?;
        Ok((i32::from(value), height))
    }
}

/// South's final margin in a finished game, or why it cannot be a tablebase's.
fn finished(game: &Game<'_>) -> Result<i32, TablebaseError> {
    match game.outcome().map(|o| o.reason) {
        Some(EndReason::Cap) => Err(TablebaseError::Unsupported("a game can reach the move cap")),
        _ => Ok(super::Value::of_finished(game).margin),
    }
}

/// The sum of seeds times hole number, in the sowing direction: what a move that keeps every
/// seed on the board must increase.
pub(super) fn seed_rank(position: &Position, backwards: bool) -> u64 {
    let n = position.board().len() as u64;
    (0..)
        .zip(position.board())
        .map(|(i, &s)| if backwards { n - 1 - i } else { i } * u64::from(s))
        .sum()
}

/// Boards numbered: the boards of `k` seeds in `H` holes are the ways to put `H - 1` bars
/// among `k + H - 1` places (stars and bars), numbered in colexicographic order of the bars'
/// places, so that a board's number is a sum of binomials.
struct Ranking {
    holes: usize,
    max_seeds: u32,
    /// `binomial[n][r]` for `n` up to the most places and `r` up to `H - 1`.
    binomial: Vec<Vec<u64>>,
}

impl Ranking {
    fn new(holes: usize, max_seeds: u32) -> Ranking {
        let places = max_seeds as usize + holes;
        let mut binomial = vec![vec![0u64; holes]; places + 1];
        for n in 0..=places {
            binomial[n][0] = 1;
            for r in 1..holes.min(n + 1) {
                binomial[n][r] = binomial[n - 1][r - 1].saturating_add(if r < n {
                    binomial[n - 1][r]
                } else {
                    0
                });
            }
        }
        Ranking {
            holes,
            max_seeds,
            binomial,
        }
    }

    fn bars(&self) -> usize {
        self.holes - 1
    }

    /// Boards of `seeds` seeds.
    fn count(&self, seeds: u32) -> u64 {
        self.binomial[seeds as usize + self.bars()][self.bars()]
    }

    /// The seeds on `board` and its number among boards of as many, if within the ranking.
    fn rank(&self, board: &[u16]) -> Option<(u32, u64)> {
        let mut seeds = 0usize;
        let mut index = 0;
        for (j, &n) in board[..self.bars()].iter().enumerate() {
            seeds += usize::from(n);
            index += self.binomial.get(seeds + j)?[j + 1];
        }
        let seeds = (seeds + usize::from(board[self.bars()])) as u32;
        (seeds <= self.max_seeds).then_some((seeds, index))
    }

    /// The bars' places of board `index` of `seeds` seeds.
    fn unrank(&self, seeds: u32, mut index: u64) -> Vec<usize> {
        let mut bars = vec![0; self.bars()];
        let mut place = seeds as usize + self.bars();
        for j in (0..self.bars()).rev() {
            place -= 1;
            while self.binomial[place][j + 1] > index {
                place -= 1;
            }
            index -= self.binomial[place][j + 1];
            bars[j] = place;
        }
        bars
    }

    /// The next board's bars, in number order (none after the last).
    fn next(&self, seeds: u32, bars: &mut [usize]) {
        let places = seeds as usize + self.bars();
        for j in 0..bars.len() {
            let limit = bars.get(j + 1).copied().unwrap_or(places);
            if bars[j] + 1 < limit {
                bars[j] += 1;
                for (i, bar) in bars[..j].iter_mut().enumerate() {
                    *bar = i;
                }
                return;
            }
        }
    }

    /// The seeds of each hole, from the bars' places.
    fn board(&self, seeds: u32, bars: &[usize], board: &mut [u16]) {
        let places = seeds as usize + self.bars();
        let mut before = None;
        for (hole, &bar) in bars.iter().chain([&places]).enumerate() {
            let start = before.map_or(0, |b: usize| b + 1);
            board[hole] = (bar - start) as u16;
            before = Some(bar);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::tests::board;

    /// Kalah on two holes a row (South's 0 and 1, North's 2 and 3), South to move with two
    /// seeds in hole 0 and North one in hole 3:
    ///
    /// ```text
    ///        3  2
    ///       [1][0]
    ///   N 0        S 13
    ///       [2][0]
    ///        0  1
    /// ```
    ///
    /// South's one move sows hole 1 and the store: an extra turn; hole 1 to the store, another,
    /// and South's row is empty: North's seed goes to North. South gains 2, North 1: the
    /// margin goes from +13 to +14, in two moves.
    #[test]
    fn a_tablebase_holds_the_value_of_a_hand_solved_ending() {
        let rules = board("variants/kalah", &[("holes", 2), ("seeds", 4)]);
        let base = Tablebase::open(&rules, 3, None, 1, &|_| {}).expect("built");
        let position =
            Position::from_setup(&rules, &[2, 0, 0, 1], [13, 0], Side::South).expect("16 seeds");
        let game = Game::from_position(&rules, position);
        let (value, height) = base.probe(&game).expect("three seeds: covered");
        assert_eq!(value, 14);
        // The longest line of any position of three seeds: at least this one's two moves.
        assert!(height >= 2);
        // Four seeds on the board: beyond this tablebase.
        let four =
            Position::from_setup(&rules, &[2, 1, 0, 1], [12, 0], Side::South).expect("16 seeds");
        assert_eq!(base.probe(&Game::from_position(&rules, four)), None);
    }

    /// A tablebase written to a directory is read back whole by the next run, for any
    /// starting fill; a file of other rules or a damaged one is refused, not read.
    #[test]
    fn files_are_read_back_and_refused_when_they_do_not_match() {
        let dir = std::env::temp_dir().join(format!("sowlab-tablebase-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let rules = board("variants/kalah", &[("holes", 3), ("seeds", 2)]);
        let built = Tablebase::open(&rules, 6, Some(&dir), 2, &|_| {}).expect("built");
        assert_eq!(built.read, 0);
        let refill = board("variants/kalah", &[("holes", 3), ("seeds", 5)]);
        let read = Tablebase::open(&refill, 6, Some(&dir), 2, &|_| {}).expect("read");
        assert_eq!(read.read, 7);
        for (a, b) in built.layers.iter().zip(&read.layers) {
            assert_eq!((&a.values, a.height), (&b.values, b.height));
        }
        let named = |rules: &Rules| dir.join(format!("{:016x}-6", rules.play_hash()));
        let files: Vec<_> = std::fs::read_dir(named(&rules))
            .expect("the tablebase's directory")
            .map(|e| {
                e.expect("an entry")
                    .file_name()
                    .into_string()
                    .expect("a name")
            })
            .collect();
        assert_eq!(
            files.len(),
            7,
            "one file a layer, no temporary left: {files:?}"
        );
        // A layer of Kalah put where the empty-capture rule's tablebase is looked for.
        let other = board("variants/catalogue/kalah-empty-capture", &[("holes", 3)]);
        std::fs::create_dir_all(named(&other)).expect("a directory");
        let layer = |rules: &Rules| named(rules).join("layer-00.sowtb");
        std::fs::copy(layer(&rules), layer(&other)).expect("copied");
        let refused = Tablebase::open(&other, 2, Some(&dir), 1, &|_| {}).err();
        assert!(
            matches!(&refused, Some(TablebaseError::Refused { why, .. }) if why.contains("built for other rules")),
            "{refused:?}"
        );
        // A value changed on disk.
        let file = named(&rules).join("layer-02.sowtb");
        let mut bytes = std::fs::read(&file).expect("read");
        *bytes.last_mut().expect("a value") ^= 1;
        std::fs::write(&file, bytes).expect("written");
        let refused = Tablebase::open(&rules, 2, Some(&dir), 1, &|_| {}).err();
        assert!(
            matches!(&refused, Some(TablebaseError::Refused { why, .. }) if why.contains("damaged")),
            "{refused:?}"
        );
        std::fs::remove_dir_all(&dir).expect("removed");
    }

    /// Every board of a few seeds on four holes is numbered once, in order, and its number
    /// reads back.
    #[test]
    fn boards_are_numbered_one_to_one() {
        let ranking = Ranking::new(4, 6);
        for seeds in 0..=6 {
            let count = ranking.count(seeds);
            // C(seeds + 3, 3) boards.
            let expected = (1..=3u64).fold(1, |c, i| c * (u64::from(seeds) + i) / i);
            assert_eq!(count, expected);
            let mut bars = ranking.unrank(seeds, 0);
            let mut board = [0u16; 4];
            for index in 0..count {
                assert_eq!(ranking.unrank(seeds, index), bars);
                ranking.board(seeds, &bars, &mut board);
                assert_eq!(ranking.rank(&board), Some((seeds, index)), "{board:?}");
                ranking.next(seeds, &mut bars);
            }
        }
        assert_eq!(ranking.rank(&[7, 0, 0, 0]), None, "beyond the ranking");
    }
}
