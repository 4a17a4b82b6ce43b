//! `check`'s warnings, and the one line of `trace` and `play` for a game over before its first
//! move.
//!
//! `tests/warn/<stem>.sow` is a file that compiles but has one warning, and
//! `tests/warn/<stem>.stderr` the report `sowlab check` prints for it.
//! `SOWLAB_BLESS=1 cargo test --test integration warnings` rewrites the `.stderr` files from the
//! current output: read every one before committing it. Each rule that can never apply is also
//! tried just inside its bound, where it must not be warned of.

use sowlab::engine::{Game, Outcome};
use sowlab::lang::{compile_path, compile_text};
use sowlab::report::trace::OverAtStart;
use sowlab::rules::Side;
use sowlab::warning::{self, Probe, Stop, Warning};

use super::util::{self, sowlab};

/// Every file of `tests/warn/` and the code of the one warning it must give.
const FILES: &[(&str, &str)] = &[
    ("capture-after-cap", "sowlab::warning::never_applies"),
    (
        "every-round-over-at-start",
        "sowlab::warning::no_first_move",
    ),
    ("lose-below-one-round", "sowlab::warning::one_round"),
    ("no-first-move", "sowlab::warning::no_first_move"),
    ("no-moves-at-start", "sowlab::warning::no_first_move"),
    ("quiet-after-cap", "sowlab::warning::never_applies"),
    ("skip-origin-beyond-seeds", "sowlab::warning::never_applies"),
    ("starter-passes", "sowlab::warning::no_first_move"),
    ("unfeedable-at-start", "sowlab::warning::no_first_move"),
];

/// The line `trace` and `play` print for `tests/warn/no-first-move.sow`.
const NO_FIRST_MOVE: &str = "game over before the first move: north wins, because south, to move first, has no legal move, and `no move: end, to opponent` gives every seed to north";

/// The warnings about `text`, a variant file standing in `variants/` (so it may extend one).
fn warnings(text: &str) -> Vec<Warning> {
    let rules = compile_text("test.sow", text, &util::path("variants"))
        .unwrap_or_else(|e| panic!("{text}\ndoes not compile:\n{}", e.render(false)));
    warning::find(&rules)
}

/// How and why the game of `text` (as for [`warnings`]) ended before its first move.
fn over_at_start(text: &str) -> OverAtStart {
    let rules = compile_text("test.sow", text, &util::path("variants")).expect("compiles");
    OverAtStart::of(&Game::new(&rules)).expect("the game is over before its first move")
}

fn stdout(output: &std::process::Output) -> String {
    util::text(&output.stdout)
}

#[test]
fn each_warning_file_passes_check_with_its_report_marked_as_a_warning() {
    let mut stems: Vec<String> = std::fs::read_dir(util::path("tests/warn"))
        .expect("tests/warn exists")
        .map(|e| e.expect("a readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "sow"))
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    stems.sort();
    let listed: Vec<&str> = FILES.iter().map(|(stem, _)| *stem).collect();
    assert_eq!(stems, listed, "every file of tests/warn is listed in FILES");
    for (stem, code) in FILES {
        let file = format!("tests/warn/{stem}.sow");
        let output = sowlab().args(["check", &file]).output().unwrap();
        assert_eq!(output.status.code(), Some(0), "{file}");
        let out = stdout(&output);
        assert!(
            out.starts_with(&format!("ok  {file}  ")) && out.lines().count() == 1,
            "{out}"
        );
        let report = util::text(&output.stderr);
        assert!(report.starts_with(&format!("{code}\n")), "{report}");
        assert_eq!(report.matches("sowlab::warning::").count(), 1, "{report}");
        assert!(
            report.contains(&format!("  ⚠ {file}: ")) && !report.contains('×'),
            "{report}"
        );
        assert!(
            report.ends_with("1 warning(s) in 1 of 1 file(s)\n"),
            "{report}"
        );
        util::assert_golden(&format!("tests/warn/{stem}.stderr"), &report);
    }
}

/// The README shows one report as `check` prints it.
#[test]
fn the_readme_shows_a_warning_as_check_prints_it() {
    let readme = std::fs::read_to_string(util::path("README.md")).unwrap();
    let report = std::fs::read_to_string(util::path("tests/warn/no-first-move.stderr")).unwrap();
    assert!(readme.contains(&report), "README.md lacks\n{report}");
}

#[test]
fn deny_warnings_fails_a_check_with_warnings_and_says_why() {
    let output = sowlab()
        .args(["check", "--deny-warnings", "tests/warn/no-first-move.sow"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(stdout(&output).starts_with("ok  tests/warn/no-first-move.sow  "));
    let report = util::text(&output.stderr);
    assert!(
        report.ends_with("1 warning(s) in 1 of 1 file(s); --deny-warnings fails the check\n"),
        "{report}"
    );
    // A file without warnings passes, and prints nothing on stderr.
    sowlab()
        .args(["check", "--deny-warnings", "variants/hoyito-i.sow"])
        .assert()
        .success()
        .stderr("");
}

#[test]
fn check_help_lists_every_warning_and_states_the_probe_as_run() {
    let output = sowlab().args(["check", "--help"]).output().unwrap();
    let help = stdout(&output)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    for (_, code) in FILES {
        let kind = code.trim_start_matches("sowlab::warning::");
        assert!(help.contains(&format!(" {kind} ")), "{kind} in {help}");
    }
    assert!(help.contains(" unfinished "), "{help}");
    let probe = format!(
        "fewer than 1 in {} of {} random games (random against random, seed {}, at most {} moves each)",
        warning::PROBE_SHARE,
        warning::PROBE_GAMES,
        warning::PROBE_SEED,
        warning::PROBE_MOVES
    );
    assert!(help.contains(&probe), "{help}");
    assert!(help.contains("--deny-warnings"), "{help}");
}

/// The only shipped variant with a warning is Bule Perga, whose notes say that random play
/// seldom reaches its end: the repetition rule stops 94% of 4,000 games.
#[test]
fn of_the_shipped_variants_only_bule_perga_warns_that_random_play_seldom_ends() {
    let files = sowlab::lang::variant_files(&[util::path("variants")])
        .unwrap()
        .files;
    let mut warned = Vec::new();
    for file in &files {
        let rules = compile_path(file, &[]).expect("shipped variants compile");
        let found = warning::find(&rules);
        if !found.is_empty() {
            let name = file.strip_prefix(util::root()).unwrap().display();
            warned.push((name.to_string(), found));
        }
    }
    let probe = Probe {
        games: 200,
        finished: 13,
        stopped: vec![(Stop::Repetition { readings: vec![10] }, 187)],
    };
    assert_eq!(
        warned,
        [(
            "variants/catalogue/bule-perga.sow".to_string(),
            vec![Warning::Unfinished(probe.clone())]
        )]
    );
    assert_eq!(
        probe.to_string(),
        "random play finished 13 of 200 games: 187 stopped by repetition (R10)"
    );
}

#[test]
fn a_rule_that_can_never_apply_is_warned_of_and_the_same_rule_inside_its_bound_is_not() {
    let late = |from: u32| {
        format!(
            "extends \"oware.sow\"\ncapture \"late\" {{ on: last drop of the move  \
             if: opponent side and count is 4  take: hole  to: mover  from move: {from} }}"
        )
    };
    let quiet = |moves: u32| {
        format!("extends \"oware.sow\"\nend {{ no capture for: {moves} moves, to owners }}")
    };
    let skip =
        |from: u32| format!("extends \"oware.sow\"\nsowing {{ skip origin: from {from} seeds }}");
    let lose = |below: u32| format!("extends \"hoyito-i.sow\"\nmatch {{ lose below: {below} }}");
    // Oware and Hoyito I: 48 seeds, a move cap of 2000.
    let cases = [
        (
            late(2001),
            late(2000),
            Warning::CaptureAfterCap {
                capture: "late".into(),
                from: 2001,
                cap: 2000,
            },
        ),
        (
            quiet(2001),
            quiet(2000),
            Warning::QuietAfterCap {
                moves: 2001,
                cap: 2000,
            },
        ),
        (
            skip(49),
            skip(48),
            Warning::SkipBeyondSeeds {
                from: 49,
                total: 48,
            },
        ),
        (
            lose(25),
            lose(24),
            Warning::OneRound {
                below: 25,
                total: 48,
            },
        ),
    ];
    for (outside, inside, expected) in cases {
        assert_eq!(warnings(&outside), [expected], "{outside}");
        assert_eq!(warnings(&inside), [], "{inside}");
    }
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

/// The probe cuts a game at 2000 moves where the move cap is longer, and says so: the games it
/// cuts are those the file's own cap of 2000 would stop.
#[test]
fn the_probe_stops_at_its_own_limit_under_a_longer_cap_and_says_so() {
    let probe = |settings: &[(&str, &str)]| {
        let settings: Vec<(String, String)> = settings
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let rules = compile_path(&util::path("variants/hoyito-i.sow"), &settings).unwrap();
        match &warning::find(&rules)[..] {
            [Warning::Unfinished(probe)] => probe.clone(),
            found => panic!("one warning, of the probe: {found:?}"),
        }
    };
    let limited = probe(&[("holes", "16"), ("cap", "100000")]);
    assert_eq!(limited.games, warning::PROBE_GAMES);
    assert!(limited.finished * 10 < limited.games, "{limited}");
    let cut = limited.games - limited.finished;
    assert_eq!(limited.stopped, [(Stop::Limit, cut)]);
    assert!(
        limited
            .to_string()
            .ends_with(&format!("{cut} stopped by the probe's limit of 2000 moves")),
        "{limited}"
    );
    let capped = probe(&[("holes", "16")]);
    let cap = Stop::Cap {
        moves: 2000,
        readings: vec![10],
    };
    assert_eq!(
        capped,
        Probe {
            stopped: vec![(cap, cut)],
            ..limited
        }
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
