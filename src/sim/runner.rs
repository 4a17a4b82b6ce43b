//! Running an experiment: every (variant, seat order, game) unit — a game, or a match of
//! rounds — in parallel batches whose results come back in unit order, so the output does not
//! depend on the number of threads.

use std::fmt;
use std::ops::Range;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use rayon::prelude::*;

use super::record::{GameRecord, MatchRecord, MoveRecord, Name};
use super::{play_game, play_match, seed, Players};
use crate::agents::AgentSpec;
use crate::engine::Game;
use crate::rules::Rules;

/// What to simulate.
pub struct Experiment {
    /// The variants, each with the label used in the CSV files.
    pub variants: Vec<(Name, Rules)>,
    /// Pairs of agents; in each pair, each agent plays both seats.
    pub pairings: Vec<[Entrant; 2]>,
    /// Games per variant, pairing and seat order.
    pub games: u64,
    /// Master seed.
    pub seed: u64,
    /// Whether to record every move.
    pub record_moves: bool,
    /// Whether each unit is a match of rounds (every variant has match rules) rather than
    /// a single game.
    pub matches: bool,
    /// Plies played at random at the start of every game (and round).
    pub opening: u32,
}

/// An agent of a pairing, with the name the records give it, made once for the experiment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entrant {
    spec: AgentSpec,
    name: Name,
}

impl From<AgentSpec> for Entrant {
    fn from(spec: AgentSpec) -> Entrant {
        Entrant {
            spec,
            name: spec.to_string().into(),
        }
    }
}

/// Units (games) in an experiment of `variants`, `pairings` and `games` per variant, pairing
/// and seat order; `None` if there are more than a `u64` counts.
pub fn units(variants: usize, pairings: usize, games: u64) -> Option<u64> {
    (variants as u64)
        .checked_mul(pairings as u64)?
        .checked_mul(2)?
        .checked_mul(games)
}

/// One of `m` disjoint slices of an experiment, `k` counted from 1: `--shard K/M`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which slice, from 1.
    pub k: u64,
    /// Of how many.
    pub m: u64,
}

/// The most slices an experiment can be cut into.
pub const MAX_SHARDS: u64 = 1_000_000;

impl Shard {
    /// This shard's units of an experiment of `total`: contiguous, disjoint, covering all.
    pub fn units(self, total: u64) -> Range<u64> {
        // In 128 bits: `k * total` may not fit in 64.
        let at = |i: u64| (u128::from(i) * u128::from(total) / u128::from(self.m)) as u64;
        at(self.k - 1)..at(self.k)
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.k, self.m)
    }
}

/// Why a shard does not parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("expected K/M with 1 <= K <= M <= 1000000, e.g. 2/8")]
pub struct ParseShardError;

impl FromStr for Shard {
    type Err = ParseShardError;

    fn from_str(s: &str) -> Result<Shard, ParseShardError> {
        let (k, m) = s.split_once('/').ok_or(ParseShardError)?;
        let (k, m): (u64, u64) = (
            k.parse().map_err(|_| ParseShardError)?,
            m.parse().map_err(|_| ParseShardError)?,
        );
        if k == 0 || k > m || m > MAX_SHARDS {
            return Err(ParseShardError);
        }
        Ok(Shard { k, m })
    }
}

/// One unit's results: a game, or a match and its rounds.
pub struct Played {
    /// What was played.
    pub unit: Unit,
    /// Its moves, if recorded.
    pub moves: Vec<MoveRecord>,
    /// Seconds its worker spent playing it: what a report's time per cell sums.
    pub seconds: f64,
}

/// A unit's records: a game's is kept inline, not in a `Vec` of its own.
pub enum Unit {
    /// A single game.
    Game(GameRecord),
    /// A match, and its rounds.
    Match(MatchRecord, Vec<GameRecord>),
}

impl Played {
    /// The game, or the match's rounds.
    pub fn games(&self) -> &[GameRecord] {
        match &self.unit {
            Unit::Game(game) => std::slice::from_ref(game),
            Unit::Match(_, rounds) => rounds,
        }
    }

    /// The match, in a match run.
    pub fn matched(&self) -> Option<&MatchRecord> {
        match &self.unit {
            Unit::Game(_) => None,
            Unit::Match(matched, _) => Some(matched),
        }
    }
}

/// What a worker keeps from one unit to the next: for each variant met, its start and a game
/// that is copied over from the start for every game played, so that the engine's
/// allocations and the start's first turn are made once, not per game.
#[derive(Default)]
pub struct Workspace<'e> {
    games: Vec<Option<[Game<'e>; 2]>>,
}

impl<'e> Workspace<'e> {
    /// A game of variant `variant` (whose rules are `rules`) at its start.
    fn game(&mut self, variant: usize, rules: &'e Rules) -> &mut Game<'e> {
        if self.games.len() <= variant {
            self.games.resize_with(variant + 1, || None);
        }
        let [start, game] = self.games[variant].get_or_insert_with(|| {
            let start = Game::new(rules);
            [start.clone(), start]
        });
        game.clone_from(start);
        game
    }
}

/// Games per batch: large enough to keep every core busy, small enough to stream.
const BATCH: u64 = 1024;

impl Experiment {
    /// Units (games) in the whole experiment.
    ///
    /// # Panics
    /// With more units than a `u64` counts; `cli`'s plan refuses such an experiment.
    pub fn units(&self) -> u64 {
        units(self.variants.len(), self.pairings.len(), self.games)
            .expect("the units of an experiment fit in 64 bits")
    }

    fn per_variant(&self) -> u64 {
        self.pairings.len() as u64 * 2 * self.games
    }

    /// The cell of a unit: its variant, pairing and seat order, counted variant-major as
    /// units are (`games` units each).
    pub fn cell(&self, unit: u64) -> usize {
        (unit / self.games.max(1)) as usize
    }

    /// Plays one unit: variant-major, then pairing, then seat order, then game; a single game
    /// is played in `workspace`'s game of its variant.
    pub fn play<'e>(&'e self, unit: u64, workspace: &mut Workspace<'e>) -> Played {
        let started = Instant::now();
        let (variant, rest) = (
            (unit / self.per_variant()) as usize,
            unit % self.per_variant(),
        );
        let pairing = &self.pairings[(rest / (2 * self.games)) as usize];
        let seats = (rest / self.games % 2) as u8;
        let i = rest % self.games;
        let (label, rules) = &self.variants[variant];
        let game_seed = seed::game_seed(self.seed, seats, i);
        let (south, north) = if seats == 0 {
            (&pairing[0], &pairing[1])
        } else {
            (&pairing[1], &pairing[0])
        };
        let (mut s, mut n) = (south.spec.build(), north.spec.build());
        let players = Players {
            agents: [s.as_mut(), n.as_mut()],
            names: [south.name.clone(), north.name.clone()],
            opening: self.opening,
        };
        let mut moves = Vec::new();
        let recorded = self.record_moves.then_some(&mut moves);
        let unit = if self.matches {
            let (matched, rounds) = play_match(rules, label, players, rest, game_seed, recorded);
            Unit::Match(matched, rounds)
        } else {
            let game = workspace.game(variant, rules);
            Unit::Game(play_game(game, label, players, rest, game_seed, recorded))
        };
        Played {
            unit,
            moves,
            seconds: started.elapsed().as_secs_f64(),
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
                        .map_init(Workspace::default, |workspace, u| self.play(u, workspace))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_cover_every_unit_once_even_for_huge_totals() {
        for total in [0, 1, 2, 7, 1000, u64::MAX] {
            for m in [1, 2, 3, 7] {
                let mut next = 0;
                for k in 1..=m {
                    let units = Shard { k, m }.units(total);
                    assert_eq!(units.start, next, "{k}/{m} of {total}");
                    next = units.end;
                }
                assert_eq!(next, total);
            }
        }
    }

    #[test]
    fn a_shard_is_k_of_m_within_the_limits() {
        assert_eq!("2/8".parse(), Ok(Shard { k: 2, m: 8 }));
        for bad in ["0/3", "4/3", "1/0", "1/1000001", "1", "a/b", "-1/2", ""] {
            assert_eq!(bad.parse::<Shard>(), Err(ParseShardError), "{bad}");
        }
    }
}
