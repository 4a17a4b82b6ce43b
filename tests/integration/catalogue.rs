//! The catalogue of public two-row games (`variants/catalogue/`): every file compiles, names
//! its published source, plays 1,000 random games that conserve every seed and end, and has a
//! hand-worked golden case of its distinctive rule (`tests/golden/catalogue/<name>/`); and
//! `docs/catalogue.md` is the page the README's command makes of every variant today.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sowlab::engine::Game;

use super::util::{path, sowlab, variant};

/// The catalogue's games, as `catalogue/<name>`.
fn catalogue() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(path("variants/catalogue"))
        .expect("variants/catalogue exists")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter_map(|n| n.strip_suffix(".sow").map(|n| format!("catalogue/{n}")))
        .collect();
    names.sort();
    names
}

#[test]
fn the_catalogue_holds_sixty_public_games_with_their_sources() {
    let names = catalogue();
    assert!(names.len() >= 60, "only {} catalogue games", names.len());
    for name in &names {
        let rules = variant(name);
        assert!(
            !rules.provenance.get("source").is_empty(),
            "{name} names no source"
        );
        assert!(
            !rules.provenance.get("region").is_empty(),
            "{name} names no region"
        );
    }
}

#[test]
fn every_catalogue_game_plays_a_thousand_random_games_conserving_seeds() {
    for name in catalogue() {
        let rules = variant(&name);
        let total = rules.total_seeds();
        let mut rng = ChaCha8Rng::seed_from_u64(17);
        for game_number in 0..1000 {
            let mut game = Game::new(&rules);
            // Every state of the first games is checked; the rest at their end.
            if game_number < 20 {
                let mut moves = 0;
                while game.play_random(&mut rng).is_some() {
                    moves += 1;
                    let p = game.position();
                    let held =
                        p.board_seeds() + p.stores().iter().map(|&s| u32::from(s)).sum::<u32>();
                    assert_eq!(held, total, "{name}: game {game_number}, move {moves}");
                }
            } else {
                game.random_playout(&mut rng);
            }
            assert!(game.is_over(), "{name}: game {game_number} did not end");
            let p = game.position();
            let held = p.board_seeds() + p.stores().iter().map(|&s| u32::from(s)).sum::<u32>();
            assert_eq!(held, total, "{name}: game {game_number} loses seeds");
        }
    }
}

#[test]
fn every_catalogue_game_has_a_golden_case() {
    for name in catalogue() {
        let dir = path(&format!("tests/golden/{name}"));
        let cases = std::fs::read_dir(&dir)
            .map(|d| {
                d.filter_map(Result::ok)
                    .filter(|e| e.path().extension().is_some_and(|x| x == "trace"))
                    .count()
            })
            .unwrap_or(0);
        assert!(cases > 0, "{name} has no golden case in {}", dir.display());
    }
}

/// The README's `sowlab catalogue ... --out docs/catalogue.md`, run with `--check`: the page
/// made now, compared byte for byte with the checked-in one.
#[test]
fn docs_catalogue_md_is_the_page_the_readme_command_makes_now() {
    let command = super::readme::readme_commands()
        .into_iter()
        .find(|c| c[0] == "catalogue" && c.iter().any(|w| w == "docs/catalogue.md"))
        .expect("the README gives the command that makes docs/catalogue.md");
    let out = sowlab().args(&command).arg("--check").output().unwrap();
    assert!(
        out.status.success(),
        "docs/catalogue.md is not what `sowlab {}` makes now; run it (`cargo run --release -- {0}`) and commit the page:\n{}",
        command.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
}
