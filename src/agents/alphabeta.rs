//! Alpha-beta search: negamax where turns alternate (and plain max where a player moves again,
//! after an extra turn or the opponent's pass), iterative deepening, a transposition table keyed
//! by the position's fingerprint, and move ordering by the table's best move and by immediate
//! gain. Evaluation: capture difference.

use std::collections::HashMap;

use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use super::{play_chosen, score, Agent};
use crate::engine::{Game, Move, MoveReport};
use crate::rules::Side;

/// A finished game is worth more than any capture difference: a won game is worth `WIN` plus
/// the final capture margin, a lost one minus `WIN` plus that margin.
pub const WIN: i32 = 1_000_000;

/// What a transposition-table entry knows of its position's value (also the solver's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The value.
    Exact,
    /// At least this.
    Lower,
    /// At most this.
    Upper,
}

impl Bound {
    /// What a fail-soft search's `value` within `alpha..beta` says of the true value.
    pub(crate) fn of(value: i32, alpha: i32, beta: i32) -> Bound {
        if value <= alpha {
            Bound::Upper
        } else if value >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        }
    }
}

#[derive(Clone, Copy)]
struct Entry {
    depth: u8,
    value: i32,
    bound: Bound,
    best: Move,
}

/// Depth-limited alpha-beta.
pub struct AlphaBeta {
    depth: u8,
    table: HashMap<u64, Entry>,
}

impl AlphaBeta {
    /// Searches `depth` moves ahead (extra turns count as moves).
    pub fn new(depth: u8) -> AlphaBeta {
        AlphaBeta {
            depth,
            table: HashMap::new(),
        }
    }

    /// The value of `game` for the player to move, searched `depth` moves deep.
    fn negamax(&mut self, game: &mut Game<'_>, depth: u8, mut alpha: i32, beta: i32) -> i32 {
        let me = game.to_move().expect("searched positions are not over");
        let key = game.position().fingerprint();
        let mut first = None;
        if let Some(entry) = self.table.get(&key).copied() {
            first = Some(entry.best);
            if entry.depth >= depth {
                match entry.bound {
                    Bound::Exact => return entry.value,
                    Bound::Lower if entry.value >= beta => return entry.value,
                    Bound::Upper if entry.value <= alpha => return entry.value,
                    _ => {}
                }
            }
        }
        if depth == 0 {
            return score(game, me);
        }
        let original_alpha = alpha;
        let mut best_value = i32::MIN;
        let moves = ordered(game, first);
        let mut best_move = moves[0];
        for mv in moves {
            let mut child = game.clone();
            child.play(mv).expect("legal");
            let value = self.value_after(&mut child, me, depth - 1, alpha, beta);
            if value > best_value {
                best_value = value;
                best_move = mv;
            }
            alpha = alpha.max(value);
            if alpha >= beta {
                break;
            }
        }
        let bound = Bound::of(best_value, original_alpha, beta);
        self.table.insert(
            key,
            Entry {
                depth,
                value: best_value,
                bound,
                best: best_move,
            },
        );
        best_value
    }

    /// The value for `me` of a position reached by `me`'s move.
    fn value_after(
        &mut self,
        child: &mut Game<'_>,
        me: Side,
        depth: u8,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        match child.to_move() {
            None => terminal(child, me),
            Some(side) if side == me => self.negamax(child, depth, alpha, beta),
            Some(_) => -self.negamax(child, depth, -beta, -alpha),
        }
    }
}

/// A finished game's value for `me`: a win or loss outweighs any capture difference, and a
/// bigger margin is better.
fn terminal(game: &Game<'_>, me: Side) -> i32 {
    let margin = score(game, me);
    match game.outcome().and_then(|o| o.winner) {
        Some(w) if w == me => WIN + margin,
        Some(_) => -WIN + margin,
        None => margin,
    }
}

/// Legal moves, the table's best first, then by immediate capture gain.
fn ordered(game: &mut Game<'_>, first: Option<Move>) -> Vec<Move> {
    let me = game.to_move().expect("not over");
    let mut moves: Vec<(i32, Move)> = game
        .legal_moves()
        .into_iter()
        .map(|mv| {
            let gain = game.preview(mv).map_or(0, |p| {
                i32::from(p.store(me)) - i32::from(p.store(me.other()))
            });
            let bonus = if Some(mv) == first { WIN } else { 0 };
            (-(gain + bonus), mv)
        })
        .collect();
    moves.sort_unstable();
    moves.into_iter().map(|(_, mv)| mv).collect()
}

impl AlphaBeta {
    /// The move this agent would play in `game` (which is not over), and its value for the
    /// player to move: the capture difference after the searched depth with best play on both
    /// sides, or, for a game the search sees to its end, [`WIN`] plus the final capture margin
    /// for a win and minus [`WIN`] plus that margin for a loss. `rng` breaks ties between
    /// equally good moves. The game is left as it was.
    pub fn search(&mut self, game: &mut Game<'_>, rng: &mut ChaCha8Rng) -> (Move, i32) {
        let me = game.to_move().expect("the game is not over");
        self.table.clear();
        // Shuffled root order: among equally good moves the first found is played, so ties are
        // broken at random.
        let mut roots = game.legal_moves();
        roots.shuffle(rng);
        let mut choice = roots[0];
        let mut found = 0;
        for depth in 1..=self.depth {
            let mut best = i32::MIN;
            let mut alpha = -WIN * 2;
            if let Some(i) = roots.iter().position(|&h| h == choice) {
                roots[..=i].rotate_right(1);
            }
            for &mv in &roots {
                let mut child = game.clone();
                child.play(mv).expect("legal");
                let value = self.value_after(&mut child, me, depth - 1, alpha, WIN * 2);
                if value > best {
                    best = value;
                    choice = mv;
                }
                alpha = alpha.max(value);
            }
            found = best;
        }
        (choice, found)
    }
}

impl Agent for AlphaBeta {
    fn play(&mut self, game: &mut Game<'_>, rng: &mut ChaCha8Rng) -> MoveReport {
        let (choice, _) = self.search(game, rng);
        play_chosen(game, choice)
    }
}
