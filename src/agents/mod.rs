//! Players of known strength: the `Agent` trait and the specs that name them on the command
//! line (`random`, `greedy`, `alphabeta:4`, `mcts:500`, `perfect`). All randomness comes from the RNG the
//! caller passes, so a game is a pure function of (rules, agents, seed).

pub(crate) mod alphabeta;
mod greedy;
mod mcts;
pub mod perfect;

use std::fmt;
use std::str::FromStr;

use rand::Rng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use crate::engine::{Game, Move, MoveReport};
use crate::rules::Side;

pub use alphabeta::{AlphaBeta, WIN};
pub use greedy::Greedy;
pub use mcts::Mcts;
pub use perfect::Perfect;

/// A player: given a game that is not over, plays one move in it.
pub trait Agent: Send {
    /// Plays a move for the player to move; returns what it did.
    fn play(&mut self, game: &mut Game<'_>, rng: &mut ChaCha8Rng) -> MoveReport;

    /// Whether the agent only ever plays [`Game::play_random`] with its stream: a game between
    /// two such agents can be played out by the engine alone ([`Game::play_random_out`]).
    fn plays_at_random(&self) -> bool {
        false
    }
}

/// An agent as named on the command line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AgentSpec {
    /// Uniform over legal moves. The default only fills values built empty (a report's groups
    /// before they are given their seating).
    #[default]
    Random,
    /// The move with the best immediate gain, ties at random.
    Greedy,
    /// Depth-limited alpha-beta search.
    AlphaBeta(u8),
    /// UCT with this many iterations per move.
    Mcts(u32),
    /// A move of the best exact value, by the solver, on small boards ([`perfect::fits`]).
    Perfect,
}

impl AgentSpec {
    /// A fresh agent of this kind.
    pub fn build(self) -> Box<dyn Agent> {
        match self {
            AgentSpec::Random => Box::new(RandomAgent),
            AgentSpec::Greedy => Box::new(Greedy),
            AgentSpec::AlphaBeta(depth) => Box::new(AlphaBeta::new(depth)),
            AgentSpec::Mcts(iterations) => Box::new(Mcts::new(iterations)),
            AgentSpec::Perfect => Box::new(Perfect),
        }
    }
}

impl fmt::Display for AgentSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AgentSpec::Random => f.write_str("random"),
            AgentSpec::Greedy => f.write_str("greedy"),
            AgentSpec::AlphaBeta(d) => write!(f, "alphabeta:{d}"),
            AgentSpec::Mcts(n) => write!(f, "mcts:{n}"),
            AgentSpec::Perfect => f.write_str("perfect"),
        }
    }
}

/// Two agents, `A,B`: A plays South in half the games, B in the other half.
/// Written as that text in `run.json`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Pairing(pub [AgentSpec; 2]);

impl FromStr for Pairing {
    type Err = String;

    fn from_str(s: &str) -> Result<Pairing, String> {
        let specs: Vec<AgentSpec> = s
            .split(',')
            .map(|a| a.trim().parse::<AgentSpec>().map_err(|e| e.to_string()))
            .collect::<Result<_, _>>()?;
        match specs[..] {
            [a, b] => Ok(Pairing([a, b])),
            _ => Err("give two agents, e.g. `random,alphabeta:4`".into()),
        }
    }
}

impl fmt::Display for Pairing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.0[0], self.0[1])
    }
}

impl TryFrom<String> for Pairing {
    type Error = String;

    fn try_from(text: String) -> Result<Pairing, String> {
        text.parse()
    }
}

impl From<Pairing> for String {
    fn from(pairing: Pairing) -> String {
        pairing.to_string()
    }
}

impl Pairing {
    /// The agents as seated in seat order `order`: South's, then North's. In order 0 the
    /// pairing's first agent is South; in order 1, North.
    pub fn seated(self, order: u8) -> [AgentSpec; 2] {
        let [a, b] = self.0;
        if order == 0 {
            [a, b]
        } else {
            [b, a]
        }
    }
}

/// Why an agent spec does not parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown agent `{spec}`: expected random, greedy, alphabeta:DEPTH (1-12), mcts:ITERATIONS (1-1000000) or perfect")]
pub struct ParseAgentError {
    /// What was given.
    pub spec: String,
}

impl FromStr for AgentSpec {
    type Err = ParseAgentError;

    fn from_str(s: &str) -> Result<AgentSpec, ParseAgentError> {
        let bad = || ParseAgentError {
            spec: s.to_string(),
        };
        let (kind, arg) = s.split_once(':').map_or((s, None), |(k, a)| (k, Some(a)));
        match (kind, arg) {
            ("random", None) => Ok(AgentSpec::Random),
            ("greedy", None) => Ok(AgentSpec::Greedy),
            ("perfect", None) => Ok(AgentSpec::Perfect),
            ("alphabeta", Some(d)) => match d.parse() {
                Ok(d @ 1..=12) => Ok(AgentSpec::AlphaBeta(d)),
                _ => Err(bad()),
            },
            ("mcts", Some(n)) => match n.parse() {
                Ok(n @ 1..=1_000_000) => Ok(AgentSpec::Mcts(n)),
                _ => Err(bad()),
            },
            _ => Err(bad()),
        }
    }
}

/// Uniform over legal moves.
pub struct RandomAgent;

impl Agent for RandomAgent {
    fn play(&mut self, game: &mut Game<'_>, rng: &mut ChaCha8Rng) -> MoveReport {
        game.play_random(rng)
            .expect("agents are only asked to move in games that are not over")
    }

    fn plays_at_random(&self) -> bool {
        true
    }
}

/// Plays `mv`, which the agent chose among the legal moves.
fn play_chosen(game: &mut Game<'_>, mv: Move) -> MoveReport {
    game.play(mv).expect("agents choose among legal moves")
}

/// Captured seeds of `side` minus those of the other side.
fn score(game: &Game<'_>, side: Side) -> i32 {
    let stores = game.position().stores();
    i32::from(stores[side.index()]) - i32::from(stores[side.other().index()])
}

/// One of `items` uniformly.
fn pick<T: Copy>(items: &[T], rng: &mut impl Rng) -> T {
    items[rng.gen_range(0..items.len())]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_round_trip_and_bad_ones_are_refused() {
        for spec in ["random", "greedy", "alphabeta:4", "mcts:500", "perfect"] {
            assert_eq!(spec.parse::<AgentSpec>().unwrap().to_string(), spec);
        }
        for bad in [
            "",
            "alphabeta",
            "alphabeta:0",
            "alphabeta:x",
            "mcts:0",
            "minimax:3",
            "random:2",
            "perfect:3",
        ] {
            assert!(bad.parse::<AgentSpec>().is_err(), "{bad} parsed");
        }
    }
}
