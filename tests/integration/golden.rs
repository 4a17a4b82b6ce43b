//! Golden rule cases: hand-worked positions in `tests/golden/<variant>/*.trace` (format in
//! `tests/golden/README.md`), each played from a set-up position and compared, move by move,
//! with the full JSON state, on a shipped variant or on a rule file written for the cases
//! alone; and the readable trace of a short Hoyito I game.

use std::path::{Path, PathBuf};

use serde_json::Value;
use sowlab::engine::{Game, Match, MatchSetup, Move, Position};
use sowlab::report::trace::{JsonRoundEnd, JsonState};
use sowlab::rules::{Rules, Side};

use super::util;

#[derive(Clone)]
enum Step {
    Play {
        mv: Move,
        line: usize,
        expect: Option<Value>,
    },
    Legal {
        line: usize,
        moves: Vec<Move>,
    },
    Refuse {
        line: usize,
        mv: Move,
        reason: String,
    },
    /// The round's game is over: score it and refill (matches only).
    RoundEnd {
        line: usize,
        expect: Value,
    },
}

/// A case that starts part-way through a match.
#[derive(Clone, Default)]
struct MatchState {
    round: u16,
    starter: Option<Side>,
    reserve: [u16; 2],
    won: [u16; 2],
    previous: Option<Side>,
    closed: Vec<usize>,
    north: Option<Vec<usize>>,
}

#[derive(Clone)]
struct Case {
    variant: String,
    board: Vec<u16>,
    store: [u16; 2],
    to_move: Side,
    known_failure: Option<String>,
    steps: Vec<Step>,
    matched: Option<MatchState>,
}

fn numbers<T: std::str::FromStr>(text: &str, line: usize) -> Result<Vec<T>, String> {
    let words = text.split_whitespace().filter(|w| *w != "|");
    words
        .map(|w| {
            w.parse()
                .map_err(|_| format!("line {line}: `{w}` is not a number"))
        })
        .collect()
}

/// Moves as `trace --moves` takes them: `3`, or `3cw` / `3ccw` where the mover chooses.
fn moves(text: &str, line: usize) -> Result<Vec<Move>, String> {
    text.split_whitespace()
        .map(|w| Move::parse(w).ok_or(format!("line {line}: `{w}` is not a move")))
        .collect()
}

fn parse(text: &str) -> Result<Case, String> {
    let mut case = Case {
        variant: String::new(),
        board: Vec::new(),
        store: [0, 0],
        to_move: Side::South,
        known_failure: None,
        steps: Vec::new(),
        matched: None,
    };
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let content = raw.split('#').next().unwrap_or("").trim();
        if content.is_empty() {
            continue;
        }
        let (key, rest) = content
            .split_once(char::is_whitespace)
            .unwrap_or((content, ""));
        let rest = rest.trim();
        match key {
            "variant" => case.variant = rest.to_string(),
            "board" => case.board = numbers(rest, line)?,
            "store" => {
                case.store = numbers(rest, line)?
                    .try_into()
                    .map_err(|_| format!("line {line}: `store` takes two numbers"))?
            }
            "to-move" => {
                case.to_move = match rest {
                    "south" => Side::South,
                    "north" => Side::North,
                    _ => return Err(format!("line {line}: `to-move south` or `to-move north`")),
                }
            }
            "known-failure" => case.known_failure = Some(rest.to_string()),
            "round" | "starter" | "reserve" | "won" | "previous" | "closed" | "north" => {
                let m = case.matched.get_or_insert_with(|| MatchState {
                    round: 1,
                    ..MatchState::default()
                });
                let side = |word: &str| match word {
                    "south" => Ok(Some(Side::South)),
                    "north" => Ok(Some(Side::North)),
                    "none" => Ok(None),
                    _ => Err(format!("line {line}: `south`, `north` or `none`")),
                };
                let pair = |text: &str| -> Result<[u16; 2], String> {
                    numbers(text, line)?
                        .try_into()
                        .map_err(|_| format!("line {line}: `{key}` takes two numbers"))
                };
                match key {
                    "round" => m.round = numbers(rest, line)?[0],
                    "starter" => m.starter = side(rest)?,
                    "reserve" => m.reserve = pair(rest)?,
                    "won" => m.won = pair(rest)?,
                    "previous" => m.previous = side(rest)?,
                    "closed" => m.closed = numbers(rest, line)?,
                    _ => m.north = Some(numbers(rest, line)?),
                }
            }
            "round-end" => case.steps.push(Step::RoundEnd {
                line,
                expect: serde_json::from_str(rest).map_err(|e| format!("line {line}: {e}"))?,
            }),
            "play" => case.steps.push(Step::Play {
                mv: moves(rest, line)?[0],
                line,
                expect: None,
            }),
            "expect" => match case.steps.last_mut() {
                Some(Step::Play {
                    expect: e @ None, ..
                }) => {
                    *e = Some(serde_json::from_str(rest).map_err(|e| format!("line {line}: {e}"))?)
                }
                _ => return Err(format!("line {line}: `expect` must follow a `play`")),
            },
            "legal" => case.steps.push(Step::Legal {
                line,
                moves: moves(rest, line)?,
            }),
            "refuse" => {
                let (hole, reason) = rest
                    .split_once(char::is_whitespace)
                    .ok_or(format!("line {line}: `refuse HOLE REASON`"))?;
                case.steps.push(Step::Refuse {
                    line,
                    mv: moves(hole, line)?[0],
                    reason: reason.trim().to_string(),
                });
            }
            _ => return Err(format!("line {line}: unknown directive `{key}`")),
        }
    }
    if case
        .steps
        .iter()
        .any(|s| matches!(s, Step::Play { expect: None, .. }))
    {
        return Err("a `play` has no `expect`".into());
    }
    Ok(case)
}

/// What a case plays: a single game, or a match.
enum Playing<'r> {
    Single(Game<'r>),
    Match(Match<'r>),
}

impl<'r> Playing<'r> {
    fn game(&mut self) -> &mut Game<'r> {
        match self {
            Playing::Single(game) => game,
            Playing::Match(m) => m.game_mut(),
        }
    }

    fn state(&self, turn: u32, player: Side, mv: Move) -> Value {
        let state = match self {
            Playing::Single(game) => JsonState::after(game, turn, player, mv),
            Playing::Match(m) => JsonState::in_match(m, turn, player, mv),
        };
        serde_json::to_value(state).unwrap()
    }
}

fn mask(holes: &[usize]) -> u64 {
    holes.iter().fold(0, |m, h| m | 1 << h)
}

/// Plays a case; the error names the first step that differs from the file.
fn run(case: &Case, rules: &Rules) -> Result<(), String> {
    let mut playing = match &case.matched {
        None => {
            let position = Position::from_setup(rules, &case.board, case.store, case.to_move)
                .map_err(|e| format!("set-up: {e}"))?;
            Playing::Single(Game::from_position(rules, position))
        }
        Some(m) => {
            let setup = MatchSetup {
                round: m.round,
                board: case.board.clone(),
                stores: case.store,
                closed: mask(&m.closed),
                north: m.north.as_deref().map(mask),
                to_move: case.to_move,
                starter: m.starter.unwrap_or(case.to_move),
                reserve: m.reserve,
                rounds_won: m.won,
                previous_winner: m.previous,
            };
            Playing::Match(Match::from_setup(rules, &setup).map_err(|e| format!("set-up: {e}"))?)
        }
    };
    let mut turn = 0;
    for step in &case.steps {
        match step {
            Step::Play { mv, line, expect } => {
                turn += 1;
                let game = playing.game();
                let player = game.to_move().ok_or(format!(
                    "line {line}: move {turn}: the game is already over"
                ))?;
                game.play(*mv)
                    .map_err(|e| format!("line {line}: move {turn}: {e}"))?;
                let got = playing.state(turn, player, *mv);
                if Some(&got) != expect.as_ref() {
                    return Err(format!(
                        "line {line}: move {turn} ({mv})\n  expected {}\n  got      {got}",
                        expect.as_ref().unwrap()
                    ));
                }
            }
            Step::Legal { line, moves } => {
                let got = playing.game().legal_moves();
                if &got != moves {
                    return Err(format!(
                        "line {line}: legal moves: expected {moves:?}, got {got:?}"
                    ));
                }
            }
            Step::Refuse { line, mv, reason } => match playing.game().play(*mv) {
                Ok(_) => {
                    return Err(format!(
                        "line {line}: {mv} was played, expected refusal {reason}"
                    ))
                }
                Err(e) if format!("{:?}", e.reason) != *reason => {
                    return Err(format!(
                        "line {line}: {mv} refused with {:?}, expected {reason}",
                        e.reason
                    ))
                }
                Err(_) => {}
            },
            Step::RoundEnd { line, expect } => {
                let Playing::Match(m) = &mut playing else {
                    return Err(format!("line {line}: `round-end` needs a match case"));
                };
                if !m.game().is_over() {
                    return Err(format!("line {line}: the round is not over"));
                }
                let (result, refill) = m.next_round();
                let got =
                    serde_json::to_value(JsonRoundEnd::new(m, &result, refill.as_ref())).unwrap();
                if got != *expect {
                    return Err(format!(
                        "line {line}: end of round {}\n  expected {expect}\n  got      {got}",
                        result.round
                    ));
                }
                turn = 0;
            }
        }
    }
    Ok(())
}

/// The rules a case is played on: `tests/golden/<name>.sow`, a rule file written for the
/// golden cases alone (rule corners no shipped variant uses), or else the shipped variant
/// `variants/<name>.sow`.
fn rules_of(name: &str) -> Rules {
    let own = util::path(&format!("tests/golden/{name}.sow"));
    if !own.is_file() {
        return util::variant(name);
    }
    sowlab::lang::compile_path(&own, &[])
        .unwrap_or_else(|e| panic!("{} does not compile:\n{}", own.display(), e.render(false)))
}

/// Every `tests/golden/**/*.trace`, sorted.
fn trace_files() -> Vec<PathBuf> {
    fn walk(dir: &Path, files: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, files);
            } else if path.extension().is_some_and(|e| e == "trace") {
                files.push(path);
            }
        }
    }
    let mut files = Vec::new();
    walk(&util::path("tests/golden"), &mut files);
    files.sort();
    files
}

/// Parses and plays one file; a case marked `known-failure` is played and reported on stderr
/// but never fails.
fn check(name: &str, text: &str) -> Result<(), String> {
    let case = parse(text)?;
    // `tests/golden/<variant>/<case>.trace`: the folder names the rule file, as
    // `variants/<variant>.sow` (`catalogue/awale` for a catalogue game) or
    // `tests/golden/<variant>.sow` (`corners/across-empty`).
    let folder = Path::new(name)
        .parent()
        .and_then(|d| d.strip_prefix("tests/golden").ok())
        .map(|d| d.to_string_lossy().replace('\\', "/"));
    if folder
        .as_deref()
        .is_some_and(|d| d != case.variant.as_str())
    {
        return Err(format!("the folder is not the variant `{}`", case.variant));
    }
    match (run(&case, &rules_of(&case.variant)), &case.known_failure) {
        (Err(e), Some(why)) => eprintln!("known failure (not counted) {name}: {why}\n{e}"),
        (Ok(()), Some(why)) => {
            eprintln!("known failure {name} now passes ({why}): remove the mark")
        }
        (result, None) => return result,
    }
    Ok(())
}

#[test]
fn golden_rule_cases_match_the_hand_worked_states() {
    let files = trace_files();
    assert!(files.len() >= 40, "only {} golden cases found", files.len());
    let mut failures = Vec::new();
    for file in &files {
        let name = file
            .strip_prefix(util::root())
            .unwrap_or(file)
            .display()
            .to_string();
        if let Err(e) = check(&name, &std::fs::read_to_string(file).unwrap()) {
            failures.push(format!("{name}: {e}"));
        }
    }
    let count = failures.len();
    assert!(
        failures.is_empty(),
        "{count} of {} golden cases failed:\n\n{}",
        files.len(),
        failures.join("\n\n")
    );
}

/// The readable trace, with the rules hash (which changes whenever the compiled rules do)
/// replaced by `<hash>`.
#[test]
fn golden_trace_text_of_a_short_hoyito_i_game() {
    let out = util::sowlab()
        .args(["trace", "variants/hoyito-i.sow", "--moves", "0,7,4"])
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let (first, rest) = text.split_once('\n').unwrap();
    let first = match first.split_once(" — rules ") {
        Some((name, tail)) => format!(
            "{name} — rules <hash>{}",
            &tail[tail.find(' ').unwrap_or(tail.len())..]
        ),
        None => first.to_string(),
    };
    let got = format!("{first}\n{rest}");
    let expected = std::fs::read_to_string(util::path("tests/golden/trace/hoyito-i.txt")).unwrap();
    assert!(
        got == expected,
        "trace differs from tests/golden/trace/hoyito-i.txt\n--- expected\n{expected}\n--- got\n{got}"
    );
}

/// Each case can fail: a wrong value in any field of any expected state, a wrong legal list or
/// a wrong refusal is noticed; and a `known-failure` mark keeps a failing case from counting.
#[test]
fn golden_runner_notices_a_wrong_expectation() {
    for file in trace_files() {
        let case = parse(&std::fs::read_to_string(&file).unwrap()).unwrap();
        let rules = rules_of(&case.variant);
        for k in 0..case.steps.len() {
            let mut variants = Vec::new();
            match &case.steps[k] {
                Step::Play {
                    expect: Some(Value::Object(map)),
                    ..
                }
                | Step::RoundEnd {
                    expect: Value::Object(map),
                    ..
                } => {
                    for key in map.keys() {
                        let mut wrong = case.clone();
                        let m = match &mut wrong.steps[k] {
                            Step::Play {
                                expect: Some(Value::Object(m)),
                                ..
                            }
                            | Step::RoundEnd {
                                expect: Value::Object(m),
                                ..
                            } => m,
                            _ => unreachable!(),
                        };
                        m[key] = if m[key].is_null() {
                            Value::from("x")
                        } else {
                            Value::Null
                        };
                        variants.push(wrong);
                    }
                }
                Step::Legal { .. } | Step::Refuse { .. } => {
                    let mut wrong = case.clone();
                    match &mut wrong.steps[k] {
                        Step::Legal { moves, .. } => moves.push(Move::from_hole(31)),
                        Step::Refuse { reason, .. } => reason.push('?'),
                        Step::Play { .. } | Step::RoundEnd { .. } => unreachable!(),
                    }
                    variants.push(wrong);
                }
                Step::Play { .. } | Step::RoundEnd { .. } => {
                    unreachable!("parse demands an expected object")
                }
            }
            for wrong in variants {
                assert!(
                    run(&wrong, &rules).is_err(),
                    "{}: step {} changed, yet the case passes",
                    file.display(),
                    k + 1
                );
            }
        }
    }
    let marked = "variant hoyito-i\nboard 4 4 4 4 4 4 | 4 4 4 4 4 4\nstore 0 0\nto-move south\n\
                  known-failure demonstration\nplay 0\nexpect {}\n";
    assert!(check("hoyito-i/marked.trace", marked).is_ok());
    assert!(check(
        "hoyito-i/unmarked.trace",
        &marked.replace("known-failure", "# known-failure")
    )
    .is_err());
}
