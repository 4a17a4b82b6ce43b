//! Houses as a sowing meets them: seeds sown into a house, a raid on one, and houses made.

use super::*;

impl<S: EventSink, F: Families> Sower<'_, S, F> {
    /// A lap ended in house `at`: in the other player's, a raid takes the landing seed and
    /// some more, where the rules say so; the move ends, or the mover plays again.
    pub(super) fn raid(&mut self, at: usize) -> Flow {
        let raid = self.rules.program.houses.first().and_then(|h| h.raid);
        let Some(raid) = raid.filter(|_| self.pos.owner(at) != self.mover()) else {
            return Flow::Over;
        };
        let seeds = self.pos.seeds[at].min(1 + raid.more);
        if seeds > 0 {
            let store = self.rules.geometry.store(self.mover());
            self.pos.seeds[at] -= seeds;
            self.pos.seeds[store] += seeds;
            self.out.captures += 1;
            self.out.captured += u32::from(seeds);
            self.out.last_capturer = Some(self.mover());
            self.sink.event(Event::Raid {
                hole: at,
                seeds,
                to: self.mover(),
            });
        }
        if raid.extra_turn {
            self.extra_turn(true);
        }
        Flow::Over
    }

    /// A seed just dropped into a house: it goes to the house's owner, when the rules say so.
    pub(super) fn sow_into_house(&mut self, at: usize) {
        let sown = self.rules.program.houses.first().map(|h| h.sown);
        if sown == Some(HouseSown::ToOwner) {
            let owner = self.pos.owner(at);
            let store = self.rules.geometry.store(owner);
            self.pos.seeds[at] -= 1;
            self.pos.seeds[store] += 1;
            self.sink.event(Event::HouseSown {
                hole: at,
                to: owner,
            });
        }
    }

    /// Tries the house rules looked at on `trigger` on hole `at`; the first that makes a house
    /// decides what follows.
    pub(super) fn houses(&mut self, trigger: Trigger, at: usize) -> Option<Flow> {
        let rules = self.rules;
        let g = &rules.geometry;
        let n = g.holes / 2;
        if self.pos.houses >> at & 1 == 1 || self.pos.closed >> at & 1 == 1 {
            return None;
        }
        for (index, rule) in rules.program.houses.iter().enumerate() {
            if rule.trigger != trigger || !self.holds(&rule.condition, at) {
                continue;
            }
            let owner = match rule.owner {
                Recipient::Mover => self.mover(),
                Recipient::Owner => self.pos.owner(at),
            };
            let theirs = self.pos.houses & self.pos.owned(owner);
            if rule.per_player > 0 && theirs.count_ones() >= u32::from(rule.per_player) {
                continue;
            }
            let others = self.pos.houses & self.pos.owned(owner.other());
            let place = |h: usize| if h < n { h } else { h - n };
            if rule.not_matching
                && (0..g.holes).any(|h| others >> h & 1 == 1 && place(h) == place(at))
            {
                continue;
            }
            self.pos.houses |= 1 << at;
            self.pos.set_owner(at, owner);
            let seeds = self.pos.seeds[at];
            if rule.contents == HouseContents::Captured && seeds > 0 {
                let store = g.store(owner);
                self.pos.seeds[store] += seeds;
                self.pos.seeds[at] = 0;
                self.out.captures += 1;
                self.out.captured += u32::from(seeds);
                self.out.last_capturer = Some(owner);
            }
            self.sink.event(Event::House {
                rule: index,
                hole: at,
                to: owner,
                seeds: if rule.contents == HouseContents::Captured {
                    seeds
                } else {
                    0
                },
            });
            return Some(if rule.ends_move { Flow::Over } else { Flow::Go });
        }
        None
    }
}
