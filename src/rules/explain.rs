//! The compiled rules in words, for `sowlab explain`: what the engine will actually do.

use std::fmt::Write;

use super::{
    reading_gloss, Award, Condition, CountTest, Direction, Effect, Endless, FeedJudged, GrandSlam,
    LapStart, LastSeedsCheck, NoMove, OppositeTest, OriginSkip, Recipient, Rules, SideTest,
    SkipLaps, Starter, Stores, Surplus, Trigger,
};

/// A plain-text account of `rules`.
pub fn explain(rules: &Rules) -> String {
    let p = &rules.program;
    let mut o = String::new();
    let _ = writeln!(o, "{}  (rules {})", rules.provenance.name, rules.hash());
    for (key, values) in &rules.provenance.fields {
        let _ = writeln!(o, "  {key}: {}", values.join("; "));
    }
    let _ = writeln!(o, "  compiled from: {}", rules.provenance.files.join(" ← "));
    let b = &p.board;
    let _ = writeln!(o, "\nBoard");
    let uniform = b.layout.iter().all(|&n| n == b.layout[0]);
    let seeds = if uniform {
        format!("{} seeds per hole", b.layout[0])
    } else {
        format!("layout {:?}", b.layout)
    };
    let stores = match b.stores {
        Stores::None => "no stores",
        Stores::Kept => "a store per player, never sown",
        Stores::Sown => "a store per player at the end of their row, sown by its owner",
    };
    let _ = writeln!(
        o,
        "  2 × {} holes, {seeds} ({} in all), {stores}; {} starts",
        b.holes_per_row, rules.total, b.starter
    );
    let s = &p.sowing;
    let _ = writeln!(o, "\nSowing");
    let start = match s.lap_start {
        LapStart::NextHole => "the next hole",
        LapStart::LiftedHole => "the lifted hole itself",
    };
    let direction = match s.direction {
        Direction::Counterclockwise => "counterclockwise (increasing hole numbers)",
        Direction::Clockwise => "clockwise (decreasing hole numbers)",
    };
    let _ = writeln!(o, "  {direction}, each lap starting in {start}");
    let _ = match s.origin_skip {
        OriginSkip::Never => writeln!(o, "  the emptied hole is sown into like any other"),
        OriginSkip::FromSeeds(n, laps) => {
            let when = if n <= 1 {
                "always".to_string()
            } else {
                format!("when {n} or more seeds were lifted")
            };
            let which = if laps == SkipLaps::Every {
                "every lap"
            } else {
                "the first lap only"
            };
            writeln!(o, "  the emptied hole is skipped {when}, on {which}")
        }
    };
    let _ = match &s.relay {
        None => writeln!(o, "  single laps: the move ends with its last seed"),
        Some(c) => writeln!(o, "  relay: when the last seed of a lap lands in a hole where {}, that hole is lifted and sown on", condition(c)),
    };
    if s.store_extra_turn {
        let _ = writeln!(
            o,
            "  a lap ending in the mover's own store gives another turn"
        );
    }
    let _ = writeln!(
        o,
        "\nCaptures (tried in this order; the first that applies fires)"
    );
    if p.captures.is_empty() {
        let _ = writeln!(o, "  none");
    }
    for c in &p.captures {
        let when = match c.trigger {
            Trigger::EveryDrop => "after every seed",
            Trigger::PassingDrop => "after every seed but the last of a lap",
            Trigger::LapEnd => "after the last seed of a lap",
            Trigger::MoveEnd => "after the last seed of the move",
        };
        let mut what = if c.target.opposite {
            "the hole opposite".to_string()
        } else {
            "the hole".to_string()
        };
        if c.target.with_capturing_seed {
            what.push_str(" and the capturing seed");
        }
        if let Some(chain) = &c.target.chain {
            let _ = write!(
                what,
                ", and the unbroken run of holes before it where {}",
                condition(chain)
            );
        }
        let to = match c.recipient {
            Recipient::Mover => "the mover",
            Recipient::Owner => "the hole's owner",
        };
        let then = match c.effect {
            Effect::Continue => "sowing goes on",
            Effect::EndSowing => "the move ends",
            Effect::ExtraTurn => "the move ends and the mover plays again",
        };
        let _ = writeln!(
            o,
            "  \"{}\": {when}, if {}: {to} takes {what}; {then}",
            c.name,
            condition(&c.condition)
        );
        match c.grand_slam {
            GrandSlam::Captures => {}
            GrandSlam::CapturesNothing => {
                let _ = writeln!(
                    o,
                    "    a capture that would take all the opponent's seeds takes nothing"
                );
            }
            GrandSlam::Forbidden => {
                let _ = writeln!(
                    o,
                    "    a move whose capture would take all the opponent's seeds is illegal"
                );
            }
        }
    }
    if let Some(f) = &p.feeding {
        let judged = match f.judged {
            FeedJudged::AfterMove => "the opponent's row holds a seed after the whole move",
            FeedJudged::FirstLap => "the first lap sows a seed into the opponent's row",
        };
        let _ = writeln!(o, "\nFeeding\n  when the opponent's row is empty, only moves after which {judged} are legal");
        let _ = writeln!(
            o,
            "  if none is, the game ends and the board goes {}",
            award(f.unfeedable)
        );
    }
    let e = &p.ending;
    let _ = writeln!(o, "\nEnd");
    if let Some(l) = e.last_seeds {
        let when = match l.check {
            LastSeedsCheck::AfterCapture => {
                "after any capture (board and hand counted, even mid-sowing)"
            }
            LastSeedsCheck::AfterMove => "when a move has ended (board counted)",
        };
        let _ = writeln!(
            o,
            "  when at most {} seeds are in play {when}, they go {} and the game ends",
            l.at_most,
            award(l.to)
        );
    }
    if let Some(a) = e.majority {
        let _ = writeln!(o, "  when a player has captured more than half the seeds (or both half), the game ends; the board goes {}", award(a));
    }
    if let Some(a) = e.empty_row {
        let _ = writeln!(
            o,
            "  when a move leaves a row empty, the game ends; the board goes {}",
            award(a)
        );
    }
    let _ = match e.no_move {
        NoMove::Pass => writeln!(o, "  a player with no legal move passes; if neither can move the game ends, board to owners"),
        NoMove::EndGame(a) => writeln!(o, "  when the player to move has no legal move the game ends; the board goes {}", award(a)),
    };
    let _ = writeln!(
        o,
        "  after {} moves the game stops; the board goes {}",
        e.move_cap,
        award(e.cap_award)
    );
    let _ = writeln!(
        o,
        "  a position occurring for the {} time stops the game; the board goes {}",
        ordinal(e.repetition),
        award(e.repetition_award)
    );
    if e.unfinished_is_draw {
        let _ = writeln!(o, "  a stopped game is a draw");
    }
    let _ = writeln!(
        o,
        "  a move whose sowing would never end {}",
        match e.endless {
            Endless::Illegal => "is illegal",
            Endless::EndsGame => "ends the game when chosen",
            Endless::StopAtCap => "stops at the drop cap",
        }
    );
    let _ = writeln!(
        o,
        "  the player who captured more wins; equal totals are a draw"
    );
    if let Some(m) = &p.matches {
        let _ = writeln!(o, "\nMatch");
        let _ = writeln!(
            o,
            "  refill {} per hole from each player's first hole; unfilled holes {}; {}",
            m.refill,
            if m.close_unfilled {
                "closed for the round"
            } else {
                "stay open"
            },
            match m.surplus {
                Surplus::Reserve => "seeds that cannot be placed stay in their owner's reserve",
                Surplus::OpponentHoles => "surplus seeds fill the opponent's closed holes",
            }
        );
        let starter = match m.starter {
            Starter::RoundWinner => {
                "the round's winner starts the next (after a draw, the other player)"
            }
            Starter::RoundLoser => {
                "the round's loser starts the next (after a draw, the other player)"
            }
            Starter::Alternate => "players take turns starting",
        };
        let _ = writeln!(
            o,
            "  {starter}; a total under {} loses the match; at most {} rounds",
            m.lose_below, m.round_cap
        );
        for r in &m.round_rules {
            let _ = writeln!(
                o,
                "  from round {}: the last seeds go {}",
                r.from_round,
                award(r.last_seeds_to)
            );
        }
    }
    let _ = writeln!(o, "\nReadings");
    if rules.readings.is_empty() {
        let _ = writeln!(o, "  none");
    }
    let mut marks: Vec<_> = rules.readings.iter().collect();
    marks.sort_by_key(|r| r.number);
    for r in marks {
        let _ = writeln!(
            o,
            "  R{:<2} {:<28} {}",
            r.number,
            r.rule,
            reading_gloss(r.number)
        );
    }
    o
}

/// `1st`, `2nd`, `3rd`, `4th`, ...
fn ordinal(n: u16) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, 11) | (2, 12) | (3, 13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

fn condition(c: &Condition) -> String {
    let mut parts = Vec::new();
    if c.count != CountTest::ANY {
        parts.push(count(c.count));
    }
    match c.side {
        SideTest::Any => {}
        SideTest::Own => parts.push("it is on the mover's side".into()),
        SideTest::Opponent => parts.push("it is on the opponent's side".into()),
    }
    match c.opposite {
        OppositeTest::Any => {}
        OppositeTest::Empty => parts.push("the hole opposite is empty".into()),
        OppositeTest::Occupied => parts.push("the hole opposite holds seeds".into()),
    }
    if parts.is_empty() {
        "always".into()
    } else {
        parts.join(" and ")
    }
}

fn count(t: CountTest) -> String {
    let exact: Vec<String> = (0..64)
        .filter(|&c| t.mask >> c & 1 == 1)
        .map(|c: u32| c.to_string())
        .collect();
    if t.from == u16::MAX {
        format!("its count is {}", exact.join(" or "))
    } else if let Some(first) = exact
        .first()
        .filter(|_| t.mask.count_ones() as usize == exact.len() && t.mask.leading_zeros() == 0)
    {
        format!("its count is at least {first}")
    } else {
        format!("its count is {} or at least {}", exact.join(" or "), t.from)
    }
}

fn award(a: Award) -> &'static str {
    match a {
        Award::Capturer => "to the last capturer",
        Award::PlayerToMove => "to the player to move",
        Award::LastMover => "to the player who moved last",
        Award::Owners => "to the owners of the sides they lie on",
        Award::Split => "half to each player",
        Award::Nobody => "to nobody",
        Award::PreviousWinner => "to the winner of the previous round",
    }
}
