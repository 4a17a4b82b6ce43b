//! A game over before its first move: why, in words; the one line of `trace` and `play`; and
//! `trace --json`'s line in place of states.

use sowlab::engine::{Game, Outcome};
use sowlab::lang::compile_text;
use sowlab::report::trace::OverAtStart;
use sowlab::rules::Side;

use super::util::{self, sowlab};

/// The line `trace` and `play` print for `tests/warn/no-first-move.sow`.
const NO_FIRST_MOVE: &str = "game over before the first move: north wins, because south, to move first, has no legal move, and `no move: end, to opponent` gives every seed to north";

/// How and why the game of `text` (a variant file standing in `variants/`, so that it may extend one) ended before its first move.
fn over_at_start(text: &str) -> OverAtStart {
    let rules = compile_text("test.sow", text, &util::path("variants")).expect("compiles");
    OverAtStart::of(&Game::new(&rules)).expect("the game is over before its first move")
}

fn stdout(output: &std::process::Output) -> String {
    util::text(&output.stdout)
}

#[test]
fn a_game_over_at_the_start_says_who_could_not_move_and_the_rule_that_ended_it() {
    let south_empty = "extends \"oware.sow\"\nboard { layout: 0 0 0 0 0 0 4 4 4 4 4 4 }\n";
    // `winner: a player who cannot move loses` decides before `no move`.
    let stuck_loses = format!("{south_empty}end {{ winner: a player who cannot move loses }}");
    let over = over_at_start(&stuck_loses);
    assert_eq!(over.outcome.winner, Some(Side::North));
    assert_eq!(
        over.to_string(),
        "north wins, because south, to move first, has no legal move, and `winner: a player who cannot move loses`"
    );
    // South passes; North cannot reach South's empty row with its three single seeds.
    let unfed = "extends \"oware.sow\"\nboard { layout: 0 0 0 0 0 0 1 1 1 0 0 0 }\n";
    let over = over_at_start(unfed);
    assert_eq!(
        over,
        OverAtStart {
            outcome: Outcome {
                reason: sowlab::engine::EndReason::Unfeedable,
                winner: Some(Side::North),
            },
            because: "south, to move first, passes, and north has no move that leaves south seeds to play, and `unfeedable: to player to move` gives every seed to north".into(),
        }
    );
    // A split leaves the odd seed on the board.
    let split = "extends \"oware.sow\"\nboard { layout: 0 0 0 0 0 0 4 4 4 4 4 5 }\n\
                 end { no move: end, split }\n";
    assert_eq!(
        over_at_start(split).to_string(),
        "a draw, because south, to move first, has no legal move, and `no move: end, split` gives south 12 seeds and north 12, and leaves 1 on the board"
    );
}

#[test]
fn trace_says_in_one_line_that_a_game_is_over_before_its_first_move() {
    let output = sowlab()
        .args(["trace", "tests/warn/no-first-move.sow", "--random", "5"])
        .output()
        .unwrap();
    assert!(output.status.success());
    let text = stdout(&output);
    assert_eq!(text.lines().last(), Some(NO_FIRST_MOVE), "{text}");
    assert_eq!(text.matches("over").count(), 1, "{text}");
    // A move asked for is refused after the line.
    let output = sowlab()
        .args(["trace", "tests/warn/no-first-move.sow", "--moves", "0"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(stdout(&output).lines().last(), Some(NO_FIRST_MOVE));
    assert_eq!(
        util::text(&output.stderr),
        "error: move 1: the game is already over\n"
    );
}

#[test]
fn trace_json_of_a_game_over_before_its_first_move_is_one_line_saying_so() {
    let output = sowlab()
        .args([
            "trace",
            "tests/warn/no-first-move.sow",
            "--random",
            "5",
            "--json",
        ])
        .output()
        .unwrap();
    assert!(output.status.success());
    assert_eq!(
        stdout(&output),
        concat!(
            r#"{"over_before_first_move":{"board":[0,0,0,0,0,0,0,0,0,0,0,0],"store":[0,24],"#,
            r#""winner":"north","end_reason":"normal","end_rule":"stuck","because":"south, "#,
            r#"to move first, has no legal move, and `no move: end, to opponent` gives every "#,
            r#"seed to north"}}"#,
            "\n"
        )
    );
}

/// Three rounds, each started by South with an empty row: each is over before its first move,
/// and the match goes on to its round cap.
#[test]
fn trace_match_goes_on_through_rounds_over_before_their_first_move() {
    let run = |json: bool| {
        let mut args = vec![
            "trace",
            "tests/warn/every-round-over-at-start.sow",
            "--match",
            "--random",
            "5",
        ];
        if json {
            args.push("--json");
        }
        let output = sowlab().args(&args).output().unwrap();
        assert!(output.status.success());
        stdout(&output)
    };
    let text = run(false);
    let over = "round over before the first move: north wins, because south, to move first";
    assert_eq!(text.matches(over).count(), 3, "{text}");
    assert!(
        text.ends_with("round 3 over (stuck): north wins; captured 0–24, holding 0–72; rounds won 0–3\nmatch over (round-cap): north wins\n"),
        "{text}"
    );
    let lines: Vec<serde_json::Value> = run(true)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let keys: Vec<&str> = lines
        .iter()
        .map(|l| l.as_object().unwrap().keys().next().unwrap().as_str())
        .collect();
    assert_eq!(
        keys,
        [
            "over_before_first_move",
            "round_end",
            "over_before_first_move",
            "round_end",
            "over_before_first_move",
            "round_end"
        ]
    );
    let rounds: Vec<u64> = lines
        .iter()
        .step_by(2)
        .map(|l| l["over_before_first_move"]["round"].as_u64().unwrap())
        .collect();
    assert_eq!(rounds, [1, 2, 3]);
}

#[test]
fn play_says_in_one_line_that_a_game_is_over_before_its_first_move() {
    let output = sowlab()
        .args(["play", "tests/warn/no-first-move.sow", "--vs", "random"])
        .write_stdin("quit\n")
        .output()
        .unwrap();
    assert!(output.status.success());
    let text = stdout(&output);
    assert!(
        text.contains(&format!("   South\n{NO_FIRST_MOVE}\n> quit\n")),
        "{text}"
    );
    assert_eq!(text.matches("game over").count(), 1, "{text}");
}
