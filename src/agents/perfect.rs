//! The perfect agent: each move among those of the best exact value, by the solver, ties at
//! random. Only for boards the solver can search in the time of a game ([`fits`]).

use rand_chacha::ChaCha8Rng;

use super::{pick, play_chosen, Agent};
use crate::engine::{Game, MoveReport};
use crate::rules::{Rules, Side};
use crate::solve::{self, Limits};

/// The largest board, by the solver's estimate of its states, a perfect agent plays on
/// (Kalah on 4 holes of 3 seeds is 7.7e7): every move is a solve of the rest of the game.
pub const MAX_STATES: u64 = 100_000_000;

/// The table of one move's search.
const MEMORY: u64 = 256 << 20;

/// Why `rules` cannot be played perfectly: a board beyond [`MAX_STATES`], or rules the
/// solver cannot search ([`solve::supported`]).
pub fn fits(rules: &Rules) -> Result<(), String> {
    solve::supported(rules).map_err(|e| e.to_string())?;
    let estimate = solve::estimate(rules);
    if estimate > u128::from(MAX_STATES) {
        return Err(format!(
            "its board has {} estimated states, above the {MAX_STATES} a perfect player searches every move",
            solve::estimate_text(estimate)
        ));
    }
    Ok(())
}

/// Plays a move of the best value with perfect play by both sides from here (the value the
/// solver gives: result first, then margin), ties at random.
pub struct Perfect;

impl Agent for Perfect {
    fn play(&mut self, game: &mut Game<'_>, rng: &mut ChaCha8Rng) -> MoveReport {
        let limits = Limits {
            memory: MEMORY,
            ..Limits::default()
        };
        let solution = solve::solve_from(game, limits, None, &|_| {})
            .expect("a perfect agent plays only boards it fits (agents::perfect::fits)");
        let south = game.to_move() == Some(Side::South);
        let values = solution.moves.iter().map(|&(_, v)| v);
        let best = if south { values.max() } else { values.min() };
        let best: Vec<_> = solution
            .moves
            .iter()
            .filter(|&&(_, v)| Some(v) == best)
            .map(|&(mv, _)| mv)
            .collect();
        play_chosen(game, pick(&best, rng))
    }
}
