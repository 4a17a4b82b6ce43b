//! The compiled rules in words: what the engine will actually do. `explain` prints them;
//! `diff` compares two variants statement by statement, so both read the same sentences.

use std::fmt::Write;

use super::{
    Award, Base, Capture, Carry, ChainWay, Condition, CountTest, Direction, DirectionRule, Effect,
    Ending, Endless, FeedDuty, FeedJudged, Feeding, GrandSlam, HouseContents, HouseRule, HouseSown,
    LapStart, Large, LastSeedsCheck, MatchRules, MatchScoring, MoveFilter, NoMove, OriginSkip,
    PlaceTest, Recipient, Refill, Relay, Ring, RowTest, Rules, Scoring, SideTest, SkipLaps, Sowing,
    Starter, Stores, Surplus, Territory, Trigger, Unfeedable,
};

/// One sentence about the rules: the section it belongs to, what it is about (a capture's
/// name, `direction`, ...), and the sentence itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Statement {
    /// The section it belongs to.
    pub section: Section,
    /// What the sentence is about (`direction`, `move cap`, ...), or for a capture or house
    /// rule the name the file gives it: a label, not a rule, so `diff` pairs named rules by
    /// their content and order rather than by name.
    pub topic: String,
    /// Whether `topic` is a rule's name (printed before the sentence), not a fixed topic.
    pub named: bool,
    /// The sentence.
    pub text: String,
}

/// The sections of `explain`, in the order it prints them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Section {
    /// Holes, seeds, stores, the starter.
    Board,
    /// How seeds are sown, and which moves may be made.
    Sowing,
    /// The capture rules, in the order they are tried.
    Captures,
    /// The ways holes become houses.
    Houses,
    /// The duty to feed.
    Feeding,
    /// How a game ends, and who wins.
    End,
    /// Match play.
    Match,
}

impl Section {
    /// Every section, in print order.
    pub const ALL: [Section; 7] = [
        Section::Board,
        Section::Sowing,
        Section::Captures,
        Section::Houses,
        Section::Feeding,
        Section::End,
        Section::Match,
    ];

    /// The section's name (`diff` heads its differences with it).
    pub fn name(self) -> &'static str {
        match self {
            Section::Board => "Board",
            Section::Sowing => "Sowing",
            Section::Captures => "Captures",
            Section::Houses => "Houses",
            Section::Feeding => "Feeding",
            Section::End => "End",
            Section::Match => "Match",
        }
    }

    /// The heading `explain` prints, which says how to read the section where it needs to.
    pub fn heading(self) -> &'static str {
        match self {
            Section::Captures => "Captures (tried in this order; the first that applies fires)",
            Section::Houses => "Houses (holes that become a player's property)",
            other => other.name(),
        }
    }

    /// Whether the section's statements are rules with names (captures and houses).
    fn named(self) -> bool {
        matches!(self, Section::Captures | Section::Houses)
    }
}

impl std::fmt::Display for Section {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A plain-text account of `rules`: provenance, every statement by section, the readings.
pub fn explain(rules: &Rules) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "{}  (rules {})", rules.provenance.name, rules.hash());
    for (key, values) in &rules.provenance.fields {
        let _ = writeln!(o, "  {key}: {}", values.join("; "));
    }
    let _ = writeln!(o, "  compiled from: {}", rules.provenance.files.join(" ← "));
    let statements = statements(rules);
    for section in Section::ALL {
        let mut lines = statements
            .iter()
            .filter(|s| s.section == section)
            .peekable();
        // Captures are always listed, to say there are none; optional sections are not.
        if lines.peek().is_none() && section != Section::Captures {
            continue;
        }
        let _ = writeln!(o, "\n{}", section.heading());
        if lines.peek().is_none() {
            let _ = writeln!(o, "  none");
        }
        for s in lines {
            if s.named {
                let _ = writeln!(o, "  \"{}\": {}", s.topic, s.text);
            } else {
                let _ = writeln!(o, "  {}", s.text);
            }
        }
    }
    let _ = writeln!(o, "\nReadings");
    if rules.readings.is_empty() {
        let _ = writeln!(o, "  none");
    }
    let mut marks: Vec<_> = rules.readings.iter().collect();
    marks.sort_by_key(|r| r.number);
    for r in marks {
        // A default is a rule the file leaves to the language: said, since it decides games
        // all the same.
        let rule = if r.default {
            format!("{} (default)", r.rule)
        } else {
            r.rule.clone()
        };
        let _ = writeln!(
            o,
            "  R{:<2} {:<28} {}",
            r.number,
            rule,
            rules.reading_text(r.number)
        );
    }
    if !rules.alternatives.is_empty() {
        let _ = writeln!(
            o,
            "\nAlternative readings (`--set R<n>=NAME` plays one, `sowlab readings` all together)"
        );
    }
    for a in &rules.alternatives {
        let chosen = if a.chosen { ", chosen" } else { "" };
        let _ = writeln!(o, "  R{} \"{}\"  ({}{chosen})", a.reading, a.name, a.file);
        if a.changes.is_empty() {
            let _ = writeln!(o, "    no rule reads differently");
        }
        for d in &a.changes {
            super::diff::write_labelled(&mut o, d, ["file", "here"], "    ");
        }
    }
    o
}

/// Every rule of `rules` as a sentence, section by section in the order `explain` prints.
pub fn statements(rules: &Rules) -> Vec<Statement> {
    let mut says = Says(Vec::new());
    let p = &rules.program;
    board(&mut says, rules);
    sowing_path(&mut says, rules);
    sowing_moves(&mut says, &p.sowing);
    sowing_laps(&mut says, &p.sowing);
    for c in &p.captures {
        says.say(Section::Captures, &c.name, capture(c));
    }
    for h in &p.houses {
        says.say(Section::Houses, &h.name, house(h));
    }
    if let Some(f) = &p.feeding {
        feeding(&mut says, f);
    }
    end_rules(&mut says, &p.ending);
    end_limits(&mut says, rules);
    if let Some(m) = &p.matches {
        match_rules(&mut says, m);
    }
    says.0
}

/// The sentence `explain` gives capture rule `index` of `rules`.
pub fn capture_sentence(rules: &Rules, index: usize) -> String {
    capture(&rules.program.captures[index])
}

/// The sentence `explain` gives house rule `index` of `rules`.
pub fn house_sentence(rules: &Rules, index: usize) -> String {
    house(&rules.program.houses[index])
}

/// The statements made so far.
struct Says(Vec<Statement>);

impl Says {
    /// States a rule; capture and house rules are the ones with names.
    fn say(&mut self, section: Section, topic: &str, text: String) {
        self.0.push(Statement {
            section,
            topic: topic.to_string(),
            named: section.named(),
            text,
        });
    }
}

/// The board: holes, seeds, stores, the starter.
fn board(says: &mut Says, rules: &Rules) {
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
        Stores::SownByBoth => "a store per player at the end of their row, sown by both players",
    };
    says.say(
        Section::Board,
        "board",
        format!(
            "2 × {} holes, {seeds} ({} in all), {stores}; {} starts",
            b.holes_per_row, rules.total, b.starter
        ),
    );
}

/// The path of a sowing: its direction, where laps start, the ring, which holes are played
/// and passed over.
fn sowing_path(says: &mut Says, rules: &Rules) {
    let p = &rules.program;
    let b = &p.board;
    let s = &p.sowing;
    let start = match s.lap_start {
        LapStart::NextHole => "the next hole",
        LapStart::LiftedHole => "the lifted hole itself",
        LapStart::LiftedHoleSingleMovesOn => {
            "the lifted hole itself (a single seed moves on to the next hole)"
        }
    };
    let direction = match s.direction {
        DirectionRule::Fixed(d) => direction(d).to_string(),
        DirectionRule::Chosen => "in the direction the mover chooses, move by move".into(),
        DirectionRule::ByParity { odd } => format!(
            "{} when an odd number of seeds is lifted, else {}",
            direction(odd),
            direction(odd.reverse())
        ),
        DirectionRule::ByHole { outward } => format!(
            "from a hole in the left half of the mover's row {}, from the right half {}, from a middle hole either way (the mover chooses)",
            if outward { "clockwise (towards that end)" } else { "counterclockwise (towards the centre)" },
            if outward { "counterclockwise" } else { "clockwise" }
        ),
    };
    says.say(
        Section::Sowing,
        "direction",
        format!("{direction}, each lap starting in {start}"),
    );
    if s.any_hole {
        says.say(
            Section::Sowing,
            "play from",
            "a player may lift any hole of the board, in either row, not only their own".into(),
        );
    }
    if s.ring == Ring::OwnRow {
        let store = if b.stores.sown() { " and store" } else { "" };
        says.say(
            Section::Sowing,
            "ring",
            format!("each player sows round their own row{store} only"),
        );
    }
    if s.min_seeds > 1 {
        let unless = if s.min_seeds_waived {
            ", unless the mover has no such hole"
        } else {
            ""
        };
        says.say(
            Section::Sowing,
            "min seeds",
            format!(
                "a hole is played only if it holds {} or more seeds{unless}",
                s.min_seeds
            ),
        );
    }
    if let Some(skip) = s.skip_holes {
        let last = if skip.except_last {
            ", except by the last seed of a lap"
        } else {
            ""
        };
        let whose = match skip.row {
            RowTest::Either => "holes",
            RowTest::Mover => "the mover's own holes",
            RowTest::Opponent => "the opponent's holes",
        };
        let first = if skip.except_first_move {
            ", except on the first move of the game"
        } else {
            ""
        };
        says.say(
            Section::Sowing,
            "skip holes",
            format!(
                "{whose} are passed over where {}{last}{first}",
                count(skip.count)
            ),
        );
    }
}

/// The rules on which moves may be made: openings, first moves, locks and filters.
fn sowing_moves(says: &mut Says, s: &Sowing) {
    if !s.opening.is_empty() {
        let moves: Vec<String> = s.opening.iter().map(u8::to_string).collect();
        says.say(
            Section::Sowing,
            "opening",
            format!("the game opens with the moves {}", moves.join(", ")),
        );
    }
    if let Some(first) = s.first_move {
        let whose = if first.game_only {
            "the game's first move"
        } else {
            "each player's first move"
        };
        let places: Vec<u32> = (1..=32)
            .filter(|p| first.places >> (p - 1) & 1 == 1)
            .collect();
        let (low, high) = (places.first().copied(), places.last().copied());
        let holes = match (low, high) {
            (Some(low), Some(high))
                if places.len() > 2 && high - low + 1 == places.len() as u32 =>
            {
                format!("one of the mover's holes {low} to {high}")
            }
            (Some(low), _) if places.len() == 1 => format!("the mover's hole {low}"),
            _ => format!("one of the mover's holes {}", one_of(&places)),
        };
        let mut text = format!("{whose} starts from {holes}, counted from their left");
        if first.last_seed_across {
            text.push_str("; on it, a first lap about to end in the mover's own row ends in the first hole of the opponent's row instead");
        }
        says.say(Section::Sowing, "first move", text);
    }
    if s.opponent_after_round {
        says.say(
            Section::Sowing,
            "after a round",
            "once a lap has gone round the board, the rest of its seeds go into the opponent's holes only".into(),
        );
    }
    if s.lock_played {
        says.say(
            Section::Sowing,
            "locked",
            "a hole a player sows from is locked for them until the opponent sows a seed into it"
                .into(),
        );
    }
    if let Some(filter) = s.move_filter {
        says.say(Section::Sowing, "first lap", match filter {
            MoveFilter::NotIntoOccupiedOwn => "a move is legal only if its first lap does not end in an occupied hole of the mover's own".into(),
            MoveFilter::ReachesOpponentOrEmptyOwn => "a move is legal only if its first lap reaches the opponent's holes or ends in an empty hole of the mover's own".into(),
            MoveFilter::SingleIntoEmpty => "a hole of a single seed is played only if the hole after it is empty".into(),
        });
    }
}

/// Laps: the emptied hole, relays, bearing off and the store's extra turn.
fn sowing_laps(says: &mut Says, s: &Sowing) {
    says.say(
        Section::Sowing,
        "origin",
        match s.origin_skip {
            OriginSkip::Never => "the emptied hole is sown into like any other".into(),
            OriginSkip::FromSeeds(n, laps) => {
                let which = if laps == SkipLaps::Every {
                    "every lap"
                } else {
                    "the first lap only"
                };
                if n <= 1 {
                    format!(
                        "a lap that goes round the board passes over the emptied hole, on {which}"
                    )
                } else {
                    format!("the emptied hole is skipped when {n} or more seeds were lifted, on {which}")
                }
            }
        },
    );
    says.say(
        Section::Sowing,
        "relay",
        match &s.relay {
            Relay::Never => "single laps: the move ends with its last seed".into(),
            Relay::Landing(c) => format!(
                "relay: when the last seed of a lap lands in a hole where {}, that hole is lifted and sown on",
                condition(c)
            ),
            Relay::NextHole => "relay: when a lap ends, the hole after its last one, if it holds seeds, is lifted and sown on".into(),
        },
    );
    if let Some(most) = s.bear_off {
        let seeds = if most == 1 { "seed" } else { "seeds" };
        says.say(
            Section::Sowing,
            "bear off",
            format!("bearing off: on a turn that starts with no hole holding more than {most} {seeds}, a seed sown past the end of the mover's row leaves the board with the rest of its lap, put with the mover's captures, and the move ends there"),
        );
    }
    if s.store_extra_turn {
        says.say(
            Section::Sowing,
            "store turn",
            "a lap ending in the mover's own store gives another turn".into(),
        );
    }
}

/// The duty to feed.
fn feeding(says: &mut Says, f: &Feeding) {
    let judged = match f.judged {
        FeedJudged::AfterMove => "the opponent's row holds a seed",
        FeedJudged::FirstLap => "the first lap sows a seed into the opponent's row",
    };
    let when = match f.duty {
        FeedDuty::RowEmpty => "when the opponent's row is empty, only",
        FeedDuty::Always => "only",
    };
    says.say(
        Section::Feeding,
        "duty",
        format!("{when} moves after which {judged} are legal"),
    );
    says.say(
        Section::Feeding,
        "unfeedable",
        match f.unfeedable {
            Unfeedable::Ends(a) => {
                format!("if none is, the game ends and the board goes {}", award(a))
            }
            Unfeedable::AnyMove => "if none is, any move may be played".into(),
        },
    );
}

/// The end rules looked at after a move.
fn end_rules(says: &mut Says, e: &Ending) {
    if let Some(l) = e.last_seeds {
        let when = match l.check {
            LastSeedsCheck::AfterCapture => {
                "after any capture (board and hand counted, even mid-sowing)"
            }
            LastSeedsCheck::AfterMove => "when a move has ended (board counted)",
        };
        says.say(
            Section::End,
            "last seeds",
            format!(
                "when at most {} seeds are in play {when}, they go {} and the game ends",
                l.at_most,
                award(l.to)
            ),
        );
    }
    if let Some(m) = e.majority {
        let enough = if m.at_half {
            "half the seeds or more"
        } else {
            "more than half the seeds (or both half)"
        };
        says.say(
            Section::End,
            "majority",
            format!(
                "when a player has captured {enough}, the game ends; the board goes {}",
                award(m.award)
            ),
        );
    }
    if let Some((which, a)) = e.empty_row {
        let row = match which {
            RowTest::Either => "a row",
            RowTest::Mover => "the mover's own holes",
            RowTest::Opponent => "the opponent's holes",
        };
        says.say(
            Section::End,
            "empty row",
            format!(
                "when a move leaves {row} empty, the game ends; the board goes {}",
                award(a)
            ),
        );
    }
    if let Some(a) = e.singletons {
        says.say(
            Section::End,
            "singletons",
            format!("when a move leaves no hole with more than one seed, the game ends; the board goes {}", award(a)),
        );
    }
    if let Some((moves, a)) = e.quiet {
        says.say(
            Section::End,
            "no capture for",
            format!(
                "after {moves} moves in a row without a capture the game ends; the board goes {}",
                award(a)
            ),
        );
    }
    if !e.order.is_empty() {
        let names: Vec<&str> = e.order.iter().map(|c| c.name()).collect();
        says.say(
            Section::End,
            "order",
            format!(
                "where several end rules hold once a move is over, they are tried in this order: {}; the rest after, as usual (`no move` then asks whether the next player can move)",
                names.join(", then ")
            ),
        );
    }
}

/// What stops a game otherwise, and who wins.
fn end_limits(says: &mut Says, rules: &Rules) {
    let p = &rules.program;
    let (s, e) = (&p.sowing, &p.ending);
    // Under `winner: a player who cannot move loses` the winner rule says what happens.
    if e.scoring != Scoring::StuckLoses {
        says.say(Section::End, "no move", match e.no_move {
            NoMove::Pass => "a player with no legal move passes; if neither can move the game ends, board to owners".into(),
            NoMove::EndGame(a) => format!("when the player to move has no legal move the game ends; the board goes {}", award(a)),
        });
    }
    says.say(
        Section::End,
        "move cap",
        format!(
            "after {} moves the game stops; the board goes {}",
            e.move_cap,
            award(e.cap_award)
        ),
    );
    says.say(
        Section::End,
        "repetition",
        format!(
            "a position occurring for the {} time stops the game; the board goes {}",
            ordinal(e.repetition),
            award(e.repetition_award)
        ),
    );
    if e.unfinished_is_draw {
        says.say(
            Section::End,
            "unfinished",
            "a stopped game is a draw".into(),
        );
    }
    // Single laps always end, and stay short of the drop cap unless the board holds as many
    // seeds: the rule is only worth stating when sowing can go on.
    let laps_go_on = s.relay != Relay::Never
        || p.captures
            .iter()
            .any(|c| matches!(c.effect, Effect::ContinueFromNext | Effect::SeedMovesOn));
    if laps_go_on || rules.total >= s.drop_cap {
        let cap = s.drop_cap;
        let endless =
            format!("a move whose sowing would never end, or would drop {cap} seeds or more,");
        says.say(
            Section::End,
            "endless moves",
            match e.endless {
                Endless::Illegal => format!("{endless} is illegal"),
                Endless::EndsGame => format!("{endless} ends the game when chosen"),
                Endless::StopAtCap => format!(
                    "a move's sowing stops once it has dropped {cap} seeds, so one that would never end stops there"
                ),
            },
        );
    }
    says.say(
        Section::End,
        "winner",
        match e.scoring {
            Scoring::MostCaptured => "the player who captured more wins; equal totals are a draw",
            Scoring::StuckLoses => "a player who cannot move when it is their turn loses",
            Scoring::EmptiedWins => {
                "the first player whose holes are all empty after their own move wins"
            }
            Scoring::EmptiedLoses => {
                "a player whose holes are all empty once a move is over (theirs or the opponent's) loses at once; if both rows are, the player who captured more wins"
            }
        }
        .into(),
    );
}

/// Match play.
fn match_rules(says: &mut Says, m: &MatchRules) {
    says.say(
        Section::Match,
        "rounds",
        match m.carry {
            Carry::Fresh => {
                "every round starts from the board's layout; the rounds' results are tallied".into()
            }
            Carry::Refill(r) => refill(&r),
        },
    );
    says.say(
        Section::Match,
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
            Starter::Poorer => "the player holding fewer seeds starts the next round (when both hold as many, the other player)",
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
    says.say(
        Section::Match,
        "end",
        format!("{}; then {scoring} wins", ends.join("; ")),
    );
    for r in &m.round_rules {
        says.say(
            Section::Match,
            &format!("from round {}", r.from_round),
            format!(
                "from round {}: the last seeds go {}",
                r.from_round,
                award(r.last_seeds_to)
            ),
        );
    }
}

/// The sentence for a match's refill.
fn refill(r: &Refill) -> String {
    let holes = match r.territory {
        Territory::Rows => "their own row",
        Territory::Kept => "the holes they held at the end of the round (their row at first)",
    };
    let from = if r.from_last {
        "from the last in sowing order, backwards"
    } else {
        "from the first in sowing order"
    };
    let mirrored = if r.mirrored {
        "; the richer player fills only the holes at the places the poorer could fill"
    } else {
        ""
    };
    let unfilled = if r.close_unfilled {
        "closed for the round: sowing skips them and they cannot be played"
    } else {
        "open, and empty"
    };
    let surplus = match r.surplus {
        Surplus::Reserve => "seeds that cannot be placed stay in their owner's reserve",
        Surplus::OpponentHoles => "seeds beyond their own holes fill the opponent's unfilled holes, which change owner; the rest stay in reserve",
    };
    let leftover = match (r.leftover_hole, r.leftover_tie_to_poorer) {
        (false, _) => "",
        (true, false) => "; the two players' remainders go together into one more hole, owned by the one whose remainder is larger",
        (true, true) => "; the two players' remainders go together into one more hole, owned by the one whose remainder is larger, or on a tie by the poorer player",
    };
    format!(
        "after a round, each player puts {} seeds into each hole of {holes}, {from}, while what they hold lasts{mirrored}; holes left unfilled are {unfilled}; {surplus}{leftover}",
        r.per_hole
    )
}

fn when(t: Trigger) -> &'static str {
    match t {
        Trigger::EveryDrop => "after every seed",
        Trigger::PassingDrop => "after every seed but the last of a lap",
        Trigger::LapEnd => "after the last seed of a lap",
        Trigger::MoveEnd => "after the last seed of the move",
    }
}

/// A capture rule as the parts of its sentence.
struct CaptureWords {
    /// When it is looked at, and from which move on.
    when: String,
    /// What the hole sown into must look like; none for any hole.
    condition: Option<String>,
    /// Who takes.
    recipient: &'static str,
    /// What is taken.
    taken: String,
    /// What follows.
    then: &'static str,
    /// What a capture of all the opponent's seeds does; none where it is a capture like any
    /// other.
    grand_slam: Option<&'static str>,
}

fn capture_words(c: &Capture) -> CaptureWords {
    let mut what = match c.target.base {
        Base::Hole => "the hole".to_string(),
        Base::Opposite => "the hole opposite".to_string(),
        Base::HoleAndOpposite => "the hole and the hole opposite".to_string(),
        Base::Next => "the hole after it".to_string(),
        Base::AfterNext => "the hole after the next one".to_string(),
        Base::AfterNextAndOpposite => {
            "the hole after the next one and, if it holds seeds, the hole opposite it".to_string()
        }
        Base::OppositeOfNext => "the hole opposite the next one".to_string(),
        Base::Every(ref e) => format!("every hole of the board where {}", condition(e)),
    };
    if c.target.with_capturing_seed {
        what.push_str(" and the capturing seed");
    }
    if let Some(chain) = &c.target.chain {
        let limit = if chain.limit == 0 {
            String::new()
        } else {
            format!(" (at most {} each way)", chain.limit)
        };
        let _ = match chain.way {
            ChainWay::Backward => write!(
                what,
                ", and the unbroken run of holes before it where {}{limit}",
                condition(&chain.condition)
            ),
            ChainWay::Forward => write!(
                what,
                ", and the unbroken run of holes after it where {}{limit}",
                condition(&chain.condition)
            ),
            ChainWay::Both => write!(
                what,
                ", and the unbroken runs of holes on both sides of it where {}{limit}",
                condition(&chain.condition)
            ),
            ChainWay::AcrossEmpty => write!(
                what,
                ", and on, across each empty hole, the occupied hole beyond it{limit}"
            ),
        };
    }
    let to = match c.recipient {
        Recipient::Mover => "the mover",
        Recipient::Owner => "the hole's owner",
    };
    let then = match c.effect {
        Effect::Continue => "sowing goes on",
        Effect::ContinueThenExtraTurn => "sowing goes on, and the mover plays again after the move",
        Effect::EndSowing => "the move ends",
        Effect::ExtraTurn => "the move ends and the mover plays again",
        Effect::ExtraTurnOnce => "the move ends and the mover plays again, unless this move was itself such a turn",
        Effect::ContinueFromNext => "the hole after the last one taken is lifted and sown on (if it is empty, the move ends)",
        Effect::SeedMovesOn => "the capturing seed is lifted and sown on",
    };
    let from = if c.from_move > 1 {
        format!(" (from move {} on)", c.from_move)
    } else {
        String::new()
    };
    let grand_slam = match c.grand_slam {
        GrandSlam::Captures => None,
        GrandSlam::CapturesNothing => {
            Some("a capture that would take all the opponent's seeds takes nothing")
        }
        GrandSlam::Forbidden => {
            Some("a move whose capture would take all the opponent's seeds is illegal")
        }
        GrandSlam::CapturesThenExtraTurn => {
            Some("a capture that takes all the opponent's seeds gives the mover another turn")
        }
        GrandSlam::CapturesOpponentTakesRest => {
            Some("a capture that takes all the opponent's seeds ends the game, and the seeds left go to the opponent")
        }
        GrandSlam::AllButFirstHole => {
            Some("a capture that would take all the opponent's seeds leaves the first hole of their row (in the direction of sowing)")
        }
        GrandSlam::AllButLastHole => {
            Some("a capture that would take all the opponent's seeds leaves the last hole of their row (in the direction of sowing)")
        }
    };
    CaptureWords {
        when: format!("{}{from}", when(c.trigger)),
        condition: (c.condition != Condition::ALWAYS).then(|| condition(&c.condition)),
        recipient: to,
        taken: what,
        then,
        grand_slam,
    }
}

fn capture(c: &Capture) -> String {
    let w = capture_words(c);
    let condition = w.condition.map_or(String::new(), |c| format!(", if {c}"));
    let slam = w.grand_slam.map_or(String::new(), |s| format!("\n    {s}"));
    format!(
        "{}{condition}: {} takes {}; {}{slam}",
        w.when, w.recipient, w.taken, w.then
    )
}

/// The parts of the sentence `explain` gives capture rule `index` of `rules`, each with what
/// it tells (`when`, `condition`, `taker`, `taken`, `then`, `grand slam`); a part the sentence
/// leaves out is in words of its own (`any hole`, `as any capture`). Two rules that differ
/// in their sentence differ in at least one part.
pub fn capture_parts(rules: &Rules, index: usize) -> [(&'static str, String); 6] {
    let w = capture_words(&rules.program.captures[index]);
    [
        ("when", w.when),
        (
            "condition",
            w.condition.unwrap_or_else(|| "any hole".into()),
        ),
        ("taker", w.recipient.into()),
        ("taken", w.taken),
        ("then", w.then.into()),
        (
            "grand slam",
            w.grand_slam.unwrap_or("as any capture").into(),
        ),
    ]
}

fn house(h: &HouseRule) -> String {
    let owner = match h.owner {
        Recipient::Mover => "the mover's",
        Recipient::Owner => "its owner's",
    };
    let mut limits = Vec::new();
    if h.per_player > 0 {
        limits.push(format!("at most {} per player", h.per_player));
    }
    if h.not_matching {
        limits.push("not at the place in its row of the other player's house".to_string());
    }
    let limits = if limits.is_empty() {
        String::new()
    } else {
        format!(" ({})", limits.join("; "))
    };
    let contents = match h.contents {
        HouseContents::Captured => "its seeds are captured by its owner",
        HouseContents::Kept => "its seeds stay in it",
    };
    let sown = match h.sown {
        HouseSown::ToOwner => "seeds sown into it later go to its owner",
        HouseSown::Kept => "seeds sown into it later stay there, its owner's",
    };
    let then = if h.ends_move {
        "the move ends"
    } else {
        "sowing goes on"
    };
    let raid =
        match h.raid {
            None => String::new(),
            Some(r) => {
                format!(
            "; a lap ending in the other player's house takes its last seed{} from it, then {}",
            if r.more == 0 { String::new() } else { format!(" and at most {} more", r.more) },
            if r.extra_turn { "the mover plays again" } else { "the move ends" }
        )
            }
        };
    format!(
        "{}{}: the hole becomes {owner} house{limits}; {contents}; {then}; {sown}; it is never played, relayed or captured from{raid}",
        when(h.trigger),
        if_clause(&h.condition)
    )
}

fn direction(d: Direction) -> &'static str {
    match d {
        Direction::Counterclockwise => "counterclockwise (increasing hole numbers)",
        Direction::Clockwise => "clockwise (decreasing hole numbers)",
    }
}

/// `1st`, `2nd`, `3rd`, `4th`, ...
pub(super) fn ordinal(n: u16) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, 11) | (2, 12) | (3, 13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// `, if <condition>`, or nothing for a condition every hole meets.
fn if_clause(c: &Condition) -> String {
    if *c == Condition::ALWAYS {
        String::new()
    } else {
        format!(", if {}", condition(c))
    }
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
    let place = match c.place {
        PlaceTest::ANY => None,
        PlaceTest::END_HOLE => Some("it is an end hole of its row"),
        PlaceTest::NOT_LAST_HOLE => {
            Some("it is not the last hole of its row in the direction of sowing")
        }
        PlaceTest::FIRST_HOLE => Some("it is the first hole of its row in the direction of sowing"),
        PlaceTest::LAST_HOLE => Some("it is the last hole of its row in the direction of sowing"),
        PlaceTest::NOT_FIRST_HOLE => {
            Some("it is not the first hole of its row in the direction of sowing")
        }
        _ => Some("it is neither the first nor the last hole of its row"),
    };
    parts.extend(place.map(String::from));
    if c.opposite == CountTest::exactly(&[0]) {
        parts.push("the hole opposite is empty".into());
    } else if c.opposite == CountTest::at_least(1) {
        parts.push("the hole opposite holds seeds".into());
    } else if c.opposite != CountTest::ANY {
        parts.push(format!("the hole opposite: {}", count(c.opposite)));
    }
    if c.opposite_equal {
        parts.push("the hole opposite holds as many".into());
    }
    if c.next == CountTest::exactly(&[0]) {
        parts.push("the next hole is empty".into());
    } else if c.next == CountTest::at_least(1) {
        parts.push("the next hole holds seeds".into());
    } else if c.next != CountTest::ANY {
        parts.push(format!("the next hole: {}", count(c.next)));
    }
    if parts.is_empty() {
        "always".into()
    } else {
        parts.join(" and ")
    }
}

/// `1`, `1 or 7`, `1, 3 or 5`.
fn one_of(numbers: &[u32]) -> String {
    let words: Vec<String> = numbers.iter().map(u32::to_string).collect();
    match words.len() {
        0 => String::new(),
        1 => words[0].clone(),
        n => format!("{} or {}", words[..n - 1].join(", "), words[n - 1]),
    }
}

fn count(t: CountTest) -> String {
    if t == CountTest::parity(true) {
        return "its count is even".into();
    }
    if t == CountTest::parity(false) {
        return "its count is odd".into();
    }
    let exact: Vec<u32> = (0..64).filter(|&c| t.mask >> c & 1 == 1).collect();
    match t.large {
        Large::None => format!("its count is {}", one_of(&exact)),
        Large::All => {
            // A run of exact counts up to 63 that continues beyond: "at least".
            let low = exact.first().copied().unwrap_or(u32::from(t.from));
            let run = exact.iter().enumerate().all(|(i, &c)| c == low + i as u32);
            if run && exact.last().is_none_or(|&c| c == 63) {
                format!("its count is at least {low}")
            } else {
                format!("its count is {} or at least {}", one_of(&exact), t.from)
            }
        }
        Large::Even | Large::Odd
            if exact.windows(2).all(|w| w[1] == w[0] + 2)
                && exact.last().is_some_and(|&c| c >= 62) =>
        {
            let parity = if t.large == Large::Even {
                "even"
            } else {
                "odd"
            };
            match exact.first() {
                Some(low) => format!("its count is {parity} and at least {low}"),
                None => format!("its count is {parity} and at least {}", t.from),
            }
        }
        Large::Even | Large::Odd => format!(
            "its count is {} or an {} count from {}",
            one_of(&exact),
            if t.large == Large::Even {
                "even"
            } else {
                "odd"
            },
            t.from
        ),
    }
}

fn award(a: Award) -> &'static str {
    match a {
        Award::Capturer => "to the last capturer",
        Award::PlayerToMove => "to the player to move",
        Award::LastMover => "to the player who moved last",
        Award::Owners => "to the owners of the sides they lie on",
        Award::Split => "half to each player (an odd seed stays on the board)",
        Award::SplitOddToPoorer => "half to each player, an odd seed to the one who captured fewer",
        Award::Opponent => "to the opponent of the player to move",
        Award::Starter => "to the player who moved first",
        Award::Nobody => "to nobody",
        Award::PreviousWinner => "to the winner of the previous round",
    }
}
