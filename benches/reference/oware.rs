//! Oware (Abapa, as in standard references), with readings R3 and R10.
//!
//! * 2 x N (normally 6) holes, 4 seeds each; captures go to stores, which are
//!   never sown.
//! * A move lifts all seeds of one non-empty own hole and sows them one per
//!   hole counterclockwise (increasing index, wrapping), single lap, starting
//!   with the next hole; the origin hole is skipped whenever the sowing comes
//!   round to it (12+ seeds on 2 x 6).
//! * Capture: the last seed lands in an opponent hole making it 2 or 3; that
//!   hole and the unbroken run of opponent holes just before it (decreasing
//!   index, not leaving the opponent's row) holding 2 or 3 are captured.
//! * Grand slam: a capture that would take every seed on the opponent's side
//!   captures nothing (the move is legal).
//! * Feeding: if the opponent's row is empty at the start of a turn, only
//!   moves that leave the opponent at least one seed are legal; if the player
//!   to move has seeds but none of them feeds, the game ends (Normal) and the
//!   player to move takes all remaining seeds.
//! * The game ends (Normal) when a player has captured more than half of all
//!   seeds, or both exactly half; seeds left on the board go to the owner of
//!   the side they lie on.
//! * R3: no legal move -> pass; neither player -> NoMoves (swept by side).
//! * R10: third occurrence of (board, captured totals, player to move) ->
//!   Repetition; after the 2000th move -> Cap; board swept by side.

use super::{below, pack_key, RepHistory, MAX_HOLES, MOVE_CAP};
pub use super::{EndReason, Side};

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

/// How the start-of-turn resolution came out.
enum Turn {
    Moves(Side),
    Ended,
}

impl Game {
    /// Start position: `holes_per_row` holes per row (normally 6), 4 seeds each, South to move.
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
    /// move; the start-of-turn rules (feeding end, passes) are applied and the
    /// position becomes the first occurrence for the repetition rule. The win
    /// threshold is half of (board + stores). Move counter starts at 0.
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
        if g.check_score_end() {
            return g;
        }
        // Start of turn for the nominal player: like the start of a turn after
        // a move by the other side.
        if let Turn::Moves(s) = g.start_of_turn(to_move) {
            g.to_move = s;
            let key = pack_key(&g.board, s);
            g.history.record(key);
        }
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
    /// Player who will actually choose next (passes resolved). After a Normal
    /// end by score or NoMoves this is the opponent of the last mover; after an
    /// unfeedable end it is the player who took the remaining seeds; after
    /// Cap/Repetition it is the resolved next player.
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

    #[inline(always)]
    fn lo(&self, side: Side) -> usize {
        side.index() * self.n
    }

    #[inline]
    fn row_sum(&self, side: Side) -> u32 {
        let lo = self.lo(side);
        self.board[lo..lo + self.n].iter().map(|&c| c as u32).sum()
    }

    /// Does sowing own hole `h` (non-empty) put at least one seed on the
    /// opponent's side? With the grand-slam rule a capture can never empty the
    /// opponent's row, so this is exactly "leaves the opponent at least one
    /// seed after the whole move" when the opponent's row is empty.
    #[inline(always)]
    fn feeds(&self, side: Side, h: usize) -> bool {
        // distance from h to the first hole of the opponent's row
        let dist = self.lo(side) + self.n - h;
        self.board[h] as usize >= dist
    }

    /// Legal moves of `side` into `out`; returns their number.
    #[inline]
    fn legal_into(&self, side: Side, out: &mut [u8; 12]) -> usize {
        let lo = self.lo(side);
        let must_feed = self.row_sum(side.other()) == 0;
        let mut k = 0;
        for h in lo..lo + self.n {
            if self.board[h] != 0 && (!must_feed || self.feeds(side, h)) {
                out[k] = h as u8;
                k += 1;
            }
        }
        k
    }

    pub fn legal_moves(&self) -> Vec<usize> {
        if self.over.is_some() {
            return Vec::new();
        }
        let mut out = [0u8; 12];
        let k = self.legal_into(self.to_move, &mut out);
        out[..k].iter().map(|&h| h as usize).collect()
    }

    fn sweep_by_side(&mut self) {
        let s = self.row_sum(Side::South);
        let n = self.row_sum(Side::North);
        self.store[0] += s;
        self.store[1] += n;
        self.board = [0; MAX_HOLES];
    }

    /// Score end: more than half captured, or both exactly half.
    #[inline]
    fn check_score_end(&mut self) -> bool {
        let (s, n, t) = (2 * self.store[0], 2 * self.store[1], self.total);
        if s > t || n > t || (s == t && n == t) {
            self.sweep_by_side();
            self.over = Some(EndReason::Normal);
            return true;
        }
        false
    }

    /// Start-of-turn rules for `side` (nominal player to move): unfeedable
    /// opponent ends the game; no legal move passes to the other; neither -> NoMoves.
    #[inline]
    fn start_of_turn(&mut self, side: Side) -> Turn {
        for cand in [side, side.other()] {
            let own = self.row_sum(cand);
            if own == 0 {
                continue; // no legal move: pass (R3)
            }
            if self.row_sum(cand.other()) == 0 {
                let lo = self.lo(cand);
                if !(lo..lo + self.n).any(|h| self.board[h] != 0 && self.feeds(cand, h)) {
                    // Cannot feed: game ends, player to move takes all remaining seeds.
                    self.to_move = cand;
                    self.store[cand.index()] += own;
                    self.board = [0; MAX_HOLES];
                    self.over = Some(EndReason::Normal);
                    return Turn::Ended;
                }
            }
            return Turn::Moves(cand);
        }
        self.to_move = side;
        self.sweep_by_side();
        self.over = Some(EndReason::NoMoves);
        Turn::Ended
    }

    /// Sows `hole` for `mover` and applies the capture (with grand slam rule).
    #[inline]
    fn apply(&mut self, mover: Side, hole: usize) {
        let n2 = self.n2;
        let b = &mut self.board;
        let mut hand = b[hole] as u32;
        b[hole] = 0;
        let mut pos = hole;
        while hand > 0 {
            pos += 1;
            if pos == n2 {
                pos = 0;
            }
            if pos == hole {
                continue; // origin skipped
            }
            b[pos] += 1;
            hand -= 1;
        }
        let opp_lo = mover.other().index() * self.n;
        let opp_hi = opp_lo + self.n;
        if pos >= opp_lo && pos < opp_hi && matches!(b[pos], 2 | 3) {
            let mut lo = pos + 1;
            let mut sum: u32 = 0;
            while lo > opp_lo && matches!(b[lo - 1], 2 | 3) {
                lo -= 1;
                sum += b[lo] as u32;
            }
            let opp_total: u32 = b[opp_lo..opp_hi].iter().map(|&c| c as u32).sum();
            if sum < opp_total {
                for c in &mut b[lo..=pos] {
                    *c = 0;
                }
                self.store[mover.index()] += sum;
            }
            // else: grand slam, nothing captured
        }
        self.moves += 1;
    }

    /// Everything after the sowing: score end, start of next turn, repetition, cap.
    #[inline]
    fn after_move(&mut self, mover: Side, store_before: [u32; 2]) {
        if self.store != store_before && self.check_score_end() {
            self.to_move = mover.other();
            return;
        }
        match self.start_of_turn(mover.other()) {
            Turn::Ended => {}
            Turn::Moves(s) => {
                self.to_move = s;
                if self.store != store_before {
                    self.history.clear();
                }
                let key = pack_key(&self.board, s);
                let occurrences = self.history.record(key);
                if occurrences >= 3 {
                    self.sweep_by_side();
                    self.over = Some(EndReason::Repetition);
                } else if self.moves >= self.cap {
                    self.sweep_by_side();
                    self.over = Some(EndReason::Cap);
                }
            }
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
        let lo = self.lo(mover);
        if hole < lo || hole >= lo + self.n {
            return Err("not the mover's hole");
        }
        if self.board[hole] == 0 {
            return Err("empty hole");
        }
        if self.row_sum(mover.other()) == 0 && !self.feeds(mover, hole) {
            return Err("move does not feed the opponent");
        }
        let store_before = self.store;
        self.apply(mover, hole);
        self.after_move(mover, store_before);
        Ok(())
    }

    /// Plays uniformly random legal moves to the end; returns the number of moves played.
    pub fn random_playout(&mut self, rng_state: &mut u64) -> u32 {
        let mut count = 0;
        let mut cand = [0u8; 12];
        while self.over.is_none() {
            let mover = self.to_move;
            let k = self.legal_into(mover, &mut cand);
            debug_assert!(k > 0);
            let h = cand[below(rng_state, k)] as usize;
            let store_before = self.store;
            self.apply(mover, h);
            self.after_move(mover, store_before);
            count += 1;
        }
        count
    }
}
