//! Matches: properties over random matches of every variant with match rules (shipped, and
//! shipped ones with their match rules changed), checked state by state.

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sowlab::engine::{Match, MatchEnd};
use sowlab::rules::{Carry, Rules};

use crate::util;

/// Variants that play matches: the shipped ones, and shipped ones with other match rules.
fn match_variants() -> Vec<(String, Rules)> {
    let mut out: Vec<(String, Rules)> = std::fs::read_dir(util::path("variants"))
        .expect("variants/ exists")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "sow"))
        .map(|p| {
            let name = p.file_stem().unwrap().to_string_lossy().into_owned();
            let rules = util::variant(&name);
            (name, rules)
        })
        .filter(|(_, rules)| rules.program.matches.is_some())
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    let dir = util::path("variants");
    for (name, text) in [
        (
            "hoyito-i, surplus wins the opponent's holes",
            "extends \"hoyito-i.sow\"\nmatch { surplus: opponent holes }\n",
        ),
        (
            "hoyito-i, unfilled holes stay open, loser starts",
            "extends \"hoyito-i.sow\"\nmatch { unfilled holes: open  starter: round loser }\n",
        ),
        (
            "oware, a series of fresh rounds, first to 3",
            "extends \"oware.sow\"\nmatch { refill: none  first to: 3 rounds  winner: most rounds  starter: alternate }\n",
        ),
        (
            "hoyito-i, refilled from the last hole, mirrored, leftover hole, poorer starts",
            "extends \"hoyito-i.sow\"\nmatch { refill from: last hole  filled: as many as the poorer  leftover hole: to the larger remainder  starter: poorer player }\n",
        ),
        (
            "ba-awa, held territory and the leftover hole",
            "extends \"ba-awa.sow\"\nmatch { leftover hole: to the larger remainder  lose below: 1 }\n",
        ),
        (
            "ba-awa on 2×5, refill by 3, lose below 1",
            "extends \"ba-awa.sow\"\nboard { holes: 5 per row }\nmatch { refill: 3 per hole  lose below: 1  round cap: 20 }\n",
        ),
    ] {
        let rules = sowlab::lang::compile_text("tweak.sow", text, &dir)
            .unwrap_or_else(|e| panic!("{name}:\n{}", e.render(false)));
        out.push((name.to_string(), rules));
    }
    assert!(out.len() >= 7, "only {} match variants", out.len());
    out
}

/// Plays one random match of `rules`, checking after every move and every refill that:
/// - board + stores + reserves + seeds removed hold the variant's seeds;
/// - closed holes are empty (never sown) and never legal; legal holes are the mover's own;
/// - the match ends within its round cap, each round within its move cap.
fn play_match(name: &str, rules: &Rules, seed: u64) -> Result<(), TestCaseError> {
    let total = rules.total_seeds();
    let cap = rules.program.matches.as_ref().unwrap().round_cap;
    let mut m = Match::new(rules).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let held = |m: &Match<'_>| -> u32 {
        let p = m.game().position();
        p.board_seeds()
            + p.stores().iter().map(|&s| u32::from(s)).sum::<u32>()
            + m.reserve().iter().map(|&s| u32::from(s)).sum::<u32>()
            + m.removed()
    };
    loop {
        let mut moves = 0;
        while !m.game().is_over() {
            let game = m.game_mut();
            let mover = game.to_move().unwrap();
            let closed = game.position().closed();
            let owned = game.position().owned(mover);
            for hole in game.legal_moves() {
                prop_assert!(
                    closed >> hole & 1 == 0,
                    "{}: closed hole {} legal",
                    name,
                    hole
                );
                prop_assert!(
                    owned >> hole & 1 == 1,
                    "{}: hole {} not {}'s",
                    name,
                    hole,
                    mover
                );
            }
            game.play_random(&mut rng);
            moves += 1;
            prop_assert!(
                moves <= rules.program.ending.move_cap,
                "{}: round without end",
                name
            );
            let p = m.game().position();
            for hole in 0..rules.holes() {
                if closed >> hole & 1 == 1 {
                    prop_assert_eq!(p.board()[hole], 0, "{}: closed hole {} sown", name, hole);
                }
            }
            prop_assert_eq!(
                held(&m),
                total,
                "{}: round {} breaks conservation",
                name,
                m.round()
            );
        }
        let round = m.round();
        let (result, refill) = m.next_round();
        prop_assert_eq!(result.round, round);
        prop_assert_eq!(held(&m), total, "{}: refill after round {}", name, round);
        if let Some(refill) = refill {
            prop_assert_eq!(refill.round, round + 1);
            let closing = matches!(
                rules.program.matches.as_ref().unwrap().carry,
                Carry::Refill(r) if r.close_unfilled
            );
            for hole in 0..rules.holes() {
                let closed = refill.closed >> hole & 1 == 1;
                prop_assert_eq!(
                    closed,
                    closing && refill.board[hole] == 0,
                    "{}: hole {}",
                    name,
                    hole
                );
            }
        }
        if m.is_over() {
            break;
        }
        prop_assert!(round < cap, "{}: past the round cap", name);
    }
    let outcome = m.outcome().unwrap();
    prop_assert!(m.round() <= cap);
    if let (MatchEnd::LoseBelow, Some(winner)) = (outcome.reason, outcome.winner) {
        let lose_below = rules.program.matches.as_ref().unwrap().lose_below;
        let loser = winner.other();
        let position = m.game().position();
        let holds = u32::from(position.store(loser)) + u32::from(m.reserve()[loser.index()]);
        prop_assert!(
            holds < u32::from(lose_below),
            "{}: {} lost holding {}",
            name,
            loser,
            holds
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(12),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Conservation over rounds, closed holes never sown or played, and an end to every match.
    #[test]
    fn random_matches_keep_the_invariants(seed in any::<u64>()) {
        for (name, rules) in &match_variants() {
            play_match(name, rules, seed)?;
        }
    }
}
