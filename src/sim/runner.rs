//! Running an experiment: every (variant, seat order, game) unit, in parallel batches whose
//! results come back in unit order, so the output does not depend on the number of threads.

use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use super::record::{GameRecord, MoveRecord};
use super::{play_game, seed, Players};
use crate::agents::AgentSpec;
use crate::rules::Rules;

/// What to simulate.
pub struct Experiment {
    /// The variants, each with the label used in the CSV files.
    pub variants: Vec<(String, Rules)>,
    /// Pairs of agents; in each pair, each agent plays both seats.
    pub pairings: Vec<[AgentSpec; 2]>,
    /// Games per variant, pairing and seat order.
    pub games: u64,
    /// Master seed.
    pub seed: u64,
    /// Whether to record every move.
    pub record_moves: bool,
}

/// One game's results.
pub struct Played {
    /// The game.
    pub game: GameRecord,
    /// Its moves, if recorded.
    pub moves: Vec<MoveRecord>,
}

/// Games per batch: large enough to keep every core busy, small enough to stream.
const BATCH: u64 = 1024;

impl Experiment {
    /// Units (games) in the whole experiment.
    pub fn units(&self) -> u64 {
        self.variants.len() as u64 * self.per_variant()
    }

    fn per_variant(&self) -> u64 {
        self.pairings.len() as u64 * 2 * self.games
    }

    /// The units of shard `k` (1-based) of `m`: contiguous, disjoint, covering all units.
    pub fn shard(&self, k: u64, m: u64) -> Range<u64> {
        let total = self.units();
        (k - 1) * total / m..k * total / m
    }

    /// Plays one unit: variant-major, then pairing, then seat order, then game.
    pub fn play(&self, unit: u64) -> Played {
        let (variant, rest) = (
            (unit / self.per_variant()) as usize,
            unit % self.per_variant(),
        );
        let pairing = self.pairings[(rest / (2 * self.games)) as usize];
        let seats = (rest / self.games % 2) as u8;
        let i = rest % self.games;
        let (label, rules) = &self.variants[variant];
        let game_seed = seed::game_seed(self.seed, seats, i);
        let (south, north) = if seats == 0 {
            (pairing[0], pairing[1])
        } else {
            (pairing[1], pairing[0])
        };
        let (mut s, mut n) = (south.build(), north.build());
        let players = Players {
            agents: [s.as_mut(), n.as_mut()],
            names: [south.to_string(), north.to_string()],
        };
        let mut moves = Vec::new();
        let record = play_game(
            rules,
            label,
            players,
            rest,
            game_seed,
            self.record_moves.then_some(&mut moves),
        );
        Played {
            game: record,
            moves,
        }
    }

    /// Plays `units` in batches on the current rayon pool, handing each batch, in unit order,
    /// to `sink`, and stopping between batches once `stop` is set. The sink writes one batch
    /// while the next is being played, so writing does not hold the workers up. Returns the
    /// units done (handed to the sink).
    ///
    /// # Errors
    /// The first error `sink` returns.
    pub fn run<E: Send>(
        &self,
        units: Range<u64>,
        stop: &AtomicBool,
        mut sink: impl FnMut(u64, Vec<Played>) -> Result<(), E> + Send,
    ) -> Result<u64, E> {
        let mut next = units.start;
        let mut written = units.start;
        let mut pending: Option<(u64, Vec<Played>)> = None;
        loop {
            let more = next < units.end && !stop.load(Ordering::Relaxed);
            if !more && pending.is_none() {
                return Ok(written);
            }
            let end = if more {
                (next + BATCH).min(units.end)
            } else {
                next
            };
            let (batch, wrote) = rayon::join(
                || {
                    (next..end)
                        .into_par_iter()
                        .map(|u| self.play(u))
                        .collect::<Vec<Played>>()
                },
                || match pending.take() {
                    Some((done, batch)) => sink(done, batch).map(|()| Some(done)),
                    None => Ok(None),
                },
            );
            if let Some(done) = wrote? {
                written = done;
            }
            if more {
                next = end;
                pending = Some((next, batch));
            }
        }
    }
}
