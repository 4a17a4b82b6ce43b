//! The engine's shortcuts held to its plain path: one game played on a variant's rules as
//! compiled and on the same rules without shortcuts (`Rules::without_shortcuts`), compared
//! state by state. The differential tests and the `shortcuts` fuzz target drive it.

use std::fmt::Debug;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::{Event, Game, Position};
use crate::rules::Rules;

/// Where the two paths first differed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "after {moves} moves, the fast and the plain path differ in {what}: {fast} against {plain}"
)]
pub struct Divergence {
    /// Moves played before the difference.
    pub moves: u32,
    /// What differs: `positions`, `legal moves`, `events of 3`, ...
    pub what: String,
    /// The fast path's value, as `Debug` writes it.
    pub fast: String,
    /// The plain path's.
    pub plain: String,
}

/// Plays up to `moves` moves from `start` on both paths, each move made one of three ways so
/// that every route through the turn cache is taken: the legal moves listed and one played
/// with its events traced, or untraced; or one drawn at random, never examined first (a sure
/// turn sown in place, a landing on an empty hole). `choose(n)` picks a number below `n`
/// (`n` is at least 1). Checks the position, player to move, result and counters after every
/// move, and the legal moves, reports and events of each.
///
/// # Errors
/// The first difference found.
pub fn play_both(
    rules: &Rules,
    start: Position,
    moves: u32,
    mut choose: impl FnMut(u32) -> u32,
) -> Result<(), Divergence> {
    let plain_rules = rules.without_shortcuts();
    let mut fast = Game::from_position(rules, start);
    let mut plain = Game::from_position(&plain_rules, start);
    same_state(0, &fast, &plain)?;
    for played in 0..moves {
        if fast.is_over() {
            break;
        }
        let differs =
            |what: &str, f: &dyn Debug, p: &dyn Debug| Err(divergence(played, what, f, p));
        let mode = choose(3);
        if mode < 2 {
            let legal = fast.legal_moves();
            let other = plain.legal_moves();
            if legal != other {
                return differs("legal moves", &legal, &other);
            }
            let mv = legal[choose(legal.len() as u32) as usize];
            let (mut seen_fast, mut seen_plain) = (Vec::<Event>::new(), Vec::<Event>::new());
            let (a, b) = if mode == 0 {
                (
                    fast.play_traced(mv, &mut seen_fast),
                    plain.play_traced(mv, &mut seen_plain),
                )
            } else {
                (fast.play(mv), plain.play(mv))
            };
            if a != b {
                return differs(&format!("the reports of {mv}"), &a, &b);
            }
            if seen_fast != seen_plain {
                return differs(&format!("the events of {mv}"), &seen_fast, &seen_plain);
            }
        } else {
            let draw = u64::from(choose(u32::MAX));
            let a = fast.play_random(&mut ChaCha8Rng::seed_from_u64(draw));
            let b = plain.play_random(&mut ChaCha8Rng::seed_from_u64(draw));
            if a != b {
                return differs("a random move", &a, &b);
            }
        }
        same_state(played + 1, &fast, &plain)?;
    }
    Ok(())
}

/// What two games must agree on between moves (nothing here examines a move, which would
/// change what the counters count).
///
/// # Errors
/// The first difference, after `moves` moves.
pub fn same_state(moves: u32, fast: &Game<'_>, plain: &Game<'_>) -> Result<(), Divergence> {
    let differs = |what: &str, f: &dyn Debug, p: &dyn Debug| Err(divergence(moves, what, f, p));
    if fast.position() != plain.position() {
        return differs("positions", fast.position(), plain.position());
    }
    if fast.to_move() != plain.to_move() {
        return differs("the player to move", &fast.to_move(), &plain.to_move());
    }
    if fast.outcome() != plain.outcome() {
        return differs("results", &fast.outcome(), &plain.outcome());
    }
    if fast.stats() != plain.stats() {
        return differs("counters", fast.stats(), plain.stats());
    }
    Ok(())
}

fn divergence(moves: u32, what: &str, fast: &dyn Debug, plain: &dyn Debug) -> Divergence {
    Divergence {
        moves,
        what: what.to_string(),
        fast: format!("{fast:?}"),
        plain: format!("{plain:?}"),
    }
}
