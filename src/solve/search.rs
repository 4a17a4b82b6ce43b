//! The search itself: MTD(f) over a fail-soft alpha-beta with the table, started again with a
//! finer key whenever a line shows that the coarser one cannot tell positions apart.

use super::table::{mix, Entry, Key, Table};
use super::tablebase::{self, Tablebase};
use super::{Limits, Progress, Solution, SolveError, Value, MAX_DEPTH};
use crate::agents::alphabeta::Bound;
use crate::engine::{EndReason, Game, Move, Position};
use crate::rules::{Direction, DirectionRule, Side};
use std::sync::atomic::{AtomicUsize, Ordering};

/// What the table's key holds beyond the board and the memories.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Keying {
    /// The stores are left out and values kept relative to the margin ([`super::margins_suffice`]).
    pub store_free: bool,
    /// The positions since the stores last changed, once a move has been found that may let a
    /// position recur.
    pub stretch: bool,
    /// The move count, once a line has reached the move cap.
    pub move_count: bool,
    /// Alpha-beta pruning and MTD(f); off, plain minimax with a table of exact values.
    pub pruning: bool,
}

/// What the search finds at the root.
struct Found {
    value: Value,
    moves: Vec<(Move, Value)>,
    line: Vec<(Side, Move)>,
    end: EndReason,
}

/// The first move, in move order, of the best value for the player to move in `game`, and
/// that value, among `values`.
fn best(game: &Game<'_>, values: &[(Move, i32)]) -> (Move, i32) {
    let south = game.to_move() == Some(Side::South);
    let better = |a: i32, b: i32| if south { a > b } else { a < b };
    values
        .iter()
        .copied()
        .reduce(|best, next| if better(next.1, best.1) { next } else { best })
        .expect("a game not over has a move")
}

/// Why a search stopped before its value.
enum Stop {
    /// A line reaches the move cap: the table must key on the move count.
    CapInReach,
    /// A move kept the stores and did not move the seeds forward: a position may recur, and
    /// the table must key on the positions of the stretch.
    MayRecur,
    /// This solver played its share of the node limit.
    TooManyNodes,
    Error(SolveError),
}

impl From<SolveError> for Stop {
    fn from(error: SolveError) -> Stop {
        Stop::Error(error)
    }
}

/// More than any hole number: the weight of the gain in the move order.
const HOLES: i32 = 64;

/// Nodes between two progress reports (a power of two).
const PROGRESS_EVERY: u64 = 1 << 20;

/// Searches `start`, a game not over or over, until a key fine enough for every line is
/// found.
pub(super) fn search_root(
    start: &Game<'_>,
    limits: Limits,
    mut keying: Keying,
    table_slots: u64,
    tablebase: Option<&Tablebase>,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<Solution, SolveError> {
    let rules = start.rules();
    // Its values are margins: of use only where the key leaves the stores out.
    let tablebase = tablebase.filter(|t| keying.store_free && t.fits(rules));
    let threads = limits.threads.max(1);
    let no_memory = |_| SolveError::NoMemory {
        bytes: limits.memory,
    };
    let quiet = |_| {};
    let roots = Roots::default();
    let roots = &roots;
    let mut solvers = (0..threads)
        .map(|i| {
            let table = Table::new(limits.memory / threads as u64, table_slots);
            Ok(Solver {
                table: table.map_err(no_memory)?,
                keying,
                // Each thread's share of the limit: a thread searches as much whatever the
                // others do, so the search stops at the same point from run to run.
                max_nodes: limits
                    .max_nodes
                    .map_or(u64::MAX, |n| n.div_ceil(threads as u64)),
                seed_bits: 32 - rules.total_seeds().leading_zeros(),
                cap: rules.program.ending.move_cap,
                backwards: rules.program.sowing.direction
                    == DirectionRule::Fixed(Direction::Clockwise),
                tablebase,
                nodes: 0,
                probes: 0,
                recurrences: 0,
                depth: 0,
                spare: Vec::new(),
                roots,
                // One thread tells how far the search has gone.
                progress: if i == 0 { progress } else { &quiet },
            })
        })
        .collect::<Result<Vec<_>, SolveError>>()?;
    loop {
        match root(&mut solvers, start) {
            Ok(Found {
                value,
                moves,
                line,
                end,
            }) => {
                let sum = |count: fn(&Solver<'_, '_>) -> u64| solvers.iter().map(count).sum();
                return Ok(Solution {
                    value,
                    moves,
                    line,
                    end,
                    nodes: sum(|s| s.nodes),
                    table: sum(|s| s.table.len()),
                    capacity: sum(|s| s.table.capacity()),
                    recurrences: sum(|s| s.recurrences),
                    probes: sum(|s| s.probes),
                    move_count_keyed: keying.move_count,
                    stretch_keyed: keying.stretch,
                    store_free: keying.store_free,
                });
            }
            Err(Stop::CapInReach) if !keying.move_count => keying.move_count = true,
            Err(Stop::MayRecur) if !keying.stretch => keying.stretch = true,
            Err(Stop::CapInReach | Stop::MayRecur) => {
                unreachable!("a key already holding what a line needs is asked for it again")
            }
            Err(Stop::TooManyNodes) => {
                return Err(SolveError::TooManyNodes {
                    limit: limits.max_nodes.unwrap_or(u64::MAX),
                })
            }
            Err(Stop::Error(e)) => return Err(e),
        }
        for solver in &mut solvers {
            solver.keying = keying;
            solver.table.clear().map_err(no_memory)?;
            solver.recurrences = 0;
            solver.depth = 0;
        }
    }
}

struct Solver<'r, 'p> {
    table: Table,
    keying: Keying,
    max_nodes: u64,
    seed_bits: u32,
    cap: u32,
    /// The rules sow clockwise: seeds move forward to lower hole numbers.
    backwards: bool,
    /// Exact values of positions with few seeds on the board, where the rules allow them.
    tablebase: Option<&'p Tablebase>,
    nodes: u64,
    /// Positions the tablebase answered.
    probes: u64,
    recurrences: u64,
    depth: usize,
    /// Games to play children in, kept to reuse their memory.
    spare: Vec<Game<'r>>,
    roots: &'p Roots,
    progress: &'p (dyn Fn(Progress) + Sync),
}

/// How many of the first moves have their exact value, all threads together: what progress
/// tells of a search too long to watch by its nodes alone.
#[derive(Default)]
struct Roots {
    solved: AtomicUsize,
    of: AtomicUsize,
}

/// The value of the start position, the exact value of each first move, and a line of
/// perfect play. With several solvers, each takes every so many first moves, in the order
/// the search tries moves, on a thread of its own with a table of its own: the values are
/// exact whatever each table holds, so they do not depend on the threads.
fn root<'r>(solvers: &mut [Solver<'r, '_>], start: &Game<'r>) -> Result<Found, Stop> {
    let mut game = start.clone();
    let (first, rest) = solvers.split_first_mut().expect("a solver");
    if let Some(outcome) = game.outcome() {
        return Ok(Found {
            value: first.value_of(first.leaf(&game)),
            moves: Vec::new(),
            line: Vec::new(),
            end: outcome.reason,
        });
    }
    let order = Order::of(&mut game, None, first.backwards);
    let moves: Vec<Move> = order.moves().iter().map(|&(_, mv)| mv).collect();
    first.roots.of.store(moves.len(), Ordering::Relaxed);
    first.roots.solved.store(0, Ordering::Relaxed);
    // Every so many first moves to each thread: node counts the same from run to run (taking
    // the next move not yet taken balanced the work no better: Kalah(6,3) 10.8 s against 9.0).
    let threads = rest.len() + 1;
    let share =
        |i: usize| -> Vec<Move> { moves.iter().copied().skip(i).step_by(threads).collect() };
    let game = &game;
    let mut values = std::thread::scope(|scope| {
        let others: Vec<_> = rest
            .iter_mut()
            .enumerate()
            .map(|(i, solver)| {
                let mine = share(i + 1);
                std::thread::Builder::new()
                    .name("solve".into())
                    .stack_size(super::STACK_BYTES)
                    .spawn_scoped(scope, move || solver.first_moves(game, &mine))
                    .expect("a thread for the search")
            })
            .collect();
        let mut values = first.first_moves(game, &share(0));
        for other in others {
            let found = other
                .join()
                .unwrap_or_else(|p| std::panic::resume_unwind(p));
            values = values.and_then(|mut v| {
                v.extend(found?);
                Ok(v)
            });
        }
        values
    })?;
    values.sort_by_key(|&(mv, _)| mv);
    first.line(game.clone(), &values)
}

impl<'r> Solver<'r, '_> {
    /// The exact value of each of `moves` from `game`, each guessed from the one before.
    fn first_moves(&mut self, game: &Game<'r>, moves: &[Move]) -> Result<Vec<(Move, i32)>, Stop> {
        let game = &mut game.clone();
        let mut values = Vec::new();
        let mut guess = 0;
        for &mv in moves {
            guess = self.exact(game, mv, guess)?;
            values.push((mv, guess));
            self.roots.solved.fetch_add(1, Ordering::Relaxed);
        }
        Ok(values)
    }

    /// The value of `game` from the exact values of its moves, and a line of perfect play
    /// from it: at each turn, the first move that keeps the value, one null-window search a
    /// move (the table, full of bounds, answers most).
    fn line(&mut self, mut game: Game<'r>, values: &[(Move, i32)]) -> Result<Found, Stop> {
        let (mut mv, best) = best(&game, values);
        let moves = values
            .iter()
            .map(|&(mv, v)| (mv, self.value_of(v)))
            .collect();
        let mut line = Vec::new();
        loop {
            line.push((game.to_move().expect("a game not over"), mv));
            game.play(mv).expect("the search plays legal moves");
            if let Some(outcome) = game.outcome() {
                break Ok(Found {
                    value: self.value_of(best),
                    moves,
                    line,
                    end: outcome.reason,
                });
            }
            if line.len() >= MAX_DEPTH {
                return Err(SolveError::TooDeep.into());
            }
            mv = self.keeping(&mut game, best)?;
        }
    }

    /// The first move of `game`, in move order, worth `value`, the value of `game`: for
    /// South the first worth at least `value`, for North at most.
    fn keeping(&mut self, game: &mut Game<'r>, value: i32) -> Result<Move, Stop> {
        let south = game.to_move() == Some(Side::South);
        for mv in game.legal_moves() {
            let keeps = if south {
                self.after(game, mv, value - 1, value)?.0 >= value
            } else {
                self.after(game, mv, value, value + 1)?.0 <= value
            };
            if keeps {
                return Ok(mv);
            }
        }
        unreachable!("a position has a move of its own value")
    }

    /// A value of the search as a [`Value`].
    fn value_of(&self, value: i32) -> Value {
        if self.keying.store_free {
            Value {
                result: value.signum() as i8,
                margin: value,
            }
        } else {
            Value::unpack(value)
        }
    }

    /// The exact value after `mv`, by MTD(f): null-window searches from `guess` until the
    /// bounds meet (one full-window search without pruning).
    fn exact(&mut self, game: &mut Game<'r>, mv: Move, guess: i32) -> Result<i32, Stop> {
        if !self.keying.pruning {
            return Ok(self.after(game, mv, i32::MIN, i32::MAX)?.0);
        }
        let (mut lower, mut upper) = (i32::MIN, i32::MAX);
        let mut value = guess;
        while lower < upper {
            let beta = if value == lower { value + 1 } else { value };
            value = self.after(game, mv, beta - 1, beta)?.0;
            if value < beta {
                upper = value;
            } else {
                lower = value;
            }
        }
        Ok(value)
    }

    /// The value of a finished game as the search counts it: the final margin where the
    /// stores are not keyed, else the packed [`Value`].
    fn leaf(&self, game: &Game<'_>) -> i32 {
        let value = Value::of_finished(game);
        if self.keying.store_free {
            value.margin
        } else {
            value.pack()
        }
    }

    /// What the table's values are relative to: South's store less North's where the stores
    /// are not keyed (the rest of the game adds to it whatever they hold), else nothing.
    fn offset(&self, position: &Position) -> i32 {
        if self.keying.store_free {
            let [south, north] = position.stores();
            i32::from(south) - i32::from(north)
        } else {
            0
        }
    }

    /// The value of the game after `mv` (fail-soft within `alpha..beta`), and the longest
    /// line searched from there.
    fn after(
        &mut self,
        game: &mut Game<'r>,
        mv: Move,
        alpha: i32,
        beta: i32,
    ) -> Result<(i32, u16), Stop> {
        let mut child = self.spare.pop().unwrap_or_else(|| game.clone());
        game.play_into(mv, &mut child)
            .expect("the search plays legal moves");
        let result = self.child(game.position(), &mut child, alpha, beta);
        self.spare.push(child);
        result
    }

    fn child(
        &mut self,
        parent: &Position,
        child: &mut Game<'r>,
        alpha: i32,
        beta: i32,
    ) -> Result<(i32, u16), Stop> {
        self.nodes += 1;
        if self.nodes > self.max_nodes {
            return Err(Stop::TooManyNodes);
        }
        if self.nodes.is_multiple_of(PROGRESS_EVERY) {
            (self.progress)(Progress {
                nodes: self.nodes,
                entries: self.table.len(),
                capacity: self.table.capacity(),
                first_moves_solved: self.roots.solved.load(Ordering::Relaxed),
                first_moves: self.roots.of.load(Ordering::Relaxed),
            });
        }
        if !self.keying.stretch && !self.forward(parent, child.position()) {
            return Err(Stop::MayRecur);
        }
        match child.outcome() {
            Some(o) if o.reason == EndReason::Cap && !self.keying.move_count => {
                Err(Stop::CapInReach)
            }
            Some(_) => Ok((self.leaf(child), 0)),
            None => {
                let known = self.tablebase.and_then(|t| t.probe(child));
                // A line of the tablebase's that would reach the cap is searched instead.
                match known
                    .filter(|&(_, h)| child.stats().moves.saturating_add(u32::from(h)) <= self.cap)
                {
                    Some(found) => {
                        self.probes += 1;
                        Ok(found)
                    }
                    None => self.value(child, alpha, beta),
                }
            }
        }
    }

    /// Whether a move from `before` to `after` changed the stores or moved seeds forward, in
    /// the sowing direction, by hole number: if every move searched does one or the other, no
    /// position recurs before the stores change, and the repetition rule never reads the
    /// positions of a stretch.
    fn forward(&self, before: &Position, after: &Position) -> bool {
        let rank = |p| tablebase::seed_rank(p, self.backwards);
        before.stores() != after.stores() || rank(after) > rank(before)
    }

    /// The value of `game`, which is not over, fail-soft within `alpha..beta` (South
    /// maximises), and the longest line searched from it.
    fn value(&mut self, game: &mut Game<'r>, alpha: i32, beta: i32) -> Result<(i32, u16), Stop> {
        let (mut alpha, mut beta) = if self.keying.pruning {
            (alpha, beta)
        } else {
            (i32::MIN, i32::MAX)
        };
        let offset = self.offset(game.position());
        if self.keying.store_free && self.keying.pruning {
            // Stores only gain, from the board: the final margin is the margin now give or
            // take the seeds still on the board, and a window beyond that is decided.
            let left = game.position().board_seeds() as i32;
            if offset - left >= beta {
                return Ok((offset - left, 0));
            }
            if offset + left <= alpha {
                return Ok((offset + left, 0));
            }
        }
        let key = self.key(game);
        let mut first = None;
        if let Some(entry) = self.table.get(key) {
            if !self.keying.move_count
                && u64::from(game.stats().moves) + u64::from(entry.height) > u64::from(self.cap)
            {
                return Err(Stop::CapInReach);
            }
            let value = entry.value + offset;
            let enough = match entry.bound {
                Bound::Exact => true,
                Bound::Lower => value >= beta,
                Bound::Upper => value <= alpha,
            };
            if enough {
                return Ok((value, entry.height));
            }
            match entry.bound {
                Bound::Lower => alpha = alpha.max(value),
                Bound::Upper => beta = beta.min(value),
                Bound::Exact => {}
            }
            first = Some(entry.best);
        }
        if self.depth >= MAX_DEPTH {
            return Err(SolveError::TooDeep.into());
        }
        let (window_alpha, window_beta) = (alpha, beta);
        let south = game.to_move() == Some(Side::South);
        let mut best = if south { i32::MIN } else { i32::MAX };
        let mut height = 0u16;
        let order = Order::of(game, first, self.backwards);
        let mut best_move = order.moves[0].1;
        let nodes = self.nodes;
        self.depth += 1;
        for &(_, mv) in order.moves() {
            let (value, below) = self.after(game, mv, alpha, beta)?;
            height = height.max(below.saturating_add(1));
            if (south && value > best) || (!south && value < best) {
                best = value;
                best_move = mv;
            }
            if south {
                alpha = alpha.max(best);
            } else {
                beta = beta.min(best);
            }
            if alpha >= beta {
                break;
            }
        }
        self.depth -= 1;
        let bound = Bound::of(best, window_alpha, window_beta);
        let work = (64 - (self.nodes - nodes).leading_zeros()) as u8;
        let entry = Entry {
            value: best - offset,
            bound,
            height,
            best: best_move,
            work,
        };
        self.table.put(key, entry);
        Ok((best, height))
    }

    fn key(&mut self, game: &Game<'_>) -> Key {
        let position = game.position();
        let stores = position.stores();
        let stores: &[u16] = if self.keying.store_free { &[] } else { &stores };
        let mut board = 0u128;
        for &n in position.board().iter().chain(stores) {
            board = board << self.seed_bits | u128::from(n);
        }
        let mut rest = mix(game.memory());
        for word in [
            position.north_mask(),
            position.houses(),
            position.locked_mask(),
            position.closed(),
        ] {
            rest = mix(rest ^ word);
        }
        if self.keying.stretch {
            let mut stretch = 0u128;
            let mut occurrences = 0;
            let now = position.fingerprint();
            for p in game.stretch() {
                let f = p.fingerprint();
                stretch = stretch.wrapping_add(u128::from(f) << 64 | u128::from(mix(f)));
                occurrences += usize::from(f == now && p == position);
            }
            if occurrences > 1 {
                self.recurrences += 1;
            }
            rest = mix(mix(rest ^ stretch as u64) ^ (stretch >> 64) as u64);
        }
        if self.keying.move_count {
            rest = mix(rest ^ u64::from(game.stats().moves));
        }
        Key { board, rest }
    }
}

/// The moves of a position in the order they are searched: the table's best move first, then
/// those that gain the mover most (seeds to their store, less the opponent's), then those
/// that earn an extra turn, then those from the holes furthest along the sowing direction
/// (nearest the end of a row, where the stores of most games are: in Kalah, a quarter of the
/// nodes of the hole order).
struct Order {
    moves: [(i32, Move); 64],
    len: usize,
}

impl Order {
    fn of(game: &mut Game<'_>, first: Option<Move>, backwards: bool) -> Order {
        let mover = game
            .to_move()
            .expect("a game not over has a player to move");
        let gain = |p: &Position| i32::from(p.store(mover)) - i32::from(p.store(mover.other()));
        let now = gain(game.position());
        let nearer = |hole: usize| {
            if backwards {
                -(hole as i32)
            } else {
                hole as i32
            }
        };
        let mut order = Order {
            moves: [(0, Move::from_slot(0)); 64],
            len: 0,
        };
        for mv in Move::all_in(game.legal_mask()) {
            let after = game.preview(mv).expect("a legal move has a result");
            let score = if Some(mv) == first {
                i32::MAX
            } else {
                let extra_turn = i32::from(after.to_move() == mover);
                HOLES * (2 * (gain(after) - now) + extra_turn) + nearer(mv.hole())
            };
            order.moves[order.len] = (score, mv);
            order.len += 1;
        }
        order.moves[..order.len].sort_by_key(|&(score, _)| std::cmp::Reverse(score));
        order
    }

    fn moves(&self) -> &[(i32, Move)] {
        &self.moves[..self.len]
    }
}
