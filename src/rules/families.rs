//! The rule families a variant uses, and the broad family and area it is grouped under in
//! `sowlab list --families` and the catalogue page.

use super::capture::CountTest;
use super::{Base, Relay, Rules, Scoring};

/// The families of [`family`], in the order they are listed.
pub const FAMILIES: [&str; 4] = [
    "single laps",
    "relay sowing",
    "sown stores",
    "houses made in play",
];

/// The broad family a game's sowing puts it in, by the first that holds: houses made in play
/// (the Gabata and Weg games), stores sown into (Kalah, Congkak), relay sowing (Ayoayo,
/// Dakon), or single laps (Oware, Wari).
pub fn family(rules: &Rules) -> &'static str {
    let p = &rules.program;
    if !p.houses.is_empty() {
        "houses made in play"
    } else if p.board.stores.sown() {
        "sown stores"
    } else if p.sowing.relay != Relay::Never {
        "relay sowing"
    } else {
        "single laps"
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

/// The part of the world a game's `region:` names first, for grouping: the earliest of the
/// countries and regions below to appear in it, or `elsewhere`.
pub fn area(region: &str) -> &'static str {
    AREAS
        .iter()
        .filter_map(|(area, names)| {
            let at = names.iter().filter_map(|n| region.find(n)).min()?;
            Some((at, *area))
        })
        .min()
        .map_or("elsewhere", |(_, area)| area)
}

/// The areas of [`area`], in the order they are listed, each with the places that name it.
pub const AREAS: [(&str, &[&str]); 9] = [
    (
        "West Africa",
        &[
            "Nigeria",
            "Ghana",
            "Togo",
            "Benin",
            "Dahomey",
            "Côte d'Ivoire",
            "Liberia",
            "Senegal",
            "Mali",
            "Mauritania",
            "Cape Verde",
            "West Africa",
        ],
    ),
    ("Central Africa", &["Cameroon", "Gabon", "Congo"]),
    (
        "North-east Africa and the Horn",
        &[
            "Egypt", "Sudan", "Ethiopia", "Eritrea", "Somali", "Djibouti", "Kenya", "Tanzania",
            "Afar",
        ],
    ),
    (
        "West and Central Asia",
        &[
            "Turkey",
            "Syria",
            "Mesopotamia",
            "Central Asia",
            "Kazakhstan",
            "Mongolia",
        ],
    ),
    (
        "South Asia",
        &[
            "India",
            "Sri Lanka",
            "Maldives",
            "Mizoram",
            "Karnataka",
            "Tamil",
        ],
    ),
    (
        "South-east Asia, East Asia and the Pacific",
        &[
            "Indonesia",
            "Java",
            "Sumatra",
            "Sulawesi",
            "Malaysia",
            "Philippines",
            "Mariana",
            "China",
        ],
    ),
    (
        "The Caribbean",
        &[
            "Dominican Republic",
            "Cuba",
            "Haiti",
            "Barbados",
            "Cayman",
            "Caribbean",
        ],
    ),
    ("The Americas", &["Suriname", "United States", "Brazil"]),
    ("Europe", &["Estonia", "Latvia", "Germany"]),
];

/// A game's place in a listing by family, then area (in the orders above), then file.
pub fn order_key(rules: &Rules) -> (usize, usize) {
    let family = FAMILIES
        .iter()
        .position(|f| *f == family(rules))
        .unwrap_or(FAMILIES.len());
    let region = rules.provenance.get("region");
    let area = area(region.first().copied().unwrap_or(""));
    let area = AREAS
        .iter()
        .position(|(a, _)| *a == area)
        .unwrap_or(AREAS.len());
    (family, area)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_area_is_that_of_the_first_place_named() {
        assert_eq!(
            area("Ghana (Ashanti); played across West Africa and the Caribbean"),
            "West Africa"
        );
        assert_eq!(
            area("Mauritania (Moudjeria) and West Africa"),
            "West Africa"
        );
        assert_eq!(area("Matanzas, Cuba"), "The Caribbean");
        assert_eq!(
            area("Gambela, western Ethiopia; Akobo, Pochalla and Jokau, South Sudan"),
            "North-east Africa and the Horn"
        );
        assert_eq!(area("Atlantis"), "elsewhere");
    }

    #[test]
    fn a_game_is_named_for_the_families_it_uses() {
        let of = |file: &str| {
            let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
            crate::lang::compile_path(&path, &[]).expect("the variant compiles")
        };
        let oware = of("variants/oware.sow");
        assert_eq!(family(&oware), "single laps");
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
        assert_eq!(family(&kalah), "sown stores");
        assert_eq!(
            uses(&kalah),
            ["sown stores", "captures across", "empty row ends"]
        );
        assert_eq!(family(&of("variants/ayoayo.sow")), "relay sowing");
        assert_eq!(
            family(&of("variants/catalogue/weg.sow")),
            "houses made in play"
        );
    }
}
