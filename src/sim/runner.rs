//! Running an experiment: every (variant, seat order, game) unit — a game, or a match of
//! rounds — played by worker threads, chunk by chunk, whose results come back in unit order, so
//! the output does not depend on the number of threads.

use std::collections::BTreeMap;
use std::fmt;
use std::ops::Range;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Condvar, Mutex};
use std::time::Instant;

use serde::{Deserialize, Serialize};

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

/// Where a unit sits in an experiment: units are counted variant-major, then pairing, then
/// seat order, then game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Place {
    /// The variant, from 0.
    pub variant: usize,
    /// The pairing, from 0.
    pub pairing: usize,
    /// The seat order: 0, the pairing's first agent is South; 1, North.
    pub seats: u8,
    /// The unit's index within its variant: the `game` (and `match`) column of the files.
    pub index: u64,
    /// Its game seed (`sim::seed::game_seed`).
    pub seed: u64,
}

impl Place {
    /// Unit `unit` of an experiment of `pairings` pairings and `games` games per variant,
    /// pairing and seat order, whose master seed is `seed`.
    ///
    /// # Panics
    /// With no pairings or no games: such an experiment has no units.
    pub fn of(unit: u64, pairings: usize, games: u64, seed: u64) -> Place {
        let per_variant = pairings as u64 * 2 * games;
        let index = unit % per_variant;
        let seats = (index / games % 2) as u8;
        Place {
            variant: (unit / per_variant) as usize,
            pairing: (index / (2 * games)) as usize,
            seats,
            index,
            seed: seed::game_seed(seed, seats, index % games),
        }
    }
}

/// One of `m` disjoint slices of an experiment, `k` counted from 1: `--shard K/M`, as
/// `run.json` writes it too.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
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

impl TryFrom<String> for Shard {
    type Error = ParseShardError;

    fn try_from(text: String) -> Result<Shard, ParseShardError> {
        text.parse()
    }
}

impl From<Shard> for String {
    fn from(shard: Shard) -> String {
        shard.to_string()
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

/// The most units a worker plays between two hand-overs to the writer: large enough that the
/// hand-over costs nothing measurable against the games, small enough to stream.
const CHUNK: u64 = 1024;

/// How many chunks per worker may be played ahead of the writer: enough that no worker waits
/// for it while it writes one chunk, few enough that memory stays flat.
const AHEAD: u64 = 2;

/// The play shared by the workers of [`Experiment::run`] and its writer.
struct Claims {
    /// The next unit to hand out.
    next: u64,
    /// Units handed to the sink so far.
    written: u64,
    /// The sink failed: no more units are handed out.
    halted: bool,
}

impl Experiment {
    /// Units (games) in the whole experiment.
    ///
    /// # Panics
    /// With more units than a `u64` counts; `cli`'s plan refuses such an experiment.
    pub fn units(&self) -> u64 {
        units(self.variants.len(), self.pairings.len(), self.games)
            .expect("the units of an experiment fit in 64 bits")
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
        let Place {
            variant,
            pairing,
            seats,
            index: rest,
            seed: game_seed,
        } = Place::of(unit, self.pairings.len(), self.games, self.seed);
        let pairing = &self.pairings[pairing];
        let (label, rules) = &self.variants[variant];
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

    /// Units a worker plays at a time over `units`: one match, since a match with its moves
    /// may hold megabytes; for single games, [`CHUNK`] or fewer, so that every worker has
    /// some of a small run.
    fn chunk(&self, units: &Range<u64>, workers: u64) -> u64 {
        if self.matches {
            1
        } else {
            ((units.end - units.start) / (workers * 8)).clamp(1, CHUNK)
        }
    }

    /// Plays `units` on as many worker threads as the current rayon pool has, handing the
    /// results to `sink` in unit order, a chunk at a time (with the units done so far), as
    /// soon as each is complete: the workers go on while it writes. Workers are at most a few
    /// chunks ahead of the sink, so memory does not grow with the run. Once `stop` is set no
    /// chunk is begun, and the ones begun are finished and handed over. Returns the units
    /// done (handed to the sink).
    ///
    /// # Errors
    /// The first error `sink` returns; no chunk is begun after it.
    pub fn run<E: Send>(
        &self,
        units: Range<u64>,
        stop: &AtomicBool,
        mut sink: impl FnMut(u64, Vec<Played>) -> Result<(), E> + Send,
    ) -> Result<u64, E> {
        let workers = rayon::current_num_threads().max(1) as u64;
        let chunk = self.chunk(&units, workers);
        let ahead = chunk * workers * AHEAD;
        let claims = Mutex::new(Claims {
            next: units.start,
            written: units.start,
            halted: false,
        });
        let turn = Condvar::new();
        let (done, results) = mpsc::channel::<(u64, Vec<Played>)>();
        // The next chunk for a worker, once the sink is near enough; `None` when there is none.
        let claim = || {
            let mut c = claims.lock().expect("no worker panics holding the claims");
            loop {
                if c.halted || c.next >= units.end || stop.load(Ordering::Relaxed) {
                    return None;
                }
                if c.next - c.written < ahead {
                    let start = c.next;
                    c.next = (start + chunk).min(units.end);
                    return Some(start..c.next);
                }
                c = turn.wait(c).expect("no worker panics holding the claims");
            }
        };
        std::thread::scope(|scope| {
            for _ in 0..workers {
                let done = done.clone();
                scope.spawn(|| {
                    let done = done;
                    let mut workspace = Workspace::default();
                    while let Some(chunk) = claim() {
                        let start = chunk.start;
                        let played = chunk.map(|u| self.play(u, &mut workspace)).collect();
                        // The writer outlives the workers: it stops receiving only when all
                        // of them are gone.
                        let _ = done.send((start, played));
                    }
                });
            }
            drop(done);
            let mut waiting = BTreeMap::new();
            let mut written = units.start;
            let mut failed = None;
            for (start, played) in results {
                waiting.insert(start, played);
                while let Some(played) = waiting.remove(&written) {
                    written += played.len() as u64;
                    if failed.is_none() {
                        failed = sink(written, played).err();
                    }
                    let mut c = claims.lock().expect("no worker panics holding the claims");
                    c.written = written;
                    c.halted = failed.is_some();
                    turn.notify_all();
                }
            }
            match failed {
                Some(e) => Err(e),
                None => Ok(written),
            }
        })
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
