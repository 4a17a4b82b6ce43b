//! Hoyito I (docs/sources.md §1), default readings R1, R2, R3, R10, R11 (docs/readings.md).
//!
//! * No stores on the board; 4 seeds per hole; 6..=12 holes per row.
//! * A move lifts all seeds of one non-empty own hole and sows them one per
//!   hole counterclockwise (increasing index, wrapping), starting with the
//!   next hole. The origin is never skipped.
//! * R1: a drop that makes a hole's count become exactly 4 forms a casa,
//!   captured at once by the mover wherever it lies (the hole becomes 0). A
//!   hole already at 4 that receives a seed goes to 5 and is not captured.
//!   A casa made by the last seed of a lap ends the move.
//! * Otherwise the last seed of a lap: count 1 (hole was empty, including one
//!   emptied earlier in this move) ends the move; count >= 2 is lifted and
//!   sown in a new lap from the next hole (relay).
//! * R2: after every capture, if seeds in play (board + sower's hand) are 4 or
//!   fewer, the capturer takes them all and the game ends at once (Normal).
//! * R11: a move whose sowing revisits a (board, hand, position) state never
//!   ends and is illegal. Detected exactly with Brent's cycle detection on
//!   lap-start states since the last capture (started after a few laps so the
//!   common case costs nothing); a drop cap backs it up.
//! * R3: no legal move -> pass; neither player -> NoMoves, board swept by side.
//! * R10: third occurrence of (board, captured totals, player to move) ->
//!   Repetition; after the 2000th move -> Cap; board swept by side.

use super::{below, pack_key, RepHistory, MAX_HOLES, MOVE_CAP};
pub use super::{EndReason, Side};

use std::sync::atomic::{AtomicU64, Ordering};

/// Safety cap on seed drops within one move (R11 backup). Never reached by a
/// terminating move in practice; if reached, the move is treated as endless
/// and `DROP_CAP_HITS` is incremented so that it can be reported.
pub const DROP_CAP: u64 = 1 << 26;

/// Number of times the drop cap was reached (should stay 0).
pub static DROP_CAP_HITS: AtomicU64 = AtomicU64::new(0);

/// Laps (since move start or last capture) before cycle detection starts.
const BRENT_START_LAPS: u32 = 12;

/// Result of a terminating sowing.
#[derive(Clone, Copy, Debug)]
struct After {
    board: [u8; MAX_HOLES],
    store: [u32; 2],
    /// R2 ended the game inside the sowing.
    r2_end: bool,
}

/// Simulates the sowing of `hole` by `mover` from `board`/`store`.
/// `total` = all seeds of the game (board + hand + stores).
/// Returns `None` if the move is endless (R11).
#[inline]
fn sow(
    board: &[u8; MAX_HOLES],
    store: [u32; 2],
    n2: usize,
    total: u32,
    mover: usize,
    hole: usize,
) -> Option<After> {
    let mut b = *board;
    let mut st = store;
    let mut in_play = total - st[0] - st[1];
    let mut hand = b[hole] as u32;
    b[hole] = 0;
    let mut pos = hole;

    let mut laps: u32 = 0;
    let mut drops: u64 = 0;
    // Brent's cycle detection over lap-start states (board, hand, pos).
    let mut saved_b = [0u8; MAX_HOLES];
    let mut saved_hand: u32 = 0;
    let mut saved_pos: usize = usize::MAX;
    let mut have_saved = false;
    let mut power: u32 = 1;
    let mut steps: u32 = 0;

    loop {
        // Lap start: state is (b, hand, pos); the lap sows from pos+1.
        laps += 1;
        if laps > BRENT_START_LAPS {
            if have_saved && hand == saved_hand && pos == saved_pos && b == saved_b {
                return None; // revisited state: this sowing never ends
            }
            steps += 1;
            if !have_saved || steps >= power {
                saved_b = b;
                saved_hand = hand;
                saved_pos = pos;
                have_saved = true;
                power <<= 1;
                steps = 0;
            }
        }
        drops += hand as u64;
        if drops > DROP_CAP {
            DROP_CAP_HITS.fetch_add(1, Ordering::Relaxed);
            return None;
        }
        loop {
            pos += 1;
            if pos == n2 {
                pos = 0;
            }
            hand -= 1;
            let c = b[pos] + 1;
            if c == 4 {
                // Casa (R1): captured at once by the mover.
                b[pos] = 0;
                st[mover] += 4;
                in_play -= 4;
                if in_play <= 4 {
                    // R2: the capturer takes what is left (board + hand).
                    st[mover] += in_play;
                    return Some(After {
                        board: [0; MAX_HOLES],
                        store: st,
                        r2_end: true,
                    });
                }
                // Board + hand shrank: no earlier state can recur.
                laps = 0;
                have_saved = false;
                power = 1;
                steps = 0;
                if hand == 0 {
                    return Some(After {
                        board: b,
                        store: st,
                        r2_end: false,
                    });
                }
            } else {
                b[pos] = c;
                if hand == 0 {
                    if c == 1 {
                        return Some(After {
                            board: b,
                            store: st,
                            r2_end: false,
                        });
                    }
                    // Relay: lift the landing hole and start a new lap.
                    hand = c as u32;
                    b[pos] = 0;
                    break;
                }
            }
        }
    }
}

#[derive(Clone, Debug)]
pub struct Game {
    n: usize,
    n2: usize,
    board: [u8; MAX_HOLES],
    store: [u32; 2],
    total: u32,
    to_move: Side,
    over: Option<EndReason>,
    moves: u32,
    cap: u32,
    /// Positions (board + player to move) since the captured totals last changed.
    history: RepHistory,
}

impl Game {
    /// Start position: `holes_per_row` holes per row (6..=12), 4 seeds each, South to move.
    pub fn new(holes_per_row: usize) -> Game {
        Game::with_move_cap(holes_per_row, MOVE_CAP)
    }

    pub fn with_move_cap(holes_per_row: usize, cap: u32) -> Game {
        assert!(
            (1..=12).contains(&holes_per_row),
            "holes per row must be 1..=12"
        );
        let board = vec![4u8; 2 * holes_per_row];
        Game::from_position_with_cap(&board, [0, 0], Side::South, cap)
    }

    /// Arbitrary position (for tests/oracles). `to_move` is the nominal player to
    /// move; passes are resolved (R3) and the position becomes the first
    /// occurrence for the repetition rule. Move counter starts at 0.
    pub fn from_position(board: &[u8], store: [u32; 2], to_move: Side) -> Game {
        Game::from_position_with_cap(board, store, to_move, MOVE_CAP)
    }

    pub fn from_position_with_cap(board: &[u8], store: [u32; 2], to_move: Side, cap: u32) -> Game {
        let n2 = board.len();
        assert!(
            n2 >= 2 && n2 & 1 == 0 && n2 <= MAX_HOLES,
            "board must have 2N <= 24 holes"
        );
        let on_board: u32 = board.iter().map(|&c| c as u32).sum();
        assert!(on_board < 128, "at most 127 seeds on the board");
        let mut b = [0u8; MAX_HOLES];
        b[..n2].copy_from_slice(board);
        let mut g = Game {
            n: n2 / 2,
            n2,
            board: b,
            store,
            total: on_board + store[0] + store[1],
            to_move,
            over: None,
            moves: 0,
            cap,
            history: RepHistory::new(cap),
        };
        if g.has_legal(to_move) {
        } else if g.has_legal(to_move.other()) {
            g.to_move = to_move.other();
        } else {
            g.sweep_by_side();
            g.over = Some(EndReason::NoMoves);
            return g;
        }
        let key = pack_key(&g.board, g.to_move);
        g.history.record(key);
        g
    }

    pub fn holes_per_row(&self) -> usize {
        self.n
    }
    pub fn board(&self) -> &[u8] {
        &self.board[..self.n2]
    }
    pub fn store(&self) -> [u32; 2] {
        self.store
    }
    /// Player who will actually choose next (passes resolved). After the game
    /// has ended inside a move (R2) or by NoMoves this is the opponent of the
    /// last mover; after Cap/Repetition it is the resolved next player.
    pub fn to_move(&self) -> Side {
        self.to_move
    }
    pub fn is_over(&self) -> bool {
        self.over.is_some()
    }
    pub fn end_reason(&self) -> Option<EndReason> {
        self.over
    }
    pub fn winner(&self) -> Option<Option<Side>> {
        self.over?;
        Some(if self.store[0] > self.store[1] {
            Some(Side::South)
        } else if self.store[1] > self.store[0] {
            Some(Side::North)
        } else {
            None
        })
    }
    pub fn moves_played(&self) -> u32 {
        self.moves
    }

    #[inline]
    fn own_range(&self, side: Side) -> std::ops::Range<usize> {
        let lo = side.index() * self.n;
        lo..lo + self.n
    }

    #[inline]
    fn simulate(&self, side: Side, hole: usize) -> Option<After> {
        sow(
            &self.board,
            self.store,
            self.n2,
            self.total,
            side.index(),
            hole,
        )
    }

    /// True if sowing `hole` (by its owner) would never end (R11).
    pub fn is_endless(&self, hole: usize) -> bool {
        assert!(hole < self.n2);
        if self.board[hole] == 0 {
            return false;
        }
        let owner = if hole < self.n {
            Side::South
        } else {
            Side::North
        };
        self.simulate(owner, hole).is_none()
    }

    fn has_legal(&self, side: Side) -> bool {
        self.own_range(side)
            .any(|h| self.board[h] != 0 && self.simulate(side, h).is_some())
    }

    pub fn legal_moves(&self) -> Vec<usize> {
        if self.over.is_some() {
            return Vec::new();
        }
        let side = self.to_move;
        self.own_range(side)
            .filter(|&h| self.board[h] != 0 && self.simulate(side, h).is_some())
            .collect()
    }

    fn sweep_by_side(&mut self) {
        let (s, n): (u32, u32) = (
            self.board[..self.n].iter().map(|&c| c as u32).sum(),
            self.board[self.n..self.n2].iter().map(|&c| c as u32).sum(),
        );
        self.store[0] += s;
        self.store[1] += n;
        self.board = [0; MAX_HOLES];
    }

    /// Applies a simulated move. Returns false if R2 ended the game.
    #[inline]
    fn commit(&mut self, mover: Side, a: &After) -> bool {
        self.board = a.board;
        self.store = a.store;
        self.moves += 1;
        if a.r2_end {
            self.to_move = mover.other();
            self.over = Some(EndReason::Normal);
            return false;
        }
        true
    }

    /// Repetition check (R10) then cap check, on the resolved position.
    #[inline]
    fn repetition_and_cap(&mut self, store_before: [u32; 2]) {
        if self.store != store_before {
            self.history.clear();
        }
        let key = pack_key(&self.board, self.to_move);
        let occurrences = self.history.record(key);
        if occurrences >= 3 {
            self.sweep_by_side();
            self.over = Some(EndReason::Repetition);
        } else if self.moves >= self.cap {
            self.sweep_by_side();
            self.over = Some(EndReason::Cap);
        }
    }

    pub fn play(&mut self, hole: usize) -> Result<(), &'static str> {
        if self.over.is_some() {
            return Err("game over");
        }
        if hole >= self.n2 {
            return Err("no such hole");
        }
        let mover = self.to_move;
        if !self.own_range(mover).contains(&hole) {
            return Err("not the mover's hole");
        }
        if self.board[hole] == 0 {
            return Err("empty hole");
        }
        let a = self.simulate(mover, hole).ok_or("endless move (R11)")?;
        let store_before = self.store;
        if !self.commit(mover, &a) {
            return Ok(());
        }
        // Resolve passes (R3).
        let next = mover.other();
        if self.has_legal(next) {
            self.to_move = next;
        } else if self.has_legal(mover) {
            self.to_move = mover;
        } else {
            self.to_move = next;
            self.sweep_by_side();
            self.over = Some(EndReason::NoMoves);
            return Ok(());
        }
        self.repetition_and_cap(store_before);
        Ok(())
    }

    /// Uniformly random legal move of `side`, already simulated. Candidates are
    /// drawn without replacement; endless ones are discarded, so the first
    /// terminating one is uniform over the legal moves.
    #[inline]
    fn pick_random(&self, side: Side, rng: &mut u64) -> Option<After> {
        let mut cand = [0u8; 12];
        let mut k = 0;
        for h in self.own_range(side) {
            if self.board[h] != 0 {
                cand[k] = h as u8;
                k += 1;
            }
        }
        while k > 0 {
            let i = below(rng, k);
            let h = cand[i] as usize;
            if let Some(a) = self.simulate(side, h) {
                return Some(a);
            }
            k -= 1;
            cand[i] = cand[k];
        }
        None
    }

    /// Plays uniformly random legal moves to the end; returns the number of moves played.
    pub fn random_playout(&mut self, rng_state: &mut u64) -> u32 {
        if self.over.is_some() {
            return 0;
        }
        let mut count = 0;
        let mut pending = self
            .pick_random(self.to_move, rng_state)
            .expect("resolved player to move has a legal move");
        loop {
            let mover = self.to_move;
            let store_before = self.store;
            count += 1;
            if !self.commit(mover, &pending) {
                break;
            }
            let next = mover.other();
            if let Some(a) = self.pick_random(next, rng_state) {
                self.to_move = next;
                pending = a;
            } else if let Some(a) = self.pick_random(mover, rng_state) {
                self.to_move = mover;
                pending = a;
            } else {
                self.to_move = next;
                self.sweep_by_side();
                self.over = Some(EndReason::NoMoves);
                break;
            }
            self.repetition_and_cap(store_before);
            if self.over.is_some() {
                break;
            }
        }
        count
    }
}
