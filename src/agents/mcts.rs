//! Monte Carlo tree search (UCT): N iterations of select, expand, random playout, back up.
//! A node's statistics are kept for the player who moved into it, so extra turns and passes
//! (where the same player moves twice) need no special case.

use rand_chacha::ChaCha8Rng;

use super::{pick, play_chosen, Agent};
use crate::engine::{Game, Move, MoveReport};
use crate::rules::Side;

/// Exploration constant of UCB1.
const EXPLORATION: f64 = 1.4;

struct Node {
    /// The move played to reach it (none for the root).
    mv: Option<Move>,
    /// Who played it.
    mover: Option<Side>,
    children: Vec<usize>,
    untried: Vec<Move>,
    visits: f64,
    /// Sum of results for `mover`: 1 win, 0.5 draw, 0 loss.
    wins: f64,
}

/// UCT with random playouts.
pub struct Mcts {
    iterations: u32,
}

impl Mcts {
    /// `iterations` playouts per move.
    pub fn new(iterations: u32) -> Mcts {
        Mcts { iterations }
    }
}

impl Agent for Mcts {
    fn play(&mut self, game: &mut Game<'_>, rng: &mut ChaCha8Rng) -> MoveReport {
        let mut nodes = vec![Node {
            mv: None,
            mover: None,
            children: Vec::new(),
            untried: game.legal_moves(),
            visits: 0.0,
            wins: 0.0,
        }];
        let mut state = game.clone();
        for _ in 0..self.iterations {
            state.clone_from(game);
            let mut path = vec![0];
            let mut at = 0;
            // Select.
            while nodes[at].untried.is_empty() && !nodes[at].children.is_empty() {
                let parent_visits = nodes[at].visits.ln();
                at = *nodes[at]
                    .children
                    .iter()
                    .max_by(|&&a, &&b| {
                        ucb(&nodes[a], parent_visits).total_cmp(&ucb(&nodes[b], parent_visits))
                    })
                    .expect("children exist");
                let mv = nodes[at].mv.expect("below the root");
                state.play(mv).expect("tree moves are legal");
                path.push(at);
            }
            // Expand.
            if !nodes[at].untried.is_empty() {
                let mv = pick(&nodes[at].untried, rng);
                nodes[at].untried.retain(|&m| m != mv);
                let mover = state.to_move();
                state.play(mv).expect("untried moves are legal");
                let untried = if state.is_over() {
                    Vec::new()
                } else {
                    state.legal_moves()
                };
                nodes.push(Node {
                    mv: Some(mv),
                    mover,
                    children: Vec::new(),
                    untried,
                    visits: 0.0,
                    wins: 0.0,
                });
                let child = nodes.len() - 1;
                nodes[at].children.push(child);
                path.push(child);
            }
            // Playout.
            state.random_playout(rng);
            let winner = state.outcome().and_then(|o| o.winner);
            // Back up.
            for &n in &path {
                let node = &mut nodes[n];
                node.visits += 1.0;
                node.wins += match (winner, node.mover) {
                    (None, _) => 0.5,
                    (Some(w), Some(m)) if w == m => 1.0,
                    _ => 0.0,
                };
            }
        }
        let best = nodes[0]
            .children
            .iter()
            .max_by(|&&a, &&b| nodes[a].visits.total_cmp(&nodes[b].visits))
            .and_then(|&c| nodes[c].mv);
        let mv = best.unwrap_or_else(|| pick(&nodes[0].untried, rng));
        play_chosen(game, mv)
    }
}

fn ucb(node: &Node, ln_parent_visits: f64) -> f64 {
    node.wins / node.visits + EXPLORATION * (ln_parent_visits / node.visits).sqrt()
}
