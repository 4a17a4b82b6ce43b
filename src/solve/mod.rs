//! Solving small boards: the value of a variant's start position with perfect play by both
//! players, by exhaustive search over the engine's own game with a transposition table.
//!
//! # The value
//! The game solved is a single game of the variant from its start position, as [`Game::new`]
//! plays it; a variant with match rules is refused ([`supported`]): the value of a match
//! depends on rounds the search does not play. With [`Limits::single_game`] such a variant is
//! solved as one game, its first round, as `simulate` plays it without `--match`. Every rule is the engine's: moves
//! are the engine's legal moves, an extra turn or a pass means the same player chooses again
//! (the engine resolves passes; see [`Game::to_move`]), and a game ends when the engine ends
//! it — by the variant's end rules, the repetition rule or the move cap, with their awards.
//!
//! A finished game is worth, to South, a [`Value`]: the **result** (+1 if the engine names
//! South the winner, -1 North, 0 a draw) and the **margin** (South's final store minus
//! North's, after the end rules have awarded the seeds left). Values are ordered by result,
//! then margin. South chooses a move of greatest value, North one of least: each player
//! maximises first their own result, then their own margin. In variants won by the larger
//! store (`winner: most captured`, the usual case, unless a game stopped by the cap or a
//! repetition is a draw) the result is the sign of the margin, so this is plain minimax on the
//! final margin; the result only counts where the rules name a winner otherwise (`stuck
//! loses`, `emptied wins`, unfinished games drawn).
//!
//! # The search
//! Each first move's exact value is found by MTD(f): null-window alpha-beta searches
//! (fail-soft) from a guess, the previous first move's value, until the bounds meet. Moves are
//! tried in order: the table's best move, then those that gain the mover most, then those
//! that earn an extra turn, then those nearest the end of the row. The table ([`table`])
//! holds exact values or bounds; it starts small and doubles as it fills, up to
//! `Limits::memory`, and once there an entry that took little work to find gives way.
//! With `Limits::threads` above one, threads share out the first moves, each with a table of
//! its own; then one line of perfect play is found, a null-window search a move.
//!
//! # The key
//! The table is keyed on what the engine's future depends on, and no more where the rules
//! allow it:
//! - **The stores**, only where they can change who wins ([`margins_suffice`]): where the
//!   winner is the larger store and no rule reads the stores (no majority end, no odd seed to
//!   the poorer player, unfinished games not drawn), the rest of the game adds the same margin
//!   whatever the stores hold, so the key leaves them out and the table holds values less the
//!   margin at the node, as strong Kalah solvers do.
//! - **The memories** the rules consult ([`Game::memory`]: last capturer, last mover, quiet
//!   moves, first moves, early move numbers, a capture turn), and owners, houses, locks and
//!   closed holes, always.
//! - **The repetition rule's positions.** The engine ends a game when a position occurs for
//!   the `repetition`-th time since the captured totals last changed (R10), so what follows a
//!   position can depend on the positions before it. The search first assumes none recurs,
//!   and checks it on every move it plays: a move must change the stores or move the seeds
//!   forward (the sum of seeds times hole number, in the sowing direction, grows), and if
//!   every move does, no position recurs before the stores change. The first move that does
//!   neither starts the search again keyed on the multiset of positions since the stores last
//!   changed, as a 128-bit digest (each position's 64-bit [`crate::engine::Position::fingerprint`] and a
//!   mix of it, summed: a few multiplications a position, as stretches can be hundreds long).
//! - **The move count**, where the rules read it early in a game (openings, first moves) and
//!   once a line reaches the move cap: each entry records the longest line below it, and an
//!   entry reused at a move count from which that line would reach the cap, or a line that
//!   does reach it, starts the search again keyed on the move count as well.
//!
//! The board (holes, and stores where keyed) is kept exactly; the rest is kept as a 64-bit
//! digest. Two keys are taken for one only if their boards are equal and their digests
//! collide, the one approximation besides the stretch's digest.
//!
//! # Limits
//! The table takes at most [`Limits::memory`] bytes ([`table::SLOT_BYTES`] a slot), and no more
//! slots than twice the estimated state space — `2 * C(S + P - 1, P - 1)`, the ways to place
//! the board's `S` seeds in its `P` holes and two stores, for either player to move. A board
//! whose estimate exceeds [`Limits::max_states`], where one is set, is refused before any
//! search; a search that plays more than [`Limits::max_nodes`] moves, where set, stops with
//! [`SolveError::TooManyNodes`], and lines longer than [`MAX_DEPTH`] moves stop it too.

pub mod grid;
mod search;
pub mod table;
pub mod tablebase;

use crate::engine::{EndReason, Game, Move};
use crate::rules::{Award, Ending, NoMove, Rules, Scoring, Side, Unfeedable};
use search::Keying;
pub use tablebase::{Tablebase, TablebaseError};

/// The default table size: 1 GiB.
pub const DEFAULT_MEMORY: u64 = 1 << 30;

/// The largest limit on states or nodes that can be asked for.
pub const MAX_MAX_STATES: u64 = 1_000_000_000_000;

/// The longest line of play searched, in moves and passes.
pub const MAX_DEPTH: usize = 2_000;

/// How far the search may go, and whether a match variant is solved as one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The largest estimated state space searched, if limited.
    pub max_states: Option<u64>,
    /// The most nodes (moves played by the search) before it gives up, if limited.
    pub max_nodes: Option<u64>,
    /// The most bytes the tables take, all threads together.
    pub memory: u64,
    /// Threads searching first moves (each with a table of its own): the values do not
    /// depend on it; the nodes searched do.
    pub threads: usize,
    /// Solve a variant with match rules as a single game (its first round, as `simulate`
    /// plays it without `--match`) rather than refuse it.
    pub single_game: bool,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_states: None,
            max_nodes: None,
            memory: DEFAULT_MEMORY,
            threads: 1,
            single_game: false,
        }
    }
}

/// How far a search has gone, reported every million nodes or so.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Moves played by the search so far.
    pub nodes: u64,
    /// Table slots in use.
    pub entries: u64,
    /// Table slots in all.
    pub capacity: u64,
    /// First moves whose exact value is found, all threads together.
    pub first_moves_solved: usize,
    /// First moves in all.
    pub first_moves: usize,
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

    /// The margin to `side`: its final store less the other's.
    pub fn margin_to(self, side: Side) -> i32 {
        match side {
            Side::South => self.margin,
            Side::North => -self.margin,
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
    /// A line of perfect play from the start to the end of the game (a principal variation):
    /// at each turn, the first move in move order of those of the best value. Empty if the
    /// start position is already over. Each move with the player who made it.
    pub line: Vec<(Side, Move)>,
    /// How that line ends the game: by an end rule of the variant, or stopped by the move cap
    /// or a repetition (then the value is that of a game the rules stop, not one they finish).
    pub end: EndReason,
    /// Moves played by the search (each child position made once per visit), over every
    /// start it needed.
    pub nodes: u64,
    /// Table slots in use at the end.
    pub table: u64,
    /// Table slots in all.
    pub capacity: u64,
    /// Positions expanded that had occurred before in their stretch: how often the
    /// repetition rule's history came into play.
    pub recurrences: u64,
    /// Positions whose value the tablebase gave, rather than a search.
    pub probes: u64,
    /// Whether the search had to key on the move count (a line reached the move cap).
    pub move_count_keyed: bool,
    /// Whether the search had to key on the positions since the stores last changed (a move
    /// could let a position recur).
    pub stretch_keyed: bool,
    /// Whether the key left the stores out ([`margins_suffice`]).
    pub store_free: bool,
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
    /// The board does not fit the table's key.
    #[error("{holes} holes holding up to {seeds} seeds each do not fit the table's 128-bit key")]
    TooWide {
        /// Holes, and the stores where they are keyed.
        holes: usize,
        /// The most seeds a hole can hold.
        seeds: u32,
    },
    /// The system would not give the table its memory.
    #[error("the system would not give the table {bytes} bytes of memory")]
    NoMemory {
        /// The memory asked for.
        bytes: u64,
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

/// Whether the rest of a game of `rules` is worth the same margin whatever the stores hold,
/// so that the table may leave them out: the winner is the larger store, no end rule counts
/// what has been captured, and no award depends on it. Every end rule is named here, so that
/// a rule added later does not compile until it says whether it reads the stores.
pub fn margins_suffice(rules: &Rules) -> bool {
    let program = &rules.program;
    let Ending {
        last_seeds,
        majority,
        empty_row,
        singletons,
        quiet,
        no_move,
        move_cap: _,
        cap_award,
        repetition: _,
        repetition_award,
        unfinished_is_draw,
        endless: _,
        scoring,
        // Which rule decides when several hold: none of the rules it orders reads the stores
        // but `majority`, looked at above.
        order: _,
    } = &program.ending;
    let awards = [
        last_seeds.map(|r| r.to),
        empty_row.map(|(_, a)| a),
        *singletons,
        quiet.map(|(_, a)| a),
        match no_move {
            NoMove::EndGame(a) => Some(*a),
            NoMove::Pass => None,
        },
        Some(*cap_award),
        Some(*repetition_award),
        match program.feeding.map(|f| f.unfeedable) {
            Some(Unfeedable::Ends(a)) => Some(a),
            _ => None,
        },
    ];
    let reads_stores = |award: Award| match award {
        Award::SplitOddToPoorer => true,
        Award::Capturer
        | Award::PlayerToMove
        | Award::LastMover
        | Award::Owners
        | Award::Split
        | Award::Opponent
        | Award::Starter
        | Award::Nobody
        | Award::PreviousWinner => false,
    };
    program.matches.is_none()
        && majority.is_none()
        && !unfinished_is_draw
        && *scoring == Scoring::MostCaptured
        && !awards.into_iter().flatten().any(reads_stores)
}

/// Solves the start position of a single game of `rules`.
///
/// # Errors
/// When the rules have a feature the solver cannot key ([`supported`]), the board's
/// estimated state space is above `limits.max_states` (checked first) or does not fit the key,
/// the search plays more nodes than `limits.max_nodes`, or a line is longer than
/// [`MAX_DEPTH`].
pub fn solve(rules: &Rules, limits: Limits) -> Result<Solution, SolveError> {
    solve_reporting(rules, limits, None, &|_| {})
}

/// [`solve`], reading the values of positions with few seeds on the board from `tablebase`
/// where it has them (it is not read where it was built for other rules, or the key keeps the
/// stores), and telling `progress` how far the search has gone every million nodes or so.
///
/// # Errors
/// As [`solve`].
pub fn solve_reporting(
    rules: &Rules,
    limits: Limits,
    tablebase: Option<&Tablebase>,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<Solution, SolveError> {
    solve_from(&Game::new(rules), limits, tablebase, progress)
}

/// [`solve_reporting`] from `game`, wherever it stands: the value of the rest of the game
/// (its margin counts what the stores already hold), each legal move's, and a line of perfect
/// play from there. What a player needs who plays perfectly ([`crate::agents::Perfect`]).
///
/// # Errors
/// As [`solve`], for `game`'s rules.
pub fn solve_from(
    game: &Game<'_>,
    limits: Limits,
    tablebase: Option<&Tablebase>,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<Solution, SolveError> {
    let rules = game.rules();
    let estimate = estimate(rules);
    if let Some(limit) = limits.max_states.filter(|&l| estimate > u128::from(l)) {
        return Err(SolveError::TooLarge { estimate, limit });
    }
    let store_free = margins_suffice(rules);
    let holes = rules.holes() + if store_free { 0 } else { 2 };
    let seed_bits = 32 - rules.total_seeds().leading_zeros();
    if holes as u32 * seed_bits > 128 {
        return Err(SolveError::TooWide {
            holes,
            seeds: rules.total_seeds(),
        });
    }
    // After the size: a board too large to solve is that, whatever else it has.
    if !limits.single_game {
        supported(rules)?;
    }
    let keying = Keying {
        store_free,
        stretch: false,
        move_count: false,
        pruning: true,
    };
    let slots = u64::try_from(estimate.saturating_mul(2)).unwrap_or(u64::MAX);
    // Lines can be long: the search recurses once per move, on a stack of its own.
    on_deep_stack(|| search::search_root(game, limits, keying, slots, tablebase, progress))
}

/// `search`, on a thread with room for [`MAX_DEPTH`] frames.
fn on_deep_stack<T: Send>(search: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("solve".into())
            .stack_size(STACK_BYTES)
            .spawn_scoped(scope, search)
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
    on_deep_stack(|| value(&Game::new(rules), 0).map(Value::unpack))
}

/// Room for [`MAX_DEPTH`] frames of the search.
pub(super) const STACK_BYTES: usize = 256 << 20;
#[cfg(test)]
pub(super) mod tests {
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

    /// A shipped or catalogue variant with `--set` settings.
    pub(super) fn board(name: &str, settings: &[(&str, u32)]) -> Rules {
        let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("{name}.sow"));
        let settings: Vec<_> = settings
            .iter()
            .map(|&(k, v)| (k.into(), v.to_string()))
            .collect();
        crate::lang::compile_path(&file, &settings).expect("compiles")
    }

    /// The start position of `rules` searched with `keying`, in a table of `slots` slots,
    /// reading `tablebase` where it has a value.
    fn search_with(
        rules: &Rules,
        keying: Keying,
        slots: u64,
        tablebase: Option<&Tablebase>,
    ) -> Solution {
        let slots = slots.min(1 << 22);
        on_deep_stack(|| {
            search::search_root(
                &Game::new(rules),
                Limits::default(),
                keying,
                slots,
                tablebase,
                &|_| {},
            )
        })
        .expect("solved")
    }

    fn search(rules: &Rules, keying: Keying, slots: u64) -> Solution {
        search_with(rules, keying, slots, None)
    }

    /// The shortcuts of the search change no value, first moves included: alpha-beta and
    /// MTD(f) against plain minimax with a table of exact values; a key without the stores,
    /// the stretch or the move count against one with all three; a table of 32 slots against
    /// a large one; a tablebase of every position with up to 5 seeds on the board, where the
    /// rules allow one.
    #[test]
    fn shortcuts_change_no_value() {
        let small = |holes, seeds| vec![("holes", holes), ("seeds", seeds)];
        let boards = [
            ("variants/kalah", small(3, 2)),
            ("variants/kalah", small(3, 3)),
            // Lines reach a cap of 6 moves: the search keys on the move count.
            (
                "variants/kalah",
                vec![("holes", 3), ("seeds", 2), ("cap", 6)],
            ),
            ("variants/catalogue/kalah-empty-capture", small(3, 2)),
            // Sowing round past hole 0 keeps the stores: the search keys on the stretch.
            ("variants/oware", small(2, 1)),
            ("variants/ayoayo", small(2, 2)),
            ("variants/en-dodoi", small(2, 2)),
        ];
        // Whether some board left the stores out, keyed the stretch, keyed the move count,
        // read a tablebase.
        let mut exercised = [false; 4];
        for (name, settings) in boards {
            let rules = board(name, &settings);
            let exact = Keying {
                store_free: false,
                stretch: true,
                move_count: true,
                pruning: false,
            };
            let plain = search(&rules, exact, 1 << 22);
            let fast = Keying {
                store_free: margins_suffice(&rules),
                stretch: false,
                move_count: false,
                pruning: true,
            };
            let tablebase = Tablebase::open(&rules, 5, None, 2, &|_| {}).ok();
            for (slots, tablebase) in [(1 << 22, None), (32, None), (1 << 22, tablebase.as_ref())] {
                let solved = search_with(&rules, fast, slots, tablebase);
                let context = format!("{name} {settings:?}, {slots} slots");
                assert_eq!(solved.moves, plain.moves, "{context}");
                assert_eq!(solved.value, plain.value, "{context}");
                assert_eq!(solved.line, plain.line, "{context}");
                let keyed = [
                    solved.store_free,
                    solved.stretch_keyed,
                    solved.move_count_keyed,
                    solved.probes > 0,
                ];
                for (seen, now) in exercised.iter_mut().zip(keyed) {
                    *seen |= now;
                }
            }
            let pruned = search(
                &rules,
                Keying {
                    pruning: true,
                    ..exact
                },
                1 << 22,
            );
            assert_eq!(pruned.moves, plain.moves, "{name} {settings:?}");
            assert!(pruned.nodes <= plain.nodes, "{name} {settings:?}");
        }
        assert_eq!(
            exercised, [true; 4],
            "stores left out, stretch keyed, move count keyed, tablebase read"
        );
    }

    /// Kalah's winner is the larger store and no rule reads the stores; Oware's ends when a
    /// player has more than half the seeds.
    #[test]
    fn margins_suffice_where_no_rule_reads_the_stores() {
        assert!(margins_suffice(&board("variants/kalah", &[])));
        assert!(!margins_suffice(&board("variants/oware", &[])));
        assert!(!margins_suffice(&board("variants/hoyito-i", &[])));
    }
}
