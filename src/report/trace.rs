//! Traces: a readable account of each move (laps, captures, board pictures) and the one-line
//! JSON state after each move that other implementations can be compared with.

use std::fmt::Write;

use serde::Serialize;

use crate::engine::{
    move_name, Event, Game, Match, MoveReport, NextRound, RoundResult, Table, CLOCKWISE,
};
use crate::rules::{Rules, Side};

/// The state after a move, as `trace --json` prints it (one object per line).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct JsonState {
    /// Move number, from 1.
    pub turn: u32,
    /// Who moved.
    pub player: String,
    /// The hole played.
    #[serde(rename = "move")]
    pub hole: usize,
    /// The direction it was sown in, `cw` or `ccw`, when the mover chose it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub direction: Option<String>,
    /// Seeds in holes `0..2N`.
    pub board: Vec<u16>,
    /// Captured totals (store contents), South first.
    pub store: [u16; 2],
    /// Who chooses next (passes resolved); `null` once the game is over.
    pub to_move: Option<String>,
    /// Whether the game is over.
    pub over: bool,
    /// `"south"`, `"north"` or `"draw"` once over.
    pub winner: Option<String>,
    /// `normal`, `no-moves`, `cap` or `repetition` once over.
    pub end_reason: Option<String>,
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

impl JsonState {
    /// The state of `game` after move `turn`, which `player` made: move `mv`, a hole or, where
    /// the mover chooses the direction, a hole plus [`CLOCKWISE`] for clockwise.
    pub fn after(game: &Game<'_>, turn: u32, player: Side, mv: usize) -> JsonState {
        let position = game.position();
        let outcome = game.outcome();
        let n = game.rules().holes_per_row();
        let chosen = (game.rules().program.sowing.direction).chooses_at(mv % CLOCKWISE % n, n);
        JsonState {
            turn,
            player: player.name().to_string(),
            hole: mv % CLOCKWISE,
            direction: chosen.then(|| if mv >= CLOCKWISE { "cw" } else { "ccw" }.to_string()),
            board: position.board().to_vec(),
            store: position.stores(),
            to_move: game.to_move().map(|s| s.name().to_string()),
            over: outcome.is_some(),
            winner: outcome.map(|o| o.winner.map_or("draw", Side::name).to_string()),
            end_reason: outcome.map(|o| o.reason.class().name().to_string()),
            round: None,
            closed: None,
            reserve: None,
            owner: None,
        }
    }

    /// The state of a match after move `turn` of its current round: the round's game, plus
    /// the round, the closed holes, the reserves and the owners.
    pub fn in_match(m: &Match<'_>, turn: u32, player: Side, mv: usize) -> JsonState {
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
    pub fn on(table: &Table<'_>, turn: u32, player: Side, mv: usize) -> JsonState {
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
    pub winner: String,
    /// The round's end rule (`last-seeds`, `cap`, ...).
    pub end_rule: String,
    /// What each player captured in the round, South first.
    pub captured: [u16; 2],
    /// What each player holds after it, South first.
    pub holdings: [u32; 2],
    /// Rounds won so far, South first.
    pub rounds_won: [u16; 2],
    /// Once the match is over: `south`, `north` or `draw`.
    pub match_winner: Option<String>,
    /// Once the match is over: why (`lose-below`, `first-to`, `round-cap`, `cannot-start`).
    pub match_end: Option<String>,
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
        #[derive(Serialize)]
        struct Line<'a> {
            round_end: &'a JsonRoundEnd,
        }
        serde_json::to_string(&Line { round_end: self }).expect("a round end serialises")
    }

    /// The end of a round of `m`, as [`Match::next_round`] reported it.
    pub fn new(m: &Match<'_>, result: &RoundResult, refill: Option<&NextRound>) -> JsonRoundEnd {
        let outcome = m.outcome();
        JsonRoundEnd {
            round: result.round,
            starter: result.starter,
            winner: result.outcome.winner.map_or("draw", Side::name).to_string(),
            end_rule: result.outcome.reason.name().to_string(),
            captured: result.captured,
            holdings: result.holdings,
            rounds_won: m.rounds_won(),
            match_winner: outcome.map(|o| o.winner.map_or("draw", Side::name).to_string()),
            match_end: outcome.map(|o| o.reason.name().to_string()),
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
fn holes_of(mask: u64) -> Vec<usize> {
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

/// The board as South sees it: North's row on top (hole 2N-1 at the left), South's below.
pub fn picture(rules: &Rules, game: &Game<'_>) -> String {
    let position = game.position();
    let n = rules.holes_per_row();
    let board = position.board();
    let [south, north] = position.stores();
    let (closed, houses) = (position.closed(), position.houses());
    // A closed hole shows as `x`, a house's count with a `*`.
    let cell = |p: usize| {
        if closed >> p & 1 == 1 {
            "  x".to_string()
        } else if houses >> p & 1 == 1 {
            format!("{:>2}*", board[p])
        } else {
            format!("{:>3}", board[p])
        }
    };
    let label = |p: usize| format!("{p:>3}");
    let north_row: String = (n..2 * n).rev().map(cell).collect();
    let south_row: String = (0..n).map(cell).collect();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "      {}   North",
        (n..2 * n).rev().map(label).collect::<String>()
    );
    let _ = writeln!(out, "     [{north_row} ]  store {north}");
    let _ = writeln!(out, "     [{south_row} ]  store {south}");
    let _ = writeln!(
        out,
        "      {}   South",
        (0..n).map(label).collect::<String>()
    );
    out
}

/// A readable account of one move: every lap, every capture, and what followed.
pub fn describe_move(rules: &Rules, turn: u32, report: &MoveReport, events: &[Event]) -> String {
    let mut out = String::new();
    let side = report.side.map_or("?", Side::name);
    let _ = writeln!(
        out,
        "move {turn}: {side} plays hole {}",
        move_name(rules, report.hole)
    );
    let mut drops: Vec<usize> = Vec::new();
    let flush = |out: &mut String, drops: &mut Vec<usize>| {
        if !drops.is_empty() {
            let list: Vec<String> = drops.iter().map(|p| position_name(rules, *p)).collect();
            let _ = writeln!(out, "    sows {}", list.join(" "));
            drops.clear();
        }
    };
    for event in events {
        match event {
            Event::Lift { lap, hole, seeds } => {
                flush(&mut out, &mut drops);
                let _ = writeln!(out, "  lap {lap}: lifts {seeds} from hole {hole}");
            }
            Event::Drop { at, .. } => drops.push(*at),
            Event::Capture {
                rule,
                holes,
                seeds,
                to,
            } => {
                flush(&mut out, &mut drops);
                let name = &rules.program.captures[*rule].name;
                let list: Vec<String> = (0..64)
                    .filter(|p| holes >> p & 1 == 1)
                    .map(|p| p.to_string())
                    .collect();
                let _ = writeln!(
                    out,
                    "    capture \"{name}\": {seeds} from hole {} to {to}",
                    list.join(", ")
                );
            }
            Event::GrandSlam { rule } => {
                flush(&mut out, &mut drops);
                let name = &rules.program.captures[*rule].name;
                let _ = writeln!(out, "    capture \"{name}\" would take all the opponent's seeds: grand slam, nothing taken");
            }
            Event::Land { at, count } => {
                flush(&mut out, &mut drops);
                let _ = writeln!(
                    out,
                    "    last seed in {} (now {count})",
                    position_name(rules, *at)
                );
            }
            Event::House {
                rule,
                hole,
                to,
                seeds,
            } => {
                flush(&mut out, &mut drops);
                let name = &rules.program.houses[*rule].name;
                let taken = if *seeds > 0 {
                    format!(" and {to} takes its {seeds} seeds")
                } else {
                    String::new()
                };
                let _ = writeln!(
                    out,
                    "    house \"{name}\": hole {hole} becomes {to}'s{taken}"
                );
            }
            Event::Raid { hole, seeds, to } => {
                flush(&mut out, &mut drops);
                let _ = writeln!(
                    out,
                    "    raid: {to} takes {seeds} from the house in hole {hole}"
                );
            }
            Event::ExtraTurn => {
                flush(&mut out, &mut drops);
                let _ = writeln!(out, "    another turn for {side}");
            }
            Event::LastSeeds { to, seeds } => {
                flush(&mut out, &mut drops);
                let _ = writeln!(out, "    only {seeds} seeds left in play: they go to {to}");
            }
        }
    }
    flush(&mut out, &mut drops);
    if report.passes > 0 {
        let _ = writeln!(
            out,
            "  {} pass(es): a player with no legal move",
            report.passes
        );
    }
    out
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
