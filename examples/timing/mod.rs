//! What the timed programs of `examples/` share: their command line, the variant they play,
//! and the line they print.

use std::time::Instant;

/// `PROGRAM VARIANT.sow MOVES [--FLAG...]`.
pub struct Args {
    pub path: String,
    pub moves: u64,
}

impl Args {
    /// The program's arguments, and for each flag of `known` whether it was given; exits 2
    /// with `usage` if the file or the moves are missing or a flag is not one of `known` (a
    /// misspelt flag must not time the wrong loop).
    pub fn parse<const N: usize>(usage: &str, known: [&str; N]) -> (Args, [bool; N]) {
        let (flags, positional): (Vec<String>, Vec<String>) =
            std::env::args().skip(1).partition(|a| a.starts_with("--"));
        let flags_known = flags.iter().all(|f| known.contains(&f.as_str()));
        let given = match positional.as_slice() {
            [path, moves] if flags_known => moves.parse().ok().map(|moves| (path.clone(), moves)),
            _ => None,
        };
        let Some((path, moves)) = given else {
            eprintln!("usage: {usage}");
            std::process::exit(2);
        };
        let set = known.map(|name| flags.iter().any(|f| f == name));
        (Args { path, moves }, set)
    }

    /// The variant's rules; exits 1 with the diagnostics if they do not compile.
    pub fn rules(&self) -> sowlab::rules::Rules {
        sowlab::lang::compile_path(std::path::Path::new(&self.path), &[]).unwrap_or_else(|error| {
            eprintln!("{error}");
            std::process::exit(1);
        })
    }
}

/// Prints `MOVES moves GAMES games RATE Mmoves/s`, the rate last but one (what
/// `benches/paired.sh` and `benches/share.sh` read).
pub fn report(played: u64, games: u64, clock: Instant) {
    let seconds = clock.elapsed().as_secs_f64();
    println!(
        "{played} moves {games} games {:.2} Mmoves/s",
        played as f64 / seconds / 1e6
    );
}
