//! Command lines built from sowlab's flag grammar out of bytes: a subcommand, then flags and
//! arguments of the kinds it takes, with values drawn from lists of good, edge and bad ones
//! (huge, negative and empty numbers, missing files, directories, devices). Shared by the
//! fuzz target `cli` (`fuzz/fuzz_targets/cli.rs`, which includes this file) and the test
//! `cli_fuzz`, which runs a few hundred in every `cargo test`.
//!
//! Every value that would make a run long is left out: games, random moves, agents and board
//! settings are either small or out of range. Everything written goes under `scratch`.

use std::ffi::OsString;
use std::path::Path;

/// Where the files named in command lines are.
pub struct Places<'a> {
    /// The repository: `variants/`, `tests/bad/`.
    pub root: &'a Path,
    /// A directory the commands may write in.
    pub scratch: &'a Path,
}

/// The bytes, read one choice at a time; once they run out every choice is the first (and
/// the likeliest: a good value, an argument kept).
struct Choices<'a>(&'a [u8]);

impl Choices<'_> {
    fn byte(&mut self) -> u8 {
        let (&first, rest) = self.0.split_first().unwrap_or((&0, &[]));
        self.0 = rest;
        first
    }

    fn pick<'b>(&mut self, options: &[&'b str]) -> &'b str {
        options[usize::from(self.byte()) % options.len()]
    }

    fn value(&mut self, (good, bad): Values) -> &'static str {
        if self.byte() % 6 == 5 {
            self.pick(bad)
        } else {
            self.pick(good)
        }
    }
}

/// Each command's arguments: those it needs, and those it may take. `FILE` is a variant file
/// (or something else in its place), `DIR` an output or shard directory.
const GRAMMAR: &[(&str, &[&str], &[&str])] = &[
    ("check", &["FILE"], &["FILE", "--set"]),
    (
        "trace",
        &["FILE", "--random"],
        &["--moves", "--seed", "--json", "--set"],
    ),
    ("explain", &["FILE"], &["--set"]),
    ("diff", &["FILE", "FILE"], &["--set"]),
    (
        "simulate",
        &["FILE", "--games", "--agents", "--out"],
        &[
            "FILE",
            "--agents",
            "--seed",
            "--threads",
            "--moves",
            "--shard",
            "--resume",
            "--set",
        ],
    ),
    ("merge", &["DIR", "DIR", "--out"], &["DIR"]),
    (
        "compare",
        &["FILE", "--games", "--agents", "--out"],
        &["FILE", "--seed", "--threads", "--set"],
    ),
    (
        "sweep",
        &["FILE", "--set", "--games", "--agents", "--out"],
        &["--set", "--seed", "--threads"],
    ),
];

/// What stands in for a command now and then.
const NOT_COMMANDS: &[&str] = &["help", "--help", "--version", "bogus", ""];

/// Every flag of every command (each command refuses the others').
const FLAGS: &[&str] = &[
    "--games",
    "--agents",
    "--seed",
    "--threads",
    "--out",
    "--moves",
    "--random",
    "--shard",
    "--resume",
    "--set",
    "--json",
    "--help",
    "--nope",
];

/// Values of one kind: good ones, picked five times in six, and bad ones.
type Values = (&'static [&'static str], &'static [&'static str]);

const VARIANTS: Values = (
    &[
        "variants/hoyito-i.sow",
        "variants/oware.sow",
        "variants/kalah.sow",
        "variants/ayoayo.sow",
        "variants/hoyito-i-9.sow",
    ],
    &[
        "tests/bad/duplicate.sow",
        "tests/bad/syntax-several.sow",
        "tests/bad/extends-cycle.sow",
        "variants",
        "no-such.sow",
    ],
);

const DEVICES: &[&str] = &["/dev/null", "/dev/zero", "/", ""];

const GAMES: Values = (
    &["1", "2", "3"],
    &[
        "0",
        "-1",
        "",
        "1000000001",
        "9223372036854775808",
        "18446744073709551616",
        "abc",
        "1e3",
        " 2",
    ],
);

const AGENTS: Values = (
    &[
        "random,random",
        "greedy,random",
        "alphabeta:1,random",
        "mcts:2,greedy",
    ],
    &[
        "random",
        "random,random,random",
        "wizard,random",
        "alphabeta:0,random",
        "alphabeta:13,random",
        "mcts:1000001,random",
        "alphabeta:99999999999999999999,random",
        "",
        ",",
    ],
);

const SEEDS: Values = (
    &["0", "1", "18446744073709551615"],
    &["18446744073709551616", "-1", ""],
);

const THREADS: Values = (&["1", "2"], &["0", "10000", "-1", "", "x"]);

const SHARDS: Values = (
    &["1/1", "1/2", "2/2", "1/1000000"],
    &[
        "3/2",
        "0/1",
        "1/0",
        "1/1000001",
        "99999999999999999999/1",
        "",
    ],
);

const RANDOM: Values = (&["0", "1", "40"], &["10000001", "4294967295", "-1", ""]);

const MOVES: Values = (
    &["0", "0,6", "0,11,1,10,2,9,3,8,4,7,5,6"],
    &["7", "0,0", "99999999999999999999", "-1", ""],
);

const SETTINGS: Values = (
    &[
        "holes=9",
        "seeds=5",
        "cap=100",
        "starter=north",
        "holes=6..8",
        "seeds=3,4",
    ],
    &[
        "holes=17",
        "holes=0",
        "holes=99999999999",
        "seeds=0",
        "seeds=1001",
        "cap=0",
        "cap=99999999999",
        "starter=east",
        "width=3",
        "holes",
        "=",
        "holes=1..200",
        "holes=8..6",
    ],
);

/// The command line (program name first) that `bytes` spell: mostly a command with the
/// arguments it needs and a few it may take, sometimes anything.
pub fn command_line(bytes: &[u8], places: &Places<'_>) -> Vec<OsString> {
    let mut choices = Choices(bytes);
    let mut args: Vec<OsString> = vec!["sowlab".into()];
    let grammar = usize::from(choices.byte()) % (GRAMMAR.len() + 1);
    let Some(&(command, needed, optional)) = GRAMMAR.get(grammar) else {
        args.push(choices.pick(NOT_COMMANDS).into());
        for _ in 0..choices.byte() % 4 {
            let flag = choices.pick(FLAGS);
            push(&mut args, flag, "", &mut choices, places);
        }
        return args;
    };
    args.push(command.into());
    for item in needed {
        // Now and then one is left out.
        if choices.byte() % 12 != 11 {
            push(&mut args, item, command, &mut choices, places);
        }
    }
    for _ in 0..choices.byte() % 3 {
        let item = if choices.byte() % 8 == 7 {
            choices.pick(FLAGS)
        } else {
            choices.pick(optional)
        };
        push(&mut args, item, command, &mut choices, places);
    }
    args
}

/// Pushes one argument of `command`: a file, a directory, or a flag and its value.
fn push(
    args: &mut Vec<OsString>,
    item: &str,
    command: &str,
    choices: &mut Choices<'_>,
    places: &Places<'_>,
) {
    let value: OsString = match item {
        "FILE" => {
            let name = choices.value(VARIANTS);
            if name.starts_with("no-such") {
                name.into()
            } else {
                places.root.join(name).into()
            }
        }
        // Mostly a directory of the command's own kind; now and then the other kind's, the
        // scratch directory (which holds the others) or a device.
        "DIR" => {
            let (own, other) = match command {
                "compare" | "sweep" => ("report", "run"),
                _ => ("run", "report"),
            };
            match choices.byte() % 8 {
                5 => places.scratch.join(format!("{other}-0")).into(),
                6 => choices.pick(DEVICES).into(),
                7 => places.scratch.into(),
                n => places.scratch.join(format!("{own}-{n}")).into(),
            }
        }
        flag => {
            args.push(flag.into());
            let values = match flag {
                "--games" => GAMES,
                "--agents" => AGENTS,
                "--seed" => SEEDS,
                "--threads" => THREADS,
                "--random" => RANDOM,
                "--shard" => SHARDS,
                "--set" => SETTINGS,
                // A list of holes for `trace`, a switch for `simulate`.
                "--moves" if command == "trace" => MOVES,
                "--out" => return push(args, "DIR", command, choices, places),
                _ => return,
            };
            choices.value(values).into()
        }
    };
    args.push(value);
}
