//! Differential test: the rule interpreter against hand-written implementations of Hoyito I
//! (on 6, 9 and 12 holes per row) and Oware (benches/reference), state by state, on random
//! games — the same legal moves, boards, stores, player to move, end and winner after every move.

// The benches' module, under the name they give it.
#[allow(clippy::module_inception)]
#[path = "../../benches/reference/mod.rs"]
mod reference;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sowlab::engine::{Game, Move};
use sowlab::rules::{Rules, Side};

use super::util::variant;

/// The common face of the two reference games.
trait Reference {
    fn board(&self) -> Vec<u16>;
    fn store(&self) -> [u16; 2];
    fn to_move(&self) -> reference::Side;
    fn is_over(&self) -> bool;
    fn winner(&self) -> Option<Option<reference::Side>>;
    fn end_reason(&self) -> Option<reference::EndReason>;
    fn legal_moves(&self) -> Vec<usize>;
    fn play(&mut self, hole: usize) -> Result<(), &'static str>;
}

macro_rules! reference_game {
    ($module:ident) => {
        impl Reference for reference::$module::Game {
            fn board(&self) -> Vec<u16> {
                self.board().iter().map(|&n| u16::from(n)).collect()
            }
            fn store(&self) -> [u16; 2] {
                self.store().map(|n| n as u16)
            }
            fn to_move(&self) -> reference::Side {
                self.to_move()
            }
            fn is_over(&self) -> bool {
                self.is_over()
            }
            fn winner(&self) -> Option<Option<reference::Side>> {
                self.winner()
            }
            fn end_reason(&self) -> Option<reference::EndReason> {
                self.end_reason()
            }
            fn legal_moves(&self) -> Vec<usize> {
                self.legal_moves()
            }
            fn play(&mut self, hole: usize) -> Result<(), &'static str> {
                self.play(hole)
            }
        }
    };
}
reference_game!(hoyito_i);
reference_game!(oware);

fn side(s: reference::Side) -> Side {
    match s {
        reference::Side::South => Side::South,
        reference::Side::North => Side::North,
    }
}

fn reason(r: reference::EndReason) -> &'static str {
    match r {
        reference::EndReason::Normal => "normal",
        reference::EndReason::NoMoves => "no-moves",
        reference::EndReason::Cap => "cap",
        reference::EndReason::Repetition => "repetition",
    }
}

/// Plays `games` random games on both and compares them after every move.
fn compare(rules: &Rules, games: u64, mut fresh: impl FnMut() -> Box<dyn Reference>) {
    let mut moves = 0;
    for g in 0..games {
        let mut rng = ChaCha8Rng::seed_from_u64(g);
        let mut ours = Game::new(rules);
        let mut theirs = fresh();
        let mut turn = 0;
        loop {
            let context = || format!("{} game {g} after {turn} moves", rules.provenance.name);
            assert_eq!(
                ours.position().board(),
                theirs.board().as_slice(),
                "board, {}",
                context()
            );
            assert_eq!(
                ours.position().stores(),
                theirs.store(),
                "stores, {}",
                context()
            );
            assert_eq!(ours.is_over(), theirs.is_over(), "over, {}", context());
            if ours.is_over() {
                let outcome = ours.outcome().unwrap();
                assert_eq!(
                    Some(outcome.winner),
                    theirs.winner().map(|w| w.map(side)),
                    "winner, {}",
                    context()
                );
                assert_eq!(
                    Some(outcome.reason.class().name()),
                    theirs.end_reason().map(reason),
                    "end reason, {}",
                    context()
                );
                break;
            }
            assert_eq!(
                ours.to_move(),
                Some(side(theirs.to_move())),
                "to move, {}",
                context()
            );
            // Both variants sow in a fixed direction: a move is its hole.
            let legal: Vec<usize> = ours.legal_moves().iter().map(|m| m.hole()).collect();
            assert_eq!(legal, theirs.legal_moves(), "legal moves, {}", context());
            let hole = legal[rng.gen_range(0..legal.len())];
            ours.play(Move::from_hole(hole)).unwrap();
            theirs.play(hole).unwrap();
            turn += 1;
            moves += 1;
        }
    }
    assert!(moves > games * 10, "games too short to mean anything");
}

/// Fewer games in debug builds; CI runs the tests in release.
fn scaled(games: u64) -> u64 {
    if cfg!(debug_assertions) {
        games / 10
    } else {
        games
    }
}

#[test]
fn hoyito_i_matches_the_hand_written_implementation_on_six_holes() {
    compare(&variant("hoyito-i"), scaled(3000), || {
        Box::new(reference::hoyito_i::Game::new(6))
    });
}

#[test]
fn hoyito_i_matches_the_hand_written_implementation_on_nine_and_twelve_holes() {
    compare(&variant("hoyito-i-9"), scaled(500), || {
        Box::new(reference::hoyito_i::Game::new(9))
    });
    compare(&variant("hoyito-i-12"), scaled(150), || {
        Box::new(reference::hoyito_i::Game::new(12))
    });
}

#[test]
fn oware_matches_the_hand_written_implementation() {
    compare(&variant("oware"), scaled(3000), || {
        Box::new(reference::oware::Game::new(6))
    });
}
