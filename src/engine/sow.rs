//! The interpreter: plays the sowing of one move of a compiled rule program on a position.

use crate::rules::{
    Condition, Effect, Endless, GrandSlam, LapStart, LastSeedsCheck, OppositeTest, OriginSkip,
    Recipient, Rules, Side, SideTest, SkipLaps, MAX_POSITIONS,
};

use super::event::{Event, EventSink};
use super::position::Position;

/// Why a hole cannot be played.
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
    /// The hole is closed for this round.
    #[error("it is closed for this round")]
    Closed,
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
}

/// What the sowing of one move did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Sown {
    pub laps: u32,
    pub drops: u32,
    pub captures: u32,
    pub captured: u32,
    pub extra_turn: bool,
    pub last_capturer: Option<Side>,
    /// A seed went into the opponent's row during the first lap.
    pub fed_first_lap: bool,
    /// The last-seeds rule fired mid-move: the capturer, and the seeds still in hand (off the
    /// board until the game awards them).
    pub last_seeds: Option<(Side, u16)>,
    /// Never ends, and the rules let it be chosen to end the game (R11 alternative).
    pub endless: bool,
    /// Cut short at the drop cap (`endless moves: stop at cap`).
    pub capped: bool,
}

/// Laps played before cycle detection starts; every real move is shorter.
const CYCLE_AFTER_LAPS: u32 = 24;

/// Sows `hole` for the player to move. On `Err` the position is garbage: callers sow on a copy.
#[inline]
pub(crate) fn sow<S: EventSink>(
    rules: &Rules,
    pos: &mut Position,
    hole: usize,
    sink: &mut S,
) -> Result<Sown, Refusal> {
    let program = &rules.program;
    let g = &rules.geometry;
    let sowing = &program.sowing;
    let dispatch = &rules.dispatch;
    let mover = pos.to_move;
    let next = &g.next[mover.index()];
    let own_store = g.store(mover);
    let opponent_row = g.side_mask[mover.other().index()];
    let sown_stores = dispatch.sown_stores;
    let ring = g.hole_mask | u64::from(sown_stores) << own_store;
    let stop_at_cap = program.ending.endless == Endless::StopAtCap;
    let track_first_lap = dispatch.track_first_lap;
    let watch = dispatch.watch_drops;

    let mut out = Sown {
        laps: 1,
        ..Sown::default()
    };
    let mut origin = hole;
    let mut hand = pos.seeds[hole];
    pos.seeds[hole] = 0;
    sink.event(Event::Lift {
        lap: 1,
        hole,
        seeds: hand,
    });
    let mut at = hole;
    // Made only for moves long enough to need it.
    let mut cycle: Option<Cycle> = None;
    let mut ended = false;

    let origin_skip = match sowing.origin_skip {
        OriginSkip::Never => None,
        OriginSkip::FromSeeds(min, laps) => Some((min, laps)),
    };

    'sowing: loop {
        let mut skip = pos.closed;
        if let Some((min, laps)) = origin_skip {
            if hand >= min && (laps == SkipLaps::Every || out.laps == 1) {
                skip |= 1 << origin;
                // Never skip the only place left to sow.
                if ring & !skip == 0 {
                    skip &= !(1 << origin);
                }
            }
        }
        if sowing.lap_start == LapStart::LiftedHole {
            // Step back to the position whose successor is the origin, so the first seed
            // goes back into the hole just lifted.
            at = (0..MAX_POSITIONS)
                .find(|&p| ring >> p & 1 == 1 && usize::from(next[p]) == origin)
                .unwrap_or(origin);
        }
        // The drop cap is checked once per lap: a lap that would reach it is refused, or,
        // when the rules say so, cut short with the rest of its seeds put back where it began.
        let mut capped = false;
        if out.drops + u32::from(hand) >= sowing.drop_cap {
            if !stop_at_cap {
                return Err(Refusal::DropCap);
            }
            let allowed = (sowing.drop_cap - out.drops) as u16;
            pos.seeds[origin] += hand - allowed;
            hand = allowed;
            capped = true;
            out.capped = true;
        }
        out.drops += u32::from(hand);
        while hand > 0 {
            at = usize::from(next[at]);
            while skip >> at & 1 == 1 {
                at = usize::from(next[at]);
            }
            pos.seeds[at] += 1;
            hand -= 1;
            sink.event(Event::Drop {
                at,
                count: pos.seeds[at],
            });
            if !watch || (sown_stores && at >= g.holes) {
                continue;
            }
            if track_first_lap && out.laps == 1 && opponent_row >> at & 1 == 1 {
                out.fed_first_lap = true;
            }
            let (rules_here, counts) = if hand > 0 {
                (&dispatch.passing, dispatch.passing_counts)
            } else {
                (&dispatch.lap_end, dispatch.lap_end_counts)
            };
            if !counts.passes(pos.seeds[at]) {
                continue;
            }
            for &c in rules_here {
                let Some(effect) = capture(rules, pos, c, at, mover, &mut out, sink)? else {
                    continue;
                };
                if last_seeds_reached(rules, pos, hand, &mut out) {
                    // The lap was counted whole at its start; these seeds were never dropped.
                    out.drops -= u32::from(hand);
                    return Ok(out);
                }
                match effect {
                    Effect::Continue => {}
                    Effect::EndSowing => ended = true,
                    Effect::ExtraTurn => {
                        ended = true;
                        out.extra_turn = true;
                        sink.event(Event::ExtraTurn);
                    }
                }
                break;
            }
            if ended {
                break 'sowing;
            }
        }
        if capped {
            ended = true;
            break;
        }
        sink.event(Event::Land {
            at,
            count: pos.seeds[at],
        });
        if at >= g.holes {
            if at == own_store && sowing.store_extra_turn {
                out.extra_turn = true;
                sink.event(Event::ExtraTurn);
            }
            return Ok(out);
        }
        match &sowing.relay {
            Some(relay) if pos.seeds[at] > 0 && holds(relay, pos, rules, at, mover) => {
                hand = pos.seeds[at];
                pos.seeds[at] = 0;
                origin = at;
                out.laps += 1;
                sink.event(Event::Lift {
                    lap: out.laps,
                    hole: at,
                    seeds: hand,
                });
                if out.laps > CYCLE_AFTER_LAPS
                    && !stop_at_cap
                    && cycle.get_or_insert_with(Cycle::default).seen(pos, hand, at)
                {
                    return Err(Refusal::Endless);
                }
            }
            _ => break,
        }
    }
    if !ended {
        for &c in &dispatch.move_end {
            if capture(rules, pos, c, at, mover, &mut out, sink)?.is_some() {
                if last_seeds_reached(rules, pos, 0, &mut out) {
                    return Ok(out);
                }
                if program.captures[c].effect == Effect::ExtraTurn {
                    out.extra_turn = true;
                    sink.event(Event::ExtraTurn);
                }
                break;
            }
        }
    }
    Ok(out)
}

/// Whether `hole` meets `condition` for `mover`, with the hole's current count.
#[inline(always)]
pub(crate) fn holds(
    condition: &Condition,
    pos: &Position,
    rules: &Rules,
    hole: usize,
    mover: Side,
) -> bool {
    let g = &rules.geometry;
    condition.count.passes(pos.seeds[hole])
        && match condition.side {
            SideTest::Any => true,
            SideTest::Own => g.side_mask[mover.index()] >> hole & 1 == 1,
            SideTest::Opponent => g.side_mask[mover.other().index()] >> hole & 1 == 1,
        }
        && match condition.opposite {
            OppositeTest::Any => true,
            OppositeTest::Empty => pos.seeds[usize::from(g.opposite[hole])] == 0,
            OppositeTest::Occupied => pos.seeds[usize::from(g.opposite[hole])] > 0,
        }
}

/// Tries capture rule `index` on the hole just sown into; returns its effect if it took seeds.
#[inline]
fn capture<S: EventSink>(
    rules: &Rules,
    pos: &mut Position,
    index: usize,
    hole: usize,
    mover: Side,
    out: &mut Sown,
    sink: &mut S,
) -> Result<Option<Effect>, Refusal> {
    let rule = &rules.program.captures[index];
    if !holds(&rule.condition, pos, rules, hole, mover) {
        return Ok(None);
    }
    let g = &rules.geometry;
    let target = if rule.target.opposite {
        usize::from(g.opposite[hole])
    } else {
        hole
    };
    let mut taken = 1u64 << target;
    if let Some(chain) = &rule.target.chain {
        let mut p = usize::from(g.previous[target]);
        while p != target && holds(chain, pos, rules, p, mover) {
            taken |= 1 << p;
            p = usize::from(g.previous[p]);
        }
    }
    let capturing_seed = u16::from(rule.target.opposite && rule.target.with_capturing_seed);
    let seeds = sum(pos, taken) + capturing_seed;
    if seeds == 0 {
        return Ok(None);
    }
    if rule.grand_slam != GrandSlam::Captures {
        let opponent = g.side_mask[mover.other().index()];
        let on_their_side = sum(pos, opponent);
        if on_their_side > 0 && sum(pos, taken & opponent) == on_their_side {
            if rule.grand_slam == GrandSlam::Forbidden {
                return Err(Refusal::GrandSlam);
            }
            sink.event(Event::GrandSlam { rule: index });
            return Ok(None);
        }
    }
    let to = match rule.recipient {
        Recipient::Mover => mover,
        Recipient::Owner => g.owner(target),
    };
    let store = g.store(to);
    let mut holes = taken;
    while holes != 0 {
        let p = holes.trailing_zeros() as usize;
        holes &= holes - 1;
        pos.seeds[store] += pos.seeds[p];
        pos.seeds[p] = 0;
    }
    if capturing_seed == 1 {
        pos.seeds[hole] -= 1;
        pos.seeds[store] += 1;
        taken |= 1 << hole;
    }
    out.captures += 1;
    out.captured += u32::from(seeds);
    out.last_capturer = Some(to);
    sink.event(Event::Capture {
        rule: index,
        holes: taken,
        seeds,
        to,
    });
    Ok(Some(rule.effect))
}

/// R2 checked after a capture: records it in `out` when it fires.
#[inline]
fn last_seeds_reached(rules: &Rules, pos: &Position, hand: u16, out: &mut Sown) -> bool {
    let Some(rule) = rules.program.ending.last_seeds else {
        return false;
    };
    if rule.check != LastSeedsCheck::AfterCapture {
        return false;
    }
    let stores: u32 = pos.stores().iter().map(|&s| u32::from(s)).sum();
    let in_play = rules.total - stores;
    if in_play > u32::from(rule.at_most) {
        return false;
    }
    out.last_seeds = out.last_capturer.map(|side| (side, hand));
    true
}

#[inline(always)]
fn sum(pos: &Position, mut mask: u64) -> u16 {
    let mut total = 0;
    while mask != 0 {
        total += pos.seeds[mask.trailing_zeros() as usize];
        mask &= mask - 1;
    }
    total
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
