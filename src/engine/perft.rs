//! Perft: how many move sequences, and how many distinct positions, lie a given number of
//! moves from a game — the count move generators pin to catch a change in what is legal.

use std::collections::HashSet;

use super::{Game, Position};

/// What lies `depth` moves from a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Perft {
    /// Sequences of exactly `depth` legal moves (a game over sooner ends none).
    pub sequences: u64,
    /// Distinct positions, the player to move included, at the end of those sequences.
    pub positions: u64,
}

/// Counts the move sequences of length `depth` from `game`, and the positions they reach.
pub fn perft(game: &Game<'_>, depth: u32) -> Perft {
    let mut seen = HashSet::new();
    let sequences = walk(game, depth, &mut seen);
    Perft {
        sequences,
        positions: seen.len() as u64,
    }
}

fn walk(game: &Game<'_>, depth: u32, seen: &mut HashSet<Position>) -> u64 {
    if depth == 0 {
        seen.insert(*game.position());
        return 1;
    }
    if game.is_over() {
        return 0;
    }
    let mut game = game.clone();
    let mut total = 0;
    for mv in game.legal_moves() {
        let mut next = game.clone();
        next.play(mv).expect("a legal move plays");
        total += walk(&next, depth - 1, seen);
    }
    total
}
