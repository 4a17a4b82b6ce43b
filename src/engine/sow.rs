//! The interpreter: plays the sowing of one move of a compiled rule program on a position.
//!
//! A move is a run of laps. Each lap lifts a hole and drops its seeds one by one (passing
//! captures are tried after each drop); where the lap ends, in order: a store, a house, the
//! lap-end captures, the lap-end houses, the relay, and — when no relay follows — the
//! move-end captures and houses. A capture may end the move, give another turn, or start a
//! new lap (from the hole after it, or with the capturing seed).

use crate::rules::{
    Base, ChainWay, Condition, Direction, Effect, Endless, GrandSlam, HouseContents, HouseSown,
    LapStart, LastSeedsCheck, OriginSkip, PlaceTest, Recipient, Relay, RowTest, Rules, Side,
    SideTest, SkipLaps, Trigger, MAX_POSITIONS,
};

use super::event::{Event, EventSink};
use super::position::Position;

mod capture;
mod house;

/// Why a move cannot be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// There is no such hole.
    #[error("there is no such hole")]
    NoSuchHole,
    /// The hole is on the opponent's side.
    #[error("it is not the mover's hole")]
    NotOwnHole,
    /// The hole is empty.
    #[error("it is empty")]
    Empty,
    /// The hole holds fewer seeds than a move needs.
    #[error("it holds too few seeds to be played")]
    TooFew,
    /// The hole is closed for this round.
    #[error("it is closed for this round")]
    Closed,
    /// The hole is a house: it is never played.
    #[error("it is a house, which is never played")]
    House,
    /// The hole was played and the opponent has not sown into it since.
    #[error("it is locked until the opponent sows into it")]
    Locked,
    /// The opening (or the rule for a first move) asks for another hole now.
    #[error("the opening asks for another hole now")]
    Opening,
    /// The hole cannot be sown in the direction asked.
    #[error("it cannot be sown in that direction")]
    Direction,
    /// Its relay sowing would never end (R11).
    #[error("its sowing would never end (R11)")]
    Endless,
    /// Its sowing reached the drop cap (R11's safety net).
    #[error("its sowing reached the drop cap")]
    DropCap,
    /// It would capture every seed of the opponent and the rules forbid that.
    #[error("it would capture all the opponent's seeds (grand slam)")]
    GrandSlam,
    /// The opponent's row is empty and this move would not feed it.
    #[error("it does not feed the opponent, whose row is empty")]
    DoesNotFeed,
    /// Its first lap does not end the way the rules ask of a move.
    #[error("its first lap does not end the way the rules ask")]
    MoveFilter,
}

/// What the sowing of one move did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Sown {
    pub laps: u32,
    pub drops: u32,
    pub captures: u32,
    pub captured: u32,
    pub extra_turn: bool,
    /// The extra turn was earned by a capture (for `extra turn, not twice in a row`).
    pub capture_turn: bool,
    pub last_capturer: Option<Side>,
    /// A seed went into the opponent's holes during the first lap.
    pub fed_first_lap: bool,
    /// Where the first lap ended, and the count there then (when a move filter needs it).
    pub first_landing: (u8, u16),
    /// The last-seeds rule fired mid-move, after a capture by `last_capturer`: the seeds still
    /// in hand (off the board until the game awards them). Not a pair with the capturer, so
    /// that a `Sown` with nothing to tell is mostly zeros, cheap to start every sowing with.
    pub last_seeds: Option<u16>,
    /// Never ends, and the rules let it be chosen to end the game (R11 alternative).
    pub endless: bool,
    /// Cut short at the drop cap (`endless moves: stop at cap`).
    pub capped: bool,
    /// A grand slam ended the game, the seeds left going to the player captured from.
    pub grand_slam_ends: bool,
}

/// What the game tells the interpreter about the move.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Context {
    /// The direction the move is sown in.
    pub direction: Direction,
    /// The move's number in the game, from 1.
    pub number: u32,
    /// The move is itself an extra turn earned by a capture.
    pub after_capture_turn: bool,
    /// A first lap about to end in the mover's row ends in the opponent's first hole (Tapata).
    pub last_seed_across: bool,
    /// Seeds sown past the end of the mover's row leave the board (`bear off`).
    pub bear_off: bool,
}

/// Laps played before cycle detection starts; every real move is shorter.
const CYCLE_AFTER_LAPS: u32 = 24;

/// Which rule families the interpreter looks for, fixed at compile time: the variants that
/// use none of the families beyond the sources' own (houses, skipped holes, next-hole relays,
/// move filters, targets and chains beyond the hole, its opposite and a backward run, tests
/// beyond count, side and the opposite count) run a loop that pays nothing for them.
trait Families {
    const RICH: bool;
}

/// The sources' own families only (see `Dispatch::plain`).
struct Plain;

/// Every family.
struct Rich;

impl Families for Plain {
    const RICH: bool = false;
}

impl Families for Rich {
    const RICH: bool = true;
}

/// What follows a lap's end or a capture.
enum Flow {
    /// Sowing goes on as it would have.
    Go,
    /// A new lap from this hole.
    Relay(usize),
    /// The move is over.
    Over,
}

/// Sows `hole` for the player to move, telling what it did in `out`. On `Err` the position
/// and `out` are garbage: callers sow on a copy. `out` is the caller's, so that the engine's
/// turn cache is filled in place.
#[inline]
pub(crate) fn sow<S: EventSink>(
    rules: &Rules,
    pos: &mut Position,
    hole: usize,
    ctx: Context,
    sink: &mut S,
    out: &mut Sown,
) -> Result<(), Refusal> {
    if rules.dispatch.plain {
        sow_with::<S, Plain>(rules, pos, hole, ctx, sink, out)
    } else {
        sow_with::<S, Rich>(rules, pos, hole, ctx, sink, out)
    }
}

// Forced inline: the sowing loop, instantiated per event sink and rule families; a call of
// its own slows every loop (docs/speed.md, "Inlining the engine keeps").
#[inline(always)]
fn sow_with<S: EventSink, F: Families>(
    rules: &Rules,
    pos: &mut Position,
    hole: usize,
    ctx: Context,
    sink: &mut S,
    out: &mut Sown,
) -> Result<(), Refusal> {
    let mover = pos.to_move;
    // Bearing off is only another table: the loop itself never looks for it.
    let tables = if ctx.bear_off {
        &rules.geometry.bear_off
    } else {
        &rules.geometry.next
    };
    *out = Sown {
        laps: 1,
        ..Sown::default()
    };
    Sower::<S, F> {
        families: std::marker::PhantomData,
        rules,
        next: &tables[ctx.direction.index()][mover.index()],
        ctx,
        pos,
        sink,
        out,
    }
    .sow(hole)
}

struct Sower<'a, S, F> {
    families: std::marker::PhantomData<F>,
    rules: &'a Rules,
    pos: &'a mut Position,
    sink: &'a mut S,
    /// Where each seed goes after each position, for this mover and direction.
    next: &'a [u8; MAX_POSITIONS],
    ctx: Context,
    out: &'a mut Sown,
}

impl<S: EventSink, F: Families> Sower<'_, S, F> {
    /// The direction's index in the geometry tables.
    fn d(&self) -> usize {
        self.ctx.direction.index()
    }

    /// The player sowing.
    fn mover(&self) -> Side {
        self.pos.to_move
    }

    // Forced inline: without it, and with `Game::commit` left to the compiler, the loop of two
    // random agents ran slower (docs/speed.md, "Inlining the engine keeps").
    #[inline(always)]
    fn sow(&mut self, hole: usize) -> Result<(), Refusal> {
        let rules = self.rules;
        let sowing = &rules.program.sowing;
        let dispatch = &rules.dispatch;
        let stop_at_cap = rules.program.ending.endless == Endless::StopAtCap;
        let watch = dispatch.watch_drops;
        let opponent = self.pos.owned(self.mover().other());
        // The positions a lap may visit, so that skipping never leaves nowhere to sow.
        let ring = rules.geometry.ring;

        let mut origin = hole;
        let mut hand = self.lift(hole);
        let mut at = hole;
        if F::RICH && sowing.lock_played {
            self.pos.locked |= 1 << hole;
        }
        // Made only for moves long enough to need it.
        let mut cycle: Option<Cycle> = None;
        loop {
            let mut skip = self.pos.closed;
            if let OriginSkip::FromSeeds(min, laps) = sowing.origin_skip {
                if hand >= min && (laps == SkipLaps::Every || self.out.laps == 1) {
                    skip |= 1 << origin;
                    // Never skip the only place left to sow.
                    if ring & !skip == 0 {
                        skip &= !(1 << origin);
                    }
                }
            }
            // The drop cap is checked once per lap: a lap that would reach it is refused, or,
            // when the rules say so, cut short with the rest of its seeds put back where it
            // began.
            let mut capped = false;
            if self.out.drops + u32::from(hand) >= sowing.drop_cap {
                if !stop_at_cap {
                    return Err(Refusal::DropCap);
                }
                let allowed = (sowing.drop_cap - self.out.drops) as u16;
                self.pos.seeds[origin] += hand - allowed;
                hand = allowed;
                capped = true;
                self.out.capped = true;
            }
            self.out.drops += u32::from(hand);
            // The first seed goes back into the lifted hole, where the rules say so.
            let back = match sowing.lap_start {
                LapStart::NextHole => false,
                LapStart::LiftedHole => true,
                LapStart::LiftedHoleSingleMovesOn => hand > 1,
            };
            // Once a lap has gone round (every position it may visit, once), the rest of it
            // goes to the opponent's holes only, where the rules say so.
            let mut round = if F::RICH && sowing.opponent_after_round {
                (ring & !skip).count_ones()
            } else {
                u32::MAX
            };
            if back && hand > 0 {
                at = origin;
                hand -= 1;
                if self.drop(at, hand, opponent, watch)? {
                    return Ok(());
                }
            }
            while hand > 0 {
                at = usize::from(self.next[at]);
                while skip >> at & 1 == 1 {
                    at = usize::from(self.next[at]);
                }
                if F::RICH && sowing.skip_holes.is_some() {
                    at = self.pass_skipped(at, hand, skip);
                }
                if F::RICH && hand == 1 && self.ctx.last_seed_across && self.out.laps == 1 {
                    at = self.across(at);
                }
                if F::RICH {
                    round = round.saturating_sub(1);
                    if round == 0 {
                        skip |= ring & !opponent;
                        if ring & !skip == 0 {
                            skip = self.pos.closed;
                        }
                    }
                }
                hand -= 1;
                if self.drop(at, hand, opponent, watch)? {
                    return Ok(());
                }
            }
            if F::RICH && self.out.laps == 1 {
                self.out.first_landing = (at as u8, self.pos.seeds[at]);
            }
            if capped {
                return Ok(());
            }
            match self.lap_end(at)? {
                Flow::Relay(h) => {
                    self.out.laps += 1;
                    hand = self.lift(h);
                    origin = h;
                    at = h;
                    if self.out.laps > CYCLE_AFTER_LAPS
                        && !stop_at_cap
                        && cycle
                            .get_or_insert_with(Cycle::default)
                            .seen(self.pos, hand, at)
                    {
                        return Err(Refusal::Endless);
                    }
                }
                Flow::Go | Flow::Over => return Ok(()),
            }
        }
    }

    /// Lifts every seed of `hole` to start lap `out.laps`; returns them.
    fn lift(&mut self, hole: usize) -> u16 {
        let hand = self.pos.seeds[hole];
        self.pos.seeds[hole] = 0;
        self.sink.event(Event::Lift {
            lap: self.out.laps,
            hole,
            seeds: hand,
        });
        hand
    }

    /// Drops a seed into `at` with `hand` seeds still to sow, and looks at what the rules
    /// watch after a drop. Returns whether the move is over (the last seeds were awarded).
    // Forced inline: called for every seed dropped (docs/speed.md, "Inlining the engine keeps").
    #[inline(always)]
    fn drop(&mut self, at: usize, hand: u16, opponent: u64, watch: bool) -> Result<bool, Refusal> {
        self.pos.seeds[at] += 1;
        self.sink.event(Event::Drop {
            at,
            count: self.pos.seeds[at],
        });
        if !watch || at >= self.rules.geometry.holes {
            return Ok(false);
        }
        let dispatch = &self.rules.dispatch;
        if F::RICH {
            if dispatch.houses && self.pos.houses >> at & 1 == 1 {
                self.sow_into_house(at);
                return Ok(false);
            }
            // The opponent's seed frees a hole its owner had locked by playing it.
            if self.pos.locked >> at & 1 == 1 && self.pos.owner(at) != self.mover() {
                self.pos.locked &= !(1 << at);
            }
        }
        if dispatch.track_first_lap && self.out.laps == 1 && opponent >> at & 1 == 1 {
            self.out.fed_first_lap = true;
        }
        if hand == 0 || !dispatch.passing_counts.passes(self.pos.seeds[at]) {
            return Ok(false);
        }
        let passing = &dispatch.passing;
        Ok(matches!(
            self.captures(passing, at, hand)?,
            Some(Flow::Over)
        ))
    }

    /// From `at`, the first position the sowing does not pass over (holes holding the counts
    /// the rules skip), never going round more than once.
    // Kept out of line: inlined, it made the sowing loop of every rich variant slower, those
    // that skip no hole too (Hoyito I +2.8% instructions a move; docs/speed.md).
    #[inline(never)]
    fn pass_skipped(&self, mut at: usize, hand: u16, skip: u64) -> usize {
        let Some(rule) = self.rules.program.sowing.skip_holes else {
            return at;
        };
        if (rule.except_last && hand == 1) || (rule.except_first_move && self.ctx.number == 1) {
            return at;
        }
        let rows = match rule.row {
            RowTest::Either => u64::MAX,
            RowTest::Mover => self.pos.owned(self.mover()),
            RowTest::Opponent => self.pos.owned(self.mover().other()),
        };
        let first = at;
        while at < self.rules.geometry.holes
            && rows >> at & 1 == 1
            && rule.count.passes(self.pos.seeds[at])
        {
            at = usize::from(self.next[at]);
            while skip >> at & 1 == 1 {
                at = usize::from(self.next[at]);
            }
            if at == first {
                break;
            }
        }
        at
    }

    /// Where a lap ends: a store, a house, captures, houses made, the relay, and the captures
    /// of the move's last seed.
    // Forced inline: called for every lap; a call slowed Ayoayo's relay sowing most
    // (docs/speed.md, "Inlining the engine keeps").
    #[inline(always)]
    fn lap_end(&mut self, at: usize) -> Result<Flow, Refusal> {
        let rules = self.rules;
        let dispatch = &rules.dispatch;
        // The landing hole's count, read again after what may change it.
        let mut count = self.pos.seeds[at];
        self.sink.event(Event::Land { at, count });
        let g = &rules.geometry;
        if at >= g.holes {
            if at == g.store(self.mover()) && rules.program.sowing.store_extra_turn {
                self.extra_turn(false);
            }
            return Ok(Flow::Over);
        }
        if F::RICH && dispatch.houses && self.pos.houses >> at & 1 == 1 {
            return Ok(self.raid(at));
        }
        if dispatch.lap_end_counts.passes(count) {
            match self.captures(&dispatch.lap_end, at, 0)? {
                Some(Flow::Go) | None => {}
                Some(flow) => return Ok(flow),
            }
            count = self.pos.seeds[at];
        }
        if F::RICH && dispatch.houses {
            if let Some(flow) = self.houses(Trigger::LapEnd, at) {
                return Ok(flow);
            }
            count = self.pos.seeds[at];
        }
        if dispatch.relay_counts.passes(count) {
            if dispatch.relay_by_count {
                return Ok(Flow::Relay(at));
            }
            match &rules.program.sowing.relay {
                Relay::Never => {}
                Relay::Landing(c) => {
                    // An emptied landing hole has nothing to relay.
                    if count > 0 && self.holds(c, at) {
                        return Ok(Flow::Relay(at));
                    }
                }
                Relay::NextHole if F::RICH => {
                    let n = self.next_open(at);
                    if self.pos.seeds[n] > 0 && self.pos.houses >> n & 1 == 0 {
                        return Ok(Flow::Relay(n));
                    }
                }
                Relay::NextHole => unreachable!("a next-hole relay is not plain"),
            }
        }
        if dispatch.move_end_counts.passes(count) {
            if let Some(flow) = self.captures(&dispatch.move_end, at, 0)? {
                return Ok(flow);
            }
        }
        if F::RICH && dispatch.houses {
            if let Some(flow) = self.houses(Trigger::MoveEnd, at) {
                return Ok(flow);
            }
        }
        Ok(Flow::Over)
    }

    fn extra_turn(&mut self, by_capture: bool) {
        self.out.extra_turn = true;
        self.out.capture_turn = by_capture;
        self.sink.event(Event::ExtraTurn);
    }

    /// Where a last seed bound for `at` goes under Tapata's first move: from the mover's own
    /// row to the first hole of the opponent's.
    fn across(&self, at: usize) -> usize {
        let g = &self.rules.geometry;
        let theirs = self.pos.owned(self.mover().other());
        let first = g.first_holes[self.d()] & theirs;
        if at < g.holes && theirs >> at & 1 == 0 && first != 0 {
            first.trailing_zeros() as usize
        } else {
            at
        }
    }

    /// The hole after `h` in the direction of sowing, closed holes passed over.
    #[inline]
    fn next_open(&self, h: usize) -> usize {
        let following = &self.rules.geometry.following[self.d()];
        let mut p = usize::from(following[h]);
        while self.pos.closed >> p & 1 == 1 && p != h {
            p = usize::from(following[p]);
        }
        p
    }
}

/// Brent's cycle detection over the states at the start of each lap (R11): the sowing is a
/// deterministic function of (seeds everywhere, seeds in hand, hole lifted), so a repeated
/// state means the move can never end. Constant memory, and it runs only for long moves.
#[derive(Default)]
struct Cycle {
    saved: Option<([u16; MAX_POSITIONS], u16, usize)>,
    power: u32,
    steps: u32,
}

impl Cycle {
    fn seen(&mut self, pos: &Position, hand: u16, at: usize) -> bool {
        if let Some((seeds, h, a)) = &self.saved {
            if *h == hand && *a == at && *seeds == pos.seeds {
                return true;
            }
        }
        self.steps += 1;
        if self.saved.is_none() || self.steps >= self.power {
            self.saved = Some((pos.seeds, hand, at));
            self.power = (self.power * 2).max(1);
            self.steps = 0;
        }
        false
    }
}
