//! `sowlab balance`: the ladder's cells, distinct games from deterministic agents, and bad
//! input refused before anything is written.

use std::collections::HashSet;

use rand_chacha::ChaCha8Rng;
use sowlab::agents::Agent;
use sowlab::engine::{Game, MoveReport};
use sowlab::sim::{play_game, Players};

use crate::util;

fn read(path: &std::path::Path) -> Vec<csv::StringRecord> {
    csv::Reader::from_path(path)
        .unwrap()
        .records()
        .map(Result::unwrap)
        .collect()
}

#[test]
fn balance_plays_every_rung_and_every_step_in_both_seats() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("balance");
    util::sowlab()
        .args(["balance", "variants/kalah.sow", "variants/oware.sow"])
        .args([
            "--ladder",
            "random,greedy,alphabeta:1",
            "--games",
            "6",
            "--seed",
            "3",
        ])
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    let rows = read(&out.join("balance.csv"));
    // Per variant: 3 self-play cells (both seat orders: 12 games) and 2 steps × 2 seatings.
    assert_eq!(rows.len(), 2 * (3 + 4));
    for row in &rows {
        let (south, north, games) = (&row[1], &row[2], &row[3]);
        let expected = if south == north { "12" } else { "6" };
        assert_eq!(games, expected, "{row:?}");
        let distinct: u64 = row[4].parse().unwrap();
        assert!(distinct >= 1 && distinct <= games.parse().unwrap());
    }
    let skill = read(&out.join("skill.csv"));
    assert_eq!(skill.len(), 2 * 2);
    assert_eq!((&skill[0][1], &skill[0][2]), ("random", "greedy"));
    let page = std::fs::read_to_string(out.join("index.md")).unwrap();
    assert!(page.contains("Skill trace"), "{page}");
    assert!(out.join("seats-1-kalah.png").exists() && out.join("skill.svg").exists());
    let run = std::fs::read_to_string(out.join("run.json")).unwrap();
    assert!(run.contains("\"opening\": 4"), "{run}");
}

/// Always the lowest legal hole: an agent as deterministic as can be.
struct Lowest;

impl Agent for Lowest {
    fn play(&mut self, game: &mut Game<'_>, _: &mut ChaCha8Rng) -> MoveReport {
        let lowest = game.legal_moves()[0];
        game.play(lowest).expect("a legal hole plays")
    }
}

/// A deterministic agent plays one game whatever the seed; four random plies at the start
/// make the games differ, and the same seed still gives the same game.
#[test]
fn a_random_opening_makes_deterministic_agents_play_distinct_games() {
    let rules = util::variant("oware");
    let game = |opening: u32, seed: u64| {
        let (mut a, mut b) = (Lowest, Lowest);
        let players = Players {
            agents: [&mut a, &mut b],
            names: ["lowest".into(), "lowest".into()],
            opening,
        };
        let mut moves = Vec::new();
        let mut played = Game::new(&rules);
        play_game(
            &mut played,
            &"Oware".into(),
            players,
            0,
            seed,
            Some(&mut moves),
        );
        moves.iter().map(|m| m.hole).collect::<Vec<u32>>()
    };
    let replays: HashSet<Vec<u32>> = (0..20).map(|seed| game(0, seed)).collect();
    assert_eq!(replays.len(), 1);
    let distinct: HashSet<Vec<u32>> = (0..20).map(|seed| game(4, seed)).collect();
    assert!(distinct.len() > 10, "{}", distinct.len());
    assert_eq!(game(4, 7), game(4, 7));
}

#[test]
fn bad_ladders_and_zero_games_are_one_line_exit_2_and_write_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("never");
    for (ladder, games) in [
        ("random,bogus", "5"),
        ("random", "5"),
        ("random,random", "5"),
        ("random,greedy", "0"),
    ] {
        let output = util::sowlab()
            .args([
                "balance",
                "variants/kalah.sow",
                "--ladder",
                ladder,
                "--games",
                games,
            ])
            .arg("--out")
            .arg(&out)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{ladder} {games}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.starts_with("error:"), "{stderr}");
        assert!(!out.exists());
    }
}

/// Where the board is small enough, the report puts the exact value beside the estimates
/// (Kalah on 2×3 with 2 seeds a hole: South wins by 4, as `solve` finds).
#[test]
fn balance_states_the_exact_value_of_small_boards() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("small");
    util::sowlab()
        .args(["balance", "variants/kalah.sow", "variants/oware.sow"])
        .args(["--set", "holes=3", "--set", "seeds=2"])
        .args(["--ladder", "random,greedy", "--games", "3", "--out"])
        .arg(&out)
        .assert()
        .success();
    let page = std::fs::read_to_string(out.join("index.md")).unwrap();
    assert!(
        page.contains("Value of the start position: South wins by 4 with perfect play"),
        "{page}"
    );
}
