//! The step-through page: one self-contained HTML file (no network, no external script) that
//! plays a recorded game back move by move and lap by lap, drawn from the same [`Layout`] as
//! the board diagrams, with each rule that fired in `explain`'s words.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use super::chart::{css_colours, svg_dashes};
use super::diagram::{captured, laps, Layout, Scene, MOST_DOTS, OFFSET_CYCLE, OFFSET_STEP};
use super::document::escape;
use super::trace::{holes_of, move_lines, OverAtStart, Told};
use crate::engine::{Event, Game, MoveReport};
use crate::rules::explain::{capture_sentence, house_sentence};
use crate::rules::Rules;

/// One step of the page: the start of a game or round, a lap of a move, or a move's end.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Frame {
    /// The move in the whole recording, from 1; 0 before the first.
    pub index: u32,
    /// The round, from 1.
    pub round: u16,
    /// The move within its round, from 1; 0 at a round's start.
    pub turn: u32,
    /// The lap within the move, from 1; 0 at a round's start.
    pub lap: u32,
    /// Laps in the move.
    pub laps_in_move: u32,
    /// The board after this step, with this step's lap marked (a frame holds its own lap
    /// only; the page draws the move's earlier laps from the frames before it).
    #[serde(flatten)]
    pub scene: Scene,
    /// What happened, in the words of `trace`, each rule that fired followed by its sentence.
    pub words: Vec<String>,
}

/// A game recorded for the page, frame by frame.
pub struct Recording<'r> {
    rules: &'r Rules,
    frames: Vec<Frame>,
    moves: u32,
}

impl<'r> Recording<'r> {
    /// A recording that starts at `game`'s position.
    pub fn new(game: &Game<'r>) -> Recording<'r> {
        let mut recording = Recording {
            rules: game.rules(),
            frames: Vec::new(),
            moves: 0,
        };
        recording.round_start(game, Vec::new());
        recording
    }

    /// A game of random moves as `sowlab trace FILE --random MOVES --seed SEED` plays it (each
    /// move drawn uniformly from the legal ones by ChaCha8 seeded with `seed`), recorded.
    pub fn random_game(rules: &'r Rules, seed: u64, moves: u32) -> Recording<'r> {
        let mut game = Game::new(rules);
        let mut recording = Recording::new(&game);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for turn in 1..=moves {
            if game.is_over() {
                break;
            }
            let legal = game.legal_moves();
            let mut events = Vec::new();
            let report = game
                .play_traced(legal[rng.gen_range(0..legal.len())], &mut events)
                .expect("a legal move plays");
            recording.push_move(&game, turn, &report, &events);
        }
        recording
    }

    /// The frames so far.
    pub fn frames(&self) -> &[Frame] {
        &self.frames
    }

    /// A round starts at `game`'s position (the first, or the next of a match, after its
    /// refill), said in `words`.
    pub fn round_start(&mut self, game: &Game<'r>, mut words: Vec<String>) {
        // A round over before its first move says why in words; its picture says who won.
        if let Some(over) = OverAtStart::of(game) {
            words.push(format!("over before the first move: {over}"));
        }
        let round = game.round();
        let title = if round > 1 {
            format!("round {round}: start")
        } else {
            "start".to_string()
        };
        self.frames.push(Frame {
            index: self.moves,
            round,
            turn: 0,
            lap: 0,
            laps_in_move: 0,
            scene: Scene::at(game, title),
            words,
        });
    }

    /// Move `turn` of the round, which left `game` as it is: one frame a lap, the boards
    /// between laps worked out from the move's events, the last one the game's own.
    pub fn push_move(&mut self, game: &Game<'r>, turn: u32, report: &MoveReport, events: &[Event]) {
        self.moves += 1;
        let rules = self.rules;
        let side = report.side.map_or("?", |s| s.name());
        // In a match the moves are numbered within each round, so the round is named too.
        let round = match game.round() {
            1 => String::new(),
            r => format!("round {r}, "),
        };
        let title = format!(
            "{round}move {turn}: {side} plays hole {}",
            report.mv.name(rules)
        );
        let all_laps = laps(events);
        let count = all_laps.len().max(1) as u32;
        let lines = move_lines(rules, report, events);
        let previous = self.frames.last().expect("a recording starts with a frame");
        let (mut board, mut stores) = (previous.scene.board.clone(), previous.scene.stores);
        let base = Frame {
            index: self.moves,
            round: game.round(),
            turn,
            lap: 0,
            laps_in_move: count,
            scene: Scene::default(),
            words: Vec::new(),
        };
        // Each lap's events run from its lift to the next lift.
        let lifts: Vec<usize> = events
            .iter()
            .enumerate()
            .filter(|(_, e)| matches!(e, Event::Lift { .. }))
            .map(|(i, _)| i)
            .chain([events.len()])
            .collect();
        for (k, window) in lifts.windows(2).enumerate() {
            let lap = k as u32 + 1;
            let from = if k == 0 { 0 } else { window[0] };
            let lap_events = &events[from..window[1]];
            let last = lap == count;
            let words = self.words(&lines, lap, lap_events, last);
            let scene = if last {
                Scene {
                    played: Some(report.mv.hole()),
                    laps: vec![all_laps[k].clone()],
                    captured: captured(lap_events),
                    ..Scene::at(game, title.clone())
                }
            } else {
                replay(&mut board, &mut stores, lap_events);
                Scene {
                    board: board.clone(),
                    stores,
                    to_move: report.side,
                    status: format!("{side} sows: lap {lap} of {count}\n"),
                    played: Some(report.mv.hole()),
                    laps: vec![all_laps[k].clone()],
                    captured: captured(lap_events),
                    ..Scene::of_position(rules, game.position(), title.clone())
                }
            };
            self.frames.push(Frame {
                lap,
                scene,
                words,
                ..base.clone()
            });
        }
        if lifts.len() == 1 {
            // A move without a lap (none in today's rules): its end alone.
            self.frames.push(Frame {
                lap: 1,
                scene: Scene {
                    played: Some(report.mv.hole()),
                    ..Scene::at(game, title)
                },
                words: self.words(&lines, 1, events, true),
                ..base
            });
        }
    }

    /// The words of lap `lap`: its lines, each rule that fired followed by its sentence, and
    /// at the move's end whatever followed the laps and how the game stands.
    fn words(
        &self,
        lines: &[(u32, Told, String)],
        lap: u32,
        events: &[Event],
        last: bool,
    ) -> Vec<String> {
        let mut words: Vec<String> = lines
            .iter()
            .filter(|(l, ..)| *l == lap || (last && *l > lap))
            .map(|(.., line)| line.trim().to_string())
            .collect();
        for event in events {
            match event {
                Event::Capture { rule, .. } | Event::GrandSlam { rule } => {
                    let name = &self.rules.program.captures[*rule].name;
                    words.push(format!(
                        "rule \"{name}\": {}",
                        capture_sentence(self.rules, *rule)
                    ));
                }
                Event::House { rule, .. } => {
                    let name = &self.rules.program.houses[*rule].name;
                    words.push(format!(
                        "rule \"{name}\": {}",
                        house_sentence(self.rules, *rule)
                    ));
                }
                _ => {}
            }
        }
        words.dedup();
        words
    }

    /// The page: `title` at the top, `made` (how it was made) below it.
    pub fn html(&self, title: &str, made: &str) -> String {
        #[derive(Serialize)]
        struct Data<'a> {
            layout: Layout,
            store_label: &'static str,
            ring: u32,
            // How the diagrams draw, so the page draws the same.
            colours: Vec<String>,
            dashes: Vec<String>,
            most_dots: u16,
            offset_step: i32,
            offset_cycle: usize,
            frames: &'a [Frame],
        }
        let data = Data {
            layout: Layout::of(self.rules),
            ring: self.rules.geometry.ring.count_ones(),
            colours: css_colours(),
            dashes: svg_dashes(),
            most_dots: MOST_DOTS,
            offset_step: OFFSET_STEP,
            offset_cycle: OFFSET_CYCLE,
            store_label: if self.rules.program.board.stores.sown() {
                "store"
            } else {
                "captured"
            },
            frames: &self.frames,
        };
        // `<` never appears raw inside the script element, so no text can close it.
        let json = serde_json::to_string(&data)
            .expect("frames serialise")
            .replace('<', "\\u003c");
        PAGE.replace("{{TITLE}}", &escape(title))
            .replace("{{MADE}}", &escape(made))
            .replace("{{STYLE}}", STYLE)
            .replace("{{SCRIPT}}", SCRIPT)
            .replace("{{DATA}}", &json)
    }
}

/// Plays a lap's events on a board and stores: drops set a count, captures empty holes into a
/// store.
fn replay(board: &mut [u16], stores: &mut [u16; 2], events: &[Event]) {
    let holes = board.len();
    for event in events {
        match *event {
            Event::Lift { hole, seeds, .. } => board[hole] = board[hole].saturating_sub(seeds),
            Event::Drop { at, count } if at < holes => board[at] = count,
            Event::Drop { at, count } => stores[at - holes] = count,
            Event::Capture {
                holes: mask,
                seeds,
                to,
                ..
            } => {
                for h in holes_of(mask) {
                    board[h] = 0;
                }
                stores[to.index()] += seeds;
            }
            Event::House {
                hole, seeds, to, ..
            }
            | Event::Raid { hole, seeds, to } => {
                // A raid may take only the seed that landed.
                board[hole] = board[hole].saturating_sub(seeds);
                stores[to.index()] += seeds;
            }
            Event::HouseSown { hole, to } => {
                board[hole] -= 1;
                stores[to.index()] += 1;
            }
            Event::LastSeeds { to, seeds } => {
                board.fill(0);
                stores[to.index()] += seeds as u16;
            }
            Event::GrandSlam { .. } | Event::Land { .. } | Event::ExtraTurn => {}
        }
    }
}

const PAGE: &str = r#"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{TITLE}}</title>
<style>
{{STYLE}}</style>
</head>
<body>
<main>
<h1>{{TITLE}}</h1>
<p class="made">{{MADE}}</p>
<div id="board"></div>
<div class="controls">
<button id="first" title="Start (Home)">|◀</button>
<button id="prev-move" title="Previous move (↑ or Page Up)">◀◀</button>
<button id="prev" title="Previous step (←)">◀</button>
<button id="next" title="Next step (→)">▶</button>
<button id="next-move" title="Next move (↓ or Page Down)">▶▶</button>
<button id="last" title="End (End)">▶|</button>
<input id="slider" type="range" min="0" value="0" aria-label="step">
<span id="where"></span>
</div>
<div class="panes">
<section><h2 id="heading"></h2><ul id="words"></ul></section>
<section><h2>Moves</h2><ol id="moves"></ol></section>
</div>
<p class="keys">Keys: ← → a step (a lap), ↑ ↓ a move, Home and End. Arrows on the board: the sowing, a colour a lap; a blue ring: the hole played; red: the holes captured from.</p>
</main>
<script type="application/json" id="game">{{DATA}}</script>
<script>
{{SCRIPT}}</script>
</body>
</html>
"#;

const STYLE: &str = "body { font-family: 'DejaVu Sans', Verdana, sans-serif; color: #222; background: #fafafa; margin: 0; }
main { max-width: 1400px; margin: 1em auto; padding: 0 1em; }
h1 { font-size: 1.3em; margin: .2em 0; }
h2 { font-size: 1em; margin: .4em 0; }
.made, .keys { color: #555; font-size: .85em; }
#board svg { max-width: 100%; height: auto; background: white; border: 1px solid #ddd; }
.controls { display: flex; gap: .4em; align-items: center; flex-wrap: wrap; margin: .5em 0; }
.controls button { font-size: 1em; min-width: 2.6em; padding: .3em; }
#slider { flex: 1; min-width: 12em; }
#where { font-variant-numeric: tabular-nums; min-width: 16em; }
.panes { display: grid; grid-template-columns: 2fr 1fr; gap: 1em; }
.panes section { background: white; border: 1px solid #ddd; padding: .5em .8em; }
#words { margin: 0; padding-left: 1.2em; min-height: 6em; }
#moves { max-height: 16em; overflow-y: auto; margin: 0; padding: 0; font-size: .9em; list-style-position: inside;
  display: grid; grid-template-columns: repeat(auto-fill, minmax(8.5em, 1fr)); }
#moves li { cursor: pointer; }
#moves li.current { font-weight: bold; color: #00498c; }
";

const SCRIPT: &str = include_str!("stepper.js");

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Move;

    /// Hoyito I, South plays hole 3 at the start (four seeds a hole): a relay move, shown a
    /// lap at a time.
    ///
    /// ```text
    ///   lap 1: hole 3's 4 seeds into 4 5 6 7; the last makes 7 a five: lift it
    ///   lap 2: 7's 5 into 8 9 10 11 0; 0 becomes a five: lift it
    ///   lap 3: 0's 5 into 1 2 3 4 5; 5 becomes a six: lift it
    ///
    ///   after lap 3     11 10  9  8  7  6          North
    ///                    5  5  5  5  0  5
    ///                    0  5  5  1  6  6          South
    ///                    0  1  2  3  4  5
    /// ```
    #[test]
    fn a_relay_move_is_shown_lap_by_lap() {
        let rules = crate::lang::shipped("hoyito-i");
        let mut game = Game::new(&rules);
        let mut recording = Recording::new(&game);
        let mut events = Vec::new();
        let report = game
            .play_traced(Move::from_hole(3), &mut events)
            .expect("legal");
        recording.push_move(&game, 1, &report, &events);
        let frames = recording.frames();
        assert_eq!(frames[0].scene.board, [4; 12]);
        assert_eq!(frames[0].turn, 0);
        let laps = frames.len() - 1;
        assert_eq!(laps as u32, report.laps);
        assert_eq!(frames[1].laps_in_move, report.laps);
        let lap = |i: usize| &frames[i].scene.laps[0];
        assert_eq!((lap(1).from, lap(1).drops.clone()), (3, vec![4, 5, 6, 7]));
        assert_eq!(
            (lap(2).from, lap(2).drops.clone()),
            (7, vec![8, 9, 10, 11, 0])
        );
        assert_eq!(
            (lap(3).from, lap(3).drops.clone()),
            (0, vec![1, 2, 3, 4, 5])
        );
        assert_eq!(frames[1].scene.board, [4, 4, 4, 0, 5, 5, 5, 5, 4, 4, 4, 4]);
        assert_eq!(frames[2].scene.board, [5, 4, 4, 0, 5, 5, 5, 0, 5, 5, 5, 5]);
        assert_eq!(frames[3].scene.board, [0, 5, 5, 1, 6, 6, 5, 0, 5, 5, 5, 5]);
        assert_eq!(
            frames[3].words,
            [
                "lap 3: lifts 5 from hole 0",
                "sows 1 2 3 4 5",
                "last seed in 5 (now 6)"
            ]
        );
        assert_eq!(frames[3].scene.status, "south sows: lap 3 of 5\n");
        // The move's last frame is the game's own position.
        let last = frames.last().unwrap();
        assert_eq!(last.scene.board, game.position().board());
        assert_eq!(last.scene.stores, game.position().stores());
        assert!(frames[1..].iter().all(|f| f.index == 1 && f.turn == 1));
    }

    /// A capture's frame names the rule and gives `explain`'s sentence for it.
    #[test]
    fn a_capture_is_said_with_its_rule_in_explains_words() {
        let rules = crate::lang::shipped("oware");
        let mut game = Game::new(&rules);
        let mut recording = Recording::new(&game);
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut turn = 0;
        while !game.is_over() {
            let legal = game.legal_moves();
            let mut events = Vec::new();
            let report = game
                .play_traced(legal[rng.gen_range(0..legal.len())], &mut events)
                .expect("legal");
            turn += 1;
            recording.push_move(&game, turn, &report, &events);
            let fired = events.iter().find_map(|e| match e {
                Event::Capture { rule, .. } => Some(*rule),
                _ => None,
            });
            if let Some(rule) = fired {
                let frame = recording.frames().last().unwrap();
                let name = &rules.program.captures[rule].name;
                let sentence = capture_sentence(&rules, rule);
                assert!(
                    frame
                        .words
                        .contains(&format!("rule \"{name}\": {sentence}")),
                    "{:?}",
                    frame.words
                );
                assert!(!frame.scene.captured.is_empty());
                return;
            }
        }
        panic!("no capture in the game");
    }

    /// The board between laps is worked out from the events: over every shipped and catalogue
    /// variant, the events of a whole move, played on the board before it, give the board and
    /// stores after it, for every move that does not end the game (whose end rules give seeds
    /// out without events).
    #[test]
    fn the_events_of_a_move_add_up_to_the_position_after_it() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("variants");
        let files = crate::lang::variant_files(&[root]).expect("variants").files;
        assert!(files.len() > 70);
        for file in files {
            let rules = crate::lang::compile_path(&file, &[]).expect("compiles");
            let mut rng = ChaCha8Rng::seed_from_u64(11);
            for _ in 0..3 {
                let mut game = Game::new(&rules);
                for _ in 0..300 {
                    if game.is_over() {
                        break;
                    }
                    let (mut board, mut stores) =
                        (game.position().board().to_vec(), game.position().stores());
                    let legal = game.legal_moves();
                    let mut events = Vec::new();
                    game.play_traced(legal[rng.gen_range(0..legal.len())], &mut events)
                        .expect("legal");
                    if game.is_over() {
                        break;
                    }
                    replay(&mut board, &mut stores, &events);
                    assert_eq!(
                        (board.as_slice(), stores),
                        (game.position().board(), game.position().stores()),
                        "{}: {events:?}",
                        file.display()
                    );
                }
            }
        }
    }
}
