//! `sowlab balance`: the ladder's cells, distinct games from deterministic agents, and bad
//! input refused before anything is written.

use std::collections::HashSet;

use rand_chacha::ChaCha8Rng;
use sowlab::agents::Agent;
use sowlab::engine::{Game, MoveReport};
use sowlab::sim::{play_game, Players};

use crate::util::{self, sowlab};

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

/// `perfect` plays the solver's moves: Kalah on 3 holes of 2 seeds is won by South by 4 with
/// perfect play, so a perfect South never does worse than +4 against random play, nor a
/// perfect North better than -4 for South, game after game.
#[test]
fn perfect_play_never_does_worse_than_the_value() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    sowlab()
        .args([
            "simulate",
            "variants/kalah.sow",
            "--set",
            "holes=3",
            "--set",
            "seeds=2",
        ])
        .args([
            "--agents",
            "perfect,random",
            "--games",
            "30",
            "--opening",
            "0",
        ])
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    let mut games = csv::Reader::from_path(out.join("games.csv")).unwrap();
    let headers = games.headers().unwrap().clone();
    let column = |name: &str| headers.iter().position(|h| h == name).unwrap();
    let mut seen = [0; 2];
    for game in games.records() {
        let game = game.unwrap();
        let total = |side: &str| {
            game[column(&format!("{side}_total"))]
                .parse::<i32>()
                .unwrap()
        };
        let margin = total("south") - total("north");
        if &game[column("south_agent")] == "perfect" {
            assert!(margin >= 4, "perfect South: {margin}");
            seen[0] += 1;
        } else {
            assert!(margin <= 4, "perfect North: {margin}");
            seen[1] += 1;
        }
    }
    assert_eq!(seen, [30, 30]);
}

/// A ladder can end in perfect play on a small board; on a board the solver cannot search
/// every move, `perfect` is refused before any game, in one line.
#[test]
fn a_ladder_ends_in_perfect_play_on_small_boards_only() {
    let dir = tempfile::tempdir().unwrap();
    let ladder = ["--ladder", "random,alphabeta:2,perfect", "--games", "10"];
    sowlab()
        .args([
            "balance",
            "variants/kalah.sow",
            "--set",
            "holes=3",
            "--set",
            "seeds=2",
        ])
        .args(ladder)
        .arg("--out")
        .arg(dir.path().join("small"))
        .assert()
        .success();
    let skill = std::fs::read_to_string(dir.path().join("small/skill.csv")).unwrap();
    assert!(skill.contains("perfect"), "{skill}");
    let out = sowlab()
        .args(["balance", "variants/kalah.sow"])
        .args(ladder)
        .arg("--out")
        .arg(dir.path().join("large"))
        .assert()
        .code(2)
        .get_output()
        .clone();
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.starts_with(
            "error: `perfect` cannot play Kalah: its board has 13132444545150 estimated states"
        ) && err.lines().count() == 1,
        "{err}"
    );
    assert!(!dir.path().join("large").exists());
}
