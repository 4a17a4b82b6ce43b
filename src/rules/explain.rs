//! The compiled rules in words: what the engine will actually do. `explain` prints them;
//! `diff` compares two variants statement by statement, so both read the same sentences.

use std::fmt::Write;

use super::{
    reading_gloss, Award, Capture, Carry, Condition, CountTest, Direction, Effect, Endless,
    FeedJudged, GrandSlam, LapStart, LastSeedsCheck, MatchScoring, NoMove, OppositeTest,
    OriginSkip, Recipient, Rules, SideTest, SkipLaps, Starter, Stores, Surplus, Territory, Trigger,
};

/// One sentence about the rules: the section it belongs to, what it is about (a capture's
/// name, `direction`, ...), and the sentence itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Statement {
    /// `Board`, `Sowing`, `Captures`, `Feeding`, `End` or `Match`.
    pub section: &'static str,
    /// What the sentence is about; two variants' statements on one topic are compared.
    pub topic: String,
    /// The sentence.
    pub text: String,
}

/// The section headings, in order, as `explain` prints them.
pub const SECTIONS: [(&str, &str); 6] = [
    ("Board", "Board"),
    ("Sowing", "Sowing"),
    (
        "Captures",
        "Captures (tried in this order; the first that applies fires)",
    ),
    ("Feeding", "Feeding"),
    ("End", "End"),
    ("Match", "Match"),
];

/// A plain-text account of `rules`: provenance, every statement by section, the readings.
pub fn explain(rules: &Rules) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "{}  (rules {})", rules.provenance.name, rules.hash());
    for (key, values) in &rules.provenance.fields {
        let _ = writeln!(o, "  {key}: {}", values.join("; "));
    }
    let _ = writeln!(o, "  compiled from: {}", rules.provenance.files.join(" ← "));
    let statements = statements(rules);
    for (section, heading) in SECTIONS {
        let mut lines = statements
            .iter()
            .filter(|s| s.section == section)
            .peekable();
        // Captures are always listed, to say there are none; optional sections are not.
        if lines.peek().is_none() && section != "Captures" {
            continue;
        }
        let _ = writeln!(o, "\n{heading}");
        if lines.peek().is_none() {
            let _ = writeln!(o, "  none");
        }
        for s in lines {
            let _ = writeln!(o, "  {}", s.text);
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

/// Every rule of `rules` as a sentence, section by section in the order `explain` prints.
pub fn statements(rules: &Rules) -> Vec<Statement> {
    let mut out = Vec::new();
    let mut say = |section, topic: &str, text: String| {
        out.push(Statement {
            section,
            topic: topic.to_string(),
            text,
        })
    };
    let p = &rules.program;
    let b = &p.board;
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
    say(
        "Board",
        "board",
        format!(
            "2 × {} holes, {seeds} ({} in all), {stores}; {} starts",
            b.holes_per_row, rules.total, b.starter
        ),
    );
    let s = &p.sowing;
    let start = match s.lap_start {
        LapStart::NextHole => "the next hole",
        LapStart::LiftedHole => "the lifted hole itself",
    };
    let direction = match s.direction {
        Direction::Counterclockwise => "counterclockwise (increasing hole numbers)",
        Direction::Clockwise => "clockwise (decreasing hole numbers)",
    };
    say(
        "Sowing",
        "direction",
        format!("{direction}, each lap starting in {start}"),
    );
    say(
        "Sowing",
        "origin",
        match s.origin_skip {
            OriginSkip::Never => "the emptied hole is sown into like any other".into(),
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
                format!("the emptied hole is skipped {when}, on {which}")
            }
        },
    );
    say(
        "Sowing",
        "relay",
        match &s.relay {
            None => "single laps: the move ends with its last seed".into(),
            Some(c) => format!(
                "relay: when the last seed of a lap lands in a hole where {}, that hole is lifted and sown on",
                condition(c)
            ),
        },
    );
    if s.store_extra_turn {
        say(
            "Sowing",
            "store turn",
            "a lap ending in the mover's own store gives another turn".into(),
        );
    }
    for c in &p.captures {
        say("Captures", &c.name, capture(c));
    }
    if let Some(f) = &p.feeding {
        let judged = match f.judged {
            FeedJudged::AfterMove => "the opponent's row holds a seed after the whole move",
            FeedJudged::FirstLap => "the first lap sows a seed into the opponent's row",
        };
        say(
            "Feeding",
            "duty",
            format!("when the opponent's row is empty, only moves after which {judged} are legal"),
        );
        say(
            "Feeding",
            "unfeedable",
            format!(
                "if none is, the game ends and the board goes {}",
                award(f.unfeedable)
            ),
        );
    }
    let e = &p.ending;
    if let Some(l) = e.last_seeds {
        let when = match l.check {
            LastSeedsCheck::AfterCapture => {
                "after any capture (board and hand counted, even mid-sowing)"
            }
            LastSeedsCheck::AfterMove => "when a move has ended (board counted)",
        };
        say(
            "End",
            "last seeds",
            format!(
                "when at most {} seeds are in play {when}, they go {} and the game ends",
                l.at_most,
                award(l.to)
            ),
        );
    }
    if let Some(a) = e.majority {
        say("End", "majority", format!("when a player has captured more than half the seeds (or both half), the game ends; the board goes {}", award(a)));
    }
    if let Some(a) = e.empty_row {
        say(
            "End",
            "empty row",
            format!(
                "when a move leaves a row empty, the game ends; the board goes {}",
                award(a)
            ),
        );
    }
    say("End", "no move", match e.no_move {
        NoMove::Pass => "a player with no legal move passes; if neither can move the game ends, board to owners".into(),
        NoMove::EndGame(a) => format!("when the player to move has no legal move the game ends; the board goes {}", award(a)),
    });
    say(
        "End",
        "move cap",
        format!(
            "after {} moves the game stops; the board goes {}",
            e.move_cap,
            award(e.cap_award)
        ),
    );
    say(
        "End",
        "repetition",
        format!(
            "a position occurring for the {} time stops the game; the board goes {}",
            ordinal(e.repetition),
            award(e.repetition_award)
        ),
    );
    if e.unfinished_is_draw {
        say("End", "unfinished", "a stopped game is a draw".into());
    }
    say(
        "End",
        "endless moves",
        format!(
            "a move whose sowing would never end {}",
            match e.endless {
                Endless::Illegal => "is illegal",
                Endless::EndsGame => "ends the game when chosen",
                Endless::StopAtCap => "stops at the drop cap",
            }
        ),
    );
    say(
        "End",
        "winner",
        "the player who captured more wins; equal totals are a draw".into(),
    );
    if let Some(m) = &p.matches {
        say(
            "Match",
            "rounds",
            match m.carry {
                Carry::Fresh => {
                    "every round starts from the board's layout; the rounds' results are tallied"
                        .into()
                }
                Carry::Refill {
                    per_hole,
                    close_unfilled,
                    surplus,
                    territory,
                } => {
                    let holes = match territory {
                        Territory::Rows => "their own row",
                        Territory::Kept => {
                            "the holes they held at the end of the round (their row at first)"
                        }
                    };
                    let unfilled = if close_unfilled {
                        "closed for the round: sowing skips them and they cannot be played"
                    } else {
                        "open, and empty"
                    };
                    let surplus = match surplus {
                    Surplus::Reserve => "seeds that cannot be placed stay in their owner's reserve",
                    Surplus::OpponentHoles => "seeds beyond their own holes fill the opponent's unfilled holes, which change owner; the rest stay in reserve",
                };
                    format!("after a round, each player puts {per_hole} seeds into each hole of {holes}, from the first in sowing order, while what they hold lasts; holes left unfilled are {unfilled}; {surplus}")
                }
            },
        );
        say(
            "Match",
            "starter",
            match m.starter {
                Starter::RoundWinner => {
                    "the round's winner starts the next (after a draw, the other player)"
                }
                Starter::RoundLoser => {
                    "the round's loser starts the next (after a draw, the other player)"
                }
                Starter::Alternate => "players take turns starting",
                Starter::PreviousStarter => "the player who started a round starts the next",
            }
            .into(),
        );
        let mut ends = Vec::new();
        if m.lose_below > 0 {
            ends.push(format!(
                "a player holding fewer than {} seeds after a round loses the match",
                m.lose_below
            ));
        }
        if let Some(k) = m.first_to {
            ends.push(format!("the match ends when a player has won {k} rounds"));
        }
        ends.push(format!("it ends after at most {} rounds", m.round_cap));
        let scoring = match m.scoring {
            MatchScoring::Seeds => "the player holding more seeds",
            MatchScoring::RoundsWon => "the player who won more rounds",
        };
        say(
            "Match",
            "end",
            format!("{}; then {scoring} wins", ends.join("; ")),
        );
        for r in &m.round_rules {
            say(
                "Match",
                &format!("from round {}", r.from_round),
                format!(
                    "from round {}: the last seeds go {}",
                    r.from_round,
                    award(r.last_seeds_to)
                ),
            );
        }
    }
    out
}

fn capture(c: &Capture) -> String {
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
    let slam = match c.grand_slam {
        GrandSlam::Captures => "",
        GrandSlam::CapturesNothing => {
            "\n    a capture that would take all the opponent's seeds takes nothing"
        }
        GrandSlam::Forbidden => {
            "\n    a move whose capture would take all the opponent's seeds is illegal"
        }
    };
    format!(
        "\"{}\": {when}, if {}: {to} takes {what}; {then}{slam}",
        c.name,
        condition(&c.condition)
    )
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
