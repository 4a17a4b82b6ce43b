//! `sowlab solve`: hand-solved tiny boards, published values, the solver against plain
//! minimax, and the limits.
//!
//! Irving, Donkers & Uiterwijk, "Solving Kalah" (ICGA Journal 23(3), 2000, Table 9), solved
//! Kalah(m,n) under the "empty capture" rule (a last seed in an own empty house is captured
//! even when the opposite house is empty): `variants/catalogue/kalah-empty-capture.sow`.
//! `variants/kalah.sow` captures only when the opposite house is occupied, and its values
//! differ for that reason.

use sowlab::engine::Move;
use sowlab::rules::Rules;
use sowlab::solve::{self, Limits, SolveError, Value};

use crate::util::{path, sowlab};

/// A shipped variant on a board of `holes` holes a row and `seeds` seeds a hole.
fn board(name: &str, holes: u32, seeds: u32) -> Rules {
    let settings = [
        ("holes".to_string(), holes.to_string()),
        ("seeds".to_string(), seeds.to_string()),
    ];
    sowlab::lang::compile_path(&path(&format!("variants/{name}.sow")), &settings)
        .unwrap_or_else(|e| panic!("{name} does not compile:\n{}", e.render(false)))
}

fn value(result: i8, margin: i32) -> Value {
    Value { result, margin }
}

/// Irving, Donkers & Uiterwijk's Table 9: Kalah with the empty-capture rule on six holes a
/// row, one and two seeds a hole, is won by the first player by 2 and by 10.
#[test]
fn empty_capture_kalah_6_1_and_6_2_are_the_published_values() {
    let one = solved("catalogue/kalah-empty-capture", 6, 1);
    assert_eq!(one.value, value(1, 2));
    assert!(one.store_free);
    assert_eq!(
        solved("catalogue/kalah-empty-capture", 6, 2).value,
        value(1, 10)
    );
}

/// A table far too small for the board only makes the search slower.
#[test]
fn a_tiny_table_changes_no_value() {
    let rules = board("kalah", 4, 2);
    let tiny = Limits {
        memory: 1024,
        ..Limits::default()
    };
    let small = solve::solve(&rules, tiny).expect("solved");
    assert_eq!(small.capacity, 32);
    let large = solve::solve(&rules, Limits::default()).expect("solved");
    assert!(large.capacity > small.capacity);
    assert_eq!(small.moves, large.moves);
    assert!(small.nodes > large.nodes);
}

/// Threads share out the first moves, each with a table of its own: the values and the line
/// are those of one thread, through restarts with a finer key too (Oware's stretch).
#[test]
fn two_threads_change_no_value() {
    for (name, holes, seeds) in [("kalah", 4, 3), ("oware", 2, 2), ("ayoayo", 3, 1)] {
        let rules = board(name, holes, seeds);
        let solve = |threads| {
            let limits = Limits {
                threads,
                ..Limits::default()
            };
            solve::solve(&rules, limits).expect("solved")
        };
        let (one, two) = (solve(1), solve(2));
        assert_eq!(one.moves, two.moves, "{name} {holes}x{seeds}");
        assert_eq!(one.line, two.line, "{name} {holes}x{seeds}");
        assert_eq!(
            one.stretch_keyed, two.stretch_keyed,
            "{name} {holes}x{seeds}"
        );
    }
}

fn solved(name: &str, holes: u32, seeds: u32) -> solve::Solution {
    solve::solve(&board(name, holes, seeds), Limits::default()).expect("solved")
}

// Kalah with one hole a row: South's hole 0, North's hole 1, sowing counterclockwise
// 0 → South's store → 1 → (North's store, skipped by South) → 0. The game ends as soon as
// either row is empty, each player keeping the seeds on their side.

/// Kalah(1,1): South's only move sows its seed into its store (an extra turn), but South's row
/// is now empty, so the game ends and North keeps its seed: 1 - 1, a draw.
#[test]
fn kalah_1_1_is_a_draw() {
    let s = solved("kalah", 1, 1);
    assert_eq!(s.value, value(0, 0));
    assert_eq!(s.best(), vec![Move::from_hole(0)]);
    assert_eq!(s.value.winner(), None);
}

/// Kalah(1,2): South's only move sows one seed into its store and one into North's hole
/// (now 3); South's row is empty, so the game ends and North keeps 3: 1 - 3 = -2.
#[test]
fn kalah_1_2_is_lost_by_2() {
    let s = solved("kalah", 1, 2);
    assert_eq!(s.value, value(-1, -2));
    assert_eq!(s.value.winner(), Some(sowlab::rules::Side::North));
}

/// Kalah(1,3): South's only move sows into its store, North's hole (4) and its own emptied
/// hole 0 — an own empty house with the opposite house occupied: South captures the 4 and
/// the last seed, 6 in store. Both rows are empty: 6 - 0 = +6.
#[test]
fn kalah_1_3_is_won_by_6() {
    assert_eq!(solved("kalah", 1, 3).value, value(1, 6));
}

/// Kalah(2,1): South's holes 0, 1 and North's 2, 3 hold a seed each; the cycle is
/// 0 → 1 → S store → 2 → 3 → N store → 0; hole 0 faces 3, hole 1 faces 2.
/// - South plays 1: the seed reaches the store (1-0), another turn. The only move is then 0:
///   its seed lands in the empty hole 1, opposite hole 2 holds 1: capture 1 + 1 (3-0). South's
///   row is empty: the game ends, North keeps the seed in hole 3: 3 - 1 = +2.
/// - South plays 0: hole 1 now holds 2, no capture; North to move on S [0,2], N [1,1].
///   - North plays 3: into its store (0-1), another turn; only 2 is left: its seed lands in
///     the empty hole 3, but the opposite hole 0 is empty: no capture. South must play 1:
///     store and hole 2 (1-1), South's row is empty, North keeps 2: 1 - 3 = -2.
///   - North plays 2: hole 3 holds 2. South must play 1: store and hole 2 (1-0); South's
///     row is empty, North keeps 3: 1 - 3 = -2.
///
///   Both are -2, so playing 0 is worth -2.
///
/// South plays 1 and wins by 2.
#[test]
fn kalah_2_1_is_won_by_2_playing_the_hole_next_to_the_store() {
    let s = solved("kalah", 2, 1);
    assert_eq!(s.value, value(1, 2));
    let [first, second] = [0, 1].map(Move::from_hole);
    assert_eq!(s.moves, vec![(first, value(-1, -2)), (second, value(1, 2))]);
    assert_eq!(s.best(), vec![second]);
}

/// Oware(1,2), a game that ends by repetition. Stores are kept, not sown; a sowing skips its
/// own emptied hole, so each move moves every seed across: South's 2 go into North's hole
/// (4, no capture of 2 or 3), North's 4 go into South's hole (4), South's back (North 4), and
/// so on; no capture ever changes the stores. The positions after moves 1, 3 and 5 are the
/// same (North 4, North to move): the third occurrence ends the game after move 5, each
/// keeping their own side: North 4, South 0, a loss by 4, with no choice at any point.
#[test]
fn oware_1_2_ends_by_repetition_lost_by_4() {
    let s = solved("oware", 1, 2);
    assert_eq!(s.value, value(-1, -4));
    // North's move sows from hole 1 round into hole 0: seeds move back, the stores stay, so
    // the search keys on the positions since the stores last changed.
    assert!(s.stretch_keyed);
    assert!(s.recurrences > 0);
}

/// Oware(1,1): South's seed goes into North's hole, which then holds 2, but taking them would
/// take all North has (the grand slam captures nothing); North must sow its 2, into South's
/// hole and back into its own, and the start position is back. Its third occurrence ends the
/// game after South's third move, each keeping the seeds on their side: North 2, South 0.
#[test]
fn oware_1_1_ends_by_repetition_lost_by_2() {
    let s = solved("oware", 1, 1);
    assert_eq!(s.value, value(-1, -2));
    assert_eq!(s.end, sowlab::engine::EndReason::Repetition);
    let line: Vec<usize> = s.line.iter().map(|&(_, mv)| mv.hole()).collect();
    assert_eq!(line, [0, 1, 0, 1, 0]);
}

/// The solver (MTD(f), the key as coarse as the rules allow) agrees with plain minimax
/// over the engine's own game tree, without table or pruning, on tiny boards of several
/// variants — with extra turns, passes, repetitions, relay sowing and feeding among them.
#[test]
fn the_solver_agrees_with_plain_minimax() {
    let boards = [
        ("kalah", 1, 1),
        ("kalah", 1, 2),
        ("kalah", 1, 4),
        ("kalah", 2, 1),
        ("kalah", 2, 2),
        ("kalah", 3, 1),
        ("oware", 1, 2),
        ("oware", 2, 1),
        ("ayoayo", 1, 1),
        ("ayoayo", 2, 1),
        ("ayoayo", 2, 2),
        ("ayoayo-r7-lone-seed", 2, 2),
        ("en-dodoi", 2, 1),
        ("en-dodoi", 2, 2),
    ];
    for (name, holes, seeds) in boards {
        let rules = board(name, holes, seeds);
        let solution = solve::solve(&rules, Limits::default()).expect("solved");
        let plain = solve::minimax(&rules).expect("searched");
        assert_eq!(solution.value, plain, "{name} {holes}x{seeds}");
        let best = solution.moves.iter().map(|&(_, v)| v);
        let best = if rules.program.board.starter == sowlab::rules::Side::South {
            best.max()
        } else {
            best.min()
        };
        assert_eq!(best, Some(solution.value), "{name} {holes}x{seeds}");
        assert_eq!(
            played_out(&rules, &solution.line),
            solution.value,
            "{name} {holes}x{seeds}"
        );
    }
}

/// The value at the end of `line` played from the start, each move by the side it names.
fn played_out(rules: &Rules, line: &[(sowlab::rules::Side, Move)]) -> Value {
    let mut game = sowlab::engine::Game::new(rules);
    for &(side, mv) in line {
        assert_eq!(game.to_move(), Some(side));
        game.play(mv).expect("a line of legal moves");
    }
    assert!(game.is_over());
    Value::of_finished(&game)
}

/// North to move first: the same board seen from the other side, so the value changes sign.
#[test]
fn north_starting_mirrors_the_value() {
    let settings = |starter: &str| {
        [
            ("holes".to_string(), "3".to_string()),
            ("seeds".to_string(), "2".to_string()),
            ("starter".to_string(), starter.to_string()),
        ]
    };
    let solve = |starter| {
        let rules = sowlab::lang::compile_path(&path("variants/kalah.sow"), &settings(starter))
            .expect("compiles");
        solve::solve(&rules, Limits::default())
            .expect("solved")
            .value
    };
    let (south, north) = (solve("south"), solve("north"));
    assert_eq!(north, value(-south.result, -south.margin));
}

#[test]
fn boards_beyond_the_limits_are_refused() {
    let limit = |max_states, max_nodes| Limits {
        max_states,
        max_nodes,
        ..Limits::default()
    };
    assert!(matches!(
        solve::solve(&board("kalah", 6, 4), limit(Some(5_000_000), None)),
        Err(SolveError::TooLarge { .. })
    ));
    assert_eq!(
        solve::solve(&board("kalah", 3, 2), limit(None, Some(10))),
        Err(SolveError::TooManyNodes { limit: 10 })
    );
    assert!(solve::solve(&board("kalah", 2, 2), limit(Some(3000), None)).is_ok());
    assert!(matches!(
        solve::solve(&board("kalah", 3, 2), limit(Some(3000), None)),
        Err(SolveError::TooLarge { .. })
    ));
}

/// A match variant is refused, unless asked for as one game: then its first round is solved
/// as `simulate` plays it without `--match` (its line of perfect play, replayed on a single
/// game, ends with its value), and the output says so.
#[test]
fn match_play_is_refused_unless_one_game_is_asked_for() {
    let rules = board("hoyito-i", 2, 2);
    assert!(matches!(
        solve::solve(&rules, Limits::default()),
        Err(SolveError::Unsupported { .. })
    ));
    let rules = board("hoyito-i", 3, 2);
    let one_game = Limits {
        single_game: true,
        ..Limits::default()
    };
    let solution = solve::solve(&rules, one_game).expect("one game solved");
    let line = |game: &mut sowlab::engine::Game<'_>| {
        for &(_, mv) in &solution.line {
            game.play(mv).expect("legal");
        }
        assert!(game.is_over());
        Value::of_finished(game)
    };
    assert_eq!(line(&mut sowlab::engine::Game::new(&rules)), solution.value);
    let text = stdout_of(&[
        "solve",
        "variants/hoyito-i.sow",
        "--set",
        "holes=3",
        "--set",
        "seeds=2",
        "--single-game",
    ]);
    assert!(
        text.contains(
            "solved as one game, its first round, as `sowlab simulate` plays it without --match"
        ),
        "{text}"
    );
}

#[test]
fn cli_prints_the_value() {
    let out = sowlab()
        .args([
            "solve",
            "variants/kalah.sow",
            "--set",
            "holes=2",
            "--set",
            "seeds=1",
        ])
        .assert()
        .success()
        .get_output()
        .clone();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("Kalah on 2 × 2 holes with 4 seeds: South wins by 2 with perfect play"),
        "{text}"
    );
    assert!(text.contains("best first move for South: 1\n"), "{text}");
    assert!(text.contains("every first move: 0 -2, 1 +2\n"), "{text}");
    assert!(
        text.contains(
            "perfect play (S South, N North): S1 S0\nperfect play ends the game by empty-row\n"
        ),
        "{text}"
    );
}

#[test]
fn cli_json() {
    let out = sowlab()
        .args([
            "solve",
            "variants/kalah.sow",
            "--set",
            "holes=2",
            "--set",
            "seeds=1",
            "--json",
        ])
        .assert()
        .success()
        .get_output()
        .clone();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["margin"], 2);
    assert_eq!(json["winner"], "south");
    assert_eq!(json["best"], serde_json::json!(["1"]));
    assert_eq!(
        json["line"],
        serde_json::json!([{"side": "south", "move": "1"}, {"side": "south", "move": "0"}])
    );
    assert_eq!(json["end"], "empty-row");
    assert_eq!(json["unfinished"], false);
}

/// One line on stderr, exit 2, nothing on stdout.
fn refused(args: &[&str]) -> String {
    let out = sowlab().args(args).assert().code(2).get_output().clone();
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    stderr
}

#[test]
fn cli_refuses_a_board_too_large() {
    let line = refused(&["solve", "variants/kalah.sow", "--max-states", "5000000"]);
    assert!(
        line.contains("cannot solve Kalah on 2 × 6 holes with 48 seeds"),
        "{line}"
    );
    assert!(line.contains("above the limit of 5000000"), "{line}");
    assert!(line.contains("--set holes=5 --set seeds=1"), "{line}");
    let line = refused(&[
        "solve",
        "variants/kalah.sow",
        "--set",
        "holes=3",
        "--set",
        "seeds=3",
        "--max-nodes",
        "100",
    ]);
    assert!(line.contains("more than 100 nodes"), "{line}");
}

#[test]
fn cli_refuses_a_memory_that_is_no_size() {
    for bad in ["100", "12T", "lots"] {
        let out = sowlab()
            .args(["solve", "variants/kalah.sow", "--memory", bad])
            .assert()
            .code(2)
            .get_output()
            .clone();
        assert!(out.stdout.is_empty());
        let stderr = String::from_utf8(out.stderr).unwrap();
        let first = stderr.lines().next().unwrap_or_default();
        assert!(first.contains("'--memory <SIZE>'"), "{stderr}");
        assert!(first.contains("1K to 1024G"), "{stderr}");
    }
}

#[test]
fn cli_refuses_match_play_and_unknown_files() {
    let line = refused(&[
        "solve",
        "variants/hoyito-i.sow",
        "--set",
        "holes=2",
        "--set",
        "seeds=2",
    ]);
    assert!(line.contains("match play"), "{line}");
    refused(&["solve", "variants/no-such-variant.sow"]);
}

#[test]
fn help_lists_solve() {
    let out = sowlab()
        .arg("--help")
        .assert()
        .success()
        .get_output()
        .clone();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.lines().any(|l| l.trim_start().starts_with("solve ")),
        "{text}"
    );
}

/// A game over before its first move has a value, but not one of play: `solve` says so on
/// stdout and warns on stderr, and does not call it perfect play.
#[test]
fn cli_says_a_game_over_before_its_first_move_says_nothing_of_play() {
    let out = sowlab()
        .args(["solve", "tests/warn/no-first-move.sow"])
        .assert()
        .success()
        .get_output()
        .clone();
    let (stdout, stderr) = (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    );
    assert!(
        stdout.contains("North wins by 24 without a move played (margin -24)"),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "the game is over before its first move (by stuck): the value says nothing of play"
        ),
        "{stdout}"
    );
    assert!(!stdout.contains("perfect play"), "{stdout}");
    assert!(
        stderr.starts_with("warning: No first move is over before its first move"),
        "{stderr}"
    );
}

/// What `sowlab ARGS` prints on stdout, having succeeded.
fn stdout_of(args: &[&str]) -> String {
    let out = sowlab().args(args).assert().success().get_output().clone();
    String::from_utf8(out.stdout).unwrap()
}

/// `solve` on Kalah(4,2).
const KALAH_4_2: [&str; 6] = [
    "solve",
    "variants/kalah.sow",
    "--set",
    "holes=4",
    "--set",
    "seeds=2",
];

/// `solve --json` on Kalah(4,2) with `extra` flags: the parsed line.
fn solve_json(extra: &[&str]) -> serde_json::Value {
    let out = sowlab()
        .args(KALAH_4_2)
        .arg("--json")
        .args(extra)
        .assert()
        .success()
        .get_output()
        .clone();
    serde_json::from_slice(&out.stdout).expect("one JSON line")
}

/// A tablebase gives the search exact values and changes none of its own: the value, every
/// first move and the line are those found without one. Its layers, written by one run, are
/// read by the next; a damaged one is refused in one line.
#[test]
fn a_tablebase_changes_no_value_and_the_next_run_reads_it() {
    let dir = tempfile::tempdir().unwrap();
    let tb = dir.path().to_str().unwrap();
    let flags = ["--tablebase-seeds", "9", "--tablebase", tb];
    let plain = solve_json(&[]);
    let built = solve_json(&flags);
    let read = solve_json(&flags);
    for key in ["margin", "moves", "line"] {
        assert_eq!(built[key], plain[key], "{key}");
        assert_eq!(read[key], plain[key], "{key}");
    }
    assert_eq!(plain["tablebase_seeds"], serde_json::Value::Null);
    assert_eq!(built["tablebase_seeds"], 9);
    assert_eq!(built["tablebase_layers_read"], 0);
    assert_eq!(read["tablebase_layers_read"], 10);
    assert!(built["probes"].as_u64().unwrap() > 0);
    assert!(built["nodes"].as_u64() < plain["nodes"].as_u64());

    let layer = std::fs::read_dir(dir.path())
        .unwrap()
        .next()
        .expect("the rules' directory")
        .unwrap()
        .path()
        .join("layer-05.sowtb");
    let bytes = std::fs::read(&layer).unwrap();
    std::fs::write(&layer, &bytes[..bytes.len() - 1]).unwrap();
    let out = sowlab()
        .args(KALAH_4_2)
        .args(flags)
        .assert()
        .code(2)
        .get_output()
        .clone();
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(out.stdout.is_empty());
    assert!(
        err.starts_with("error: tablebase file ")
            && err.contains("layer-05.sowtb refused: expected")
            && err.lines().count() == 1,
        "{err}"
    );
}

/// Oware's end reads the stores (more than half the seeds wins): no tablebase can hold its
/// values, and `solve` says so and solves without one.
#[test]
fn rules_no_tablebase_can_hold_are_solved_without_one() {
    let out = sowlab()
        .args([
            "solve",
            "variants/oware.sow",
            "--set",
            "holes=2",
            "--set",
            "seeds=1",
        ])
        .args(["--tablebase-seeds", "4"])
        .assert()
        .success()
        .get_output()
        .clone();
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.starts_with("warning: no tablebase for Oware: the stores decide more than the margin"),
        "{err}"
    );
    assert!(!String::from_utf8(out.stdout).unwrap().contains("tablebase"));
}

/// `exact` walks the grid row by row, stops a row after two boards in turn beyond the budget
/// and the walk after two rows in turn with nothing solved; its report made again into the
/// same directory is the same, byte for byte.
#[test]
fn exact_values_walk_the_grid_within_the_budget_and_are_made_again_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("exact");
    let make = || {
        let run = sowlab()
            .args([
                "exact",
                "variants/kalah.sow",
                "--holes",
                "2..5",
                "--seeds",
                "1..3",
            ])
            .args(["--max-nodes", "300", "--threads", "2", "--out"])
            .arg(&out)
            .assert()
            .success()
            .get_output()
            .clone();
        let mut files: Vec<_> = std::fs::read_dir(&out)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| !p.ends_with(".sowlab"))
            .collect();
        files.sort();
        let bytes: Vec<_> = files.iter().map(|f| std::fs::read(f).unwrap()).collect();
        (String::from_utf8(run.stderr).unwrap(), bytes)
    };
    let (said, first) = make();
    let (_, again) = make();
    assert_eq!(first, again, "the same report");
    assert!(
        said.starts_with("wrote the values of 4 boards to ")
            && said.contains("(index.html, index.md, values.csv and 2 charts)"),
        "{said}"
    );
    let values = std::fs::read_to_string(out.join("values.csv")).unwrap();
    let boards: Vec<String> = values
        .lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            format!("{}x{} {} {}", f[3], f[4], f[7], f[9])
        })
        .collect();
    // Kalah(2,1) +2 as `solve` finds it; (3,2) takes 609 nodes, (3,3) 4,376, (4,1) 382.
    assert_eq!(
        boards,
        [
            "2x1 solved 2",
            "2x2 solved -2",
            "2x3 solved -2",
            "3x1 solved 0",
            "3x2 beyond-budget ",
            "3x3 beyond-budget ",
            "4x1 beyond-budget ",
            "4x2 beyond-budget ",
            "5x1 beyond-budget ",
            "5x2 beyond-budget ",
        ]
    );
}

/// A file's alternative readings are rows of their own, each the value `solve` finds with
/// that alternative chosen (a single game: the file has match rules): Ali Guli Mane's R17 (the direction chosen each turn) turns its
/// 3 × 2 board from +8 to +12.
#[test]
fn exact_values_walk_each_alternative_reading() {
    let file = "variants/catalogue/ali-guli-mane.sow";
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("exact");
    sowlab()
        .args(["exact", file, "--holes", "3..3", "--seeds", "1..2"])
        .args(["--single-game", "--out"])
        .arg(&out)
        .assert()
        .success();
    let values = std::fs::read_to_string(out.join("values.csv")).unwrap();
    let rows: Vec<String> = values
        .lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            format!("{} [{}] {}x{} {}", f[0], f[2], f[3], f[4], f[9])
        })
        .collect();
    assert_eq!(
        rows,
        [
            "Ali Guli Mane [] 3x1 6",
            "Ali Guli Mane [] 3x2 8",
            "Ali Guli Mane (R17: chosen each turn) [R17=chosen each turn] 3x1 6",
            "Ali Guli Mane (R17: chosen each turn) [R17=chosen each turn] 3x2 12",
        ]
    );
    for (chosen, margin) in [("R17=default", 8), ("R17=chosen each turn", 12)] {
        let solved = sowlab()
            .args(["solve", file, "--set", "holes=3", "--set", "seeds=2"])
            .args(["--set", chosen, "--single-game", "--json"])
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        let json: serde_json::Value = serde_json::from_slice(&solved).unwrap();
        assert_eq!(json["margin"], margin, "{chosen}");
    }
}

/// `reports/exact-values/` is what its command makes: the rows of a few of its games, made
/// again by the README's command on those files alone (the whole takes minutes), are the
/// checked-in rows, byte for byte; and the report names that command.
#[test]
fn the_exact_values_report_is_what_its_command_makes() {
    let report = path("reports/exact-values");
    let index = std::fs::read_to_string(report.join("index.md")).unwrap();
    assert!(
        index.contains(
            "sowlab exact variants --holes 2..6 --seeds 1..6 --max-nodes 1000000 --memory 256M --single-game --out reports/exact-values"
        ),
        "{index}"
    );
    let files = [
        "variants/catalogue/oure-ngat.sow",
        "variants/catalogue/obridje.sow",
        "variants/en-dodoi.sow",
    ];
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("again");
    sowlab()
        .arg("exact")
        .args(files)
        .args(["--single-game", "--out"])
        .arg(&out)
        .assert()
        .success();
    // The report lists the games in the order `variants` lists them.
    let rows = |text: &str| -> Vec<String> {
        let mut rows: Vec<String> = text
            .lines()
            .filter(|l| files.iter().any(|f| l.contains(&format!(",{f},"))))
            .map(str::to_string)
            .collect();
        rows.sort();
        rows
    };
    let checked_in = rows(&std::fs::read_to_string(report.join("values.csv")).unwrap());
    let again = rows(&std::fs::read_to_string(out.join("values.csv")).unwrap());
    assert!(checked_in.len() > 40, "{checked_in:?}");
    assert_eq!(again, checked_in);
}

/// Kalah(4,3), each first move's exact value, under both capture rules (the values an
/// independent solver gave when the solver was first checked): standard +6 by hole 1 (holes
/// 0 to 3: -6, +6, +2, -2); empty capture +8 by hole 1 (-8, +8, 0, -4). A tablebase of every
/// position of up to 10 seeds on the board changes none of them.
#[test]
fn kalah_4_3_first_moves_have_their_values() {
    for (name, expected) in [
        ("kalah", [-6, 6, 2, -2]),
        ("catalogue/kalah-empty-capture", [-8, 8, 0, -4]),
    ] {
        let rules = board(name, 4, 3);
        let tablebase = solve::Tablebase::open(&rules, 10, None, 2, &|_| {}).expect("built");
        for base in [None, Some(&tablebase)] {
            let solution =
                solve::solve_reporting(&rules, Limits::default(), base, &|_| {}).expect("solved");
            let margins: Vec<i32> = solution.moves.iter().map(|(_, v)| v.margin).collect();
            assert_eq!(margins, expected, "{name}");
            assert_eq!(solution.value.margin, expected[1], "{name}");
            assert_eq!(solution.probes > 0, base.is_some(), "{name}");
        }
    }
}
