//! A finished run's records (run.json, games.csv, moves.csv, matches.csv) gathered by variant
//! and seating (a pairing's agents in the seats they played): the numbers reports show. Reports are built from these files, never from live
//! simulation state, so a report can be rebuilt from the CSVs alone.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use serde::de::DeserializeOwned;

use crate::agents::{AgentSpec, Pairing};
use crate::rules::Side;
use crate::sim::endings::Endings;
use crate::sim::output::{read_run, OutputError, RunInfo};
use crate::sim::record::{GameRecord, Hex64, MatchRecord, MoveRecord};
use crate::sim::stats::{
    mcnemar, paired_difference, wilson, Histogram, Outcomes, Ratio, Tally, Z95,
};

/// One seating of a pairing's agents, as played: seatings are never pooled, so an agent's
/// strength is never mixed up with a seat's advantage.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Seating {
    /// The pairing, `A,B`.
    pub pairing: Pairing,
    /// Seat order: 0 when the pairing's first agent is South, 1 when its second is.
    pub order: u8,
    /// South's agent.
    pub south: AgentSpec,
    /// North's agent.
    pub north: AgentSpec,
}

impl Seating {
    /// The pairing `A,B` in seat order `order`.
    pub fn of(pairing: Pairing, order: u8) -> Seating {
        let [south, north] = pairing.seated(order);
        Seating {
            pairing,
            order,
            south,
            north,
        }
    }

    /// `South alphabeta:3, North random`.
    pub fn label(&self) -> String {
        format!("South {}, North {}", self.south, self.north)
    }

    /// For file names: `alphabeta3-vs-random-1` (South first, then the seat order from 1, which
    /// tells the seatings of a pairing of one agent with itself apart).
    pub fn slug(&self) -> String {
        format!(
            "{}-{}",
            slug(&format!("{},{}", self.south, self.north)),
            self.order + 1
        )
    }
}

/// A file-name-safe form of a pairing: `alphabeta:3,random` → `alphabeta3-vs-random`.
fn slug(pairing: &str) -> String {
    pairing.replace(':', "").replace(',', "-vs-")
}

/// Everything measured for one variant under one seating of one agent pairing.
#[derive(Clone, Debug, Default)]
pub struct Group {
    /// Variant name.
    pub variant: String,
    /// Content hash of its rules.
    pub rules_hash: Hex64,
    /// The agents, in their seats.
    pub seating: Seating,
    /// Outcomes, lengths, ends and captures, counted as `summary.csv` counts them; outcomes
    /// only of the scored games (the finished ones, or all with `--score-unfinished`).
    pub tally: Tally,
    /// Games South moved first in.
    pub south_starts: u64,
    /// Games by end rule, by its name (`last-seeds`, `cap`, ...).
    pub end_rules: BTreeMap<&'static str, u64>,
    /// Player turns per game: a move with the extra moves it earns counts once, a pass once.
    pub player_turns: Mean,
    /// South's final total minus North's, per game.
    pub margin: Mean,
    /// Per game (from `moves.csv`): times the lead in the stores passed from one player to
    /// the other.
    pub lead_changes: Mean,
    /// Per scored game with a winner (from `moves.csv`): the share of its moves after which
    /// the final winner led in the stores for the rest of the game.
    pub decisiveness: Mean,
    /// Legal moves over moves (from `moves.csv`), summed per game.
    pub branching_factor: Ratio,
    /// Forced moves (one legal move) over moves, summed per game.
    pub forced: Ratio,
    /// The winner of each scored game with one, by game index and round: +1 South, −1 North.
    /// What decisiveness is measured against.
    pub winners: HashMap<(u64, Option<u16>), i32>,
    /// Per move number (from 1): sum of South−North score difference, its sum of squares, and
    /// games still running.
    pub timeline: Vec<(f64, f64, u64)>,
    /// Per game length in moves: sum of the final South−North score difference, its sum of
    /// squares, and games that ended after that many moves. With `timeline`, the mean over
    /// every game at each move, an ended game holding its final difference.
    pub ended: Vec<(f64, f64, u64)>,
    /// Moves by number of legal moves available.
    pub branching: Histogram,
    /// Moves by laps sown.
    pub laps: Histogram,
    /// By game, keyed by seat order, seed and round, the key a game shares with the same game
    /// of every other variant (common random numbers).
    pub paired: BTreeMap<PairKey, Paired>,
}

/// What a game contributes to the paired comparisons of variants.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Paired {
    /// Whether South won; `None` for a game the win rates leave out (unfinished).
    pub south_won: Option<bool>,
    /// Moves played.
    pub moves: u32,
}

/// A running mean: sum, sum of squares and count, for a mean with its 95% interval.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Mean {
    sum: f64,
    squares: f64,
    n: f64,
}

impl Mean {
    /// Adds one observation.
    pub fn add(&mut self, x: f64) {
        self.sum += x;
        self.squares += x * x;
        self.n += 1.0;
    }

    /// Observations so far.
    pub fn count(&self) -> u64 {
        self.n as u64
    }

    /// `(mean, low, high)`: the mean and its normal 95% interval.
    pub fn interval(&self) -> (f64, f64, f64) {
        mean_interval(self.sum, self.squares, self.n)
    }
}

/// What matches a game of one variant with a game of another: seat order (0: the pairing's
/// first agent South), the game's seed and, in a match run, the round. `sim::seed` derives a
/// game's seed from the master seed, the seat order and the game's index only, so game `k` of
/// every variant in a seating shares it.
pub type PairKey = (u8, Hex64, Option<u16>);

/// The games two variants played on common seeds, as McNemar's test needs them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pairs {
    /// Pairs: games of the first variant with a game of the second on the same key.
    pub n: u64,
    /// Pairs where the outcome held in the first variant's game only.
    pub first_only: u64,
    /// Pairs where it held in the second's only.
    pub second_only: u64,
}

impl Group {
    /// `(rate, low, high)` of a count among the scored games (a win rate).
    pub fn rate(&self, k: u64) -> (f64, f64, f64) {
        wilson(k, self.tally.scored, Z95)
    }

    /// [`Group::rate`], or `None` when no game was scored: a rate over nothing is no number.
    pub fn rate_of(&self, k: u64) -> Option<(f64, f64, f64)> {
        (self.tally.scored > 0).then(|| self.rate(k))
    }

    /// How the group's games ended: what its rates over finished games rest on.
    pub fn endings(&self) -> Endings {
        Endings::of(&self.variant, &self.tally)
    }

    /// `(share, low, high)` of a count among all the games (how games end).
    pub fn share(&self, k: u64) -> (f64, f64, f64) {
        wilson(k, self.tally.games, Z95)
    }

    /// Mean game length and its 95% interval.
    pub fn mean_length(&self) -> (f64, f64, f64) {
        mean_of(&self.tally.lengths)
    }

    /// South's win rate minus North's among the scored games, with its 95% interval. The two
    /// are shares of one sample, so the interval is the one of a difference of two
    /// multinomial shares: the same form as for paired proportions, with South's and North's
    /// wins as the discordant counts ([`paired_difference`], Bonett and Price's adjusted Wald).
    pub fn seat_balance(&self) -> (f64, f64, f64) {
        paired_difference(
            self.tally.outcomes.south,
            self.tally.outcomes.north,
            self.tally.scored,
            Z95,
        )
    }

    /// [`Group::seat_balance`], or `None` when no game was scored.
    pub fn seat_balance_of(&self) -> Option<(f64, f64, f64)> {
        (self.tally.scored > 0).then(|| self.seat_balance())
    }

    /// The two-sided p-value of the seats being even: the exact mid-p sign test of South's
    /// wins against North's among the scored games (draws left out), McNemar's test with the
    /// two seats' wins as its discordant counts.
    pub fn seat_test(&self) -> f64 {
        mcnemar(self.tally.outcomes.south, self.tally.outcomes.north).1
    }

    /// Per move number (from 1): the mean South−North score difference over every game with
    /// moves, a game that has ended counting with its final difference (so the mean is not
    /// over the survivors only), its 95% interval, the games counted and those still running.
    pub fn timeline_all(&self) -> Vec<((f64, f64, f64), u64, u64)> {
        let mut done = (0.0, 0.0, 0);
        let mut points = Vec::with_capacity(self.timeline.len());
        for (t, &(sum, squares, running)) in self.timeline.iter().enumerate() {
            // Games of t moves or fewer have ended before move t + 1.
            if let Some(&(s, q, n)) = self.ended.get(t) {
                done = (done.0 + s, done.1 + q, done.2 + n);
            }
            let n = running + done.2;
            let mean = mean_interval(sum + done.0, squares + done.1, n as f64);
            points.push((mean, n, running));
        }
        points
    }

    /// Mean capture events per game and its 95% interval.
    pub fn mean_captures(&self) -> (f64, f64, f64) {
        mean_interval(
            self.tally.captures.0,
            self.tally.captures.1,
            self.tally.games as f64,
        )
    }

    /// The `q`-quantile of game length (nearest rank), for the charts.
    pub fn length_quantile(&self, q: f64) -> f64 {
        self.tally.lengths.quantile(q)
    }

    /// The median game length, as `summary.csv` gives it (the mean of the two middle games
    /// for an even count).
    pub fn length_median(&self) -> f64 {
        self.tally.lengths.median()
    }

    /// This group's games against `other`'s, matched by [`PairKey`]: the concordant and
    /// discordant counts of "South won". Games with no partner, and pairs either of whose
    /// games the win rates leave out (unfinished), are left out.
    pub fn pairs(&self, other: &Group) -> Pairs {
        let mut pairs = Pairs::default();
        for (key, mine) in &self.paired {
            let theirs = other.paired.get(key).and_then(|g| g.south_won);
            if let (Some(mine), Some(theirs)) = (mine.south_won, theirs) {
                pairs.n += 1;
                pairs.first_only += u64::from(mine && !theirs);
                pairs.second_only += u64::from(theirs && !mine);
            }
        }
        pairs
    }

    /// The mean difference in moves per game, this group's game minus `other`'s, over the
    /// pairs [`Group::pairs`] counts (both games scored): a paired mean, with its interval.
    pub fn moves_difference(&self, other: &Group) -> Mean {
        let mut difference = Mean::default();
        for (key, mine) in &self.paired {
            if let Some(theirs) = other.paired.get(key) {
                if mine.south_won.is_some() && theirs.south_won.is_some() {
                    difference.add(f64::from(mine.moves) - f64::from(theirs.moves));
                }
            }
        }
        difference
    }
}

/// Everything measured of the matches of one variant under one seating of an agent pairing.
#[derive(Clone, Debug, Default)]
pub struct MatchGroup {
    /// Variant name.
    pub variant: String,
    /// The agents, in their seats.
    pub seating: Seating,
    /// Matches.
    pub matches: u64,
    /// Matches won by South, by North, drawn.
    pub outcomes: Outcomes,
    /// Matches won by the player who started the first round.
    pub starter_wins: u64,
    /// Matches whose first round had a winner.
    pub decided_round_1: u64,
    /// ... and of those, matches the winner of round 1 won.
    pub round_1_winner_wins: u64,
    /// Rounds per match.
    pub rounds: Histogram,
    /// Matches by how they ended, by its name (`lose-below`, `round-cap`, ...).
    pub ends: BTreeMap<&'static str, u64>,
}

impl MatchGroup {
    /// `(rate, low, high)` of a count among the matches.
    pub fn rate(&self, k: u64) -> (f64, f64, f64) {
        wilson(k, self.matches, Z95)
    }

    /// How often the winner of round 1 wins the match, among matches whose round 1 was won.
    pub fn round_1_rate(&self) -> (f64, f64, f64) {
        wilson(self.round_1_winner_wins, self.decided_round_1, Z95)
    }

    /// Mean rounds per match and its 95% interval.
    pub fn mean_rounds(&self) -> (f64, f64, f64) {
        mean_of(&self.rounds)
    }

    /// The median number of rounds per match (the mean of the two middle matches for an even
    /// count).
    pub fn rounds_median(&self) -> f64 {
        self.rounds.median()
    }
}

/// Mean of the values counted in `histogram` and its 95% interval.
fn mean_of(histogram: &Histogram) -> (f64, f64, f64) {
    let (sum, squares) = histogram.moments();
    mean_interval(sum, squares, histogram.count() as f64)
}

/// Mean and normal-approximation 95% interval from a sum, a sum of squares and a count.
pub fn mean_interval(sum: f64, squares: f64, n: f64) -> (f64, f64, f64) {
    if n == 0.0 {
        return (0.0, 0.0, 0.0);
    }
    let mean = sum / n;
    let variance = if n > 1.0 {
        ((squares - n * mean * mean) / (n - 1.0)).max(0.0)
    } else {
        0.0
    };
    let half = Z95 * (variance / n).sqrt();
    (mean, mean - half, mean + half)
}

/// One game's moves, gathered as `moves.csv` is read: what the per-game measures need.
#[derive(Default)]
struct GameMoves {
    /// Game index and round.
    key: (u64, Option<u16>),
    /// The final winner: +1 South, −1 North, 0 none (a draw, or a game the win rates leave
    /// out).
    winner: i32,
    moves: u32,
    legal: u32,
    forced: u32,
    /// The side ahead in the stores after the last move that left someone ahead: +1, −1, 0.
    leader: i32,
    lead_changes: u32,
    /// The last move after which the final winner was not ahead.
    last_not_ahead: u32,
    /// South − North in the stores after the last move.
    difference: i32,
}

impl GameMoves {
    fn new(key: (u64, Option<u16>), winner: i32) -> GameMoves {
        GameMoves {
            key,
            winner,
            ..GameMoves::default()
        }
    }

    fn add(&mut self, m: &MoveRecord) {
        self.moves += 1;
        self.legal += m.branching;
        self.forced += u32::from(m.branching == 1);
        self.difference = m.score_difference;
        let ahead = m.score_difference.signum();
        if ahead != 0 {
            self.lead_changes += u32::from(self.leader == -ahead);
            self.leader = ahead;
        }
        if ahead != self.winner {
            self.last_not_ahead = self.moves;
        }
    }

    fn finish(self, g: &mut Group) {
        if self.moves == 0 {
            return;
        }
        let moves = f64::from(self.moves);
        let length = self.moves as usize;
        if g.ended.len() <= length {
            g.ended.resize(length + 1, (0.0, 0.0, 0));
        }
        let d = f64::from(self.difference);
        let slot = &mut g.ended[length];
        *slot = (slot.0 + d, slot.1 + d * d, slot.2 + 1);
        g.lead_changes.add(f64::from(self.lead_changes));
        g.branching_factor.add(moves, f64::from(self.legal));
        g.forced.add(moves, f64::from(self.forced));
        if self.winner != 0 {
            g.decisiveness
                .add(f64::from(self.moves - self.last_not_ahead) / moves);
        }
    }
}

/// A run, gathered.
pub struct Analysis {
    /// Its run.json.
    pub info: RunInfo,
    /// The day the run was made.
    pub date: String,
    /// One group per variant and seating, variant-major in run order, then pairing, then seat
    /// order.
    pub groups: Vec<Group>,
    /// In a match run, one group of matches per variant and seating, in the same order.
    pub matches: Vec<MatchGroup>,
    /// Whether win rates count unfinished games (`--score-unfinished`).
    pub score_unfinished: bool,
}

/// The rule behind `no-moves` endings, as reports name it: the engine ends a game so only
/// under `no move: pass` (R3), when both players in turn have no legal move.
pub const NO_MOVES_RULE: &str =
    "`no move: pass` (reading R3): neither player had a legal move in turn, seeds still on the board, and the game ended with the board's seeds going to their owners";

impl Analysis {
    /// `sowlab 0.1.0 (commit 1a2b3c4d5e6f) on 2026-12-01`: what made the run, and when.
    pub fn made_by(&self) -> String {
        format!(
            "sowlab {} (commit {}) on {}",
            self.info.version, self.info.commit, self.date
        )
    }

    /// Reads a finished run directory. Games stopped by the move cap or by repetition count
    /// towards win rates only if `score_unfinished` (then as the variant scores them).
    ///
    /// # Errors
    /// Missing or malformed files.
    pub fn read(dir: &Path, score_unfinished: bool) -> Result<Analysis, OutputError> {
        let file = read_run(dir)?;
        let (info, date) = (file.run, file.date);
        let mut groups = empty_groups(&info);
        read_games(dir, &info, &mut groups, score_unfinished)?;
        read_moves(dir, &info, &mut groups)?;
        let matches = if info.matches {
            read_matches(dir, &info, &groups)?
        } else {
            Vec::new()
        };
        Ok(Analysis {
            info,
            date,
            groups,
            matches,
            score_unfinished,
        })
    }

    /// The match groups of one seating, in variant order (none in a run of single games).
    pub fn matches_of<'a>(
        &'a self,
        seating: &'a Seating,
    ) -> impl Iterator<Item = &'a MatchGroup> + 'a {
        self.matches.iter().filter(move |g| g.seating == *seating)
    }

    /// How the win rates treat games stopped by the move cap or by repetition, for a report.
    pub fn scoring_note(&self) -> String {
        let (unfinished, games) = self.groups.iter().fold((0, 0), |(u, n), g| {
            (u + g.tally.unfinished(), n + g.tally.games)
        });
        let how = if self.score_unfinished {
            "are counted in the win rates, scored as each variant's `unfinished:` rule says (by captured totals unless it says draw), as --score-unfinished asks"
        } else {
            "are left out of the win rates, which are over finished games only (--score-unfinished would score them as each variant says); the tables show them apart"
        };
        format!("Unfinished games: {unfinished} of {games} games were stopped by the move cap or by repetition; they {how}.")
    }

    /// The seatings, in run order: each pairing's seat orders 0 and 1.
    pub fn seatings(&self) -> Vec<Seating> {
        seatings(&self.info)
    }

    /// The groups of one seating, in variant order.
    pub fn of_seating<'a>(&'a self, seating: &'a Seating) -> impl Iterator<Item = &'a Group> + 'a {
        self.groups.iter().filter(move |g| g.seating == *seating)
    }
}

/// One empty group per variant and seating, variant-major in run order.
fn empty_groups(info: &RunInfo) -> Vec<Group> {
    info.variants
        .iter()
        .flat_map(|v| {
            seatings(info).into_iter().map(move |seating| Group {
                variant: v.name.clone(),
                rules_hash: v.rules_hash,
                seating,
                ..Group::default()
            })
        })
        .collect()
}

/// The group that game (or match) `game` of `variant` was played in: its variant, and the
/// seating the run placed it in.
fn group_of(info: &RunInfo, groups: &[Group], variant: &str, game: u64) -> Option<usize> {
    let place = info.place(game)?;
    let seating = Seating::of(info.agents[place.pairing], place.seats);
    groups
        .iter()
        .position(|g| g.variant == variant && g.seating == seating)
}

/// Hands each row of the CSV file at `path` to `each`, in file order.
pub(crate) fn for_each_row<T: DeserializeOwned>(
    path: &Path,
    mut each: impl FnMut(T),
) -> Result<(), OutputError> {
    let mut reader = csv::Reader::from_path(path).map_err(OutputError::csv(path))?;
    for row in reader.deserialize::<T>() {
        each(row.map_err(OutputError::csv(path))?);
    }
    Ok(())
}

/// Tallies `games.csv` into the groups.
fn read_games(
    dir: &Path,
    info: &RunInfo,
    groups: &mut [Group],
    score_unfinished: bool,
) -> Result<(), OutputError> {
    for_each_row(&dir.join("games.csv"), |r: GameRecord| {
        if let Some(i) = group_of(info, groups, &r.variant, r.game) {
            groups[i].add_game(&r, score_unfinished);
        }
    })
}

/// Tallies `moves.csv`, where the run kept one, into the groups: per game and per move.
fn read_moves(dir: &Path, info: &RunInfo, groups: &mut [Group]) -> Result<(), OutputError> {
    let path = dir.join("moves.csv");
    if !path.exists() {
        return Ok(());
    }
    // moves.csv holds each game's moves together and in order: a game is read whole before
    // the next begins.
    let mut game: Option<(usize, GameMoves)> = None;
    for_each_row(&path, |m: MoveRecord| {
        let Some(i) = group_of(info, groups, &m.variant, m.game) else {
            return;
        };
        let key = (m.game, m.round);
        if game.as_ref().is_none_or(|(j, g)| (*j, g.key) != (i, key)) {
            if let Some((j, done)) = game.take() {
                done.finish(&mut groups[j]);
            }
            let winner = groups[i].winners.get(&key).copied().unwrap_or(0);
            game = Some((i, GameMoves::new(key, winner)));
        }
        if let Some((_, g)) = game.as_mut() {
            g.add(&m);
        }
        groups[i].add_move(&m);
    })?;
    if let Some((j, done)) = game {
        done.finish(&mut groups[j]);
    }
    Ok(())
}

/// Tallies `matches.csv` into one match group per group, in the groups' order.
fn read_matches(
    dir: &Path,
    info: &RunInfo,
    groups: &[Group],
) -> Result<Vec<MatchGroup>, OutputError> {
    let mut matches: Vec<MatchGroup> = groups
        .iter()
        .map(|g| MatchGroup {
            variant: g.variant.clone(),
            seating: g.seating,
            ..MatchGroup::default()
        })
        .collect();
    for_each_row(&dir.join("matches.csv"), |r: MatchRecord| {
        if let Some(i) = group_of(info, groups, &r.variant, r.match_index) {
            matches[i].add(&r);
        }
    })?;
    Ok(matches)
}

impl Group {
    /// Counts one row of `games.csv`: outcome, end, turns, margin, winner and pairing key.
    fn add_game(&mut self, r: &GameRecord, score_unfinished: bool) {
        let scored = self.tally.add(r, score_unfinished);
        self.south_starts += u64::from(r.starter == Side::South);
        *self.end_rules.entry(r.end_rule.name()).or_insert(0) += 1;
        self.player_turns
            .add(f64::from(r.turns - r.extra_turns + r.passes));
        self.margin
            .add(f64::from(r.south_total) - f64::from(r.north_total));
        if let Some(winner) = r.winner.filter(|_| scored) {
            let sign = if winner == Side::South { 1 } else { -1 };
            self.winners.insert((r.game, r.round), sign);
        }
        self.paired.insert(
            (self.seating.order, r.seed, r.round),
            Paired {
                south_won: scored.then_some(r.winner == Some(Side::South)),
                moves: r.turns,
            },
        );
    }

    /// Counts one row of `moves.csv` into the per-move tallies: timeline, branching, laps.
    fn add_move(&mut self, m: &MoveRecord) {
        let t = m.turn as usize;
        if self.timeline.len() < t {
            self.timeline.resize(t, (0.0, 0.0, 0));
        }
        let d = f64::from(m.score_difference);
        let slot = &mut self.timeline[t - 1];
        slot.0 += d;
        slot.1 += d * d;
        slot.2 += 1;
        self.branching.add(m.branching as usize);
        self.laps.add(m.laps as usize);
    }
}

impl MatchGroup {
    /// Counts one row of `matches.csv`: outcome, starter, round 1, rounds and end.
    fn add(&mut self, r: &MatchRecord) {
        self.matches += 1;
        self.outcomes.add(r.winner);
        self.starter_wins += u64::from(r.winner == Some(r.starter));
        if r.round_1_winner.is_some() {
            self.decided_round_1 += 1;
            self.round_1_winner_wins += u64::from(r.winner == r.round_1_winner);
        }
        self.rounds.add(usize::from(r.rounds));
        *self.ends.entry(r.end_reason.name()).or_insert(0) += 1;
    }
}

/// A run's seatings: each pairing in seat orders 0 and 1.
pub(crate) fn seatings(info: &RunInfo) -> Vec<Seating> {
    info.agents
        .iter()
        .flat_map(|&p| [0, 1].map(|order| Seating::of(p, order)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn group(games: &[(u8, u64, Option<bool>)]) -> Group {
        Group {
            paired: games
                .iter()
                .map(|&(seats, seed, won)| {
                    let game = Paired {
                        south_won: won,
                        moves: 10,
                    };
                    ((seats, Hex64(seed), None), game)
                })
                .collect(),
            ..Group::default()
        }
    }

    #[test]
    fn a_games_moves_give_its_lead_changes_decisiveness_and_forced_moves() {
        // South − North in the stores after each move, and the legal moves at each: South
        // leads after move 2, North after 3 and 4, South again from move 5 to the end and
        // wins. Two lead changes; South led for good after move 4, so for 2 of the 6 moves.
        let mut game = GameMoves::new((0, None), 1);
        for (difference, branching) in [(0, 3), (2, 1), (-1, 2), (-1, 1), (3, 4), (3, 2)] {
            game.add(&MoveRecord {
                branching,
                score_difference: difference,
                ..MoveRecord::default()
            });
        }
        let mut g = Group::default();
        game.finish(&mut g);
        assert_eq!(g.lead_changes.interval().0, 2.0);
        assert!((g.decisiveness.interval().0 - 2.0 / 6.0).abs() < 1e-12);
        assert_eq!(g.branching_factor.interval(Z95).0, 13.0 / 6.0);
        assert_eq!(g.forced.interval(Z95).0, 2.0 / 6.0);
        // A draw has lead changes but no decisiveness.
        let mut draw = GameMoves::new((1, None), 0);
        for difference in [1, -1, 0] {
            draw.add(&MoveRecord {
                branching: 2,
                score_difference: difference,
                ..MoveRecord::default()
            });
        }
        draw.finish(&mut g);
        assert_eq!((g.lead_changes.count(), g.decisiveness.count()), (2, 1));
        assert_eq!(g.lead_changes.interval().0, 1.5);
    }

    #[test]
    fn seatings_name_the_agents_as_seated() {
        let pairing = |text: &str| text.parse::<Pairing>().expect("a pairing");
        let s = Seating::of(pairing("alphabeta:3,random"), 1);
        assert_eq!(
            (s.south, s.north),
            (AgentSpec::Random, AgentSpec::AlphaBeta(3))
        );
        assert_eq!(s.label(), "South random, North alphabeta:3");
        assert_eq!(s.slug(), "random-vs-alphabeta3-2");
        assert_eq!(
            Seating::of(pairing("random,random"), 0).slug(),
            "random-vs-random-1"
        );
    }

    #[test]
    fn games_pair_by_seating_and_seed_only() {
        let (won, lost) = (Some(true), Some(false));
        let a = group(&[
            (0, 1, won),
            (0, 2, won),
            (1, 1, lost),
            (0, 3, won),
            (0, 5, won),
        ]);
        // Seed 3 has no partner; seed 1 in seat order 1 is a different game from order 0;
        // seed 5 was stopped unfinished in `b`, so the win rates and the pairs leave it out.
        let b = group(&[
            (1, 1, won),
            (0, 1, lost),
            (0, 2, won),
            (0, 4, lost),
            (0, 5, None),
        ]);
        let pairs = a.pairs(&b);
        assert_eq!(
            pairs,
            Pairs {
                n: 3,
                first_only: 1,
                second_only: 1
            }
        );
        assert_eq!(b.pairs(&a).first_only, 1);
    }
}
