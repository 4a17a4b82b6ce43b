//! How each variant's games ended in a finished run, read from its `summary.csv` and
//! `matches.csv`: the share that finished, what stopped the others, and so which of the
//! readings behind those stops (R10, R11, R13) decided games. What every batch command warns
//! about on stderr, and every report says at its top.

use std::path::Path;

use super::output::OutputError;
use super::record::{MatchRecord, SummaryRecord};
use super::stats::Tally;
use crate::engine::{EndClass, MatchEnd};

/// Below this share of finished games a variant is warned about: its rates over finished
/// games describe an unusual subset of its games.
pub const FEW_FINISHED: f64 = 0.5;

/// How one variant's games ended, over every seating of the run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Endings {
    /// The variant's name.
    pub variant: String,
    /// Games (in a match run, rounds).
    pub games: u64,
    /// Games that reached an end rule of the variant, or in which nobody could move.
    pub finished: u64,
    /// Games stopped by the move cap (R10).
    pub cap: u64,
    /// Games stopped by repetition (R10).
    pub repetition: u64,
    /// Games in which a move was refused as endless (R11).
    pub endless: u64,
    /// In a match run: the matches, and those stopped by the round cap (R13).
    pub matches: Option<(u64, u64)>,
    /// Moves played, over all the games.
    pub moves: f64,
}

impl Endings {
    /// How the games counted in `tally` ended, as a variant's.
    pub fn of(variant: &str, tally: &Tally) -> Endings {
        Endings {
            variant: variant.to_string(),
            games: tally.games,
            finished: tally.finished(),
            cap: tally.ended(EndClass::Cap),
            repetition: tally.ended(EndClass::Repetition),
            moves: tally.lengths.moments().0,
            ..Endings::default()
        }
    }

    /// Games stopped by the move cap or by repetition.
    pub fn unfinished(&self) -> u64 {
        self.games - self.finished
    }

    /// `no finished game: 100% repetition`, or `12 finished games: 87% repetition, 1% move
    /// cap`: what the rates over finished games rest on, for a measure that has none or few.
    pub fn basis(&self) -> String {
        let head = match self.finished {
            0 => "no finished game".to_string(),
            1 => "1 finished game".to_string(),
            n => format!("{n} finished games"),
        };
        format!("{head}: {}", self.stops())
    }

    /// `100% repetition` or `87% repetition, 1% move cap`: what stopped the unfinished games,
    /// as shares of all.
    fn stops(&self) -> String {
        let mut parts = Vec::new();
        for (k, what) in [(self.repetition, "repetition"), (self.cap, "move cap")] {
            if k > 0 {
                parts.push(format!("{} {what}", share(k, self.games)));
            }
        }
        if parts.is_empty() {
            "every game finished".into()
        } else {
            parts.join(", ")
        }
    }

    /// A warning when fewer than [`FEW_FINISHED`] of the games finished: how many did, what
    /// stopped the others, and what that means for the rates.
    pub fn warning(&self) -> Option<String> {
        if self.games > 0 && self.moves == 0.0 {
            return Some(format!(
                "{}: every one of its {} games was over before its first move, so its results \
                 say nothing of play (`sowlab trace` says why)",
                self.variant, self.games
            ));
        }
        if self.games == 0 || self.finished as f64 >= FEW_FINISHED * self.games as f64 {
            return None;
        }
        let what = if self.finished == 0 {
            "every measure over finished games is n/a".to_string()
        } else {
            format!("its win rates rest on those {} games alone", self.finished)
        };
        Some(format!(
            "{}: {} of its {} games finished ({} stopped by R10: {}); {what}",
            self.variant,
            self.finished,
            self.games,
            self.unfinished(),
            self.stops()
        ))
    }

    /// Sentences saying which readings behind the stops decided games: R10 (move cap,
    /// repetition), R11 (endless moves refused) and R13 (the round cap), with counts.
    pub fn decided(&self) -> Vec<(u16, String)> {
        let mut out = Vec::new();
        if self.unfinished() > 0 {
            out.push((
                10,
                format!(
                    "R10 stopped {} of {} games ({})",
                    self.unfinished(),
                    self.games,
                    self.stops()
                ),
            ));
        }
        if self.endless > 0 {
            out.push((
                11,
                format!(
                    "R11 refused a move as endless in {} of {} games",
                    self.endless, self.games
                ),
            ));
        }
        if let Some((matches, capped)) = self.matches.filter(|&(_, c)| c > 0) {
            out.push((
                13,
                format!("R13's round cap stopped {capped} of {matches} matches"),
            ));
        }
        out
    }
}

/// `87%`, or `0.4%` below 1%.
fn share(k: u64, n: u64) -> String {
    let x = 100.0 * k as f64 / n.max(1) as f64;
    if x > 0.0 && x < 1.0 {
        format!("{x:.1}%")
    } else {
        format!("{x:.0}%")
    }
}

/// How each variant's games ended in the finished run in `dir`, variants in order of first
/// appearance.
///
/// # Errors
/// A missing or malformed `summary.csv` (or `matches.csv` in a match run).
pub fn read(dir: &Path) -> Result<Vec<Endings>, OutputError> {
    let mut endings: Vec<Endings> = Vec::new();
    let summary = dir.join("summary.csv");
    let mut reader = csv::Reader::from_path(&summary).map_err(OutputError::csv(&summary))?;
    for row in reader.deserialize::<SummaryRecord>() {
        let r = row.map_err(OutputError::csv(&summary))?;
        let e = entry(&mut endings, &r.variant);
        let of = |share: f64| (share * r.games as f64).round() as u64;
        e.games += r.games;
        e.finished += r.finished;
        e.cap += of(r.cap_share);
        e.repetition += of(r.repetition_share);
        e.endless += r.games_with_endless_refusals;
        e.moves += r.mean_turns * r.games as f64;
    }
    let matches = dir.join("matches.csv");
    if matches.exists() {
        let mut reader = csv::Reader::from_path(&matches).map_err(OutputError::csv(&matches))?;
        for row in reader.deserialize::<MatchRecord>() {
            let r = row.map_err(OutputError::csv(&matches))?;
            let e = entry(&mut endings, &r.variant);
            let (all, capped) = e.matches.get_or_insert((0, 0));
            *all += 1;
            *capped += u64::from(r.end_reason == MatchEnd::RoundCap);
        }
    }
    Ok(endings)
}

fn entry<'e>(endings: &'e mut Vec<Endings>, variant: &str) -> &'e mut Endings {
    let i = match endings.iter().position(|e| e.variant == variant) {
        Some(i) => i,
        None => {
            endings.push(Endings {
                variant: variant.to_string(),
                ..Endings::default()
            });
            endings.len() - 1
        }
    };
    &mut endings[i]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn endings(games: u64, finished: u64, cap: u64, repetition: u64) -> Endings {
        Endings {
            variant: "V".into(),
            games,
            finished,
            cap,
            repetition,
            moves: 10.0 * games as f64,
            ..Endings::default()
        }
    }

    #[test]
    fn few_finished_games_are_warned_about_and_every_stop_is_counted() {
        assert_eq!(endings(100, 50, 0, 50).warning(), None);
        assert_eq!(
            endings(200, 0, 0, 200).warning().unwrap(),
            "V: 0 of its 200 games finished (200 stopped by R10: 100% repetition); every \
             measure over finished games is n/a"
        );
        assert_eq!(
            endings(1000, 120, 4, 876).warning().unwrap(),
            "V: 120 of its 1000 games finished (880 stopped by R10: 88% repetition, 0.4% move \
             cap); its win rates rest on those 120 games alone"
        );
        let unplayed = Endings {
            moves: 0.0,
            ..endings(20, 20, 0, 0)
        };
        assert_eq!(
            unplayed.warning().unwrap(),
            "V: every one of its 20 games was over before its first move, so its results say \
             nothing of play (`sowlab trace` says why)"
        );
        assert_eq!(
            endings(200, 0, 0, 200).basis(),
            "no finished game: 100% repetition"
        );
        let mut e = endings(10, 9, 1, 0);
        e.endless = 2;
        e.matches = Some((5, 0));
        assert_eq!(
            e.decided(),
            [
                (10, "R10 stopped 1 of 10 games (10% move cap)".to_string()),
                (
                    11,
                    "R11 refused a move as endless in 2 of 10 games".to_string()
                )
            ]
        );
    }
}
