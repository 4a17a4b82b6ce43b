//! Bytes → a shipped variant and a sequence of moves. The first byte picks the variant; each
//! later byte is a move: high bit set, a legal move (by remainder); clear, any move slot
//! (possibly illegal or off the board). Checked after every move: a move plays iff it is in
//! `legal_moves()`, a refused move leaves the position unchanged, seeds are conserved; at the
//! end, nobody is to move and every seed is in a store.

#![no_main]

use libfuzzer_sys::fuzz_target;
use sowlab::engine::{Game, Move, MOVE_SLOTS};

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    let Some((&first, moves)) = data.split_first() else {
        return;
    };
    let variants = common::variants();
    let rules = &variants[usize::from(first) % variants.len()];
    let total = rules.total_seeds();
    let mut game = Game::new(rules);
    assert_eq!(common::seeds(&game), total);
    for &byte in moves {
        if game.is_over() {
            break;
        }
        let legal = game.legal_moves();
        assert!(!legal.is_empty(), "not over, but no legal move");
        let mv = if byte & 0x80 != 0 {
            legal[usize::from(byte & 0x7f) % legal.len()]
        } else {
            Move::from_slot(usize::from(byte) % MOVE_SLOTS)
        };
        let before = *game.position();
        match game.play(mv) {
            Ok(_) => assert!(
                legal.contains(&mv),
                "{mv} played but is not in {legal:?}"
            ),
            Err(e) => {
                assert!(!legal.contains(&mv), "legal move {mv} refused: {e}");
                assert_eq!(
                    *game.position(),
                    before,
                    "a refused move changed the position"
                );
            }
        }
        assert_eq!(
            common::seeds(&game),
            total,
            "seeds not conserved after {mv}"
        );
    }
    if game.is_over() {
        assert_eq!(game.to_move(), None);
        assert!(
            game.position().board().iter().all(|&n| n == 0),
            "seeds left on the board at the end"
        );
    }
});
