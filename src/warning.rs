//! What `sowlab check` warns of in rules that compile: a game that cannot start as written,
//! rules that can never apply on their board, and a game random play seldom finishes. Each
//! warning is proved from the compiled rules and the board, or seen in a short random probe
//! with a fixed seed; none is an error.

use std::fmt;

use miette::{Diagnostic, Severity};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::engine::{EndClass, Game};
use crate::report::trace::OverAtStart;
use crate::rules::{OriginSkip, Rules, Side};

/// Random games the probe plays.
pub const PROBE_GAMES: u32 = 200;

/// The longest probe game, in moves: a longer move cap is cut to this, so that `check` stays
/// quick whatever the cap.
pub const PROBE_MOVES: u32 = 2000;

/// The probe's seed: every `check` of a file sees the same games.
pub const PROBE_SEED: u64 = 1;

/// The probe warns when fewer than one game in this many finishes.
pub const PROBE_SHARE: u32 = 10;

/// Something `check` finds degenerate in rules that compile.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Warning {
    /// The player to move first has no legal move, and an end rule ends the game then.
    #[error("game over before the first move: {0}")]
    OverAtStart(OverAtStart),
    /// The player to move first has no legal move, and passes.
    #[error(
        "{starter}, to move first, has no legal move: under `no move: pass` {} makes the first move",
        .starter.other()
    )]
    StarterPasses {
        /// Who the board names to start.
        starter: Side,
    },
    /// `from move: 3000` with a move cap of 2000.
    #[error(
        "capture \"{capture}\" never applies: it starts at move {from}, and the move cap stops every game after move {cap}"
    )]
    CaptureAfterCap {
        /// The capture's name.
        capture: String,
        /// Its first move.
        from: u32,
        /// The move cap.
        cap: u32,
    },
    /// `no capture for: 3000 moves` with a move cap of 2000.
    #[error(
        "`no capture for: {moves} moves` never ends a game: the move cap stops every game after {cap} moves"
    )]
    QuietAfterCap {
        /// The moves without a capture that would end the game.
        moves: u32,
        /// The move cap.
        cap: u32,
    },
    /// `skip origin: from 60 seeds` in a game of 48 seeds.
    #[error(
        "`skip origin: from {from} seeds` never applies: no lap can lift more than the game's {total} seeds"
    )]
    SkipBeyondSeeds {
        /// The seeds a lap must lift for its origin to be skipped.
        from: u16,
        /// Seeds in the game.
        total: u32,
    },
    /// `lose below: 30` in a game of 48 seeds.
    #[error(
        "`lose below: {below}` ends every match after its first round: of the game's {total} seeds, one player always holds at most {}",
        .total / 2
    )]
    OneRound {
        /// The losing total.
        below: u16,
        /// Seeds in the game.
        total: u32,
    },
    /// Random play seldom finishes a game by its own end rules.
    #[error("{0}")]
    Unfinished(Probe),
}

impl Warning {
    /// A stable code for the kind, as the report shows it.
    pub fn code(&self) -> &'static str {
        match self {
            Warning::OverAtStart(_) | Warning::StarterPasses { .. } => {
                "sowlab::warning::no_first_move"
            }
            Warning::CaptureAfterCap { .. }
            | Warning::QuietAfterCap { .. }
            | Warning::SkipBeyondSeeds { .. } => "sowlab::warning::never_applies",
            Warning::OneRound { .. } => "sowlab::warning::one_round",
            Warning::Unfinished(_) => "sowlab::warning::unfinished",
        }
    }

    fn help(&self) -> &'static str {
        match self {
            Warning::OverAtStart(_) | Warning::StarterPasses { .. } => {
                "the starter needs a hole to play at the start: see the layout, `starter`, `min seeds`, `first move` and `opening`"
            }
            Warning::CaptureAfterCap { .. } => "lower `from move`, or raise the move cap",
            Warning::QuietAfterCap { .. } => {
                "lower the count of moves, or raise the move cap"
            }
            Warning::SkipBeyondSeeds { .. } => {
                "the rule is the same as `skip origin: never`; a smaller count may have been meant"
            }
            Warning::OneRound { .. } => {
                "both players can stay at or above the losing total only if it is at most half the seeds"
            }
            Warning::Unfinished(_) => {
                "a game stopped by the move cap or by repetition has not ended by its own rules: the file may lack an end rule (the probe plays random against random, with a fixed seed)"
            }
        }
    }
}

/// What the random probe saw: games played, games finished by the game's own rules (an end
/// rule, or nobody able to move), and the others, by what stopped them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Probe {
    /// Games played.
    pub games: u32,
    /// Games that ended by an end rule of the variant, or with nobody able to move.
    pub finished: u32,
    /// Games stopped, the most first: what stopped them, and how many.
    pub stopped: Vec<(Stop, u32)>,
}

/// What stopped a game of the probe.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The move cap (R10), with the readings the rule rests on.
    Cap {
        /// The cap.
        moves: u32,
        /// `R10`, ...
        readings: Vec<u16>,
    },
    /// The probe's own limit, [`PROBE_MOVES`], below the variant's move cap.
    Limit,
    /// The repetition rule (R10), with the readings the rule rests on.
    Repetition {
        /// `R10`, ...
        readings: Vec<u16>,
    },
}

impl fmt::Display for Probe {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "random play finished {} of {} games",
            self.finished, self.games
        )?;
        for (i, (stop, games)) in self.stopped.iter().enumerate() {
            let (by, readings) = match stop {
                Stop::Cap { moves, readings } => (format!("the move cap of {moves}"), readings),
                Stop::Limit => (
                    format!("the probe's limit of {PROBE_MOVES} moves"),
                    &Vec::new(),
                ),
                Stop::Repetition { readings } => ("repetition".to_string(), readings),
            };
            let marks: Vec<String> = readings.iter().map(|r| format!("R{r}")).collect();
            let marks = if marks.is_empty() {
                String::new()
            } else {
                format!(" ({})", marks.join(", "))
            };
            let lead = if i == 0 { ": " } else { "; " };
            write!(f, "{lead}{games} stopped by {by}{marks}")?;
        }
        Ok(())
    }
}

/// Every warning about `rules`, in the order: the start, rules that never apply, the probe.
pub fn find(rules: &Rules) -> Vec<Warning> {
    let mut warnings = Vec::new();
    let start = Game::new(rules);
    if let Some(over) = OverAtStart::of(&start) {
        warnings.push(Warning::OverAtStart(over));
    } else if start.stats().passes > 0 {
        let starter = rules.program.board.starter;
        warnings.push(Warning::StarterPasses { starter });
    }
    warnings.extend(never_apply(rules));
    let probe = probe(rules);
    if probe.finished * PROBE_SHARE < probe.games {
        warnings.push(Warning::Unfinished(probe));
    }
    warnings
}

/// Rules that can never apply on this board, each proved from the rules alone.
fn never_apply(rules: &Rules) -> Vec<Warning> {
    let program = &rules.program;
    let cap = program.ending.move_cap;
    // The last move a game can make is move `cap`: the cap is looked at before every turn.
    let mut found: Vec<Warning> = program
        .captures
        .iter()
        .filter(|c| c.from_move > cap)
        .map(|c| Warning::CaptureAfterCap {
            capture: c.name.clone(),
            from: c.from_move,
            cap,
        })
        .collect();
    // Moves without a capture are moves, so they cannot outnumber the cap.
    if let Some((moves, _)) = program.ending.quiet.filter(|&(moves, _)| moves > cap) {
        found.push(Warning::QuietAfterCap { moves, cap });
    }
    // A lap lifts seeds in play, never more than the game holds.
    let total = rules.total_seeds();
    if let OriginSkip::FromSeeds(from, _) = program.sowing.origin_skip {
        if u32::from(from) > total {
            found.push(Warning::SkipBeyondSeeds { from, total });
        }
    }
    // What the players hold after a round is at most every seed, so both can hold `below`
    // only if it is at most half of them.
    if let Some(m) = &program.matches {
        if 2 * u32::from(m.lose_below) > total {
            let below = m.lose_below;
            found.push(Warning::OneRound { below, total });
        }
    }
    found
}

/// Plays [`PROBE_GAMES`] random games, each to its end or at most [`PROBE_MOVES`] moves.
fn probe(rules: &Rules) -> Probe {
    let ending = &rules.program.ending;
    let cut = ending.move_cap > PROBE_MOVES;
    let limited;
    let played = if cut {
        let mut program = rules.program.clone();
        program.ending.move_cap = PROBE_MOVES;
        limited = Rules::new(
            rules.provenance.clone(),
            rules.readings.clone(),
            rules.declared.clone(),
            program,
        );
        &limited
    } else {
        rules
    };
    let start = Game::new(played);
    let mut game = start.clone();
    let mut rng = ChaCha8Rng::seed_from_u64(PROBE_SEED);
    let (mut finished, mut capped, mut repeated) = (0, 0, 0);
    for _ in 0..PROBE_GAMES {
        game.clone_from(&start);
        game.random_playout(&mut rng);
        match game
            .outcome()
            .expect("a game played out is over")
            .reason
            .class()
        {
            EndClass::Cap => capped += 1,
            EndClass::Repetition => repeated += 1,
            EndClass::Normal | EndClass::NoMoves => finished += 1,
        }
    }
    let marks = |rule: &str| -> Vec<u16> {
        let mut numbers: Vec<u16> = (rules.readings.iter())
            .filter(|r| r.rule == rule)
            .map(|r| r.number)
            .collect();
        numbers.sort_unstable();
        numbers
    };
    let cap = if cut {
        Stop::Limit
    } else {
        Stop::Cap {
            moves: ending.move_cap,
            readings: marks("end.move cap"),
        }
    };
    let repetition = Stop::Repetition {
        readings: marks("end.repetition"),
    };
    let mut stopped: Vec<(Stop, u32)> = [(cap, capped), (repetition, repeated)]
        .into_iter()
        .filter(|&(_, games)| games > 0)
        .collect();
    stopped.sort_by_key(|&(_, games)| std::cmp::Reverse(games));
    Probe {
        games: PROBE_GAMES,
        finished,
        stopped,
    }
}

/// A warning about one file, as `check` reports it.
struct InFile<'a> {
    file: &'a str,
    warning: &'a Warning,
}

impl fmt::Debug for InFile<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.warning, f)
    }
}

impl fmt::Display for InFile<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.file, self.warning)
    }
}

impl std::error::Error for InFile<'_> {}

impl Diagnostic for InFile<'_> {
    fn code<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        Some(Box::new(self.warning.code()))
    }

    fn severity(&self) -> Option<Severity> {
        Some(Severity::Warning)
    }

    fn help<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        Some(Box::new(self.warning.help()))
    }
}

/// Renders the warnings about `file` as `check` prints them, each marked as a warning (`⚠`),
/// not an error; `color` adds terminal colours.
pub fn render(file: &str, warnings: &[Warning], color: bool) -> String {
    let handler = crate::lang::report_handler(color);
    let mut out = String::new();
    for warning in warnings {
        // Writing to a String cannot fail.
        let _ = handler.render_report(&mut out, &InFile { file, warning });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_probe_names_what_stopped_its_games_the_most_first_with_their_readings() {
        let probe = Probe {
            games: 200,
            finished: 3,
            stopped: vec![
                (Stop::Limit, 150),
                (
                    Stop::Repetition {
                        readings: vec![10, 17],
                    },
                    40,
                ),
                (
                    Stop::Cap {
                        moves: 500,
                        readings: Vec::new(),
                    },
                    7,
                ),
            ],
        };
        assert_eq!(
            probe.to_string(),
            "random play finished 3 of 200 games: 150 stopped by the probe's limit of 2000 moves; \
             40 stopped by repetition (R10, R17); 7 stopped by the move cap of 500"
        );
    }
}
