//! `sowlab play`, scripted: commands piped into standard input, the transcript read back.

use predicates::prelude::*;

use super::util::sowlab;

/// Kalah on three holes of two seeds.
const SMALL: [&str; 5] = ["variants/kalah.sow", "--set", "holes=3", "--set", "seeds=2"];

/// Runs `sowlab play` with these arguments and this input; the exit code must be 0.
fn play(args: &[&str], input: &str) -> String {
    let out = sowlab()
        .arg("play")
        .args(args)
        .write_stdin(input)
        .assert()
        .success();
    String::from_utf8(out.get_output().stdout.clone()).unwrap()
}

/// Runs `sowlab play` with these arguments and this input; it must end with exit code 2 and
/// one line on stderr that starts with `error`.
fn fails(args: &[&str], input: &str, error: &str) -> assert_cmd::assert::Assert {
    sowlab()
        .arg("play")
        .args(args)
        .write_stdin(input)
        .assert()
        .code(2)
        .stderr(predicate::str::starts_with(error))
        .stderr(predicate::function(|s: &str| s.lines().count() == 1))
}

/// The last board picture of a transcript: the holes `0..2N` and the stores, South first.
fn last_board(text: &str) -> (Vec<u16>, [u16; 2]) {
    let rows: Vec<&str> = text.lines().filter(|l| l.contains("]  store ")).collect();
    let row = |line: &str| -> (Vec<u16>, u16) {
        let (cells, store) = line.split_once("]  store ").unwrap();
        let cells = cells.trim().trim_start_matches('[');
        let holes = cells
            .split_whitespace()
            .map(|c| c.parse().unwrap())
            .collect();
        (holes, store.trim().parse().unwrap())
    };
    let (mut north, north_store) = row(rows[rows.len() - 2]);
    let (mut board, south_store) = row(rows[rows.len() - 1]);
    north.reverse();
    board.append(&mut north);
    (board, [south_store, north_store])
}

/// `text` without the lines that mark the last move under (or over) the board.
fn unmarked(text: &str) -> String {
    text.lines()
        .filter(|l| {
            let t = l.trim();
            t.is_empty()
                || !t
                    .trim_end_matches("^ played, x captured from")
                    .trim()
                    .chars()
                    .all(|c| c == '^' || c == 'x' || c == ' ')
        })
        .map(|l| format!("{l}\n"))
        .collect()
}

/// Asserts that `text` holds each of `parts`.
fn says(text: &str, parts: &[&str]) {
    for part in parts {
        assert!(text.contains(part), "no {part:?} in\n{text}");
    }
}

/// The text from the first `from` up to the next `to` after it (or the end).
fn between<'a>(text: &'a str, from: &str, to: &str) -> &'a str {
    let start = text
        .find(from)
        .unwrap_or_else(|| panic!("no {from:?} in\n{text}"));
    let rest = &text[start..];
    let end = rest[from.len()..]
        .find(to)
        .map_or(rest.len(), |e| e + from.len());
    &rest[..end]
}

#[test]
fn two_people_play_a_small_game_to_its_end() {
    let moves = "0\n3\n2\n5\n0\n3\n1\n3\n2\n";
    let text = play(&SMALL, moves);
    says(
        &text,
        &[
            "two players take turns at the keyboard",
            "> 0\nmove 1: south plays hole 0\n",
            "game over: north wins (empty-row: a move left a row empty)\n\
             final totals: south 3, north 9\nsave FILE",
        ],
    );
    assert_eq!(
        text.lines().last().unwrap(),
        "end of input: the session ends after 9 move(s): 0,3,2,5,0,3,1,3,2"
    );
    assert_eq!(last_board(&text), (vec![0; 6], [3, 9]));
}

#[test]
fn a_game_against_random_ends_and_is_the_same_for_the_same_seed() {
    // Every hole of South's row, over and over: the illegal ones are refused and the game
    // goes on, so the game is played to its end whatever the agent does.
    let input = "0\n1\n2\n".repeat(40);
    let args = [
        "variants/kalah.sow",
        "--set",
        "holes=3",
        "--vs",
        "random",
        "--seed",
        "5",
    ];
    let text = play(&args, &input);
    says(
        &text,
        &[
            "you play south against random (seed 5)",
            "\ngame over: ",
            "\nfinal totals: south ",
            "the game is over: undo takes back the last move",
        ],
    );
    assert!(text
        .lines()
        .last()
        .unwrap()
        .starts_with("end of input: the session ends after "));
    assert_eq!(text, play(&args, &input));
}

#[test]
fn undo_against_an_agent_goes_back_to_the_humans_previous_turn() {
    let text = play(
        &["variants/kalah.sow", "--vs", "alphabeta:2"],
        "2\n3\nundo\nundo\nundo\n",
    );
    // After 2 (which earns another turn) South is to move again; 3 is answered by North.
    let before = between(&text, "move 1: south plays hole 2", "> 3");
    let before = unmarked(&before[before.find("       11 10").unwrap()..]);
    says(&text, &["move 3: north plays"]);
    let undone = between(
        &text,
        "took back move 2 (south 3), move 3 (north ",
        "> undo",
    );
    let after = &undone[undone.find('\n').unwrap() + 1..];
    assert!(
        after.ends_with("south (you) to move; legal moves: 0 1 3 4 5\n"),
        "{after}"
    );
    assert_eq!(before, after, "the board before move 2, its marks aside");
    // The second undo takes back the first move; the third has nothing to take back.
    says(
        &text,
        &[
            "> undo\ntook back move 1 (south 2)\n",
            "> undo\nnothing to undo: you have not moved yet\n",
        ],
    );
}

#[test]
fn undo_between_two_people_takes_back_one_move() {
    let text = play(&["variants/oware.sow"], "1\nundo\n");
    let start = between(&text, "       11 10", "> 1");
    let undone = between(&text, "took back move 1 (south 1)\n", "\nend of input");
    assert_eq!(&undone[undone.find('\n').unwrap() + 1..], start);
}

#[test]
fn hint_names_a_legal_move_and_its_value_in_words() {
    let text = play(&["variants/oware.sow"], "hint\nhint 3\nhint 13\n");
    let line = text
        .lines()
        .find(|l| l.starts_with("hint: play "))
        .expect(&text);
    // `hint: play 3 — south leads by 1 8 moves ahead, with best play by both (alphabeta:8)`
    let rest = line.strip_prefix("hint: play ").unwrap();
    let (hole, words) = rest.split_once(" — ").unwrap();
    assert!((0..6).contains(&hole.parse::<usize>().unwrap()), "{line}");
    assert!(
        words.ends_with("8 moves ahead, with best play by both (alphabeta:8)"),
        "{line}"
    );
    assert!(!line.contains("1000"), "no raw score: {line}");
    says(
        &text,
        &["(alphabeta:3)\n", "`hint` takes a depth from 1 to 12"],
    );
}

/// A search that sees the end says who wins and by how much.
#[test]
fn a_hint_that_sees_the_end_says_who_wins_by_how_much() {
    // Kalah on one hole of two seeds: South's only move ends the game, North 3 to 1.
    let text = play(
        &["variants/kalah.sow", "--set", "holes=1", "--set", "seeds=2"],
        "hint\n",
    );
    says(
        &text,
        &["hint: play 0 — south loses by 2 with best play (alphabeta:8)\n"],
    );
}

/// Each lap is one line; `details` gives every seed of the moves just played. Hoyito I from
/// the start, South plays 2:
///
/// ```text
///   lap 1: hole 2's 4 into 3 4 5 6; 6 becomes a five
///   lap 2: 6's 5 into 7 8 9 10 11; 11 becomes a five
///   lap 3: 11's 5 into 0 1 2 3 4; 4 becomes a six
///   lap 4: 4's 6 into 5 6 7 8 9 10; 10 becomes a six
///   lap 5: 10's 6 into 11 0 1 2 3 4; 4, emptied in lap 4, now holds its one seed
/// ```
#[test]
fn a_move_is_told_a_lap_a_line_and_details_tells_every_seed() {
    let text = play(&["variants/hoyito-i.sow"], "2\ndetails\n");
    says(
        &text,
        &[
            "move 1: south plays hole 2
  lap 1: 4 from hole 2, 4 sown, the last in 6 (now 5)
  lap 2: 5 from hole 6, 5 sown, the last in 11 (now 5)
  lap 3: 5 from hole 11, 5 sown, the last in 4 (now 6)
  lap 4: 6 from hole 4, 6 sown, the last in 10 (now 6)
  lap 5: 6 from hole 10, 6 sown, the last in 4 (now 1)
",
            "> details
move 1: south plays hole 2
  lap 1: lifts 4 from hole 2
    sows 3 4 5 6
    last seed in 6 (now 5)
  lap 2: lifts 5 from hole 6
    sows 7 8 9 10 11
",
            "    sows 11 0 1 2 3 4\n    last seed in 4 (now 1)\n",
        ],
    );
}

/// The board after a move marks the hole played (`^`) and the holes captured from (`x`):
/// against random (seed 1), North answers South's 2 with 11, whose last lap ends in hole 2
/// and takes its four.
#[test]
fn the_board_marks_the_hole_played_and_the_holes_captured_from() {
    let text = play(&["variants/hoyito-i.sow", "--vs", "random"], "2\n");
    let reply = between(&text, "move 2: north plays hole 11", "to move");
    says(
        reply,
        &[
            "capture \"final casa\": 4 from hole 2 to north\n",
            "       11 10  9  8  7  6   North
        ^
     [  1  1  7  7  0  2 ]  store 4
     [  1  8  0  8  2  7 ]  store 0
              x            ^ played, x captured from
        0  1  2  3  4  5   South
",
        ],
    );
}

/// With `--forced` a player's only legal move is played for them, and said.
#[test]
fn forced_moves_are_played_with_the_option() {
    let one_hole = ["variants/kalah.sow", "--set", "holes=1", "--set", "seeds=2"];
    let text = play(&[&one_hole[..], &["--forced"]].concat(), "");
    says(
        &text,
        &[
            "south has one legal move, 0: played (--forced)\nmove 1: south plays hole 0\n",
            "game over: north wins",
        ],
    );
    let text = play(&one_hole, "");
    assert!(
        !text.contains("move 1:"),
        "no move without --forced:\n{text}"
    );
}

#[test]
fn an_illegal_move_is_answered_with_the_legal_ones_and_the_game_goes_on() {
    let text = play(&["variants/oware.sow"], "9\n40\nsow\n3cw\n2\n");
    says(
        &text,
        &[
            "> 9\nhole 9 cannot be played: it is not the mover's hole; \
             south can play 0 1 2 3 4 5\n",
            "`40` is neither a move nor a command",
            "`sow` is neither a move nor a command",
            "in this variant the direction is not chosen",
            "move 1: south plays hole 2",
        ],
    );
}

#[test]
fn a_saved_game_replays_with_trace_to_the_same_position() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("game.txt");
    let input = format!("1\n2\n3\n4\n5\n0\n1\nsave {}\n", file.display());
    let text = play(
        &["variants/oware.sow", "--vs", "greedy", "--seed", "3"],
        &input,
    );
    says(&text, &["` replays them"]);
    let saved = std::fs::read_to_string(&file).unwrap();
    assert!(
        saved.ends_with('\n') && !saved.trim().is_empty(),
        "{saved:?}"
    );
    let names: Vec<String> = dir
        .path()
        .read_dir()
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(names, ["game.txt"], "nothing else is left beside it");
    let trace = sowlab()
        .args([
            "trace",
            "variants/oware.sow",
            "--json",
            "--moves",
            saved.trim(),
        ])
        .assert()
        .success();
    let json = String::from_utf8(trace.get_output().stdout.clone()).unwrap();
    let last: serde_json::Value = serde_json::from_str(json.lines().last().unwrap()).unwrap();
    let board: Vec<u16> = serde_json::from_value(last["board"].clone()).unwrap();
    let store: [u16; 2] = serde_json::from_value(last["store"].clone()).unwrap();
    assert_eq!(last_board(&text), (board, store));
    assert_eq!(json.lines().count(), saved.trim().split(',').count());
}

#[test]
fn a_save_that_fails_is_said_and_the_session_ends_with_exit_code_2() {
    fails(
        &["variants/oware.sow"],
        "2\nsave no-such-dir/x/game.txt\n7\n",
        "error: no-such-dir/x/game.txt: ",
    )
    .stdout(predicate::str::contains(
        "cannot save: no-such-dir/x/game.txt: ",
    ))
    .stdout(predicate::str::contains("move 2: north plays hole 7"));
}

#[test]
fn the_end_of_input_ends_the_session_with_exit_code_0() {
    let text = play(&["variants/oware.sow"], "");
    says(&text, &["south to move; legal moves: 0 1 2 3 4 5\n"]);
    assert_eq!(
        text.lines().last().unwrap(),
        "end of input: the session ends before any move"
    );
    let text = play(&["variants/oware.sow"], "2\nquit\n3\n");
    assert_eq!(text.lines().last().unwrap(), "quit after 1 move(s): 2");
}

#[test]
fn the_agent_opens_when_the_human_takes_north() {
    let args = [
        "variants/oware.sow",
        "--vs",
        "alphabeta:2",
        "--seat",
        "north",
    ];
    let text = play(&args, "");
    says(
        &text,
        &[
            "you play north against alphabeta:2",
            "move 1: south plays hole ",
            "north (you) to move; legal moves: ",
        ],
    );
}

#[test]
fn a_missing_variant_is_one_line_and_exit_code_2() {
    fails(
        &["variants/no-such.sow"],
        "2\n",
        "error: cannot read `variants/no-such.sow`",
    )
    .stdout("");
}

#[test]
fn seat_needs_an_agent() {
    sowlab()
        .args(["play", "variants/oware.sow", "--seat", "north"])
        .write_stdin("")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--vs <AGENT>"));
}
