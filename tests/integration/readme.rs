//! The README's commands run as written: every `sowlab ...` line of its tour, and the main
//! command, with their output sent to a temporary directory and fewer games.

use crate::util;

/// The `sowlab` command lines of the README's shell blocks, continuation lines joined, with
/// `cargo run --release --` read as `sowlab`.
pub fn readme_commands() -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(util::path("README.md")).expect("README.md reads");
    let mut commands = Vec::new();
    let mut in_shell = false;
    let mut pending = String::new();
    for line in text.lines() {
        if line.starts_with("```") {
            in_shell = line == "```sh";
            continue;
        }
        if !in_shell {
            continue;
        }
        let code = line.split(" # ").next().unwrap_or("").trim();
        pending.push_str(code.trim_end_matches('\\'));
        pending.push(' ');
        if code.ends_with('\\') {
            continue;
        }
        let line = std::mem::take(&mut pending);
        let line = line.replace("cargo run --release --", "sowlab");
        let words: Vec<String> = line
            .split_whitespace()
            .map(|w| w.replace('"', ""))
            .collect();
        // Lines with shell variables belong to a batch system's script, not to a shell here.
        if words.first().is_some_and(|w| w == "sowlab")
            && words.len() > 1
            && !words.iter().any(|w| w.contains('$'))
        {
            commands.push(words[1..].to_vec());
        }
    }
    commands
}

/// Runs `args` as the README gives them, but writing into `scratch` and playing 2 games.
fn run(args: &[String], scratch: &std::path::Path) -> std::process::Output {
    let mut args = args.to_vec();
    for k in 1..args.len() {
        match args[k - 1].as_str() {
            "--out" => args[k] = scratch.join("out").to_string_lossy().into_owned(),
            // Pictures and pages go to the scratch directory too, under their own names.
            "--svg" | "--html" | "--picture" => {
                args[k] = scratch.join(&args[k]).to_string_lossy().into_owned();
            }
            "--games" => args[k] = "2".into(),
            _ => {}
        }
    }
    if args[0] == "fmt" {
        // The tour formats a file of the reader's own; format a copy of a shipped one.
        let copy = scratch.join("my-game.sow");
        std::fs::copy(util::path("variants/kalah.sow"), &copy).unwrap();
        args[1] = copy.to_string_lossy().into_owned();
    }
    if args[0] == "exact" {
        // The whole grid of every game takes minutes: one small board each here.
        args.extend(["--holes", "2", "--seeds", "1", "--max-nodes", "10000"].map(String::from));
    }
    // `--out` is a directory, or a file for `catalogue`.
    let _ = std::fs::remove_dir_all(scratch.join("out"));
    let _ = std::fs::remove_file(scratch.join("out"));
    let stdin = if args[0] == "play" { "quit\n" } else { "" };
    util::sowlab()
        .args(&args)
        .write_stdin(stdin)
        .output()
        .unwrap()
}

#[test]
fn the_readme_commands_run_as_written() {
    let commands = readme_commands();
    let names: Vec<&str> = commands.iter().map(|c| c[0].as_str()).collect();
    for expected in [
        "compare",
        "list",
        "check",
        "explain",
        "diff",
        "trace",
        "play",
        "fmt",
        "simulate",
        "sweep",
        "catalogue",
        "solve",
        "exact",
    ] {
        assert!(
            names.contains(&expected),
            "no `sowlab {expected}` in the README"
        );
    }
    let scratch = tempfile::tempdir().unwrap();
    for args in &commands {
        let output = run(args, scratch.path());
        // `diff` says 1 when the variants differ, as the README's tour pair does.
        let expected = if args[0] == "diff" { 1 } else { 0 };
        assert_eq!(
            output.status.code(),
            Some(expected),
            "sowlab {}\n{}",
            args.join(" "),
            String::from_utf8_lossy(&output.stderr)
        );
    }
}
