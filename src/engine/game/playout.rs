//! Random play: a random move, and the loops that play random games to their end.

use super::*;

impl Game<'_> {
    /// Plays a legal move chosen uniformly at random; `None` when the game is over.
    // Forced inline: `play_random_out` calls it every move, and its report is then dropped unmade.
    #[inline(always)]
    pub fn play_random<R: rand::Rng>(&mut self, rng: &mut R) -> Option<MoveReport> {
        let mv = self.draw(rng)?;
        Some(self.commit(mv, None))
    }

    /// Plays uniformly random legal moves to the end of the game, the first `opening` drawn
    /// from `streams[2]`, then each from the stream of the player to move (`streams[0]` South's,
    /// `streams[1]` North's); returns the moves played.
    ///
    /// Move for move the game that calling [`Game::play_random`] with those streams gives (two
    /// random agents, each with its stream), in one loop with no report per move.
    // Kept a call of its own: inlined into `sim::play_out` it made `simulate` slower
    // (docs/speed.md, "Inlining the engine keeps").
    #[inline(never)]
    pub fn play_random_out<R: rand::Rng>(&mut self, streams: &mut [R; 3], opening: u32) -> u32 {
        let mut moves = 0;
        loop {
            let stream = if moves < opening {
                2
            } else {
                self.position.to_move.index()
            };
            if self.play_random(&mut streams[stream]).is_none() {
                return moves;
            }
            moves += 1;
        }
    }

    /// Plays uniformly random legal moves to the end of the game; returns the moves played.
    ///
    /// The same game as calling [`Game::play_random`] until the end would give in law, but not
    /// move for move: here the draw for the next turn also serves as the check that the next
    /// player can move, which saves sowing a hole per move (the playout loop of simulations
    /// and MCTS).
    pub fn random_playout<R: rand::Rng>(&mut self, rng: &mut R) -> u32 {
        let mut moves = 0;
        while let Some(mv) = self.turn.drawn.take().or_else(|| self.draw(rng)) {
            self.commit(mv, Some(rng));
            moves += 1;
        }
        moves
    }

    /// Draws a legal move uniformly at random, sowing candidates as needed; `None` if there is
    /// none (the game is over).
    // Forced inline: one of five whose removal together slowed whole `simulate` (docs/speed.md,
    // "Inlining the engine keeps").
    #[inline(always)]
    pub(super) fn draw(&mut self, rng: &mut dyn rand::RngCore) -> Option<Move> {
        // Rejection without replacement: a uniform pick among the untried-or-legal candidates,
        // dropping illegal ones as they are found, is a uniform pick among the legal moves.
        let mut pool = self.turn.candidates & !(self.turn.examined & !self.turn.legal);
        while pool != 0 {
            let mv = nth_bit(pool, rand::Rng::gen_range(rng, 0..pool.count_ones()));
            if self.known_legal(mv) || self.examine(mv) {
                return Some(mv);
            }
            pool &= !mv.bit();
        }
        None
    }
}

/// The `n`-th move of a move mask.
fn nth_bit(mut mask: u64, n: u32) -> Move {
    for _ in 0..n {
        mask &= mask - 1;
    }
    Move::lowest(mask)
}
