//! The command line in process: a few hundred argument vectors built from the flag grammar
//! (`cli_grammar`, shared with the fuzz target `cli`) run through `sowlab::cli::run_with`.
//! None may panic; each ends with a documented exit code, and an error says something.
//! `SOWLAB_CLI_SHOW=1` prints each command line with its exit code and first line on stderr
//! (to see what the grammar reaches); `SOWLAB_CLI_CASES=n` runs n of them.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::process::ExitCode;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sowlab::cli::{run_with, Console};

use super::cli_grammar::{command_line, Places};
use crate::util;

/// Argument vectors per run; `SOWLAB_CLI_CASES` changes it.
const CASES: usize = 500;

#[test]
fn command_lines_from_the_flag_grammar_never_panic() {
    let cases = std::env::var("SOWLAB_CLI_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(CASES);
    let tmp = tempfile::tempdir().expect("a temporary directory");
    let scratch = tmp.path().join("scratch");
    std::fs::create_dir(&scratch).expect("a scratch directory");
    let places = Places {
        root: util::root(),
        scratch: &scratch,
    };
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for case in 0..cases {
        let bytes: Vec<u8> = (0..rng.gen_range(0..64)).map(|_| rng.gen()).collect();
        let args = command_line(&bytes, &places);
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let code = catch_unwind(AssertUnwindSafe(|| {
            let mut console = Console {
                out: &mut out,
                err: &mut err,
                terminal: false,
            };
            run_with(args.clone(), &mut console)
        }))
        .unwrap_or_else(|_| panic!("case {case} panicked: {args:?}"));
        let err = String::from_utf8_lossy(&err);
        let (success, found, failed) = (ExitCode::SUCCESS, ExitCode::from(1), ExitCode::from(2));
        assert!(
            [success, found, failed].contains(&code),
            "case {case}: {code:?} for {args:?}\n{err}"
        );
        if std::env::var_os("SOWLAB_CLI_SHOW").is_some() {
            eprintln!(
                "{code:?} {args:?}\n  {}",
                err.lines().next().unwrap_or_default()
            );
        }
        if code == failed {
            assert!(
                err.lines().any(|l| l.starts_with("error: ")),
                "case {case}: exit 2 without an error for {args:?}\n{err}"
            );
        }
    }
    // A report refused is refused before its scratch directory is made, and one made is
    // moved into place: none is left behind.
    for entry in std::fs::read_dir(&scratch).expect("the scratch directory") {
        let name = entry.expect("an entry").file_name();
        let name = name.to_string_lossy();
        assert!(
            !name.starts_with('.'),
            "{name} was left in {}",
            scratch.display()
        );
    }
}
