//! Traces: a readable account of each move (laps, captures, board pictures) and of a game
//! over before its first move, and the one-line JSON state after each move that other
//! implementations can be compared with.

use std::fmt::{self, Write};

use serde::Serialize;

use crate::engine::{
    EndClass, EndReason, Event, Game, Match, MatchEnd, Move, MoveReport, NextRound, Outcome,
    RoundResult, Table,
};
use crate::lang::award_text;
use crate::rules::{GrandSlam, NoMove, Rules, Scoring, Side, Unfeedable};
use crate::sim::record::Winner;

/// A game over before its first move, and why: the player to move first had no legal move.
/// `trace` and `play` print it, and `check` warns of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OverAtStart {
    /// How it ended.
    pub outcome: Outcome,
    /// Why, in words: who could not move, and the rule that ended the game then.
    pub because: String,
}

impl OverAtStart {
    /// How and why `game` ended, if it ended before its first move.
    pub fn of(game: &Game<'_>) -> Option<OverAtStart> {
        let outcome = game.outcome().filter(|_| game.stats().moves == 0)?;
        // The player the game ended on; before them, the starter may have passed.
        let stuck = game.position().to_move;
        let who = if game.stats().passes == 0 {
            format!("{stuck}, to move first,")
        } else {
            format!("{}, to move first, passes, and {stuck}", stuck.other())
        };
        let rules = &game.rules().program;
        let unfeedable = rules.feeding.map(|f| f.unfeedable);
        let because = match (outcome.reason, rules.ending.no_move, unfeedable) {
            (EndReason::Stuck, ..) if rules.ending.scoring == Scoring::StuckLoses => {
                format!("{who} has no legal move, and `winner: a player who cannot move loses`")
            }
            (EndReason::Stuck, NoMove::EndGame(award), _) => format!(
                "{who} has no legal move, and `no move: end, {}` {}",
                award_text(award),
                shares(game)
            ),
            (EndReason::Unfeedable, _, Some(Unfeedable::Ends(award))) => format!(
                "{who} has no move that leaves {} seeds to play, and `unfeedable: {}` {}",
                stuck.other(),
                award_text(award),
                shares(game)
            ),
            (EndReason::NoMoves, ..) => "neither player has a legal move (`no move: pass`), \
                 and each side's seeds go to its owner"
                .to_string(),
            // Nothing else ends a game before a move is made; named, should that change.
            (other, ..) => format!("the end rule `{}` applies", other.name()),
        };
        Some(OverAtStart { outcome, because })
    }
}

impl fmt::Display for OverAtStart {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.outcome.winner {
            Some(side) => write!(f, "{side} wins, because {}", self.because),
            None => write!(f, "a draw, because {}", self.because),
        }
    }
}

/// Where the seeds of a game ended at once went: `gives every seed to north`.
fn shares(game: &Game<'_>) -> String {
    let [south, north] = game.position().stores();
    match (south, north, game.position().board_seeds()) {
        (_, 0, 0) => "gives every seed to south".to_string(),
        (0, _, 0) => "gives every seed to north".to_string(),
        (0, 0, _) => "leaves every seed on the board".to_string(),
        (s, n, 0) => format!("gives south {s} seeds and north {n}"),
        (s, n, left) => {
            format!("gives south {s} seeds and north {n}, and leaves {left} on the board")
        }
    }
}

/// The state after a move, as `trace --json` prints it (one object per line).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct JsonState {
    /// Move number, from 1.
    pub turn: u32,
    /// Who moved.
    pub player: Side,
    /// The hole played.
    #[serde(rename = "move")]
    pub hole: usize,
    /// The direction it was sown in when the mover chose it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub direction: Option<Chosen>,
    /// Seeds in holes `0..2N`.
    pub board: Vec<u16>,
    /// Captured totals (store contents), South first.
    pub store: [u16; 2],
    /// Who chooses next (passes resolved); `null` once the game is over.
    pub to_move: Option<Side>,
    /// Whether the game is over.
    pub over: bool,
    /// `"south"`, `"north"` or `"draw"` once over.
    pub winner: Option<Winner>,
    /// `normal`, `no-moves`, `cap` or `repetition` once over.
    pub end_reason: Option<EndClass>,
    /// In a match: the round, from 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round: Option<u16>,
    /// In a match: the closed holes, ascending.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub closed: Option<Vec<usize>>,
    /// In a match: the seeds each player keeps off the board, South first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reserve: Option<[u16; 2]>,
    /// In a match: the owner of each hole, `0..2N`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<Vec<Side>>,
}

/// A direction the mover chose, as the trace JSON writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Chosen {
    /// Clockwise.
    Cw,
    /// Counterclockwise.
    Ccw,
}

impl JsonState {
    /// The state of `game` after move `turn`, which `player` made: move `mv`.
    pub fn after(game: &Game<'_>, turn: u32, player: Side, mv: Move) -> JsonState {
        let position = game.position();
        let outcome = game.outcome();
        let n = game.rules().holes_per_row();
        let chosen = (game.rules().program.sowing.direction).chooses_at(mv.hole() % n, n);
        JsonState {
            turn,
            player,
            hole: mv.hole(),
            direction: chosen.then_some(if mv.clockwise() {
                Chosen::Cw
            } else {
                Chosen::Ccw
            }),
            board: position.board().to_vec(),
            store: position.stores(),
            to_move: game.to_move(),
            over: outcome.is_some(),
            winner: outcome.map(|o| Winner(o.winner)),
            end_reason: outcome.map(|o| o.reason.class()),
            round: None,
            closed: None,
            reserve: None,
            owner: None,
        }
    }

    /// The state of a match after move `turn` of its current round: the round's game, plus
    /// the round, the closed holes, the reserves and the owners.
    pub fn in_match(m: &Match<'_>, turn: u32, player: Side, mv: Move) -> JsonState {
        let position = m.game().position();
        JsonState {
            round: Some(m.round()),
            closed: Some(holes_of(position.closed())),
            reserve: Some(m.reserve()),
            owner: Some(owners(position.north_mask(), position.board().len())),
            ..JsonState::after(m.game(), turn, player, mv)
        }
    }
}

impl JsonState {
    /// The state after a move of a game or a match, as [`JsonState::after`] or
    /// [`JsonState::in_match`] give it.
    pub fn on(table: &Table<'_>, turn: u32, player: Side, mv: Move) -> JsonState {
        match table {
            Table::Game(game) => JsonState::after(game, turn, player, mv),
            Table::Match(m) => JsonState::in_match(m, turn, player, mv),
        }
    }
}

/// The end of a round as `trace --match --json` prints it (as `{"round_end": {...}}`), and
/// the golden cases expect it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct JsonRoundEnd {
    /// The round that ended.
    pub round: u16,
    /// Who started it.
    pub starter: Side,
    /// `south`, `north` or `draw`.
    pub winner: Winner,
    /// The round's end rule (`last-seeds`, `cap`, ...).
    pub end_rule: EndReason,
    /// What each player captured in the round, South first.
    pub captured: [u16; 2],
    /// What each player holds after it, South first.
    pub holdings: [u32; 2],
    /// Rounds won so far, South first.
    pub rounds_won: [u16; 2],
    /// Once the match is over: `south`, `north` or `draw`.
    pub match_winner: Option<Winner>,
    /// Once the match is over: why (`lose-below`, `first-to`, `round-cap`, `cannot-start`).
    pub match_end: Option<MatchEnd>,
    /// The next round's refilled board, if the match goes on.
    pub next: Option<JsonRefill>,
}

/// A refill between rounds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct JsonRefill {
    /// The round it starts.
    pub round: u16,
    /// Seeds in holes `0..2N`.
    pub board: Vec<u16>,
    /// Closed holes, ascending.
    pub closed: Vec<usize>,
    /// The owner of each hole.
    pub owner: Vec<Side>,
    /// Seeds each player keeps off the board.
    pub reserve: [u16; 2],
    /// Who starts the round.
    pub starter: Side,
}

impl JsonRoundEnd {
    /// The line `trace --match --json` prints: `{"round_end": {...}}`, fields in order.
    pub fn line(&self) -> String {
        keyed_line("round_end", self)
    }

    /// The end of a round of `m`, as [`Match::next_round`] reported it.
    pub fn new(m: &Match<'_>, result: &RoundResult, refill: Option<&NextRound>) -> JsonRoundEnd {
        let outcome = m.outcome();
        JsonRoundEnd {
            round: result.round,
            starter: result.starter,
            winner: Winner(result.outcome.winner),
            end_rule: result.outcome.reason,
            captured: result.captured,
            holdings: result.holdings,
            rounds_won: m.rounds_won(),
            match_winner: outcome.map(|o| Winner(o.winner)),
            match_end: outcome.map(|o| o.reason),
            next: refill.map(|r| JsonRefill {
                round: r.round,
                board: r.board.clone(),
                closed: holes_of(r.closed),
                owner: owners(r.north, r.board.len()),
                reserve: r.reserve,
                starter: r.starter,
            }),
        }
    }
}

/// A game, or a round of a match, over before its first move, as `trace --json` prints it
/// instead of states (`{"over_before_first_move": {...}}`): the board and stores once the
/// end rule has given the seeds out, the result, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct JsonOverAtStart {
    /// In a match: the round, from 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub round: Option<u16>,
    /// Seeds in holes `0..2N`.
    pub board: Vec<u16>,
    /// Captured totals (store contents), South first.
    pub store: [u16; 2],
    /// `south`, `north` or `draw`.
    pub winner: Winner,
    /// The class of the end, as `end_reason` in states (`normal`, `no-moves`).
    pub end_reason: EndClass,
    /// The end rule, as `end_rule` in `games.csv` (`stuck`, `unfeedable`, `no-moves`).
    pub end_rule: EndReason,
    /// Why, in the words `trace` prints.
    pub because: String,
}

impl JsonOverAtStart {
    /// The game of `table` (the current round's, in a match), if it ended before its first
    /// move.
    pub fn of(table: &Table<'_>) -> Option<JsonOverAtStart> {
        let game = table.game();
        let over = OverAtStart::of(game)?;
        let position = game.position();
        Some(JsonOverAtStart {
            round: matches!(table, Table::Match(_)).then(|| game.round()),
            board: position.board().to_vec(),
            store: position.stores(),
            winner: Winner(over.outcome.winner),
            end_reason: over.outcome.reason.class(),
            end_rule: over.outcome.reason,
            because: over.because,
        })
    }

    /// The line `trace --json` prints: `{"over_before_first_move": {...}}`, fields in order.
    pub fn line(&self) -> String {
        keyed_line("over_before_first_move", self)
    }
}

/// `{"KEY": {...}}` on one line, the value's fields in order: a line of `trace --json` that
/// is not a state.
fn keyed_line(key: &'static str, value: &impl Serialize) -> String {
    struct Line<'a, T>(&'static str, &'a T);
    impl<T: Serialize> Serialize for Line<'_, T> {
        fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeMap;
            let mut map = serializer.serialize_map(Some(1))?;
            map.serialize_entry(self.0, self.1)?;
            map.end()
        }
    }
    serde_json::to_string(&Line(key, value)).expect("a trace line serialises")
}

/// A readable account of the end of a round and the refill for the next.
pub fn describe_round_end(
    m: &Match<'_>,
    result: &RoundResult,
    refill: Option<&NextRound>,
) -> String {
    let mut out = String::new();
    let [s, n] = result.captured;
    let [hs, hn] = result.holdings;
    let [ws, wn] = m.rounds_won();
    let winner = result
        .outcome
        .winner
        .map_or("a draw".to_string(), |w| format!("{w} wins"));
    let _ = writeln!(
        out,
        "round {} over ({}): {winner}; captured {s}–{n}, holding {hs}–{hn}; rounds won {ws}–{wn}",
        result.round,
        result.outcome.reason.name()
    );
    match (m.outcome(), refill) {
        (Some(end), _) => {
            let winner = end
                .winner
                .map_or("a draw".to_string(), |w| format!("{w} wins"));
            let _ = writeln!(out, "match over ({}): {winner}", end.reason.name());
        }
        (None, Some(r)) => {
            let closed = holes_of(r.closed);
            let closed = if closed.is_empty() {
                "none".to_string()
            } else {
                closed
                    .iter()
                    .map(usize::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            let [rs, rn] = r.reserve;
            let _ = writeln!(
                out,
                "round {}: {} starts; closed holes: {closed}; reserves {rs}–{rn}",
                r.round, r.starter
            );
        }
        (None, None) => {}
    }
    out
}

/// The holes of a bit mask, ascending.
pub fn holes_of(mask: u64) -> Vec<usize> {
    (0..64).filter(|h| mask >> h & 1 == 1).collect()
}

/// The owner of each of `holes` holes, given North's as a mask.
fn owners(north: u64, holes: usize) -> Vec<Side> {
    (0..holes)
        .map(|h| {
            if north >> h & 1 == 1 {
                Side::North
            } else {
                Side::South
            }
        })
        .collect()
}

/// Who is to move, or how `game` ended (`what` names it: `game`, or `round` in a match).
pub fn game_status(game: &Game<'_>, what: &str) -> String {
    match (game.to_move(), game.outcome(), OverAtStart::of(game)) {
        (Some(side), ..) => format!("{side} to move\n"),
        (None, _, Some(over)) => format!("{what} over before the first move: {over}\n"),
        (None, Some(outcome), None) => {
            let winner = outcome
                .winner
                .map_or("a draw".to_string(), |s| format!("{s} wins"));
            format!("{what} over ({}): {winner}\n", outcome.reason.name())
        }
        (None, None, None) => String::new(),
    }
}

/// The board as South sees it: North's row on top (hole 2N-1 at the left), South's below.
pub fn picture(rules: &Rules, game: &Game<'_>) -> String {
    marked_picture(rules, game, &Marks::default())
}

/// What a picture marks: the hole last played and the holes it captured from, and whether in
/// colour (a terminal) as well as with marks under the cells.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Marks {
    /// The hole played.
    pub played: Option<usize>,
    /// The holes captured from.
    pub captured: Vec<usize>,
    /// ANSI colours on the marked cells.
    pub colour: bool,
}

/// [`picture`] with the last move marked: a line below South's row (above North's) puts `^`
/// under the hole played and `x` under the holes captured from; on a terminal the cells are
/// coloured too. Without marks, exactly [`picture`].
pub fn marked_picture(rules: &Rules, game: &Game<'_>, marks: &Marks) -> String {
    let position = game.position();
    let n = rules.holes_per_row();
    let board = position.board();
    let [south, north] = position.stores();
    let (closed, houses) = (position.closed(), position.houses());
    let mark = |p: usize| {
        if marks.played == Some(p) {
            Some(('^', "1;34"))
        } else if marks.captured.contains(&p) {
            Some(('x', "1;31"))
        } else {
            None
        }
    };
    // A closed hole shows as `x`, a house's count with a `*`.
    let cell = |p: usize| {
        let text = if closed >> p & 1 == 1 {
            "  x".to_string()
        } else if houses >> p & 1 == 1 {
            format!("{:>2}*", board[p])
        } else {
            format!("{:>3}", board[p])
        };
        match mark(p) {
            Some((_, code)) if marks.colour => format!("\x1b[{code}m{text}\x1b[0m"),
            _ => text,
        }
    };
    // The marks under (or over) a row's cells, or nothing where the row has none; the key
    // once, on the lower line.
    let marked = |holes: &[usize]| holes.iter().any(|&p| mark(p).is_some());
    let mark_line = |holes: &[usize], key: bool| {
        if !marked(holes) {
            return String::new();
        }
        let line: String = holes
            .iter()
            .map(|&p| format!("  {}", mark(p).map_or(' ', |(c, _)| c)))
            .collect();
        let key = if key {
            "   ^ played, x captured from"
        } else {
            ""
        };
        format!("      {line}{key}").trim_end().to_string() + "\n"
    };
    let label = |p: usize| format!("{p:>3}");
    let north_holes: Vec<usize> = (n..2 * n).rev().collect();
    let south_holes: Vec<usize> = (0..n).collect();
    let north_row: String = north_holes.iter().map(|&p| cell(p)).collect();
    let south_row: String = south_holes.iter().map(|&p| cell(p)).collect();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "      {}   North",
        north_holes.iter().map(|&p| label(p)).collect::<String>()
    );
    out.push_str(&mark_line(&north_holes, !marked(&south_holes)));
    let _ = writeln!(out, "     [{north_row} ]  store {north}");
    let _ = writeln!(out, "     [{south_row} ]  store {south}");
    out.push_str(&mark_line(&south_holes, true));
    let _ = writeln!(
        out,
        "      {}   South",
        south_holes.iter().map(|&p| label(p)).collect::<String>()
    );
    out
}

/// A move told in short: its heading, one line a lap (the seeds lifted, where from, how many
/// were sown and where the last fell), and every capture, house, raid and extra turn where
/// [`describe_move`] tells it.
pub fn summarise_move(rules: &Rules, turn: u32, report: &MoveReport, events: &[Event]) -> String {
    let side = report.side.map_or("?", Side::name);
    let mut out = format!("move {turn}: {side} plays hole {}\n", report.mv.name(rules));
    // Each lap from its events: the lift, the seeds sown, where the last fell.
    let mut laps: Vec<(String, u32, Option<String>)> = Vec::new();
    for event in events {
        match event {
            Event::Lift { lap, hole, seeds } => {
                laps.push((format!("  lap {lap}: {seeds} from hole {hole}"), 0, None));
            }
            Event::Drop { .. } => laps.last_mut().expect("a lap lifts first").1 += 1,
            Event::Land { at, count } => {
                let lap = laps.last_mut().expect("a lap lifts first");
                let at = position_name(rules, *at);
                lap.2
                    .get_or_insert(format!(", the last in {at} (now {count})"));
            }
            _ => {}
        }
    }
    let mut told = 0;
    for (lap, kind, line) in move_lines(rules, report, events) {
        match kind {
            // A lap's one line stands where its sowing begins.
            Told::Sowing if lap as usize > told => {
                told = lap as usize;
                let (start, sown, land) = &laps[told - 1];
                let _ = writeln!(out, "{start}, {sown} sown{}", land.as_deref().unwrap_or(""));
            }
            Told::Sowing => {}
            Told::Rule => {
                out.push_str(&line);
                out.push('\n');
            }
        }
    }
    out
}

/// What a grand slam did under `policy`, after "grand slam, ".
fn grand_slam_words(policy: GrandSlam) -> &'static str {
    match policy {
        // Never told: a grand slam that captures as usual is no event.
        GrandSlam::Captures => "taken as any capture",
        GrandSlam::CapturesNothing => "nothing taken",
        GrandSlam::Forbidden => "so the move is illegal",
        GrandSlam::CapturesThenExtraTurn => "taken, and the mover plays again",
        GrandSlam::CapturesOpponentTakesRest => {
            "taken, and the game ends: the seeds left go to the opponent"
        }
        GrandSlam::AllButFirstHole => {
            "taken but for the first hole of their row (in the direction of sowing)"
        }
        GrandSlam::AllButLastHole => {
            "taken but for the last hole of their row (in the direction of sowing)"
        }
    }
}

/// A readable account of one move: every lap, every capture, and what followed.
pub fn describe_move(rules: &Rules, turn: u32, report: &MoveReport, events: &[Event]) -> String {
    let side = report.side.map_or("?", Side::name);
    let mut out = format!("move {turn}: {side} plays hole {}\n", report.mv.name(rules));
    for (_, _, line) in move_lines(rules, report, events) {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// What a line of a move's account tells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Told {
    /// A lap's lift, the holes it sowed, or where its last seed fell: the sowing itself.
    Sowing,
    /// A capture, a house, a raid, an extra turn, a pass: what the rules did.
    Rule,
}

/// The lines of a move's account after its heading, each with the lap it belongs to (from 1)
/// and what it tells: a lap's lift, the holes it sowed, its landing and captures, and what
/// followed.
pub fn move_lines(
    rules: &Rules,
    report: &MoveReport,
    events: &[Event],
) -> Vec<(u32, Told, String)> {
    let side = report.side.map_or("?", Side::name);
    let mut lines: Vec<(u32, Told, String)> = Vec::new();
    let mut lap = 1;
    let mut drops: Vec<String> = Vec::new();
    let flush = |lines: &mut Vec<(u32, Told, String)>, drops: &mut Vec<String>, lap: u32| {
        if !drops.is_empty() {
            lines.push((lap, Told::Sowing, format!("    sows {}", drops.join(" "))));
            drops.clear();
        }
    };
    for event in events {
        if let Event::Drop { at, .. } = event {
            drops.push(position_name(rules, *at));
            continue;
        }
        flush(&mut lines, &mut drops, lap);
        let line = match event {
            Event::Lift {
                lap: number,
                hole,
                seeds,
            } => {
                lap = *number;
                format!("  lap {number}: lifts {seeds} from hole {hole}")
            }
            Event::Drop { .. } => unreachable!("drops are gathered above"),
            Event::Capture {
                rule,
                holes,
                seeds,
                to,
            } => {
                let name = &rules.program.captures[*rule].name;
                let list: Vec<String> = (0..64)
                    .filter(|p| holes >> p & 1 == 1)
                    .map(|p| p.to_string())
                    .collect();
                format!(
                    "    capture \"{name}\": {seeds} from hole {} to {to}",
                    list.join(", ")
                )
            }
            Event::GrandSlam { rule } => {
                let capture = &rules.program.captures[*rule];
                format!(
                    "    capture \"{}\" would take all the opponent's seeds: grand slam, {}",
                    capture.name,
                    grand_slam_words(capture.grand_slam)
                )
            }
            Event::Land { at, count } => {
                format!(
                    "    last seed in {} (now {count})",
                    position_name(rules, *at)
                )
            }
            Event::House {
                rule,
                hole,
                to,
                seeds,
            } => {
                let name = &rules.program.houses[*rule].name;
                let taken = if *seeds > 0 {
                    format!(" and {to} takes its {seeds} seeds")
                } else {
                    String::new()
                };
                format!("    house \"{name}\": hole {hole} becomes {to}'s{taken}")
            }
            Event::HouseSown { hole, to } => {
                format!("    the seed in hole {hole}, {to}'s house, goes to {to}'s store")
            }
            Event::Raid { hole, seeds, to } => {
                format!("    raid: {to} takes {seeds} from the house in hole {hole}")
            }
            Event::ExtraTurn => format!("    another turn for {side}"),
            Event::LastSeeds { to, seeds } => {
                format!("    only {seeds} seeds left in play: they go to {to}")
            }
        };
        let told = if matches!(event, Event::Lift { .. } | Event::Land { .. }) {
            Told::Sowing
        } else {
            Told::Rule
        };
        lines.push((lap, told, line));
    }
    flush(&mut lines, &mut drops, lap);
    if report.passes > 0 {
        lines.push((
            lap,
            Told::Rule,
            format!("  {} pass(es): a player with no legal move", report.passes),
        ));
    }
    lines
}

fn position_name(rules: &Rules, p: usize) -> String {
    if rules.geometry.is_store(p) {
        let side = if p == rules.geometry.store(Side::South) {
            "south"
        } else {
            "north"
        };
        format!("{side}-store")
    } else {
        p.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Position;

    /// On a terminal the marked cells are coloured too (the hole played blue, the holes
    /// captured from red); without marks the picture is the plain one.
    #[test]
    fn a_marked_picture_colours_the_marked_cells_on_a_terminal() {
        let rules = crate::lang::shipped("kalah");
        let game = Game::new(&rules);
        let marks = Marks {
            played: Some(2),
            captured: vec![9],
            colour: true,
        };
        let text = marked_picture(&rules, &game, &marks);
        assert!(text.contains("\x1b[1;34m  4\x1b[0m"), "{text}");
        assert!(text.contains("\x1b[1;31m  4\x1b[0m"), "{text}");
        assert_eq!(
            text.lines()
                .filter(|l| l.contains('^') || l.contains('x'))
                .count(),
            2
        );
        assert_eq!(
            marked_picture(&rules, &game, &Marks::default()),
            picture(&rules, &game)
        );
    }

    /// Ouri's grand slam captures, and the mover plays again: the trace says so, not that
    /// nothing was taken.
    #[test]
    fn a_grand_slam_is_told_as_the_rule_plays_it() {
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("variants/catalogue/ouri.sow");
        let rules = crate::lang::compile_path(&path, &[]).expect("ouri compiles");
        //   North   0  0  0  0  1  1      (holes 11 to 6)
        //   South   3  0  0  0  0  2      (holes 0 to 5), to move; stores 20 and 21
        let board = [3, 0, 0, 0, 0, 2, 1, 1, 0, 0, 0, 0];
        let position = Position::from_setup(&rules, &board, [20, 21], Side::South).expect("48");
        let mut game = Game::from_position(&rules, position);
        let mut events = Vec::new();
        let report = game
            .play_traced(Move::from_hole(5), &mut events)
            .expect("legal");
        let text = describe_move(&rules, 1, &report, &events);
        // Hole 5's two seeds make North's 6 and 7 twos; the last, in 7, takes 7 and then 6:
        // every seed North has.
        assert_eq!(
            text,
            "move 1: south plays hole 5
  lap 1: lifts 2 from hole 5
    sows 6 7
    last seed in 7 (now 2)
    capture \"twos and threes\" would take all the opponent's seeds: grand slam, taken, and the mover plays again
    another turn for south
    capture \"twos and threes\": 4 from hole 6, 7 to south
"
        );
        // South's extra turn cannot feed North's empty row (hole 0's three seeds stop in 3),
        // so South, to move, takes the three seeds left (R18) and the game is over.
        let after = game.position();
        assert_eq!(after.board(), [0; 12]);
        assert_eq!(after.stores(), [27, 21]);
        let outcome = game.outcome().expect("over");
        assert_eq!(
            (outcome.reason, outcome.winner),
            (EndReason::Unfeedable, Some(Side::South))
        );
    }
}
