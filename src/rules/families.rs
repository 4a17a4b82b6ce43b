//! The rule families a variant uses, and the broad family it is grouped under in `sowlab list
//! --families` and the catalogue page.

use super::capture::CountTest;
use super::{Base, Relay, Rules, Scoring};

/// The broad family a game's sowing puts it in; listed in this order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Family {
    /// One lap a move (Oware, Wari).
    SingleLaps,
    /// Laps relayed from the hole the last seed falls in (Ayoayo, Dakon).
    Relay,
    /// Stores sown into (Kalah, Congkak).
    SownStores,
    /// Houses made in play (the Gabata and Weg games).
    Houses,
}

impl Family {
    /// Every family, in the order they are listed.
    pub const ALL: [Family; 4] = [
        Family::SingleLaps,
        Family::Relay,
        Family::SownStores,
        Family::Houses,
    ];

    /// The family of `rules`, by the first that holds: houses, sown stores, relay sowing,
    /// else single laps.
    pub fn of(rules: &Rules) -> Family {
        let p = &rules.program;
        if !p.houses.is_empty() {
            Family::Houses
        } else if p.board.stores.sown() {
            Family::SownStores
        } else if p.sowing.relay != Relay::Never {
            Family::Relay
        } else {
            Family::SingleLaps
        }
    }

    /// Its name, as listings give it.
    pub fn name(self) -> &'static str {
        match self {
            Family::SingleLaps => "single laps",
            Family::Relay => "relay sowing",
            Family::SownStores => "sown stores",
            Family::Houses => "houses made in play",
        }
    }
}

/// The rule families the variant uses beyond plain counterclockwise sowing, each a short
/// phrase, in a fixed order.
pub fn uses(rules: &Rules) -> Vec<&'static str> {
    let p = &rules.program;
    let (s, e) = (&p.sowing, &p.ending);
    let captures = &p.captures;
    let any_capture = |test: &dyn Fn(&super::Capture) -> bool| captures.iter().any(test);
    // A count of one is a seed fallen into an empty hole, not a count rule.
    let by_count = |c: &super::Capture| {
        ![CountTest::ANY, CountTest::exactly(&[1])].contains(&c.condition.count)
    };
    let across = |base: Base| {
        matches!(
            base,
            Base::Opposite
                | Base::HoleAndOpposite
                | Base::AfterNextAndOpposite
                | Base::OppositeOfNext
        )
    };
    [
        (s.relay != Relay::Never, "relay sowing"),
        (p.board.stores.sown(), "sown stores"),
        (s.any_hole, "play from any hole"),
        (s.direction.has_choice(), "direction by move"),
        (s.skip_holes.is_some(), "holes skipped"),
        (s.min_seeds > 1, "minimum seeds"),
        (!s.opening.is_empty(), "opening"),
        (s.first_move.is_some(), "first-move rule"),
        (s.move_filter.is_some(), "move restriction"),
        (s.bear_off.is_some(), "bearing off"),
        (captures.is_empty(), "no captures"),
        (any_capture(&|c| across(c.target.base)), "captures across"),
        (any_capture(&by_count), "captures by count"),
        (any_capture(&|c| c.target.chain.is_some()), "capture runs"),
        (
            any_capture(&|c| !across(c.target.base) && !by_count(c) && c.target.chain.is_none()),
            "other captures",
        ),
        (
            any_capture(&|c| c.recipient == super::Recipient::Owner),
            "captures to the owner",
        ),
        (!p.houses.is_empty(), "houses"),
        (p.feeding.is_some(), "feeding"),
        (e.majority.is_some(), "majority ends"),
        (e.last_seeds.is_some(), "last seeds"),
        (e.empty_row.is_some(), "empty row ends"),
        (e.scoring == Scoring::StuckLoses, "stuck loses"),
        (e.scoring == Scoring::EmptiedWins, "emptied row wins"),
        (e.scoring == Scoring::EmptiedLoses, "empty row loses"),
        (!e.order.is_empty(), "end-rule order"),
        (p.matches.is_some(), "match play"),
    ]
    .into_iter()
    .filter_map(|(used, name)| used.then_some(name))
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_is_named_for_the_families_it_uses() {
        let of = |file: &str| {
            let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
            crate::lang::compile_path(&path, &[]).expect("the variant compiles")
        };
        let oware = of("variants/oware.sow");
        assert_eq!(Family::of(&oware), Family::SingleLaps);
        assert_eq!(
            uses(&oware),
            [
                "captures by count",
                "capture runs",
                "feeding",
                "majority ends"
            ]
        );
        let kalah = of("variants/kalah.sow");
        assert_eq!(Family::of(&kalah), Family::SownStores);
        assert_eq!(
            uses(&kalah),
            ["sown stores", "captures across", "empty row ends"]
        );
        assert_eq!(Family::of(&of("variants/ayoayo.sow")), Family::Relay);
        assert_eq!(
            Family::of(&of("variants/catalogue/weg.sow")),
            Family::Houses
        );
    }
}
