//! The shipped variant files: every one compiles, says where it comes from, and the family
//! and board-size files are the small overrides they claim to be.

use sowlab::rules::{OriginSkip, SkipLaps, Stores};

use super::util::{path, variant};

fn shipped() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(path("variants"))
        .expect("variants/ exists")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter_map(|n| n.strip_suffix(".sow").map(String::from))
        .collect();
    names.sort();
    names
}

#[test]
fn every_shipped_variant_compiles_and_cites_a_source() {
    let names = shipped();
    assert!(
        names.len() >= 9,
        "expected the nine required variants, found {names:?}"
    );
    for name in names {
        let rules = variant(&name);
        assert!(
            !rules.provenance.get("source").is_empty(),
            "{name} has no source"
        );
    }
}

#[test]
fn board_size_variants_of_hoyito_i_differ_only_in_holes() {
    let base = variant("hoyito-i");
    for n in 7..=12 {
        let name = format!("hoyito-i-{n}");
        let sized = variant(&name);
        assert_eq!(sized.holes_per_row(), n);
        assert_eq!(sized.total_seeds(), 8 * n as u32);
        let mut program = sized.program.clone();
        program.board = base.program.board.clone();
        assert_eq!(program, base.program, "{name} changes more than the board");
        let text = std::fs::read_to_string(path(&format!("variants/{name}.sow"))).unwrap();
        // Beside its provenance, the file says only what it extends and its board size.
        let rules: Vec<&str> = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .filter(|l| !l.starts_with("game ") && !l.contains(": \"") && !l.ends_with('{'))
            .filter(|l| *l != "}")
            .collect();
        assert_eq!(
            rules,
            [
                "extends \"hoyito-i.sow\"".to_string(),
                format!("holes: {n} per row")
            ],
            "{name}"
        );
    }
}

#[test]
fn hoyito_ii_is_marked_as_a_reconstruction() {
    let rules = variant("hoyito-ii");
    assert!(!rules.provenance.get("reconstruction").is_empty());
    assert!(rules.reading_numbers().contains(&15));
}

#[test]
fn the_r7_alternative_is_a_short_file_that_changes_one_rule() {
    let base = variant("ayoayo");
    let alt = variant("ayoayo-r7-lone-seed");
    assert_ne!(base.hash(), alt.hash());
    let mut program = alt.program.clone();
    program.captures = base.program.captures.clone();
    assert_eq!(program, base.program);
    let text = std::fs::read_to_string(path("variants/ayoayo-r7-lone-seed.sow")).unwrap();
    assert!(text.lines().count() <= 12);
}

#[test]
fn origin_skipping_from_twelve_and_always_are_the_same_rule_on_two_by_six() {
    // R6: fewer than 12 seeds never come back round to the origin on 2×6.
    let ayoayo = variant("ayoayo");
    assert_eq!(
        ayoayo.program.sowing.origin_skip,
        OriginSkip::FromSeeds(1, SkipLaps::Every)
    );
    let dir = path("variants");
    let always = sowlab::lang::compile_text(
        "always.sow",
        "extends \"ayoayo.sow\"\nsowing { skip origin: always on every lap }",
        &dir,
    )
    .unwrap();
    assert_eq!(always.hash(), ayoayo.hash());
}

#[test]
fn kalah_sows_its_own_store_and_oware_keeps_stores_unsown() {
    assert_eq!(variant("kalah").program.board.stores, Stores::Sown);
    assert_eq!(variant("oware").program.board.stores, Stores::Kept);
    assert_eq!(variant("hoyito-i").program.board.stores, Stores::None);
}

#[test]
fn set_overrides_board_parameters() {
    let file = path("variants/hoyito-i.sow");
    let settings = [
        ("holes".to_string(), "9".to_string()),
        ("seeds".to_string(), "5".to_string()),
    ];
    let rules = sowlab::lang::compile_path(&file, &settings).unwrap();
    assert_eq!(rules.holes_per_row(), 9);
    assert_eq!(rules.total_seeds(), 90);
    assert_eq!(rules.hash(), {
        let nine =
            sowlab::lang::compile_path(&path("variants/hoyito-i-9.sow"), &settings[1..]).unwrap();
        nine.hash()
    });
}
