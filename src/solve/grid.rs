//! Exact values over a grid of small boards of one variant: holes a row by seeds a hole,
//! each solved within a node budget, as far as the budget goes.

use std::ops::RangeInclusive;

use super::{solve, Limits, Solution, SolveError};
use crate::rules::Rules;

/// How far [`walk`] goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    /// Holes a row, smallest first.
    pub holes: RangeInclusive<u32>,
    /// Seeds a hole, smallest first.
    pub seeds: RangeInclusive<u32>,
    /// The most nodes one board's search plays (one thread, so that what is solved is the
    /// same on every machine).
    pub max_nodes: u64,
    /// The most bytes one board's table takes.
    pub memory: u64,
    /// Variants with match rules solved as one game each ([`Limits::single_game`]).
    pub single_game: bool,
}

/// One board of the grid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Point {
    /// Holes a row.
    pub holes: u32,
    /// Seeds a hole.
    pub seeds: u32,
    /// The board's rules hash, where the board could be made.
    pub rules_hash: Option<String>,
    /// What was found.
    pub found: Found,
}

/// What the solver found on one board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Found {
    /// The exact value.
    Solved(Box<Solution>),
    /// The search needed more than the budget: no larger board of this row count is tried.
    BeyondBudget,
    /// The solver cannot search these rules, or the board is too wide for its key.
    Refused(String),
    /// The variant cannot be set to this board (its rules need more holes, say).
    NoBoard(String),
}

/// Boards beyond the budget in a row, one after the other, after which a row stops; and rows
/// with no board solved, one after the other, after which the walk stops. Larger boards are
/// mostly harder, but not always: a game whose lone seeds wander (one seed a hole) can be
/// harder than the same board with two.
const GIVE_UP_AFTER: usize = 2;

/// Solves the boards of `grid` for the variant `board` makes (`board(holes, seeds)`: its
/// rules on that board), row by row, seeds a hole growing in a row: a row stops after
/// [`GIVE_UP_AFTER`] boards beyond the budget in turn (or at a board the variant cannot be set
/// to), the walk after as many rows in turn with no board solved. A refusal of the rules ends
/// the walk (every board would be refused alike).
pub fn walk(board: impl Fn(u32, u32) -> Result<Rules, String>, grid: &Grid) -> Vec<Point> {
    let limits = Limits {
        max_nodes: Some(grid.max_nodes),
        memory: grid.memory,
        threads: 1,
        single_game: grid.single_game,
        ..Limits::default()
    };
    let mut points = Vec::new();
    let mut barren_rows = 0;
    for holes in grid.holes.clone() {
        let mut beyond = 0;
        let mut solved = false;
        for seeds in grid.seeds.clone() {
            let rules = match board(holes, seeds) {
                Ok(rules) => rules,
                Err(why) => {
                    points.push(Point {
                        holes,
                        seeds,
                        rules_hash: None,
                        found: Found::NoBoard(why),
                    });
                    break;
                }
            };
            let found = match solve(&rules, limits) {
                Ok(solution) => Found::Solved(Box::new(solution)),
                Err(SolveError::TooManyNodes { .. }) => Found::BeyondBudget,
                Err(e) => Found::Refused(e.to_string()),
            };
            let refused = matches!(found, Found::Refused(_));
            solved |= matches!(found, Found::Solved(_));
            beyond = if found == Found::BeyondBudget {
                beyond + 1
            } else {
                0
            };
            points.push(Point {
                holes,
                seeds,
                rules_hash: Some(rules.hash()),
                found,
            });
            if refused {
                return points;
            }
            if beyond == GIVE_UP_AFTER {
                break;
            }
        }
        barren_rows = if solved { 0 } else { barren_rows + 1 };
        if barren_rows == GIVE_UP_AFTER {
            break;
        }
    }
    points
}
