//! Bytes → a command line from sowlab's flag grammar → `sowlab::cli::run_with`, in process: it
//! must not panic. The grammar (`tests/integration/cli_grammar.rs`) is shared with the test
//! `cli_fuzz`, which runs a few hundred command lines in every `cargo test`; values that would
//! make a run long are left out of it, and everything is written under a scratch directory
//! in the system's temporary directory.

#![no_main]

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use sowlab::cli::{run_with, Console};

#[path = "../../tests/integration/cli_grammar.rs"]
mod cli_grammar;

/// `sowlab-fuzz-cli-PID/scratch` in the temporary directory, so a report's scratch and old
/// directories, made beside its `--out`, stay inside `sowlab-fuzz-cli-PID`.
fn scratch() -> &'static Path {
    static SCRATCH: OnceLock<PathBuf> = OnceLock::new();
    SCRATCH.get_or_init(|| {
        let dir = std::env::temp_dir()
            .join(format!("sowlab-fuzz-cli-{}", std::process::id()))
            .join("scratch");
        std::fs::create_dir_all(&dir).expect("a scratch directory");
        dir
    })
}

fuzz_target!(|data: &[u8]| {
    let places = cli_grammar::Places {
        root: Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")),
        scratch: scratch(),
    };
    let args = cli_grammar::command_line(data, &places);
    let (mut out, mut err) = (std::io::sink(), std::io::sink());
    let mut console = Console {
        out: &mut out,
        err: &mut err,
        terminal: false,
    };
    let _ = run_with(args, &mut console);
});
