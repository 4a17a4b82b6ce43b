//! Command-line arguments, as clap parses them: values checked against their documented
//! ranges, no logic.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use super::values::{move_value, threads, Axis, Ladder, MAX_GAMES, MAX_RANDOM_MOVES};
use crate::agents::AgentSpec;
use crate::agents::Pairing;
use crate::engine::Move;
use crate::lang::Setting;
use crate::rules::Side;
use crate::sim::runner::Shard;

/// Rule language, engine and self-play laboratory for recorded mancala variants.
#[derive(Debug, Parser)]
#[command(name = "sowlab", version, about, after_help = EXIT_CODES)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

const EXIT_CODES: &str = "Exit codes: 0 success; 1 errors in a rule file (`check`, `fmt`, `list`, `catalogue`), warnings with `check --deny-warnings`, files to format (`fmt --check`), rules that differ (`diff`), or a stale page (`catalogue --check`); 2 usage, input or output error; 130 interrupted (`simulate` finishes with --resume).";

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Validate variant files; print every diagnostic.
    Check(CheckArgs),
    /// Rewrite variant files in the language's one layout, comments kept.
    Fmt(FmtArgs),
    /// List variant files: name, board, region and source (and their notes, with --notes).
    List(ListArgs),
    /// Write a Markdown page of variant files: provenance, board, readings, and how their
    /// games end under random play, the degenerate ones (under half finished) flagged.
    Catalogue(CatalogueArgs),
    /// Play moves and print a step-by-step account, or one JSON state per move.
    Trace(TraceArgs),
    /// Play a game in the terminal against an agent, or between two people at the keyboard.
    Play(PlayArgs),
    /// Print a variant's compiled rules in words, with the readings they rest on.
    Explain(ExplainArgs),
    /// How variants are related: a character matrix from their compiled rules, distances,
    /// a neighbour-joining tree (CSV, NEXUS, Newick); or the variants nearest one file.
    Relate(RelateArgs),
    /// Print the rules on which two variants differ, in the words of `explain`.
    ///
    /// The compiled rules are compared, not the text: files that spell the same rules
    /// differently (layout, order of blocks and lines, comments, capture names, provenance)
    /// have the same rules hash and do not differ.
    ///
    /// Output: a line per file, `A  FILE  "NAME"  rules HASH`, then B's. Same hash: "The rules
    /// are the same", exit 0. Otherwise, by section (Board, Sowing, Captures, Houses, Feeding,
    /// End, Match), each rule that differs: its topic, or a capture's or house's name (both
    /// names if the files name it differently; its place, e.g. `(1st in A)`, if only one file
    /// has it); then `A: ` and `B: ` with each file's sentence, `(no such rule)` where it has
    /// none; then, where the two sentences are mostly alike, the passages that differ
    /// (`only A says "..."`, `A says "...", B says "..."`); exit 1. Captures and houses pair by
    /// content, then name, then place, in order: the engine tries them in file order. If no
    /// sentence differs, the compiled fields that do are listed.
    ///
    /// A closing note lists the reading marks only one file rests on: they are not rules and
    /// do not change the exit code. A file that cannot be read or compiled: one line on
    /// stderr, exit 2.
    Diff(DiffArgs),
    /// Solve a small board: the value of the start position with perfect play by both.
    #[command(after_help = SOLVE_HELP)]
    Solve(SolveArgs),
    /// Self-play many games per variant between two agents; write CSV results.
    Simulate(SimulateArgs),
    /// Join the output directories of `simulate --shard` runs into one run.
    Merge(MergeArgs),
    /// Simulate variants and write a comparison report: CSVs, charts, index.md, index.html.
    Compare(CompareArgs),
    /// Simulate one variant over a grid of board parameters and chart the measures.
    Sweep(SweepArgs),
    /// Play every combination of a file's alternative readings on the same seeds and report
    /// how each reading moves each measure: readings.csv, effects.csv, charts, index.md,
    /// index.html.
    Readings(ReadingsArgs),
    /// Who a variant favours when it is played well: self-play at every rung of a ladder of
    /// agents and every rung against the next, both seatings; balance.csv, skill.csv, charts,
    /// index.md, index.html.
    Balance(BalanceArgs),
    /// Exact values with perfect play on a grid of small boards, for each variant and each
    /// alternative reading it offers, within a budget: values.csv, a table a row count, a
    /// chart, index.md, index.html.
    Exact(ExactArgs),
}

/// `sowlab exact VARIANT... --out DIR [--holes 2..6] [--seeds 1..6] [--max-nodes N]`
#[derive(Debug, Args)]
pub struct ExactArgs {
    /// Variant files (`.sow`), or folders of them.
    #[arg(required = true)]
    pub variants: Vec<PathBuf>,
    /// Holes a row: `A..B` (inclusive) or one number, 1 to 16.
    #[arg(long, value_name = "A..B", default_value = "2..6", value_parser = super::values::hole_span)]
    pub holes: std::ops::RangeInclusive<u32>,
    /// Seeds a hole: `A..B` (inclusive) or one number, 1 to 1000.
    #[arg(long, value_name = "A..B", default_value = "1..6", value_parser = super::values::seed_span)]
    pub seeds: std::ops::RangeInclusive<u32>,
    /// The budget of one board: the most moves its search plays, on one thread, 1 to
    /// 1000000000000. In a row, no larger fill is tried after one beyond it.
    #[arg(long, value_name = "N", default_value_t = 1_000_000,
          value_parser = clap::value_parser!(u64).range(1..=crate::solve::MAX_MAX_STATES))]
    pub max_nodes: u64,
    /// The most memory one board's table takes: as `solve --memory`.
    #[arg(long, value_name = "SIZE", default_value = "256M", value_parser = super::values::memory)]
    pub memory: u64,
    /// Solve variants with match rules as one game each, their first round, as `simulate`
    /// plays them without `--match` (refused otherwise).
    #[arg(long)]
    pub single_game: bool,
    /// Boards solved at once, one thread each, 1 to 4 per core (default: all cores); the
    /// report is the same for any number.
    #[arg(long, value_name = "T", value_parser = threads)]
    pub threads: Option<usize>,
    /// The report directory: new, empty, or an earlier report of sowlab's, which is replaced.
    #[arg(long)]
    pub out: PathBuf,
}

/// `sowlab check FILE...`
#[derive(Debug, Args)]
#[command(after_help = CHECK_HELP)]
pub struct CheckArgs {
    /// Variant files (`.sow`), or folders to check every `.sow` file under.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Board overrides: holes=1..16, seeds=1..1000, starter=south|north, cap=1..10000000.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<Setting>,
    /// Fail (exit 1) if any file has warnings, as if they were errors: for CI.
    #[arg(long)]
    pub deny_warnings: bool,
}

const CHECK_HELP: &str =
    "Output: for each file that compiles, `ok  FILE  \"NAME\"  rules HASH  readings: ...` on
stdout, then its warnings on stderr; for each that does not, its errors on stderr.

Warnings (marked ⚠, code sowlab::warning::KIND) are not errors: the file compiles and plays,
but the game it makes is degenerate.
  no_first_move  the player to move first has no legal move: the game is over before it
                 starts, or the starter passes
  never_applies  a rule that can never apply on this board: a capture `from move` beyond the
                 move cap, `no capture for` more moves than the cap, `skip origin` from more
                 seeds than the game has
  one_round      `lose below` above half the seeds: every match ends after its first round
  unfinished     fewer than 1 in 10 of 200 random games (random against random, seed 1, at
                 most 2000 moves each) end by the game's own rules: the move cap or
                 repetition stops the rest

Exit codes: 0 every file compiles, with warnings or not; 1 a file has errors, or warnings
with --deny-warnings; 2 a file cannot be read.";

/// `sowlab fmt [--check] FILE...`
#[derive(Debug, Args)]
pub struct FmtArgs {
    /// Variant files (`.sow`), or folders to format every `.sow` file under.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Change nothing: list the files whose layout differs, and exit 1 if there are any.
    #[arg(long)]
    pub check: bool,
}

/// `sowlab list [FOLDER...]`
#[derive(Debug, Args)]
pub struct ListArgs {
    /// Folders (every `.sow` file under them) or files; `variants` if none.
    #[arg(default_value = "variants")]
    pub paths: Vec<PathBuf>,
    /// Print each file's `note:` lines under its row (why a game seldom ends, among others).
    #[arg(long)]
    pub notes: bool,
    /// Group the files by family (single laps, relay sowing, sown stores, houses) and by the
    /// area their region names, each with the rule families it uses.
    #[arg(long)]
    pub families: bool,
}

/// `sowlab relate [FOLDER|FILE...] (--out DIR | --like FILE [--nearest K])`
#[derive(Debug, Args)]
pub struct RelateArgs {
    /// Folders (every `.sow` file under them) or files; `variants` if none.
    #[arg(default_value = "variants")]
    pub paths: Vec<PathBuf>,
    /// Write characters.csv, distances.csv, relations.nex, tree.nwk, tree.svg/png and index.md/html into DIR.
    #[arg(long, value_name = "DIR", required_unless_present = "like")]
    pub out: Option<PathBuf>,
    /// Print the variants nearest this file (which need not be among the paths), nearest
    /// first, with their distances.
    #[arg(long, value_name = "FILE")]
    pub like: Option<PathBuf>,
    /// How many neighbours `--like` prints.
    #[arg(long, value_name = "K", default_value_t = 5)]
    pub nearest: usize,
}

/// `sowlab catalogue [FOLDER...] [--games N] [--seed S] [--out FILE [--check]]`
#[derive(Debug, Args)]
pub struct CatalogueArgs {
    /// Folders (every `.sow` file under them) or files; `variants` if none.
    #[arg(default_value = "variants")]
    pub paths: Vec<PathBuf>,
    /// Random games per file and seat order: 1 to 1000000000.
    #[arg(long, value_name = "N", default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=MAX_GAMES))]
    pub games: u64,
    /// Master seed, 0 to 18446744073709551615: every game's seed derives from it.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Write the page to this file, replacing it whole, instead of printing it.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Write nothing: compare the page with the file `--out` names, and exit 1 if it differs.
    #[arg(long, requires = "out")]
    pub check: bool,
}

/// `sowlab trace FILE --moves 3,7,1` or `--random N --seed S`
#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("play").required(true).args(["moves", "random"])))]
pub struct TraceArgs {
    /// Variant file.
    pub file: PathBuf,
    /// Holes to play, comma-separated, numbered 0..2N-1 counterclockwise from South's leftmost;
    /// `3cw` or `3ccw` where the mover chooses the direction.
    #[arg(long, value_delimiter = ',', value_parser = move_value)]
    pub moves: Option<Vec<Move>>,
    /// Play this many uniformly random legal moves, 0 to 10000000 (fewer if the game ends).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(..=i64::from(MAX_RANDOM_MOVES)))]
    pub random: Option<u32>,
    /// Seed for `--random`, 0 to 18446744073709551615.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// One JSON object per move on stdout instead of the readable account (and, with
    /// `--match`, one `{"round_end": ...}` object after each round).
    #[arg(long)]
    pub json: bool,
    /// Play a match of rounds, as the variant's `match` rules link them; the moves run on
    /// from round to round.
    #[arg(long = "match")]
    pub r#match: bool,
    /// Board overrides: holes=1..16, seeds=1..1000, starter=south|north, cap=1..10000000.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<Setting>,
    /// Also draw the board at the start and after every move, one SVG each, into DIR
    /// (`move-0000.svg` for the start, `move-0001.svg` ...; `round-2-move-0001.svg` in a
    /// match): the hole played, the sowing path lap by lap, the holes captured from.
    #[arg(long, value_name = "DIR")]
    pub svg: Option<PathBuf>,
    /// Also write the game as one self-contained HTML page that steps through it move by move
    /// and lap by lap (buttons, arrow keys, a slider), saying each rule that fired.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
}

/// `sowlab play FILE [--vs AGENT] [--seat south|north] [--seed S]`
#[derive(Debug, Args)]
#[command(after_help = PLAY_HELP)]
pub struct PlayArgs {
    /// Variant file.
    pub file: PathBuf,
    /// The agent that takes the other seat: random, greedy, alphabeta:1..12, mcts:1..1000000
    /// or perfect (small boards).
    /// Without it, two people take turns at the keyboard.
    #[arg(long, value_name = "AGENT")]
    pub vs: Option<AgentSpec>,
    /// The seat you take against the agent (default south).
    #[arg(long, value_enum, requires = "vs")]
    pub seat: Option<Seat>,
    /// Seed of the agent's random draws and of the hints' tie-breaks, 0 to
    /// 18446744073709551615.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Board overrides: holes=1..16, seeds=1..1000, starter=south|north, cap=1..10000000.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<Setting>,
    /// Play a player's move for them when they have only one (said in a line).
    #[arg(long)]
    pub forced: bool,
}

const PLAY_HELP: &str = "Commands are read line by line from standard input: a hole number (3, or 3cw / 3ccw where the mover chooses the direction), moves, board, details (every seed of the moves just played; each lap is otherwise one line), undo, hint [DEPTH], save FILE (the moves, comma-separated, as `sowlab trace FILE --moves` replays them), help, quit. The end of the input ends the session. When standard output is not a terminal the text is plain (no colours, no prompt), and commands that were not typed at a terminal are echoed after `> `, so a piped game reads as a transcript.";

/// A seat at the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Seat {
    /// Holes 0..N, the bottom row.
    South,
    /// Holes N..2N, the top row.
    North,
}

impl Seat {
    /// The side of the board.
    pub fn side(self) -> Side {
        match self {
            Seat::South => Side::South,
            Seat::North => Side::North,
        }
    }
}

/// `sowlab explain FILE`
#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// Variant file.
    pub file: PathBuf,
    /// Board overrides: holes=1..16, seeds=1..1000, starter=south|north, cap=1..10000000.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<Setting>,
    /// Also draw the start position as a picture into FILE: SVG, or PNG if FILE ends in `.png`.
    #[arg(long, value_name = "FILE")]
    pub picture: Option<PathBuf>,
}

/// `sowlab diff A B`
#[derive(Debug, Args)]
pub struct DiffArgs {
    /// The first variant file (A).
    pub a: PathBuf,
    /// The second variant file (B).
    pub b: PathBuf,
    /// Board overrides applied to both: holes=1..16, seeds=1..1000, starter=south|north,
    /// cap=1..10000000, or R<n>=NAME, an alternative reading.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<Setting>,
    /// Overrides applied to B only, after `--set`: `sowlab diff F F --b-set R2=NAME` says
    /// what an alternative reading of F changes.
    #[arg(long = "b-set", value_name = "KEY=VALUE")]
    pub b_set: Vec<Setting>,
}

/// `sowlab solve FILE [--set holes=3 --set seeds=2] [--memory SIZE] [--threads T] [--max-states N] [--max-nodes N] [--json]`
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// Variant file.
    pub file: PathBuf,
    /// Board overrides: holes=1..16, seeds=1..1000, starter=south|north, cap=1..10000000.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<Setting>,
    /// The most memory the tables take, all threads together: bytes, or a whole number with
    /// K, M or G (binary units), 1K to 1024G. A table too small for the board makes the
    /// search slower, never wrong.
    #[arg(long, value_name = "SIZE", default_value = "1G", value_parser = super::values::memory)]
    pub memory: u64,
    /// Refuse, before searching, a board whose estimate of states (the ways to place its
    /// seeds in its holes and stores, for either player to move) is above N: 1 to
    /// 1000000000000. No limit unless given.
    #[arg(long, value_name = "N",
          value_parser = clap::value_parser!(u64).range(1..=crate::solve::MAX_MAX_STATES))]
    pub max_states: Option<u64>,
    /// Give up after N nodes (moves played by the search): 1 to 1000000000000. No limit
    /// unless given.
    #[arg(long, value_name = "N",
          value_parser = clap::value_parser!(u64).range(1..=crate::solve::MAX_MAX_STATES))]
    pub max_nodes: Option<u64>,
    /// Threads searching first moves, each with its share of --memory: the values do not
    /// depend on it, the nodes searched and the time do. One per core unless given.
    #[arg(long, value_name = "T", default_value_t = super::values::cores(), value_parser = super::values::threads)]
    pub threads: usize,
    /// Build an endgame tablebase first: the exact value of every position with at most K
    /// seeds on the board (0 to 120), read by the search. It takes 2*C(K+H, H) bytes for H
    /// holes, beside --memory. None unless given.
    #[arg(long, value_name = "K",
          value_parser = clap::value_parser!(u32).range(0..=i64::from(crate::solve::tablebase::MAX_SEEDS)))]
    pub tablebase_seeds: Option<u32>,
    /// Keep the tablebase's layers in DIR, one file each, keyed by the rules: layers found
    /// there are read rather than built, layers built are written there.
    #[arg(long, value_name = "DIR", requires = "tablebase_seeds")]
    pub tablebase: Option<PathBuf>,
    /// Solve a variant with match rules as one game, its first round, as `simulate` plays it
    /// without `--match` (refused otherwise: a match's value depends on later rounds).
    #[arg(long)]
    pub single_game: bool,
    /// One JSON object on stdout instead of the readable lines.
    #[arg(long)]
    pub json: bool,
}

const SOLVE_HELP: &str = "The value: a single game from the start position, played by the engine's rules, South to move unless the rules' starter says otherwise. A finished game is worth, to South, its result (the engine's winner) and its margin (South's final store minus North's, after the end rules' awards); South maximises, North minimises, result first, then margin. For variants won by the larger store this is minimax on the final margin. Search: MTD(f) over alpha-beta with a transposition table of exact values and bounds, the table's best move tried first, then the moves that gain most. Key: the board, the memories the rules read and, where a rule reads them, the stores (where the winner is the larger store and no rule counts the stores, the key leaves them out and the table holds values less the margin). Extra turns and passes: the same player chooses again. Repetition: the engine ends a game when a position occurs for the Nth time since the stores last changed; the search checks that every move changes the stores or moves seeds forward, and if one does neither it starts again keyed on the positions since the stores last changed (a 128-bit digest). Move cap: a line that reaches it makes the search start again keyed on the move count too. Refused (exit 2): match play (its value depends on later rounds). Memory: the tables take at most --memory (default 1G) together, 32 bytes an entry; a full table gives up entries that took little work. Threads: --threads T share out the first moves, each with a table of its own; the values and the line do not depend on T. Limits (exit 2, one line, nothing on stdout): a board whose estimate 2*C(S+P-1, P-1) (S seeds in P holes and stores) exceeds --max-states, if given, is refused before searching; the search stops if it plays more than --max-nodes moves, if given, or if a line is longer than 2000 moves. Progress: a spinner on stderr when it is a terminal. Output: value, winner, best first moves and the value of each first move, a line of perfect play to the end of the game (S South, N North), nodes (moves played by the search), table entries used and in all, time.";

/// What every simulating command takes: games, agents, seed, threads.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// Games per variant, agent pairing and seat order (each agent plays South in half):
    /// 1 to 1000000000.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=MAX_GAMES))]
    pub games: u64,
    /// Two agents, e.g. `random,alphabeta:4` (random, greedy, alphabeta:1..12,
    /// mcts:1..1000000, perfect on small boards); repeat the flag for more pairings.
    #[arg(long, value_name = "A,B", required = true)]
    pub agents: Vec<Pairing>,
    /// Master seed, 0 to 18446744073709551615: every game's seed derives from it.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads, 1 to 4 per core (default: all cores); the output is the same for any
    /// number.
    #[arg(long, value_name = "T", value_parser = threads)]
    pub threads: Option<usize>,
    /// Play matches of rounds, as each variant's `match` rules link them: `--games` counts
    /// matches, and `matches.csv` is written beside `games.csv` (one row per round).
    #[arg(long = "match")]
    pub r#match: bool,
    /// Plies at the start of every game (and round) played uniformly at random, whoever the
    /// agents, 0 to 1000: distinct games from deterministic agents such as alpha-beta.
    #[arg(long, value_name = "K", default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=1000))]
    pub opening: u32,
}

/// `sowlab simulate VARIANT... --games N --agents A,B --seed S --out DIR`
#[derive(Debug, Args)]
pub struct SimulateArgs {
    /// Variant files (`.sow`).
    #[arg(required = true)]
    pub variants: Vec<PathBuf>,
    /// Games, agents, seed, threads.
    #[command(flatten)]
    pub run: RunArgs,
    /// Output directory for games.csv, summary.csv, moves.csv and run.json: new, empty, or
    /// one a run of sowlab wrote.
    #[arg(long)]
    pub out: PathBuf,
    /// Also write moves.csv (one row per move).
    #[arg(long)]
    pub moves: bool,
    /// Run only the K-th of M disjoint slices of the experiment, 1 <= K <= M <= 1000000,
    /// e.g. `--shard 2/8`.
    #[arg(long, value_name = "K/M")]
    pub shard: Option<Shard>,
    /// Finish an interrupted run in `--out` (or start it, if there is none).
    #[arg(long)]
    pub resume: bool,
    /// Board overrides applied to every variant: holes=1..16, seeds=1..1000,
    /// starter=south|north, cap=1..10000000.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<Setting>,
}

/// `sowlab merge --out DIR SHARD_DIR...`
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The shard directories, in any order.
    #[arg(required = true)]
    pub shards: Vec<PathBuf>,
    /// Where to write the merged run: a new or empty directory.
    #[arg(long)]
    pub out: PathBuf,
}

/// `sowlab compare VARIANT... --games N --agents A,B --out reports/NAME`
#[derive(Debug, Args)]
pub struct CompareArgs {
    /// Variant files (`.sow`).
    #[arg(required = true)]
    pub variants: Vec<PathBuf>,
    /// Games, agents, seed, threads.
    #[command(flatten)]
    pub run: RunArgs,
    /// The report directory: new, empty, or an earlier report of sowlab's, which is replaced.
    #[arg(long)]
    pub out: PathBuf,
    /// Board overrides applied to every variant: holes=1..16, seeds=1..1000,
    /// starter=south|north, cap=1..10000000.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<Setting>,
    /// Count games stopped by the move cap or by repetition in win rates, scored as each
    /// variant's `unfinished:` rule says; by default win rates are over finished games only.
    #[arg(long)]
    pub score_unfinished: bool,
}

/// `sowlab balance VARIANT... --ladder A,B,C --games N --seed S --out DIR`
#[derive(Debug, Args)]
pub struct BalanceArgs {
    /// Variant files (`.sow`).
    #[arg(required = true)]
    pub variants: Vec<PathBuf>,
    /// The agents, weakest first, e.g. `random,greedy,alphabeta:2,alphabeta:4,mcts:200`.
    #[arg(long, value_name = "A,B,...")]
    pub ladder: Ladder,
    /// Games per pairing and seat order: 1 to 1000000000.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=MAX_GAMES))]
    pub games: u64,
    /// Master seed, 0 to 18446744073709551615.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Plies at the start of every game played at random, 0 to 1000, so that deterministic
    /// agents play distinct games.
    #[arg(long, value_name = "K", default_value_t = 4, value_parser = clap::value_parser!(u32).range(0..=1000))]
    pub opening: u32,
    /// Worker threads, 1 to 4 per core (default: all cores).
    #[arg(long, value_name = "T", value_parser = threads)]
    pub threads: Option<usize>,
    /// The report directory: new, empty, or an earlier report of sowlab's, which is replaced.
    #[arg(long)]
    pub out: PathBuf,
    /// Board overrides applied to every variant: holes=1..16, seeds=1..1000,
    /// starter=south|north, cap=1..10000000.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<Setting>,
    /// Count games stopped by the move cap or by repetition in the rates and scores, scored as
    /// each variant's `unfinished:` rule says; by default they are over finished games only.
    #[arg(long)]
    pub score_unfinished: bool,
}

/// `sowlab readings VARIANT --games N --agents A,B --seed S --out DIR`
#[derive(Debug, Args)]
pub struct ReadingsArgs {
    /// The variant file; its `alternative` blocks are the readings varied.
    pub variant: PathBuf,
    /// Vary only these readings (`R2,R10`); the others stay at the file's own.
    #[arg(long, value_name = "R2,R10", value_delimiter = ',', value_parser = reading_id)]
    pub only: Vec<u16>,
    /// The most combinations to play, 1 to 4096: beyond it, the file's own reading, each
    /// alternative alone, and a sample of the rest drawn from the seed.
    #[arg(long, value_name = "K", default_value_t = 64, value_parser = clap::value_parser!(u16).range(1..=4096))]
    pub most: u16,
    /// Board parameters for every combination (`holes=7`), as other commands take them.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<Setting>,
    /// The small board each combination is solved on: `HOLES,SEEDS` (a hole count and seeds
    /// a hole).
    #[arg(long, value_name = "H,S", default_value = "3,2", value_parser = super::values::board)]
    pub exact: (u16, u16),
    /// Do not solve the combinations.
    #[arg(long)]
    pub no_exact: bool,
    /// Games per combination, agent pairing and seat order: 1 to 1000000000.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=MAX_GAMES))]
    pub games: u64,
    /// Two agents, e.g. `alphabeta:3,alphabeta:3`; repeat the flag for more pairings (the
    /// last is taken as the strongest play).
    #[arg(long, value_name = "A,B", required = true)]
    pub agents: Vec<Pairing>,
    /// Master seed, 0 to 18446744073709551615: every game's seed, and the sample of
    /// combinations past `--most`, derive from it.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Plies at the start of every game played at random, 0 to 1000, so that deterministic
    /// agents play distinct games.
    #[arg(long, value_name = "K", default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=1000))]
    pub opening: u32,
    /// Worker threads, 1 to 4 per core (default: all cores); the output is the same for any
    /// number.
    #[arg(long, value_name = "T", value_parser = threads)]
    pub threads: Option<usize>,
    /// The report directory: new, empty, or an earlier report of sowlab's, which is replaced.
    #[arg(long)]
    pub out: PathBuf,
}

impl ReadingsArgs {
    /// The run every combination is played with: single games (match rules are not varied).
    pub fn run(&self) -> RunArgs {
        RunArgs {
            games: self.games,
            agents: self.agents.clone(),
            seed: self.seed,
            threads: self.threads,
            r#match: false,
            opening: self.opening,
        }
    }
}

/// `R2` → 2.
fn reading_id(text: &str) -> Result<u16, String> {
    text.trim()
        .strip_prefix('R')
        .and_then(|n| n.parse().ok())
        .ok_or_else(|| format!("`{text}` is not a reading: readings are written R1, R2, ..."))
}

/// `sowlab sweep VARIANT --set holes=6..12 [--set seeds=3..6] --games N --agents A,B --out DIR`
#[derive(Debug, Args)]
pub struct SweepArgs {
    /// The variant file.
    pub variant: PathBuf,
    /// Parameters to sweep: `holes=6..12` (inclusive, at most 100 steps), `seeds=3,4,6`, or a
    /// fixed `starter=north`.
    #[arg(long = "set", value_name = "KEY=RANGE", required = true)]
    pub set: Vec<Axis>,
    /// Games, agents, seed, threads.
    #[command(flatten)]
    pub run: RunArgs,
    /// The report directory: new, empty, or an earlier report of sowlab's, which is replaced.
    #[arg(long)]
    pub out: PathBuf,
    /// Count games stopped by the move cap or by repetition in win rates, scored as each
    /// variant's `unfinished:` rule says; by default win rates are over finished games only.
    #[arg(long)]
    pub score_unfinished: bool,
}
