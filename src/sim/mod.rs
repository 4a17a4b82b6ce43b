//! Self-play: one game (or match of rounds) between two agents, and experiments of many run
//! in parallel, reproducibly, with their results streamed to CSV files.

pub mod endings;
pub mod merge;
pub mod output;
pub mod record;
pub mod runner;
pub mod seed;
pub mod stats;

use crate::agents::Agent;
use crate::engine::{Game, Match};
use crate::rules::{Rules, Side};
use record::{GameRecord, Hex64, MatchRecord, MoveRecord, Name};

/// Who plays and under which names, South first.
pub struct Players<'a> {
    /// The two agents, South's first.
    pub agents: [&'a mut dyn Agent; 2],
    /// Their specs as written, South's first.
    pub names: [Name; 2],
    /// Plies at the start of every game (and round) played uniformly at random, whoever the
    /// agents: distinct games from deterministic agents.
    pub opening: u32,
}

/// Where a game's records go and under which labels.
struct Recording<'a> {
    label: &'a Name,
    index: u64,
    /// The round, in a match.
    round: Option<u16>,
    moves: Option<&'a mut Vec<MoveRecord>>,
}

/// Plays `game`, at the start of its rules, to its end; `moves` receives one record per move
/// when given.
pub fn play_game(
    game: &mut Game<'_>,
    label: &Name,
    players: Players<'_>,
    index: u64,
    seed: u64,
    moves: Option<&mut Vec<MoveRecord>>,
) -> GameRecord {
    let mut rngs = rngs(seed);
    let mut players = players;
    let recording = Recording {
        label,
        index,
        round: None,
        moves,
    };
    play_out(game, &mut players, &mut rngs, recording);
    let starter = game.rules().program.board.starter;
    game_record(game, label, &players.names, index, seed, starter, None)
}

/// Plays a match of rounds to its end: its record, and one record per round (each agent
/// draws on one random stream through the whole match); `moves` receives one record per
/// move when given.
///
/// # Panics
/// If the variant has no match rules: the caller checks.
pub fn play_match(
    rules: &Rules,
    label: &Name,
    players: Players<'_>,
    index: u64,
    seed: u64,
    mut moves: Option<&mut Vec<MoveRecord>>,
) -> (MatchRecord, Vec<GameRecord>) {
    let mut table = Match::new(rules).expect("the caller checks the variant has match rules");
    let mut rngs = rngs(seed);
    let mut players = players;
    let first_starter = table.starter();
    let mut rounds = Vec::new();
    let mut round_1_winner = None;
    loop {
        let round = table.round();
        let recording = Recording {
            label,
            index,
            round: Some(round),
            moves: moves.as_deref_mut(),
        };
        play_out(table.game_mut(), &mut players, &mut rngs, recording);
        let starter = table.starter();
        rounds.push(game_record(
            table.game(),
            label,
            &players.names,
            index,
            seed,
            starter,
            Some(round),
        ));
        let (result, next) = table.next_round();
        if round == 1 {
            round_1_winner = result.outcome.winner;
        }
        if next.is_none() {
            let end = table.outcome().expect("no next round: the match is over");
            let won = table.rounds_won();
            let [south_total, north_total] = result.holdings;
            let [south_agent, north_agent] = players.names;
            let record = MatchRecord {
                variant: label.clone(),
                rules_hash: Hex64(rules.content_hash()),
                match_index: index,
                seed: Hex64(seed),
                south_agent,
                north_agent,
                starter: first_starter,
                rounds: round,
                winner: end.winner,
                south_total,
                north_total,
                south_rounds: won[0],
                north_rounds: won[1],
                starter_rounds: won[first_starter.index()],
                round_1_winner,
                end_reason: end.reason,
            };
            return (record, rounds);
        }
    }
}

/// A game's random streams: South's agent, North's agent, and the random opening.
fn rngs(seed: u64) -> [rand_chacha::ChaCha8Rng; 3] {
    // Not `array::map`, which copies the three generators (300 bytes each) about, every game.
    let stream = |k| seed::agent_rng(seed, k);
    [stream(0), stream(1), stream(2)]
}

/// Plays `game` to its end, each agent with its random stream, the first `players.opening` plies
/// at random from the opening's stream.
fn play_out(
    game: &mut Game<'_>,
    players: &mut Players<'_>,
    rngs: &mut [rand_chacha::ChaCha8Rng; 3],
    mut recording: Recording<'_>,
) {
    // Two random agents and no move records: the engine plays the same game in one loop.
    if recording.moves.is_none() && players.agents.iter().all(|a| a.plays_at_random()) {
        game.play_random_out(rngs, players.opening);
        return;
    }
    let mut turn = 0;
    while let Some(side) = game.to_move() {
        let branching = recording
            .moves
            .as_ref()
            .map(|_| game.legal_mask().count_ones());
        let report = if turn < players.opening {
            game.play_random(&mut rngs[2])
                .expect("a player to move has a legal move")
        } else {
            players.agents[side.index()].play(game, &mut rngs[side.index()])
        };
        turn += 1;
        if let (Some(list), Some(branching)) = (recording.moves.as_deref_mut(), branching) {
            let [s, n] = game.position().stores();
            list.push(MoveRecord {
                variant: recording.label.clone(),
                game: recording.index,
                turn,
                player: side,
                hole: report.mv.slot() as u32,
                branching,
                laps: report.laps,
                sown: report.sown,
                captures: report.captures,
                captured: report.captured,
                extra_turn: report.extra_turn,
                score_difference: i32::from(s) - i32::from(n),
                round: recording.round,
            });
        }
    }
}

/// The record of a finished game (or round).
fn game_record(
    game: &Game<'_>,
    label: &Name,
    names: &[Name; 2],
    index: u64,
    seed: u64,
    starter: Side,
    round: Option<u16>,
) -> GameRecord {
    let outcome = game.outcome().expect("the game is over");
    let stats = game.stats();
    let [south_total, north_total] = game.position().stores();
    GameRecord {
        variant: label.clone(),
        rules_hash: Hex64(game.rules().content_hash()),
        game: index,
        seed: Hex64(seed),
        south_agent: names[0].clone(),
        north_agent: names[1].clone(),
        starter,
        winner: outcome.winner,
        south_total,
        north_total,
        turns: stats.moves,
        passes: stats.passes,
        extra_turns: stats.extra_turns,
        captures: stats.captures,
        max_laps: stats.max_laps,
        endless_refused: stats.endless_refused,
        drop_cap_hits: stats.drop_cap_hits,
        end_reason: outcome.reason.class(),
        end_rule: outcome.reason,
        match_index: round.map(|_| index),
        round,
    }
}
