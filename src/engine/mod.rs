//! The game engine: positions, legal moves, sowing, and the end of a game.
//!
//! Invariants, checked by the property tests:
//! - seeds are conserved: the holes plus both stores always hold `Rules::total_seeds()`
//!   (an end rule that awards seeds to nobody leaves them on the board);
//! - a game is a pure function of the rules and the moves chosen;
//! - in a match, board + stores + reserves (+ seeds awarded to nobody) hold the variant's seeds;
//! - after every move the player to move is the one who will actually choose (passes resolved),
//!   and a finished game has its end-rule awards already in the stores.

pub mod differential;
mod event;
mod game;
mod moves;
mod perft;
mod position;
mod round;
mod sow;

pub use event::{Event, EventSink};
pub use game::{EndClass, EndReason, Game, GameStats, MoveReport, Outcome, PlayError};
pub use moves::{Move, MOVE_SLOTS};
pub use perft::{perft, Perft};
pub use position::{Position, SetupError};
pub use round::{
    Match, MatchEnd, MatchOutcome, MatchSetup, NextRound, NoMatchRules, RoundResult, Table,
};
pub use sow::Refusal;
