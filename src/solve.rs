//! Solving small boards: the value of a variant's start position with perfect play by both
//! players, by exhaustive search over the engine's own game with a transposition table.
//!
//! # The value
//! The game solved is a single game of the variant from its start position, as [`Game::new`]
//! plays it; a variant with match rules is refused ([`supported`]): the value of a match
//! depends on rounds the search does not play. Every rule is the engine's: moves
//! are the engine's legal moves, an extra turn or a pass means the same player chooses again
//! (the engine resolves passes; see [`Game::to_move`]), and a game ends when the engine ends
//! it — by the variant's end rules, the repetition rule or the move cap, with their awards.
//!
//! A finished game is worth, to South, a [`Value`]: the **result** (+1 if the engine names
//! South the winner, -1 North, 0 a draw) and the **margin** (South's final store minus
//! North's, after the end rules have awarded the seeds left). Values are ordered by result,
//! then margin. South chooses a move of greatest value, North one of least: each player
//! maximises first their own result, then their own margin. The value of the start position
//! is that minimax value, found by alpha-beta search (fail-soft) whose table stores exact
//! values and lower and upper bounds, with the table's best move tried first. In variants won by the larger store (`winner: most captured`, the
//! usual case, unless a game stopped by the cap or a repetition is a draw) the result is the
//! sign of the margin, so this is plain minimax on the final margin; the result only counts
//! where the rules name a winner otherwise (`stuck loses`, `emptied wins`, unfinished games
//! drawn).
//!
//! # Repetition and the move cap
//! The engine ends a game when a position occurs for the `repetition`-th time since the
//! captured totals last changed (R10). What follows a position therefore depends on the
//! positions before it in that stretch, not on the position alone: keying the table on the
//! position would give values the engine does not agree with as soon as a position can recur.
//! The table is keyed on all the engine's future depends on: the position (board, stores,
//! owners, houses, locks, player to move), the memories the rules consult ([`Game::memory`]:
//! last capturer, last mover, quiet moves, first moves, early move numbers, a capture turn),
//! and the multiset of positions of the current stretch, as a 128-bit digest (two
//! independent 64-bit hashes of each position, summed). Positions that are entered by a
//! change of the stores — every capture, every seed sown into a store — have a stretch of
//! their own alone, so transpositions are found there; within a stretch of capture-free
//! moves only identical histories share an entry. The digest is the one approximation: two
//! different stretches share an entry only if both 64-bit sums collide.
//!
//! The move cap is the engine's too. The search first keys on the move count only where the
//! rules read it early in a game (openings, first moves); each entry records the longest line
//! below it, and an entry reused at a move count from which that line would reach the cap,
//! or a line that does reach it, restarts the whole search keyed on the move count as well.
//!
//! # Limits
//! A board is refused before any search when its estimated state space — `2 * C(S + P - 1,
//! P - 1)`, the ways to place its `S` seeds in its `P` holes and two stores, for either
//! player to move — exceeds [`Limits::max_states`]; the table then holds at most that many
//! entries (about [`ENTRY_BYTES`] bytes each), and a search that needs more (repetitions
//! multiply the keys) stops with [`SolveError::TableFull`]. A search that plays more than
//! [`Limits::max_nodes`] moves stops with [`SolveError::TooManyNodes`], and lines longer than
//! [`MAX_DEPTH`] moves stop it too.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};

use crate::agents::alphabeta::Bound;
use crate::engine::{EndReason, Game, Move, Position};
use crate::rules::{Rules, Side};

/// The default limit on the estimated state space and on table entries (about 1 GB at most).
pub const DEFAULT_MAX_STATES: u64 = 5_000_000;

/// The largest limit that can be asked for.
pub const MAX_MAX_STATES: u64 = 1_000_000_000_000;

/// The default limit on nodes (moves played by the search): a few minutes.
pub const DEFAULT_MAX_NODES: u64 = 50_000_000;

/// Roughly what one table entry takes in memory, in bytes (key, value, the hash table's
/// overhead), for the memory a limit allows.
pub const ENTRY_BYTES: u64 = 200;

/// The longest line of play searched, in moves and passes.
pub const MAX_DEPTH: usize = 2_000;

/// How far the search may go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The largest estimated state space searched, and the most table entries kept.
    pub max_states: u64,
    /// The most nodes (moves played by the search) before it gives up.
    pub max_nodes: u64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_states: DEFAULT_MAX_STATES,
            max_nodes: DEFAULT_MAX_NODES,
        }
    }
}

/// The value of a position to South: the result first, then the margin.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Value {
    /// +1 South wins, 0 a draw, -1 North wins.
    pub result: i8,
    /// South's final store minus North's.
    pub margin: i32,
}

impl Value {
    /// The winner: `None` for a draw.
    pub fn winner(self) -> Option<Side> {
        match self.result {
            1 => Some(Side::South),
            -1 => Some(Side::North),
            _ => None,
        }
    }

    /// `South wins by 4`, `North wins by 2`, `a draw`.
    pub fn verdict(self) -> String {
        match self.winner() {
            Some(Side::South) => format!("South wins by {}", self.margin.abs()),
            Some(Side::North) => format!("North wins by {}", self.margin.abs()),
            None => "a draw".to_string(),
        }
    }

    /// Packed in one number whose order is the value's order.
    fn pack(self) -> i32 {
        i32::from(self.result) * RESULT + self.margin
    }

    fn unpack(packed: i32) -> Value {
        let result = (packed + RESULT / 2).div_euclid(RESULT);
        Value {
            result: result as i8,
            margin: packed - result * RESULT,
        }
    }

    /// The value of a finished game.
    pub fn of_finished(game: &Game<'_>) -> Value {
        let [south, north] = game.position().stores();
        let result = match game.outcome().and_then(|o| o.winner) {
            Some(Side::South) => 1,
            Some(Side::North) => -1,
            None => 0,
        };
        Value {
            result,
            margin: i32::from(south) - i32::from(north),
        }
    }
}

/// Margins stay far below this (seeds are `u16`s).
const RESULT: i32 = 1 << 20;

/// A solved start position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The value with perfect play.
    pub value: Value,
    /// Each legal first move and its exact value, in move order (empty if the start position
    /// is already over).
    pub moves: Vec<(Move, Value)>,
    /// Moves played by the search (each child position made once per visit).
    pub nodes: u64,
    /// Entries in the table at the end.
    pub table: usize,
    /// Positions expanded that had occurred before in their stretch: how often the
    /// repetition rule's history came into play.
    pub recurrences: u64,
    /// Whether the search had to key on the move count (a line reached the move cap).
    pub move_count_keyed: bool,
}

impl Solution {
    /// The first moves that achieve the value, in move order.
    pub fn best(&self) -> Vec<Move> {
        self.moves
            .iter()
            .filter(|(_, v)| *v == self.value)
            .map(|&(mv, _)| mv)
            .collect()
    }
}

/// Why a board was not solved.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    /// The board is beyond the limit, before any search.
    #[error("{} estimated states is above the limit of {limit}", estimate_text(*estimate))]
    TooLarge {
        /// The estimate, saturated at `u128::MAX`.
        estimate: u128,
        /// The limit.
        limit: u64,
    },
    /// The table reached its cap during the search.
    #[error("the search needed more than {limit} table entries")]
    TableFull {
        /// The cap.
        limit: u64,
    },
    /// The search played more nodes than allowed.
    #[error("the search needed more than {limit} nodes")]
    TooManyNodes {
        /// The cap.
        limit: u64,
    },
    /// A line of play longer than [`MAX_DEPTH`].
    #[error("a line of play is longer than {MAX_DEPTH} moves")]
    TooDeep,
    /// The rules have a feature the solver cannot search exactly.
    #[error("the solver cannot key {feature} exactly")]
    Unsupported {
        /// The feature.
        feature: &'static str,
    },
}

/// An estimate as a count, or `more than 3.4e38` where it saturated and is no count at all.
pub fn estimate_text(estimate: u128) -> String {
    if estimate == u128::MAX {
        format!("more than {:.1e}", u128::MAX as f64)
    } else {
        estimate.to_string()
    }
}

/// The estimated state space of `rules`' board (see [`estimate_board`]).
pub fn estimate(rules: &Rules) -> u128 {
    estimate_board(rules.holes_per_row(), rules.total_seeds())
}

/// The estimated state space of a board of `holes_per_row` holes a row holding `seeds` seeds:
/// `2 * C(S + P - 1, P - 1)` for `S` seeds in `P` places (the holes and two stores), the
/// ways to place them for either player to move; saturating.
pub fn estimate_board(holes_per_row: usize, seeds: u32) -> u128 {
    let places = 2 * holes_per_row as u128 + 2;
    let seeds = u128::from(seeds);
    // C(S + P - 1, P - 1), built up factor by factor: each partial product is a binomial.
    let mut count: u128 = 1;
    for i in 1..places {
        count = match count.checked_mul(seeds + i) {
            Some(c) => c / i,
            None => return u128::MAX,
        };
    }
    count.saturating_mul(2)
}

/// Whether the solver can search `rules` exactly: `Err` names the feature it cannot key.
///
/// # Errors
/// Match play: a match's value depends on rounds the solver does not play.
pub fn supported(rules: &Rules) -> Result<(), SolveError> {
    if rules.program.matches.is_some() {
        return Err(SolveError::Unsupported {
            feature: "match play (later rounds depend on the seeds each player won)",
        });
    }
    Ok(())
}

/// Solves the start position of a single game of `rules`.
///
/// # Errors
/// When the rules have a feature the solver cannot key ([`supported`]), the board's
/// estimated state space is above `limits.max_states` (checked first), the search needs more
/// table entries than that or more nodes than `limits.max_nodes`, or a line is longer than
/// [`MAX_DEPTH`].
pub fn solve(rules: &Rules, limits: Limits) -> Result<Solution, SolveError> {
    let estimate = estimate(rules);
    let seed_bits = 32 - rules.total_seeds().leading_zeros();
    let fits = (rules.holes() as u32 + 2) * seed_bits <= 128;
    if estimate > u128::from(limits.max_states) || !fits {
        return Err(SolveError::TooLarge {
            estimate,
            limit: limits.max_states,
        });
    }
    // After the size: a board too large to solve is that, whatever else it has.
    supported(rules)?;
    // Lines can be long: the search recurses once per move, on a stack of its own.
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("solve".into())
            .stack_size(STACK_BYTES)
            .spawn_scoped(scope, || search_root(rules, limits, seed_bits, true))
            .expect("a thread for the search")
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}

/// The value of the start position by plain minimax: no table, no pruning, no limits but
/// [`MAX_DEPTH`]. Exponential: for checking [`solve`] on tiny boards only.
///
/// # Errors
/// As [`solve`], for unsupported rules or a line longer than [`MAX_DEPTH`].
pub fn minimax(rules: &Rules) -> Result<Value, SolveError> {
    supported(rules)?;
    fn value(game: &Game<'_>, depth: usize) -> Result<i32, SolveError> {
        if game.is_over() {
            return Ok(Value::of_finished(game).pack());
        }
        if depth >= MAX_DEPTH {
            return Err(SolveError::TooDeep);
        }
        let mut game = game.clone();
        let south = game.to_move() == Some(Side::South);
        let mut best = if south { i32::MIN } else { i32::MAX };
        for mv in game.legal_moves() {
            let mut child = game.clone();
            child.play(mv).expect("legal");
            let v = value(&child, depth + 1)?;
            best = if south { best.max(v) } else { best.min(v) };
        }
        Ok(best)
    }
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .stack_size(STACK_BYTES)
            .spawn_scoped(scope, || value(&Game::new(rules), 0).map(Value::unpack))
            .expect("a thread for the search")
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}

/// Room for [`MAX_DEPTH`] frames of the search.
const STACK_BYTES: usize = 256 << 20;

fn search_root(
    rules: &Rules,
    limits: Limits,
    seed_bits: u32,
    pruning: bool,
) -> Result<Solution, SolveError> {
    let mut solver = Solver {
        table: HashMap::new(),
        max_entries: limits.max_states,
        max_nodes: limits.max_nodes,
        seed_bits,
        cap: rules.program.ending.move_cap,
        move_count_keyed: false,
        pruning,
        nodes: 0,
        recurrences: 0,
        depth: 0,
    };
    let mut game = Game::new(rules);
    loop {
        match solver.root(&mut game) {
            Ok((value, moves)) => {
                return Ok(Solution {
                    value,
                    moves,
                    nodes: solver.nodes,
                    table: solver.table.len(),
                    recurrences: solver.recurrences,
                    move_count_keyed: solver.move_count_keyed,
                })
            }
            Err(Stop::CapInReach) if !solver.move_count_keyed => {
                solver.move_count_keyed = true;
                solver.table.clear();
                solver.recurrences = 0;
                solver.depth = 0;
            }
            Err(Stop::CapInReach) => unreachable!("keyed on the move count, the cap is exact"),
            Err(Stop::Error(e)) => return Err(e),
        }
    }
}

/// Why a search stopped.
enum Stop {
    /// A line reaches the move cap: the table must key on the move count.
    CapInReach,
    Error(SolveError),
}

/// What the engine's future depends on (see the module documentation).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Key {
    /// Holes and stores, a fixed number of bits each.
    seeds: u128,
    /// North's holes, houses, locked holes and closed holes, 32 bits each.
    masks: u128,
    /// [`Game::memory`].
    memory: u64,
    /// The multiset of positions since the stores last changed.
    stretch: u128,
    /// The move count, once the cap is within reach.
    moves: u32,
}

#[derive(Clone, Copy)]
struct Entry {
    value: i32,
    bound: Bound,
    /// The longest line below searched, in moves.
    height: u32,
    /// The best move found, tried first when the position is searched again.
    best: Move,
}

struct Solver {
    table: HashMap<Key, Entry>,
    max_entries: u64,
    max_nodes: u64,
    seed_bits: u32,
    cap: u32,
    move_count_keyed: bool,
    /// Alpha-beta pruning and the table; off, plain minimax with a table of exact values.
    pruning: bool,
    nodes: u64,
    recurrences: u64,
    depth: usize,
}

impl Solver {
    /// The value of the start position and the exact value of each first move.
    #[allow(clippy::type_complexity)]
    fn root(&mut self, game: &mut Game<'_>) -> Result<(Value, Vec<(Move, Value)>), Stop> {
        if game.is_over() {
            return Ok((Value::of_finished(game), Vec::new()));
        }
        let south = game.to_move() == Some(Side::South);
        let mut moves = Vec::new();
        for mv in game.legal_moves() {
            // A full window: every first move's exact value, for the report.
            let (value, _) = self.after(game, mv, i32::MIN, i32::MAX)?;
            moves.push((mv, Value::unpack(value)));
        }
        let values = moves.iter().map(|&(_, v)| v);
        let best = if south { values.max() } else { values.min() };
        Ok((best.expect("a game not over has a move"), moves))
    }

    /// The packed value of the game after `mv` (fail-soft within `alpha..beta`), and the
    /// longest line searched from there.
    fn after(
        &mut self,
        game: &Game<'_>,
        mv: Move,
        alpha: i32,
        beta: i32,
    ) -> Result<(i32, u32), Stop> {
        let mut child = game.clone();
        child.play(mv).expect("the search plays legal moves");
        self.nodes += 1;
        if self.nodes > self.max_nodes {
            return Err(Stop::Error(SolveError::TooManyNodes {
                limit: self.max_nodes,
            }));
        }
        match child.outcome() {
            Some(o) if o.reason == EndReason::Cap && !self.move_count_keyed => {
                Err(Stop::CapInReach)
            }
            Some(_) => Ok((Value::of_finished(&child).pack(), 0)),
            None => self.value(&mut child, alpha, beta),
        }
    }

    /// The packed value of `game`, which is not over, fail-soft within `alpha..beta` (South
    /// maximises), and the longest line searched from it.
    fn value(&mut self, game: &mut Game<'_>, alpha: i32, beta: i32) -> Result<(i32, u32), Stop> {
        let (mut alpha, mut beta) = if self.pruning {
            (alpha, beta)
        } else {
            (i32::MIN, i32::MAX)
        };
        let key = self.key(game);
        let moves = game.stats().moves;
        let mut first = None;
        if let Some(entry) = self.table.get(&key).copied() {
            if !self.move_count_keyed
                && u64::from(moves) + u64::from(entry.height) > u64::from(self.cap)
            {
                return Err(Stop::CapInReach);
            }
            let enough = match entry.bound {
                Bound::Exact => true,
                Bound::Lower => entry.value >= beta,
                Bound::Upper => entry.value <= alpha,
            };
            if enough {
                return Ok((entry.value, entry.height));
            }
            match entry.bound {
                Bound::Lower => alpha = alpha.max(entry.value),
                Bound::Upper => beta = beta.min(entry.value),
                Bound::Exact => {}
            }
            first = Some(entry.best);
        }
        if self.depth >= MAX_DEPTH {
            return Err(Stop::Error(SolveError::TooDeep));
        }
        let (window_alpha, window_beta) = (alpha, beta);
        let south = game.to_move() == Some(Side::South);
        let mut best = if south { i32::MIN } else { i32::MAX };
        let mut height = 0;
        let mut order = game.legal_moves();
        if let Some(i) = first.and_then(|f| order.iter().position(|&m| m == f)) {
            order[..=i].rotate_right(1);
        }
        let mut best_move = order[0];
        self.depth += 1;
        for mv in order {
            let (value, below) = self.after(game, mv, alpha, beta)?;
            height = height.max(below + 1);
            if (south && value > best) || (!south && value < best) {
                best = value;
                best_move = mv;
            }
            if south {
                alpha = alpha.max(best);
            } else {
                beta = beta.min(best);
            }
            if alpha >= beta {
                break;
            }
        }
        self.depth -= 1;
        let bound = if best <= window_alpha {
            Bound::Upper
        } else if best >= window_beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        if self.table.len() as u64 >= self.max_entries && !self.table.contains_key(&key) {
            return Err(Stop::Error(SolveError::TableFull {
                limit: self.max_entries,
            }));
        }
        self.table.insert(
            key,
            Entry {
                value: best,
                bound,
                height,
                best: best_move,
            },
        );
        Ok((best, height))
    }

    fn key(&mut self, game: &Game<'_>) -> Key {
        let position = game.position();
        let mut seeds = 0u128;
        for &n in position.board().iter().chain(&position.stores()) {
            seeds = seeds << self.seed_bits | u128::from(n);
        }
        let masks = u128::from(position.north_mask())
            | u128::from(position.houses()) << 32
            | u128::from(position.locked_mask()) << 64
            | u128::from(position.closed()) << 96;
        let mut stretch = 0u128;
        let mut occurrences = 0;
        for p in game.stretch() {
            stretch = stretch.wrapping_add(digest(p));
            occurrences += usize::from(p == position);
        }
        if occurrences > 1 {
            self.recurrences += 1;
        }
        Key {
            seeds,
            masks,
            memory: game.memory(),
            stretch,
            moves: if self.move_count_keyed {
                game.stats().moves
            } else {
                0
            },
        }
    }
}

/// Two independent 64-bit hashes of a position.
fn digest(position: &Position) -> u128 {
    let half = |salt: u64| {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        salt.hash(&mut h);
        position.hash(&mut h);
        h.finish()
    };
    u128::from(half(0x736f_776c_6162)) << 64 | u128::from(half(0x7374_7265_7463))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_pack_in_order() {
        let values = [
            (-1, -30),
            (-1, 4),
            (0, -2),
            (0, 0),
            (0, 3),
            (1, -5),
            (1, 12),
        ];
        let packed: Vec<i32> = values
            .iter()
            .map(|&(result, margin)| Value { result, margin }.pack())
            .collect();
        assert!(packed.windows(2).all(|w| w[0] < w[1]));
        for (&(result, margin), &p) in values.iter().zip(&packed) {
            assert_eq!(Value::unpack(p), Value { result, margin });
        }
    }

    /// Alpha-beta with bounds in the table gives the exact values of the search without
    /// pruning (a table of exact values only), first moves included.
    #[test]
    fn pruning_changes_no_value() {
        let boards = [
            ("kalah", 3, 2),
            ("kalah", 3, 3),
            ("oware", 2, 1),
            ("ayoayo", 2, 2),
            ("en-dodoi", 2, 2),
        ];
        for (name, holes, seeds) in boards {
            let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join(format!("variants/{name}.sow"));
            let settings = [
                ("holes".to_string(), format!("{holes}")),
                ("seeds".to_string(), format!("{seeds}")),
            ];
            let rules = crate::lang::compile_path(&file, &settings).expect("compiles");
            let seed_bits = 32 - rules.total_seeds().leading_zeros();
            let search = |pruning| {
                search_root(&rules, Limits::default(), seed_bits, pruning).expect("solved")
            };
            let (pruned, plain) = (search(true), search(false));
            assert_eq!(pruned.value, plain.value, "{name} {holes}x{seeds}");
            assert_eq!(pruned.moves, plain.moves, "{name} {holes}x{seeds}");
            assert!(pruned.nodes <= plain.nodes, "{name} {holes}x{seeds}");
        }
    }
}
