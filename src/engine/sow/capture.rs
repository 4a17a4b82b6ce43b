//! Captures as a sowing meets them: the rules tried in order, their conditions, what they
//! take, and the last seeds of the game taken in passing.

use super::*;

impl<S: EventSink, F: Families> Sower<'_, S, F> {
    /// Tries the capture rules `list` (in order) on hole `at`, `hand` seeds still to sow; the
    /// first that takes seeds decides what follows.
    pub(super) fn captures(
        &mut self,
        list: &[usize],
        at: usize,
        hand: u16,
    ) -> Result<Option<Flow>, Refusal> {
        for &index in list {
            let rule = &self.rules.program.captures[index];
            if F::RICH && self.ctx.number < rule.from_move {
                continue;
            }
            let Some(last) = self.capture(index, at)? else {
                continue;
            };
            if self.last_seeds_reached(hand) {
                // The lap was counted whole at its start; these seeds were never dropped.
                self.out.drops -= u32::from(hand);
                return Ok(Some(Flow::Over));
            }
            return Ok(Some(match rule.effect {
                Effect::Continue => Flow::Go,
                Effect::ContinueThenExtraTurn => {
                    if !self.out.extra_turn {
                        self.extra_turn(true);
                    }
                    Flow::Go
                }
                Effect::EndSowing => Flow::Over,
                Effect::ExtraTurn => {
                    self.extra_turn(true);
                    Flow::Over
                }
                Effect::ExtraTurnOnce => {
                    if !self.ctx.after_capture_turn {
                        self.extra_turn(true);
                    }
                    Flow::Over
                }
                Effect::ContinueFromNext => {
                    let n = self.next_open(last);
                    if self.pos.seeds[n] > 0 && self.pos.houses >> n & 1 == 0 {
                        Flow::Relay(n)
                    } else {
                        Flow::Over
                    }
                }
                Effect::SeedMovesOn => Flow::Relay(at),
            }));
        }
        Ok(None)
    }

    /// Tries capture rule `index` on hole `at`; returns the last hole taken (in the sowing
    /// direction) if it took seeds.
    pub(super) fn capture(&mut self, index: usize, at: usize) -> Result<Option<usize>, Refusal> {
        let rule = &self.rules.program.captures[index];
        if !self.holds(&rule.condition, at) {
            return Ok(None);
        }
        let g = &self.rules.geometry;
        let opposite = |h: usize| usize::from(g.opposite[h]);
        if !F::RICH {
            return self.take_plain(index, at);
        }
        let first = match rule.target.base {
            Base::Hole | Base::HoleAndOpposite | Base::Every(_) => at,
            Base::Opposite => opposite(at),
            Base::Next => self.next_open(at),
            Base::AfterNext | Base::AfterNextAndOpposite => {
                let n = self.next_open(at);
                self.next_open(n)
            }
            Base::OppositeOfNext => opposite(self.next_open(at)),
        };
        let mut taken = 1u64 << first;
        let mut last = first;
        // What a capture takes beyond its first hole (the hole across from the hole after
        // next, a chain) goes with that hole: an empty one takes nothing and starts no chain,
        // as two empty holes end a Pallanguzhi-family sowing with no capture.
        let started = self.pos.seeds[first] > 0;
        match rule.target.base {
            Base::HoleAndOpposite => taken |= 1 << opposite(at),
            Base::AfterNextAndOpposite if started => taken |= 1 << opposite(first),
            Base::Every(c) => {
                taken = 0;
                for h in 0..g.holes {
                    if self.pos.seeds[h] > 0 && self.holds(&c, h) {
                        taken |= 1 << h;
                    }
                }
            }
            _ => {}
        }
        if let Some(chain) = rule.target.chain.as_ref().filter(|_| started) {
            let limit = if chain.limit == 0 {
                u8::MAX
            } else {
                chain.limit
            };
            let run = |step: &[u8; MAX_POSITIONS], taken: &mut u64| {
                let mut p = usize::from(step[first]);
                let mut n = 0;
                while p != first && n < limit && self.holds(&chain.condition, p) {
                    *taken |= 1 << p;
                    n += 1;
                    p = usize::from(step[p]);
                }
            };
            match chain.way {
                ChainWay::Backward => run(&g.preceding[self.d()], &mut taken),
                ChainWay::Forward => run(&g.following[self.d()], &mut taken),
                ChainWay::Both => {
                    run(&g.preceding[self.d()], &mut taken);
                    run(&g.following[self.d()], &mut taken);
                }
                ChainWay::AcrossEmpty => {
                    // Over an empty hole to the occupied one after it, again and again.
                    let mut n = 0;
                    loop {
                        let empty = self.next_open(last);
                        let beyond = self.next_open(empty);
                        if n >= limit
                            || self.pos.seeds[empty] != 0
                            || self.pos.seeds[beyond] == 0
                            || taken >> beyond & 1 == 1
                        {
                            break;
                        }
                        taken |= 1 << beyond;
                        last = beyond;
                        n += 1;
                    }
                }
            }
            if matches!(chain.way, ChainWay::Forward | ChainWay::Both) {
                // The furthest hole taken along the sowing direction.
                let mut p = first;
                while taken >> usize::from(g.following[self.d()][p]) & 1 == 1
                    && usize::from(g.following[self.d()][p]) != first
                {
                    p = usize::from(g.following[self.d()][p]);
                }
                last = p;
            }
        }
        Ok(self.take(index, at, first, taken)?.map(|_| last))
    }

    /// [`Sower::capture`] for the plain families: the hole or the one opposite, and a
    /// backward chain.
    pub(super) fn take_plain(&mut self, index: usize, at: usize) -> Result<Option<usize>, Refusal> {
        let rule = &self.rules.program.captures[index];
        let g = &self.rules.geometry;
        let first = if rule.target.base == Base::Opposite {
            usize::from(g.opposite[at])
        } else {
            at
        };
        let mut taken = 1u64 << first;
        // No chain from an empty first hole (an empty opposite), as in `Sower::capture`.
        let started = self.pos.seeds[first] > 0;
        if let Some(chain) = rule.target.chain.as_ref().filter(|_| started) {
            let step = &g.preceding[self.d()];
            let mut p = usize::from(step[first]);
            while p != first && self.holds(&chain.condition, p) {
                taken |= 1 << p;
                p = usize::from(step[p]);
            }
        }
        self.take(index, at, first, taken)
    }

    /// Takes the holes of `taken` (and the capturing seed in `at`, if the rule says so) for
    /// capture rule `index`, whose first hole is `first`; returns `first`, or nothing if there
    /// was nothing to take.
    pub(super) fn take(
        &mut self,
        index: usize,
        at: usize,
        first: usize,
        mut taken: u64,
    ) -> Result<Option<usize>, Refusal> {
        let rule = &self.rules.program.captures[index];
        let g = &self.rules.geometry;
        if F::RICH {
            // Houses are never captured from.
            taken &= !self.pos.houses;
        }
        let capturing_seed = u16::from(rule.target.with_capturing_seed);
        let mut seeds = self.pos.sum(taken) as u16 + capturing_seed;
        if rule.grand_slam != GrandSlam::Captures {
            let theirs = self.pos.owned(self.mover().other());
            let on_their_side = self.pos.sum(theirs);
            if on_their_side > 0 && self.pos.sum(taken & theirs) == on_their_side {
                self.sink.event(Event::GrandSlam { rule: index });
                match rule.grand_slam {
                    GrandSlam::Captures => {}
                    GrandSlam::Forbidden => return Err(Refusal::GrandSlam),
                    GrandSlam::CapturesNothing => return Ok(None),
                    GrandSlam::CapturesThenExtraTurn => {
                        self.out.extra_turn = true;
                        self.sink.event(Event::ExtraTurn);
                    }
                    GrandSlam::CapturesOpponentTakesRest => self.out.grand_slam_ends = true,
                    GrandSlam::AllButFirstHole | GrandSlam::AllButLastHole => {
                        let ends = if rule.grand_slam == GrandSlam::AllButFirstHole {
                            g.first_holes[self.d()]
                        } else {
                            g.last_holes[self.d()]
                        };
                        taken &= !(ends & theirs);
                        seeds = self.pos.sum(taken) as u16 + capturing_seed;
                    }
                }
            }
        }
        // Taking no seed is no capture (a grand slam may leave only the hole it would take):
        // no extra turn, and the next capture rule may still fire.
        if seeds == 0 {
            return Ok(None);
        }
        let to = match rule.recipient {
            Recipient::Mover => self.mover(),
            Recipient::Owner => self.pos.owner(first),
        };
        let store = g.store(to);
        let mut holes = taken;
        while holes != 0 {
            let p = holes.trailing_zeros() as usize;
            holes &= holes - 1;
            self.pos.seeds[store] += self.pos.seeds[p];
            self.pos.seeds[p] = 0;
        }
        if capturing_seed == 1 {
            self.pos.seeds[at] -= 1;
            self.pos.seeds[store] += 1;
            taken |= 1 << at;
        }
        self.out.captures += 1;
        self.out.captured += u32::from(seeds);
        self.out.last_capturer = Some(to);
        self.sink.event(Event::Capture {
            rule: index,
            holes: taken,
            seeds,
            to,
        });
        Ok(Some(first))
    }

    /// Whether hole `hole` meets `condition` for the mover, with the hole's current count.
    // Forced inline: tested at every drop the rules watch (docs/speed.md, "Inlining the engine
    // keeps").
    #[inline(always)]
    pub(super) fn holds(&self, condition: &Condition, hole: usize) -> bool {
        let g = &self.rules.geometry;
        let pos = &*self.pos;
        let count = pos.seeds[hole];
        let across = || pos.seeds[usize::from(g.opposite[hole])];
        let plain = condition.count.passes(count)
            && match condition.side {
                SideTest::Any => true,
                SideTest::Own => pos.owner(hole) == self.mover(),
                SideTest::Opponent => pos.owner(hole) != self.mover(),
            }
            && (condition.opposite.is_any() || condition.opposite.passes(across()));
        if !F::RICH || !plain {
            return plain;
        }
        let place = condition.place;
        let first = g.first_holes[self.d()] >> hole & 1 == 1;
        let last = g.last_holes[self.d()] >> hole & 1 == 1;
        let placed = place == PlaceTest::ANY
            || (first && place.first)
            || (last && place.last)
            || (!first && !last && place.middle);
        placed
            && (!condition.opposite_equal || across() == count)
            && (condition.next.is_any() || condition.next.passes(pos.seeds[self.next_open(hole)]))
    }

    /// R2 checked after a capture: records it in `out` when it fires.
    #[inline]
    pub(super) fn last_seeds_reached(&mut self, hand: u16) -> bool {
        let Some(rule) = self.rules.program.ending.last_seeds else {
            return false;
        };
        if rule.check != LastSeedsCheck::AfterCapture {
            return false;
        }
        let stores: u32 = self.pos.stores().iter().map(|&s| u32::from(s)).sum();
        let in_play = self.pos.total() - stores;
        if in_play > u32::from(rule.at_most) {
            return false;
        }
        self.out.last_seeds = self.out.last_capturer.map(|_| hand);
        true
    }
}
