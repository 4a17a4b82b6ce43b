//! Bytes → a shipped variant and a sequence of moves. The first byte picks the variant; each
//! later byte is a move: high bit set, a legal hole (by remainder); clear, any hole number
//! (possibly illegal or off the board). Checked after every move: a hole plays iff it is in
//! `legal_moves()`, a refused hole leaves the position unchanged, seeds are conserved; at the
//! end, nobody is to move and every seed is in a store.

#![no_main]

use libfuzzer_sys::fuzz_target;
use sowlab::engine::Game;

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    let Some((&first, moves)) = data.split_first() else {
        return;
    };
    let variants = common::variants();
    let rules = &variants[usize::from(first) % variants.len()];
    let total = rules.total_seeds();
    let holes = rules.holes();
    let mut game = Game::new(rules);
    assert_eq!(common::seeds(&game), total);
    for &byte in moves {
        if game.is_over() {
            break;
        }
        let legal = game.legal_moves();
        assert!(!legal.is_empty(), "not over, but no legal move");
        let hole = if byte & 0x80 != 0 {
            legal[usize::from(byte & 0x7f) % legal.len()]
        } else {
            usize::from(byte) % (holes + 2)
        };
        let before = *game.position();
        match game.play(hole) {
            Ok(_) => assert!(
                legal.contains(&hole),
                "hole {hole} played but is not in {legal:?}"
            ),
            Err(e) => {
                assert!(!legal.contains(&hole), "legal hole {hole} refused: {e}");
                assert_eq!(
                    *game.position(),
                    before,
                    "a refused hole changed the position"
                );
            }
        }
        assert_eq!(
            common::seeds(&game),
            total,
            "seeds not conserved after hole {hole}"
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
