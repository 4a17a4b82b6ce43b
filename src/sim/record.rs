//! The CSV schemas: one flat serde record per file (`games.csv`, `moves.csv`, `matches.csv`,
//! `summary.csv`).
//! Column names are the field names; `docs/outputs.md` documents each. `Default` is there to
//! name the columns (a header is written even for a file of no rows), not as a meaningful
//! record.

use serde::{Deserialize, Serialize};

/// One row of `games.csv`: one game.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The variant's name.
    pub variant: String,
    /// Content hash of the compiled rules.
    pub rules_hash: String,
    /// Index of the game within its variant: `(pairing * 2 + seat_order) * games + i`; in a
    /// match run, of the match the round belongs to.
    pub game: u64,
    /// The game's seed, 16 hex digits (see `sim::seed`).
    pub seed: String,
    /// South's agent spec.
    pub south_agent: String,
    /// North's agent spec.
    pub north_agent: String,
    /// Who moved first.
    pub starter: String,
    /// `south`, `north` or `draw`.
    pub winner: String,
    /// South's captured total at the end.
    pub south_total: u16,
    /// North's captured total at the end.
    pub north_total: u16,
    /// Moves played (extra turns count, passes do not).
    pub turns: u32,
    /// Passes.
    pub passes: u32,
    /// Extra turns earned.
    pub extra_turns: u32,
    /// Capture events.
    pub captures: u32,
    /// The most laps in one move.
    pub max_laps: u32,
    /// Holes refused because their sowing never ends (R11), as met during the game.
    pub endless_refused: u32,
    /// Times the drop cap was reached (R11's safety net): holes whose sowing reached it, as
    /// met during the game, and moves cut short at it.
    pub drop_cap_hits: u32,
    /// `normal`, `no-moves`, `cap` or `repetition`.
    pub end_reason: String,
    /// The precise end rule (`last-seeds`, `unfeedable`, `majority`, `empty-row`, `stuck`, ...).
    pub end_rule: String,
    /// In a match run: the match (as `game`); empty otherwise.
    #[serde(rename = "match")]
    pub match_index: Option<u64>,
    /// In a match run: the round, from 1; empty otherwise.
    pub round: Option<u16>,
}

/// One row of `matches.csv`: one match of rounds.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchRecord {
    /// The variant's name.
    pub variant: String,
    /// Content hash of the compiled rules.
    pub rules_hash: String,
    /// Index of the match within its variant, as `game` in `games.csv`.
    #[serde(rename = "match")]
    pub match_index: u64,
    /// The match's seed, 16 hex digits.
    pub seed: String,
    /// South's agent spec.
    pub south_agent: String,
    /// North's agent spec.
    pub north_agent: String,
    /// Who started the first round.
    pub starter: String,
    /// Rounds played.
    pub rounds: u16,
    /// `south`, `north` or `draw`.
    pub winner: String,
    /// What South held at the end: captures plus reserve (for tallied series, the sum of
    /// every round's captures).
    pub south_total: u32,
    /// What North held at the end.
    pub north_total: u32,
    /// Rounds South won.
    pub south_rounds: u16,
    /// Rounds North won.
    pub north_rounds: u16,
    /// Rounds won by the player who started the match.
    pub starter_rounds: u16,
    /// Who won round 1: `south`, `north` or `draw`.
    pub round_1_winner: String,
    /// Why the match ended: `lose-below`, `first-to`, `round-cap`, `cannot-start`.
    pub end_reason: String,
}

/// One row of `moves.csv`: one move of one game.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveRecord {
    /// The variant's name.
    pub variant: String,
    /// The game's index, as in `games.csv`.
    pub game: u64,
    /// Move number, from 1.
    pub turn: u32,
    /// Who moved.
    pub player: String,
    /// The hole played.
    pub hole: u32,
    /// Legal moves the player had.
    pub branching: u32,
    /// Laps sown.
    pub laps: u32,
    /// Seeds dropped.
    pub sown: u32,
    /// Capture events.
    pub captures: u32,
    /// Seeds captured.
    pub captured: u32,
    /// The move earned another turn.
    pub extra_turn: bool,
    /// South's total minus North's after the move.
    pub score_difference: i32,
    /// In a match run: the round, from 1; empty otherwise.
    pub round: Option<u16>,
}

/// One row of `summary.csv`: one variant and one seating of the agents.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SummaryRecord {
    /// The variant's name.
    pub variant: String,
    /// Content hash of the compiled rules.
    pub rules_hash: String,
    /// South's agent.
    pub south_agent: String,
    /// North's agent.
    pub north_agent: String,
    /// Games.
    pub games: u64,
    /// Games South won.
    pub south_wins: u64,
    /// Games North won.
    pub north_wins: u64,
    /// Drawn games.
    pub draws: u64,
    /// South's win rate.
    pub south_rate: f64,
    /// Its 95% Wilson interval, low end.
    pub south_low: f64,
    /// High end.
    pub south_high: f64,
    /// North's win rate.
    pub north_rate: f64,
    /// Low end.
    pub north_low: f64,
    /// High end.
    pub north_high: f64,
    /// Draw rate.
    pub draw_rate: f64,
    /// Low end.
    pub draw_low: f64,
    /// High end.
    pub draw_high: f64,
    /// Win rate of the player who moved first.
    pub first_mover_rate: f64,
    /// Low end.
    pub first_mover_low: f64,
    /// High end.
    pub first_mover_high: f64,
    /// Mean moves per game.
    pub mean_turns: f64,
    /// Median moves per game.
    pub median_turns: f64,
    /// Share of games stopped by the move cap.
    pub cap_share: f64,
    /// Share of games stopped by repetition.
    pub repetition_share: f64,
    /// Share of games ended because neither player could move.
    pub no_moves_share: f64,
    /// Mean capture events per game.
    pub mean_captures: f64,
    /// Mean passes per game.
    pub mean_passes: f64,
    /// Mean extra turns per game.
    pub mean_extra_turns: f64,
    /// Games in which some hole was refused as endless (R11).
    pub games_with_endless_refusals: u64,
    /// Games in which the drop cap was reached.
    pub games_with_drop_cap_hits: u64,
}
