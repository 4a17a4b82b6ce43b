//! Self-play: one game between two agents, and experiments of many games run in parallel,
//! reproducibly, with their results streamed to CSV files.

pub mod merge;
pub mod output;
pub mod record;
pub mod runner;
pub mod seed;
pub mod stats;

use crate::agents::Agent;
use crate::engine::Game;
use crate::rules::{Rules, Side};
use record::{GameRecord, MoveRecord};

/// Who plays and under which names, South first.
pub struct Players<'a> {
    /// The two agents, South's first.
    pub agents: [&'a mut dyn Agent; 2],
    /// Their specs as written, South's first.
    pub names: [String; 2],
}

/// Plays one game to its end; `moves` receives one record per move when given.
pub fn play_game(
    rules: &Rules,
    label: &str,
    players: Players<'_>,
    index: u64,
    seed: u64,
    mut moves: Option<&mut Vec<MoveRecord>>,
) -> GameRecord {
    let mut game = Game::new(rules);
    let mut rngs = [seed::agent_rng(seed, 0), seed::agent_rng(seed, 1)];
    let Players { agents, names } = players;
    let mut turn = 0;
    while let Some(side) = game.to_move() {
        let branching = moves.as_ref().map(|_| game.legal_mask().count_ones());
        let report = agents[side.index()].play(&mut game, &mut rngs[side.index()]);
        turn += 1;
        if let (Some(list), Some(branching)) = (moves.as_deref_mut(), branching) {
            let [s, n] = game.position().stores();
            list.push(MoveRecord {
                variant: label.to_string(),
                game: index,
                turn,
                player: side.name().to_string(),
                hole: report.hole as u32,
                branching,
                laps: report.laps,
                sown: report.sown,
                captures: report.captures,
                captured: report.captured,
                extra_turn: report.extra_turn,
                score_difference: i32::from(s) - i32::from(n),
            });
        }
    }
    let outcome = game.outcome().expect("the loop ends when the game is over");
    let stats = game.stats();
    let [south_total, north_total] = game.position().stores();
    GameRecord {
        variant: label.to_string(),
        rules_hash: rules.hash(),
        game: index,
        seed: format!("{seed:016x}"),
        south_agent: names[0].clone(),
        north_agent: names[1].clone(),
        starter: rules.program.board.starter.name().to_string(),
        winner: outcome.winner.map_or("draw", Side::name).to_string(),
        south_total,
        north_total,
        turns: stats.moves,
        passes: stats.passes,
        extra_turns: stats.extra_turns,
        captures: stats.captures,
        max_laps: stats.max_laps,
        endless_refused: stats.endless_refused,
        drop_cap_hits: stats.drop_cap_hits,
        end_reason: outcome.reason.class().to_string(),
        end_rule: outcome.reason.name().to_string(),
    }
}
