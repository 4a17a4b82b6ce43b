//! Regression tests for issue 29 ("no file outside what sowlab wrote is ever deleted or
//! overwritten"), one or more per finding: `r29_<finding>_<what>`, each failing before the
//! fix; and a property test that prepares hostile directories around `--out` at random.

use std::fs;
use std::os::unix::fs::{symlink, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::json;

use super::util::{path, sowlab, text, tree, Entry};

/// Runs `sowlab ARGS` from the repository root; its output (no panic allowed).
fn run(args: &[&str]) -> Output {
    let output = sowlab().args(args).output().expect("sowlab runs");
    assert!(
        !text(&output.stderr).contains("panicked"),
        "sowlab {args:?} panicked: {}",
        text(&output.stderr)
    );
    output
}

/// Runs `sowlab ARGS`, which must be refused: exit code 2 and one line on stderr, which is
/// returned.
fn refused(args: &[&str]) -> String {
    let output = run(args);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
    stderr
}

/// Runs `sowlab ARGS`, which must succeed; its stderr.
fn succeeds(args: &[&str]) -> String {
    let output = run(args);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{args:?}: {stderr}");
    stderr
}

/// The binary, run from the repository root by `sh` after `limits` (`ulimit -v 65536`, say).
fn limited(limits: &str) -> Command {
    let mut command = Command::new("sh");
    command
        .arg("-c")
        .arg(format!("{limits} && exec \"$0\" \"$@\""))
        .arg(assert_cmd::cargo::cargo_bin("sowlab"))
        .current_dir(path(""));
    command
}

fn shown(path: &Path) -> String {
    path.display().to_string()
}

const HOYITO: &str = "variants/hoyito-i.sow";

/// `compare`, `sweep` and `balance` of Hoyito I into `out`, two games a cell.
fn report_commands(out: &Path) -> [Vec<String>; 3] {
    let out = shown(out);
    let command = |head: &[&str]| -> Vec<String> {
        let tail = ["--games", "2", "--out", &out];
        head.iter().chain(&tail).map(ToString::to_string).collect()
    };
    [
        command(&["compare", HOYITO, "--agents", "random,random"]),
        command(&[
            "sweep",
            HOYITO,
            "--set",
            "holes=6..7",
            "--agents",
            "random,random",
        ]),
        command(&["balance", HOYITO, "--ladder", "random,greedy"]),
    ]
}

fn strs(words: &[String]) -> Vec<&str> {
    words.iter().map(String::as_str).collect()
}

/// Writes a marker into `dir` (created) saying sowlab wrote `files` there as `kind`.
fn plant_marker(dir: &Path, kind: &str, files: &[&str]) {
    fs::create_dir_all(dir).unwrap();
    let marker = json!({"tool": "sowlab", "kind": kind, "version": "0.1.0", "files": files});
    fs::write(dir.join(".sowlab"), marker.to_string()).unwrap();
}

/// Adds `names` to the manifest of the marker in `dir`.
fn add_to_marker(dir: &Path, names: &[&str]) {
    let at = dir.join(".sowlab");
    let mut marker: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&at).unwrap()).unwrap();
    for name in names {
        marker["files"].as_array_mut().unwrap().push(json!(name));
    }
    fs::write(&at, marker.to_string()).unwrap();
}

// ------------------------------------------------------------------------------ 1: markers

/// A marker naming `../victim.txt` or an absolute path had both deleted by the next report
/// into its directory, exit 0; so did a marker planted in `.NAME.partial` or `.NAME.old`
/// beside `--out`. Now the directory is refused, naming the name, and nothing changes.
#[test]
fn r29_1_a_marker_naming_files_outside_its_directory_deletes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let victim = tmp.path().join("victim.txt");
    let absolute = tmp.path().join("absolute.txt");
    for (i, command) in report_commands(&tmp.path().join("report"))
        .iter()
        .enumerate()
    {
        fs::write(&victim, "the user's\n").unwrap();
        fs::write(&absolute, "also the user's\n").unwrap();
        let out = tmp.path().join(format!("report-{i}"));
        let mut command = command.clone();
        *command.last_mut().unwrap() = shown(&out);
        succeeds(&strs(&command));
        add_to_marker(&out, &["../victim.txt", &shown(&absolute)]);
        let before = tree(tmp.path());
        let stderr = refused(&strs(&command));
        assert!(
            stderr.contains("`../victim.txt`") && stderr.contains("not a file directly inside it"),
            "{stderr}"
        );
        assert_eq!(tree(tmp.path()), before, "{command:?} changed files");
    }
    // Planted beside a new `--out`: the scratch directory and the old report's.
    for sibling in [".fresh.partial", ".fresh.old"] {
        let planted = tmp.path().join(sibling);
        plant_marker(&planted, "report", &["../victim.txt"]);
        for command in report_commands(&tmp.path().join("fresh")) {
            let before = tree(tmp.path());
            let stderr = refused(&strs(&command));
            assert!(stderr.contains(sibling), "{stderr}");
            assert_eq!(tree(tmp.path()), before, "{command:?} changed files");
        }
        fs::remove_dir_all(&planted).unwrap();
    }
}

// ------------------------------------------------------------------------------ 2: links

/// With `games.csv.partial` or `run.tmp` a link to `../victim` listed in the marker,
/// `simulate` wrote its files into the victim; a hard-linked `.sowlab` in an empty directory
/// had its target overwritten with the marker. Now each is refused and the victims keep
/// their bytes.
#[test]
fn r29_2_links_inside_a_marked_directory_are_never_written_through() {
    let tmp = tempfile::tempdir().unwrap();
    let victim = tmp.path().join("victim");
    fs::write(&victim, "precious\n").unwrap();
    let simulate = |out: &Path| {
        refused(&[
            "simulate",
            HOYITO,
            "--games",
            "5",
            "--agents",
            "random,random",
            "--out",
            &shown(out),
        ])
    };
    for name in ["games.csv.partial", "run.tmp", "checkpoint.json"] {
        let out = tmp.path().join(format!("run-{name}"));
        plant_marker(&out, "run", &[name]);
        symlink("../victim", out.join(name)).unwrap();
        let before = tree(tmp.path());
        let stderr = simulate(&out);
        assert!(stderr.contains(&format!("`{name}` is a link")), "{stderr}");
        assert_eq!(tree(tmp.path()), before);
    }
    // A hard link: to the marker in an otherwise empty directory, or to a listed file.
    let marker = tmp.path().join("hard-marker");
    fs::create_dir(&marker).unwrap();
    fs::hard_link(&victim, marker.join(".sowlab")).unwrap();
    let listed = tmp.path().join("hard-listed");
    plant_marker(&listed, "run", &["games.csv"]);
    fs::hard_link(&victim, listed.join("games.csv")).unwrap();
    for out in [&marker, &listed] {
        let before = tree(tmp.path());
        let stderr = simulate(out);
        assert!(stderr.contains("other links"), "{stderr}");
        assert_eq!(tree(tmp.path()), before);
    }
    assert_eq!(fs::read_to_string(&victim).unwrap(), "precious\n");
}

// ------------------------------------------------------------------------------ 3: play

/// `play`'s `save FILE` overwrote any file (the variant being played, read-only files) and
/// replaced links. Now `save` refuses a file that exists, `save!` replaces only a writable
/// regular file, and neither writes through a link.
#[test]
fn r29_3_play_save_never_overwrites_a_file_unless_asked() {
    let tmp = tempfile::tempdir().unwrap();
    let game = tmp.path().join("my.sow");
    fs::copy(path("variants/kalah.sow"), &game).unwrap();
    let rules = fs::read(&game).unwrap();
    let play = |commands: &str| {
        let output = sowlab()
            .args([
                "play",
                &shown(&game),
                "--set",
                "holes=3",
                "--set",
                "seeds=2",
            ])
            .write_stdin(commands)
            .output()
            .unwrap();
        (output.status.code(), text(&output.stdout))
    };
    // The variant itself.
    let (code, out) = play(&format!("0\nsave {}\nquit\n", shown(&game)));
    assert_eq!(code, Some(2), "{out}");
    assert!(out.contains("exists; `save! FILE` replaces it"), "{out}");
    assert_eq!(fs::read(&game).unwrap(), rules);
    // Read-only, and a link, even with `save!`.
    let read_only = tmp.path().join("read-only.txt");
    fs::write(&read_only, "mine\n").unwrap();
    fs::set_permissions(&read_only, fs::Permissions::from_mode(0o444)).unwrap();
    let victim = tmp.path().join("victim.txt");
    fs::write(&victim, "mine too\n").unwrap();
    let link = tmp.path().join("link.txt");
    symlink(&victim, &link).unwrap();
    let before = tree(tmp.path());
    for (file, why) in [(&read_only, "read-only"), (&link, "a link")] {
        let (code, out) = play(&format!("0\nsave! {}\nquit\n", shown(file)));
        assert_eq!(code, Some(2), "{out}");
        assert!(out.contains(why), "{out}");
    }
    assert_eq!(tree(tmp.path()), before);
    // A new file, then replaced when asked.
    let moves = tmp.path().join("moves.txt");
    let (code, out) = play(&format!("0\nsave {0}\n4\nsave! {0}\nquit\n", shown(&moves)));
    assert_eq!(code, Some(0), "{out}");
    assert_eq!(fs::read_to_string(&moves).unwrap().lines().count(), 1);
    assert!(fs::read_to_string(&moves).unwrap().split(',').count() >= 2);
}

// ------------------------------------------------------------------------------ 4: memory

/// `simulate --match --moves` held two batches of 1,024 whole matches with every move: 3 GB
/// for 1,040 matches of Hoyito I on 12 holes. Now each match is handed to the writer as it
/// ends: 100 matches of Hoyito I on 9 holes (66 MB of moves) run in 64 MB of address space
/// (the old code needed about 90 MB of memory for them).
#[test]
fn r29_4_match_runs_with_moves_stream_in_flat_memory() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("matches");
    let output = limited("ulimit -v 65536")
        .args([
            "simulate",
            &shown(&path("variants/hoyito-i-9.sow")),
            "--match",
            "--moves",
        ])
        .args([
            "--games",
            "50",
            "--agents",
            "random,random",
            "--threads",
            "2",
        ])
        .arg("--out")
        .arg(&out)
        // One malloc arena: the address space is then what the run uses, not per-thread
        // reservations.
        .env("MALLOC_ARENA_MAX", "1")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let matches = fs::read_to_string(out.join("matches.csv")).unwrap();
    assert_eq!(matches.lines().count(), 101);
    assert!(fs::metadata(out.join("moves.csv")).unwrap().len() > 32 << 20);
}

// ------------------------------------------------------------------------------ 5: charts

/// A file `FILE` in `dir` that extends Kalah under the name `name`: its path.
fn kalah_named(dir: &Path, file: &str, name: &str) -> String {
    let file = dir.join(file);
    let kalah = shown(&path("variants/kalah.sow"));
    let text = format!("extends \"{kalah}\"\ngame \"{name}\" {{ source: \"a test\" }}\n");
    fs::write(&file, text).unwrap();
    shown(&file)
}

/// `balance` of `files` on Kalah's smallest board, random against greedy, into `out`.
fn small_balance(files: &[String], out: &Path) {
    let mut args: Vec<&str> = vec!["balance"];
    args.extend(strs(files));
    args.extend([
        "--ladder",
        "random,greedy",
        "--games",
        "2",
        "--set",
        "holes=3",
    ]);
    args.extend(["--set", "seeds=2", "--out"]);
    let out = shown(out);
    args.push(&out);
    succeeds(&args);
}

/// `balance` named charts after a slug of the variant's name: "Oware!" and "oware?" both
/// wrote `seats-oware.svg`, and one variant's section showed the other's chart. Now charts
/// are numbered as the variants are given.
#[test]
fn r29_5_two_variants_whose_names_read_alike_have_a_chart_each() {
    let tmp = tempfile::tempdir().unwrap();
    let files = [
        kalah_named(tmp.path(), "0.sow", "Oware!"),
        kalah_named(tmp.path(), "1.sow", "oware?"),
    ];
    let out = tmp.path().join("balance");
    small_balance(&files, &out);
    let page = fs::read_to_string(out.join("index.md")).unwrap();
    let first = page.find("## Oware!").unwrap();
    let second = page.find("## oware?").unwrap();
    let one = page.find("seats-1-oware.png").unwrap();
    let two = page.find("seats-2-oware.png").unwrap();
    assert!(first < one && one < second && second < two, "{page}");
    assert_ne!(
        fs::read(out.join("seats-1-oware.svg")).unwrap(),
        fs::read(out.join("seats-2-oware.svg")).unwrap()
    );
}

// ------------------------------------------------------------------------------ 6: medium

/// The marker was truncated and rewritten in place: a kill in between left it empty and the
/// directory disowned. Now it is replaced whole (a new file, renamed over it), and what a
/// kill can leave, its temporary file, does not disown the directory.
#[test]
fn r29_6_the_marker_is_replaced_whole_and_a_leftover_does_not_disown() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("run");
    let args = [
        "simulate",
        HOYITO,
        "--games",
        "5",
        "--agents",
        "random,random",
        "--out",
        &shown(&out),
    ];
    succeeds(&args);
    // The marker as it was, held open: a marker rewritten in place would change under it.
    let marker = out.join(".sowlab");
    let written = fs::read(&marker).unwrap();
    let mut held = fs::File::open(&marker).unwrap();
    fs::write(out.join(".sowlab.tmp"), "{\"tool\": \"sow").unwrap();
    let mut resume = args.to_vec();
    resume.push("--resume");
    let stderr = succeeds(&resume);
    assert!(stderr.contains("already holds this run"), "{stderr}");
    let mut still = Vec::new();
    std::io::Read::read_to_end(&mut held, &mut still).unwrap();
    assert_eq!(still, written, "the marker was rewritten in place");
    assert!(!out.join(".sowlab.tmp").exists());
}

/// `compare --out link`, with `link` a symbolic link to an earlier report, emptied that
/// report and renamed the link, then failed, and every later run failed the same way. Now
/// the link is resolved once, said, and the report replaced where it points.
#[test]
fn r29_6_a_report_into_a_link_goes_where_the_link_points() {
    let tmp = tempfile::tempdir().unwrap();
    let real = tmp.path().join("real");
    let link = tmp.path().join("link");
    let [compare, ..] = report_commands(&real);
    succeeds(&strs(&compare));
    symlink("real", &link).unwrap();
    let mut through = compare.clone();
    *through.last_mut().unwrap() = shown(&link);
    for _ in 0..2 {
        let stderr = succeeds(&strs(&through));
        assert!(
            stderr.starts_with(&format!("note: `{}` is a link; writing to `", shown(&link))),
            "{stderr}"
        );
        assert_eq!(fs::read_link(&link).unwrap(), PathBuf::from("real"));
        assert!(real.join("index.md").is_file());
    }
    let names: Vec<String> = fs::read_dir(tmp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
}

/// `fmt` replaced a link with a formatted copy, broke hard links and rewrote read-only
/// files. Now a link is kept and the file it names formatted, hard links keep sharing the
/// formatted text, permissions are kept, and a read-only file is refused.
#[test]
fn r29_6_fmt_keeps_links_hard_links_and_permissions_and_refuses_read_only_files() {
    let tmp = tempfile::tempdir().unwrap();
    let messy = "game \"M\"{source:\"s\"}\nboard{holes:6}\n";
    let tidy = "game \"M\" {\n  source: \"s\"\n}\n\nboard {\n  holes: 6\n}\n";
    let file = |name: &str| tmp.path().join(name);
    fs::write(file("target.sow"), messy).unwrap();
    symlink("target.sow", file("link.sow")).unwrap();
    fs::write(file("shared.sow"), messy).unwrap();
    fs::hard_link(file("shared.sow"), file("other-name.sow")).unwrap();
    fs::set_permissions(file("shared.sow"), fs::Permissions::from_mode(0o640)).unwrap();
    for name in ["link.sow", "shared.sow"] {
        run(&["fmt", &shown(&file(name))]);
    }
    assert_eq!(
        fs::read_link(file("link.sow")).unwrap(),
        PathBuf::from("target.sow")
    );
    assert_eq!(fs::read_to_string(file("target.sow")).unwrap(), tidy);
    assert_eq!(fs::read_to_string(file("other-name.sow")).unwrap(), tidy);
    let shared = fs::metadata(file("shared.sow")).unwrap();
    assert_eq!(
        (shared.nlink(), shared.permissions().mode() & 0o777),
        (2, 0o640)
    );
    // Read-only: refused, unchanged; nothing is left beside it.
    fs::write(file("locked.sow"), messy).unwrap();
    fs::set_permissions(file("locked.sow"), fs::Permissions::from_mode(0o444)).unwrap();
    let stderr = refused(&["fmt", &shown(&file("locked.sow"))]);
    assert!(stderr.contains("read-only"), "{stderr}");
    assert_eq!(fs::read_to_string(file("locked.sow")).unwrap(), messy);
    assert_eq!(fs::read_dir(tmp.path()).unwrap().count(), 5);
}

/// `merge` checked the rows' count but not the rows: a shard holding another seed's rows, or
/// another shard's, merged with exit 0. Now every row is checked against its place.
#[test]
fn r29_6_merge_checks_the_rows_themselves() {
    let tmp = tempfile::tempdir().unwrap();
    let at = |name: &str| tmp.path().join(name);
    let shard = |name: &str, seed: &str, k: &str| {
        let out = shown(&at(name));
        succeeds(&[
            "simulate",
            HOYITO,
            "--games",
            "10",
            "--agents",
            "random,random",
            "--seed",
            seed,
            "--shard",
            k,
            "--out",
            &out,
        ]);
    };
    shard("s1", "1", "1/2");
    shard("s2", "1", "2/2");
    shard("other-seed", "2", "2/2");
    let merged = |name: &str| shown(&at(name));
    succeeds(&[
        "merge",
        &merged("s1"),
        &merged("s2"),
        "--out",
        &merged("whole"),
    ]);
    // Shard 2 holding another seed's games, then shard 1's.
    for (from, why) in [
        ("other-seed", "has seed"),
        ("s1", "is not the one that follows"),
    ] {
        fs::copy(at(from).join("games.csv"), at("s2").join("games.csv")).unwrap();
        let out = format!("bad-{from}");
        let stderr = refused(&[
            "merge",
            &merged("s1"),
            &merged("s2"),
            "--out",
            &merged(&out),
        ]);
        assert!(
            stderr.contains("games.csv` row 1") && stderr.contains(why),
            "{stderr}"
        );
        assert!(!at(&out).exists(), "a refused merge leaves nothing");
    }
}

/// `--resume` and `merge` said "other variants, agents, games or seed" when only the spelling
/// of a variant's path, or the build, differed. Now they name what differs.
#[test]
fn r29_6_a_refused_resume_names_what_differs() {
    let tmp = tempfile::tempdir().unwrap();
    let out = shown(&tmp.path().join("run"));
    succeeds(&[
        "simulate",
        HOYITO,
        "--games",
        "5",
        "--agents",
        "random,random",
        "--out",
        &out,
    ]);
    let stderr = refused(&[
        "simulate",
        "./variants/hoyito-i.sow",
        "--games",
        "5",
        "--agents",
        "random,random",
        "--out",
        &out,
        "--resume",
    ]);
    assert!(
        stderr.contains(
            "variant 1's file: `variants/hoyito-i.sow` there, `./variants/hoyito-i.sow` here"
        ),
        "{stderr}"
    );
    let stderr = refused(&[
        "simulate",
        HOYITO,
        "--games",
        "6",
        "--agents",
        "random,random",
        "--out",
        &out,
        "--resume",
    ]);
    assert!(stderr.contains("games: 5 there, 6 here"), "{stderr}");
}

// ------------------------------------------------------------------------------ 7: low

/// `--out .` played every game, then failed to put the report in place. Now it is refused
/// before anything is played.
#[test]
fn r29_7_a_report_into_the_current_directory_is_refused_first() {
    let tmp = tempfile::tempdir().unwrap();
    let output = sowlab()
        .current_dir(tmp.path())
        .args(["compare", &shown(&path(HOYITO)), "--games", "100000"])
        .args(["--agents", "random,random", "--out", "."])
        .timeout(std::time::Duration::from_secs(10))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(
        text(&output.stderr).contains("current directory"),
        "{}",
        text(&output.stderr)
    );
    assert_eq!(fs::read_dir(tmp.path()).unwrap().count(), 0);
}

/// Folder walks skipped linked `.sow` files and deep folders without a word. Now a linked
/// file is checked, and a folder passed over is named on stderr with the reason.
#[test]
fn r29_7_folder_walks_take_linked_files_and_say_what_they_pass_over() {
    let tmp = tempfile::tempdir().unwrap();
    symlink(path("variants/kalah.sow"), tmp.path().join("kalah.sow")).unwrap();
    symlink(path("variants"), tmp.path().join("all")).unwrap();
    let mut deep = tmp.path().to_path_buf();
    for level in 0..17 {
        deep.push(format!("d{level}"));
    }
    fs::create_dir_all(&deep).unwrap();
    fs::copy(path("variants/oware.sow"), deep.join("oware.sow")).unwrap();
    let output = run(&["check", &shown(tmp.path())]);
    let (stdout, stderr) = (text(&output.stdout), text(&output.stderr));
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(
        stdout.contains("kalah.sow") && stdout.lines().count() == 1,
        "{stdout}"
    );
    assert!(stderr.contains("all`: a link to a folder"), "{stderr}");
    assert!(stderr.contains("d16`: deeper than 16 folders"), "{stderr}");
}

/// `check` of a rule file holding `text`, which must find errors in it: its stderr.
fn check_errors(text_of_file: &str) -> String {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("bad.sow");
    fs::write(&file, text_of_file).unwrap();
    let output = run(&["check", &shown(&file)]);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    stderr
}

/// `extends` read any file and `check` printed its lines (`extends "/etc/passwd"`). Now a
/// file that is not a `.sow` file is refused before it is read.
#[test]
fn r29_7_extends_reads_only_rule_files() {
    let stderr = check_errors("extends \"/etc/passwd\"\ngame \"G\" { source: \"s\" }\n");
    assert!(stderr.contains("not a `.sow` file"), "{stderr}");
    assert!(!stderr.contains("root:"), "{stderr}");
}

/// Terminal escape sequences in a variant's name were printed raw by every command. Now a
/// text may hold no control character but tab and line break, and a diagnostic shows any
/// in the file as `?`.
#[test]
fn r29_7_escape_sequences_never_reach_the_terminal() {
    let stderr =
        check_errors("game \"\u{1b}[2J\u{1b}]0;owned\u{7}Red\" { source: \"s\" }\n# \u{1b}[31m\n");
    assert!(
        !stderr.contains('\u{1b}') && !stderr.contains('\u{7}'),
        "{stderr:?}"
    );
    assert!(stderr.contains("bad.sow:1:7"), "{stderr}");
}

/// `play` read a whole line into memory (a 300 MB line cost 927 MB), and its suggested
/// replay command was not quoted for the shell. Now a line over 4 KiB is skipped unread, and
/// paths are quoted.
#[test]
fn r29_7_play_skips_long_lines_and_quotes_its_replay_command() {
    let tmp = tempfile::tempdir().unwrap();
    let game = tmp.path().join("my game.sow");
    fs::copy(path("variants/kalah.sow"), &game).unwrap();
    let save = tmp.path().join("it's saved.txt");
    let long = "9".repeat(50 << 20);
    let output = limited("ulimit -v 131072")
        .args([
            "play",
            &shown(&game),
            "--set",
            "holes=3",
            "--set",
            "seeds=2",
        ])
        .env("MALLOC_ARENA_MAX", "1")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            let mut stdin = child.stdin.take().unwrap();
            let input = format!("{long}\n0\nsave {}\nquit\n", shown(&save));
            std::thread::spawn(move || stdin.write_all(input.as_bytes()));
            child.wait_with_output()
        })
        .unwrap();
    let stdout = text(&output.stdout);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        &stdout[..stdout.len().min(2000)]
    );
    assert!(stdout.contains("a line of more than 4096 bytes is no command; it was ignored"));
    let quoted = format!(
        "`sowlab trace '{}' --set holes=2 --set seeds=2 --moves \"$(cat '{}')\"` replays them",
        shown(&game),
        shown(&save).replace('\'', "'\\''")
    )
    .replace("holes=2", "holes=3");
    assert!(stdout.contains(&quoted), "{stdout}");
}

/// `solve` printed an estimate that had saturated at 2^128 as if it were a count. Without a
/// limit on states, the same board is refused because its key cannot hold it.
#[test]
fn r29_7_solve_says_a_saturated_estimate_is_no_count() {
    let args = [
        "solve",
        "variants/kalah.sow",
        "--set",
        "holes=16",
        "--set",
        "seeds=1000",
    ];
    let stderr = refused(&[&args[..], &["--max-states", "5000000"]].concat());
    assert!(
        stderr.contains("more than 3.4e38 estimated states"),
        "{stderr}"
    );
    let stderr = refused(&args);
    assert!(
        stderr.contains("do not fit the table's 128-bit key"),
        "{stderr}"
    );
}

/// A shard's run.json gave the command without its `--shard`, and a run of one game said
/// "wrote 1 games".
#[test]
fn r29_7_a_shard_records_its_shard_and_one_game_is_one_game() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("shard");
    let stderr = succeeds(&[
        "simulate",
        HOYITO,
        "--games",
        "1",
        "--agents",
        "random,random",
        "--shard",
        "1/2",
        "--out",
        &shown(&out),
    ]);
    assert!(stderr.starts_with("wrote 1 game to "), "{stderr}");
    let run: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(out.join("run.json")).unwrap()).unwrap();
    assert!(
        run["command"].as_str().unwrap().ends_with(" --shard 1/2"),
        "{run}"
    );
}

/// A full disk gave raw debug text (`IOError(Os { code: 28, … })`) from the chart writer, and
/// a long variant name failed with "File name too long" only after every game was played.
/// Now charts are written as every other file, and their names are cut short.
#[test]
fn r29_7_a_full_disk_and_long_names_give_plain_errors() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("report");
    // A file size limit stands in for a full disk (the signal it raises is ignored, so the
    // write fails instead).
    let output = limited("trap '' XFSZ; ulimit -f 40")
        .args([
            "compare",
            HOYITO,
            "--games",
            "2",
            "--agents",
            "random,random",
        ])
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("File too large") && !stderr.contains("Os {"),
        "{stderr}"
    );
    assert!(!out.exists());
    let long = kalah_named(tmp.path(), "long.sow", &"Long ".repeat(60));
    let out = tmp.path().join("balance");
    small_balance(&[long], &out);
    assert!(out
        .join("seats-1-long-long-long-long-long-long-long-long.svg")
        .is_file());
}

// ------------------------------------------------------------------------------ property

/// The names a hostile directory's marker may list, and its entries may have.
const NAMES: &[&str] = &[
    "games.csv",
    "games.csv.partial",
    "run.json",
    "run.tmp",
    "checkpoint.json",
    "index.md",
    "summary.csv",
    "../victim.txt",
    "../outside/inside.txt",
    "/",
    "",
    ".",
    "..",
    "a/b",
    "notes.txt",
];

/// A small deterministic stream of choices from a seed.
struct Choices(u64);

impl Choices {
    fn next(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.next(100) < percent
    }
}

/// Fills `dir` (maybe) as a stranger might: a marker of either kind listing some of the
/// names, and entries of those names: the user's files, links to files outside, hard links
/// to them, folders.
fn prepare(dir: &Path, outside: &Path, choices: &mut Choices) {
    if choices.chance(20) {
        return;
    }
    fs::create_dir_all(dir).unwrap();
    if choices.chance(75) {
        let kind = ["run", "report"][choices.next(2)];
        let listed: Vec<&str> = (0..choices.next(5))
            .map(|_| NAMES[choices.next(NAMES.len())])
            .collect();
        plant_marker(dir, kind, &listed);
        if choices.chance(10) {
            fs::remove_file(dir.join(".sowlab")).unwrap();
            fs::hard_link(outside.join("victim.txt"), dir.join(".sowlab")).unwrap();
        }
    }
    for _ in 0..choices.next(4) {
        let name = NAMES[choices.next(NAMES.len())];
        if name.is_empty() || name.contains('/') || name.starts_with('.') {
            continue;
        }
        let at = dir.join(name);
        if fs::symlink_metadata(&at).is_ok() {
            continue;
        }
        match choices.next(4) {
            0 => fs::write(&at, "the user's own\n").unwrap(),
            1 => symlink(outside.join("victim.txt"), &at).unwrap(),
            2 => fs::hard_link(outside.join("inside.txt"), &at).unwrap(),
            _ => fs::create_dir(&at).unwrap(),
        }
    }
}

/// Whether `path` was, before the run, a file sowlab may replace: its marker, or a regular
/// file named plainly in the marker of its directory.
fn replaceable(path: &Path, before: &[(PathBuf, Entry)]) -> bool {
    let entry = |p: &Path| before.iter().find(|(q, _)| q == p).map(|(_, e)| e);
    let (Some(dir), Some(name)) = (path.parent(), path.file_name().and_then(|n| n.to_str())) else {
        return false;
    };
    if name == ".sowlab" {
        return true;
    }
    let Some(Entry::File(marker, _)) = entry(&dir.join(".sowlab")) else {
        return false;
    };
    let listed = serde_json::from_slice::<serde_json::Value>(marker).is_ok_and(|m| {
        m["files"]
            .as_array()
            .is_some_and(|f| f.iter().any(|n| n == name))
    });
    listed && matches!(entry(path), Some(Entry::File(..)))
}

/// Around a `--out`, a stranger prepares at random: markers (of either kind, listing names
/// inside, outside and absolute), links and hard links to files outside, the user's own
/// files and folders, in `--out` and in `.NAME.partial` and `.NAME.old` beside it, and
/// `--out` itself may be a link. Whatever `simulate`, `compare`, `sweep`, `balance` or
/// `merge` then does, no file outside `--out`, its siblings and its link's target changes,
/// and inside them only files sowlab could have written are replaced.
#[test]
fn no_prepared_directory_makes_sowlab_change_a_file_it_did_not_write() {
    let cases: u64 = std::env::var("SOWLAB_HOSTILE_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(40);
    let shards = tempfile::tempdir().unwrap();
    let shard = |k: &str| {
        let out = shown(&shards.path().join(k));
        succeeds(&[
            "simulate",
            HOYITO,
            "--games",
            "3",
            "--agents",
            "random,random",
            "--shard",
            &format!("{k}/2"),
            "--out",
            &out,
        ]);
        out
    };
    let (one, two) = (shard("1"), shard("2"));
    let shards_before = tree(shards.path());
    for case in 0..cases {
        let mut choices = Choices(case + 1);
        let tmp = tempfile::tempdir().unwrap();
        let outside = tmp.path().join("outside");
        fs::create_dir(&outside).unwrap();
        fs::write(outside.join("victim.txt"), "victim\n").unwrap();
        fs::write(outside.join("inside.txt"), "inside\n").unwrap();
        let work = tmp.path().join("work");
        let named = work.join("out");
        let target = work.join("target");
        let linked = choices.chance(20);
        let out = if linked { &target } else { &named };
        prepare(out, &outside, &mut choices);
        for sibling in [".out.partial", ".out.old", ".target.partial", ".target.old"] {
            if choices.chance(30) {
                prepare(&work.join(sibling), &outside, &mut choices);
            }
        }
        fs::create_dir_all(&work).unwrap();
        if linked {
            symlink("target", &named).unwrap();
        }
        let given = shown(&named);
        let command: Vec<String> = match choices.next(5) {
            0 => [
                "simulate",
                HOYITO,
                "--games",
                "2",
                "--agents",
                "random,random",
                "--out",
                &given,
            ]
            .map(String::from)
            .to_vec(),
            4 => ["merge", &one, &two, "--out", &given]
                .map(String::from)
                .to_vec(),
            k => report_commands(&named)[k - 1].clone(),
        };
        let before = tree(tmp.path());
        let output = run(&strs(&command));
        let after = tree(tmp.path());
        // The directories sowlab may write: `--out` (where its link points) and the
        // scratch and old directories beside it.
        let dirs = [".partial", ".old"].map(|end| {
            let name = out.file_name().unwrap().to_string_lossy();
            work.join(format!(".{name}{end}"))
        });
        let ours = |p: &Path| {
            p == out
                || dirs.iter().any(|d| p == d)
                || p.parent()
                    .is_some_and(|d| d == out || dirs.contains(&d.to_path_buf()))
        };
        for (path, entry) in &before {
            let now = after.iter().find(|(p, _)| p == path).map(|(_, e)| e);
            if now == Some(entry) {
                continue;
            }
            let allowed = output.status.success()
                && ours(path)
                && (matches!(entry, Entry::Dir) && (path == out || dirs.contains(path))
                    || replaceable(path, &before));
            assert!(
                allowed,
                "case {case}: `{command:?}` (exit {:?}: {}) changed {} from {entry:?} to {now:?}",
                output.status.code(),
                text(&output.stderr),
                path.display()
            );
        }
        assert_eq!(
            fs::read_to_string(outside.join("victim.txt")).unwrap(),
            "victim\n",
            "case {case}"
        );
        assert_eq!(
            fs::read_to_string(outside.join("inside.txt")).unwrap(),
            "inside\n",
            "case {case}"
        );
        if linked {
            assert_eq!(
                fs::read_link(&named).unwrap(),
                PathBuf::from("target"),
                "case {case}"
            );
        }
    }
    assert_eq!(tree(shards.path()), shards_before, "the shards changed");
}
