//! The CSV schemas: one flat serde record per file (`games.csv`, `moves.csv`, `matches.csv`,
//! `summary.csv`), typed so that building and writing one allocates nothing.
//! Column names are the field names; `docs/outputs.md` documents each. `Default` is there to
//! name the columns (a header is written even for a file of no rows), not as a meaningful
//! record. The files of a row per game, move or match are written through [`Row`], which
//! spells out the bytes serde would, without its cost per field.

use std::fmt;
use std::sync::Arc;

use serde::de::{self, Unexpected, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::engine::{EndClass, EndReason, MatchEnd};
use crate::rules::Side;

/// A name that every record of an experiment repeats (a variant's label, an agent's spec):
/// made once, and shared by reference count rather than copied into each record.
pub type Name = Arc<str>;

/// A 64-bit value written as 16 lowercase hex digits: a seed, a rules hash.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Hex64(pub u64);

impl fmt::Display for Hex64 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:016x}", self.0)
    }
}

impl Hex64 {
    /// The 16 digits, spelt out on the stack: a record is written without a `String` per value.
    fn digits(self) -> [u8; 16] {
        let mut digits = [0; 16];
        for (i, digit) in digits.iter_mut().enumerate() {
            *digit = b"0123456789abcdef"[(self.0 >> (60 - 4 * i) & 0xf) as usize];
        }
        digits
    }
}

impl Serialize for Hex64 {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let digits = self.digits();
        serializer.serialize_str(std::str::from_utf8(&digits).expect("hex digits are ASCII"))
    }
}

impl<'de> Deserialize<'de> for Hex64 {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Hex64, D::Error> {
        struct Digits;

        impl Visitor<'_> for Digits {
            type Value = Hex64;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("16 lowercase hex digits")
            }

            fn visit_str<E: de::Error>(self, v: &str) -> Result<Hex64, E> {
                let hex = |b: u8| matches!(b, b'0'..=b'9' | b'a'..=b'f');
                if v.len() == 16 && v.bytes().all(hex) {
                    let value = u64::from_str_radix(v, 16).expect("16 hex digits fit in 64 bits");
                    Ok(Hex64(value))
                } else {
                    Err(E::invalid_value(Unexpected::Str(v), &self))
                }
            }
        }

        deserializer.deserialize_str(Digits)
    }
}

/// A winner, `Option<Side>`, written `south`, `north` or `draw` (for `#[serde(with)]`).
pub mod side_or_draw {
    use std::fmt;

    use serde::de::{self, Visitor};
    use serde::{Deserializer, Serializer};

    use crate::rules::Side;

    const NAMES: &[&str] = &["south", "north", "draw"];

    /// Writes `south`, `north` or `draw`.
    ///
    /// # Errors
    /// The serializer's.
    pub fn serialize<S: Serializer>(winner: &Option<Side>, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(winner.map_or("draw", Side::name))
    }

    /// Reads `south`, `north` or `draw`.
    ///
    /// # Errors
    /// Any other text.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Side>, D::Error> {
        struct Winner;

        impl Visitor<'_> for Winner {
            type Value = Option<Side>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("`south`, `north` or `draw`")
            }

            fn visit_str<E: de::Error>(self, v: &str) -> Result<Option<Side>, E> {
                match v {
                    "south" => Ok(Some(Side::South)),
                    "north" => Ok(Some(Side::North)),
                    "draw" => Ok(None),
                    _ => Err(E::unknown_variant(v, NAMES)),
                }
            }
        }

        d.deserialize_str(Winner)
    }
}

/// A result, written `south`, `north` or `draw`, where the field itself may be missing (JSON's
/// `null` for a game not over yet).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Winner(#[serde(with = "side_or_draw")] pub Option<Side>);

/// One row of `games.csv`: one game.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The variant's name.
    pub variant: Name,
    /// Content hash of the compiled rules.
    pub rules_hash: Hex64,
    /// Index of the game within its variant: `(pairing * 2 + seat_order) * games + i`; in a
    /// match run, of the match the round belongs to.
    pub game: u64,
    /// The game's seed (see `sim::seed`).
    pub seed: Hex64,
    /// South's agent spec.
    pub south_agent: Name,
    /// North's agent spec.
    pub north_agent: Name,
    /// Who moved first.
    pub starter: Side,
    /// `south`, `north` or `draw`.
    #[serde(with = "side_or_draw")]
    pub winner: Option<Side>,
    /// South's captured total at the end.
    pub south_total: u16,
    /// North's captured total at the end.
    pub north_total: u16,
    /// Moves played (extra turns count, passes do not).
    pub turns: u32,
    /// Passes.
    pub passes: u32,
    /// Extra turns earned.
    pub extra_turns: u32,
    /// Capture events.
    pub captures: u32,
    /// The most laps in one move.
    pub max_laps: u32,
    /// Holes refused because their sowing never ends (R11), as met during the game.
    pub endless_refused: u32,
    /// Times the drop cap was reached (R11's safety net): holes whose sowing reached it, as
    /// met during the game, and moves cut short at it.
    pub drop_cap_hits: u32,
    /// `normal`, `no-moves`, `cap` or `repetition`.
    pub end_reason: EndClass,
    /// The precise end rule (`last-seeds`, `unfeedable`, `majority`, `empty-row`, `stuck`, ...).
    pub end_rule: EndReason,
    /// In a match run: the match (as `game`); empty otherwise.
    #[serde(rename = "match")]
    pub match_index: Option<u64>,
    /// In a match run: the round, from 1; empty otherwise.
    pub round: Option<u16>,
}

/// One row of `matches.csv`: one match of rounds.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchRecord {
    /// The variant's name.
    pub variant: Name,
    /// Content hash of the compiled rules.
    pub rules_hash: Hex64,
    /// Index of the match within its variant, as `game` in `games.csv`.
    #[serde(rename = "match")]
    pub match_index: u64,
    /// The match's seed.
    pub seed: Hex64,
    /// South's agent spec.
    pub south_agent: Name,
    /// North's agent spec.
    pub north_agent: Name,
    /// Who started the first round.
    pub starter: Side,
    /// Rounds played.
    pub rounds: u16,
    /// `south`, `north` or `draw`.
    #[serde(with = "side_or_draw")]
    pub winner: Option<Side>,
    /// What South held at the end: captures plus reserve (for tallied series, the sum of
    /// every round's captures).
    pub south_total: u32,
    /// What North held at the end.
    pub north_total: u32,
    /// Rounds South won.
    pub south_rounds: u16,
    /// Rounds North won.
    pub north_rounds: u16,
    /// Rounds won by the player who started the match.
    pub starter_rounds: u16,
    /// Who won round 1: `south`, `north` or `draw`.
    #[serde(with = "side_or_draw")]
    pub round_1_winner: Option<Side>,
    /// Why the match ended: `lose-below`, `first-to`, `round-cap`, `cannot-start`.
    pub end_reason: MatchEnd,
}

/// One row of `moves.csv`: one move of one game.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveRecord {
    /// The variant's name.
    pub variant: Name,
    /// The game's index, as in `games.csv`.
    pub game: u64,
    /// Move number, from 1.
    pub turn: u32,
    /// Who moved.
    pub player: Side,
    /// The move played, as its [`crate::engine::Move::slot`]: the hole, plus 32 for a
    /// clockwise sowing the mover chose.
    pub hole: u32,
    /// Legal moves the player had.
    pub branching: u32,
    /// Laps sown.
    pub laps: u32,
    /// Seeds dropped.
    pub sown: u32,
    /// Capture events.
    pub captures: u32,
    /// Seeds captured.
    pub captured: u32,
    /// The move earned another turn.
    pub extra_turn: bool,
    /// South's total minus North's after the move.
    pub score_difference: i32,
    /// In a match run: the round, from 1; empty otherwise.
    pub round: Option<u16>,
}

/// A record written as a line of its CSV file by hand: byte for byte what `csv` writes for it
/// through serde (the tests hold the two together), since through serde a row of `games.csv`
/// costs about as much as five moves of play (`docs/speed.md`, run F).
pub trait Row {
    /// Appends the record and its line end to `out`.
    fn write_row(&self, out: &mut Vec<u8>);
}

/// Fields appended one by one to a line, each followed by a comma until [`Fields::end`].
struct Fields<'a> {
    out: &'a mut Vec<u8>,
    digits: itoa::Buffer,
}

impl<'a> Fields<'a> {
    fn new(out: &'a mut Vec<u8>) -> Fields<'a> {
        Fields {
            out,
            digits: itoa::Buffer::new(),
        }
    }

    /// A field as it is: the words and numbers of the schema need no quotes.
    fn bytes(&mut self, field: &[u8]) -> &mut Self {
        self.out.extend_from_slice(field);
        self.out.push(b',');
        self
    }

    /// A word of the schema (a side, an end reason).
    fn word(&mut self, word: &str) -> &mut Self {
        self.bytes(word.as_bytes())
    }

    /// Free text (a variant's name): quoted, with its quotes doubled, when it holds a comma, a
    /// quote or a line break, as RFC 4180 and `csv` do.
    fn text(&mut self, text: &str) -> &mut Self {
        if text
            .bytes()
            .any(|b| matches!(b, b',' | b'"' | b'\r' | b'\n'))
        {
            self.out.push(b'"');
            for b in text.bytes() {
                if b == b'"' {
                    self.out.push(b'"');
                }
                self.out.push(b);
            }
            self.out.push(b'"');
            self.out.push(b',');
            self
        } else {
            self.bytes(text.as_bytes())
        }
    }

    fn number(&mut self, n: impl itoa::Integer) -> &mut Self {
        let digits = self.digits.format(n).as_bytes();
        self.out.extend_from_slice(digits);
        self.out.push(b',');
        self
    }

    /// A number, or nothing.
    fn optional(&mut self, n: Option<impl itoa::Integer>) -> &mut Self {
        match n {
            Some(n) => self.number(n),
            None => self.bytes(b""),
        }
    }

    fn hex(&mut self, value: Hex64) -> &mut Self {
        self.bytes(&value.digits())
    }

    fn side_or_draw(&mut self, winner: Option<Side>) -> &mut Self {
        self.word(winner.map_or("draw", Side::name))
    }

    /// Ends the line: its last comma becomes the line end.
    fn end(&mut self) {
        if let Some(last) = self.out.last_mut() {
            *last = b'\n';
        }
    }
}

impl Row for GameRecord {
    fn write_row(&self, out: &mut Vec<u8>) {
        Fields::new(out)
            .text(&self.variant)
            .hex(self.rules_hash)
            .number(self.game)
            .hex(self.seed)
            .text(&self.south_agent)
            .text(&self.north_agent)
            .word(self.starter.name())
            .side_or_draw(self.winner)
            .number(self.south_total)
            .number(self.north_total)
            .number(self.turns)
            .number(self.passes)
            .number(self.extra_turns)
            .number(self.captures)
            .number(self.max_laps)
            .number(self.endless_refused)
            .number(self.drop_cap_hits)
            .word(self.end_reason.name())
            .word(self.end_rule.name())
            .optional(self.match_index)
            .optional(self.round)
            .end();
    }
}

impl Row for MatchRecord {
    fn write_row(&self, out: &mut Vec<u8>) {
        Fields::new(out)
            .text(&self.variant)
            .hex(self.rules_hash)
            .number(self.match_index)
            .hex(self.seed)
            .text(&self.south_agent)
            .text(&self.north_agent)
            .word(self.starter.name())
            .number(self.rounds)
            .side_or_draw(self.winner)
            .number(self.south_total)
            .number(self.north_total)
            .number(self.south_rounds)
            .number(self.north_rounds)
            .number(self.starter_rounds)
            .side_or_draw(self.round_1_winner)
            .word(self.end_reason.name())
            .end();
    }
}

impl Row for MoveRecord {
    fn write_row(&self, out: &mut Vec<u8>) {
        let extra_turn: &[u8] = if self.extra_turn { b"true" } else { b"false" };
        Fields::new(out)
            .text(&self.variant)
            .number(self.game)
            .number(self.turn)
            .word(self.player.name())
            .number(self.hole)
            .number(self.branching)
            .number(self.laps)
            .number(self.sown)
            .number(self.captures)
            .number(self.captured)
            .bytes(extra_turn)
            .number(self.score_difference)
            .optional(self.round)
            .end();
    }
}

/// A row of `summary.csv`: one variant in one seating of one agent pairing. Outcomes and rates
/// are over the finished games, as the reports count them (empty where none finished); how
/// games ended is over all of them.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SummaryRecord {
    /// The variant's name.
    pub variant: Name,
    /// Content hash of the compiled rules.
    pub rules_hash: Hex64,
    /// The agent pairing, `A,B`.
    pub pairing: Name,
    /// Seat order: 0 when the pairing's first agent played South, 1 when its second did.
    pub seat_order: u8,
    /// South's agent.
    pub south_agent: Name,
    /// North's agent.
    pub north_agent: Name,
    /// Games.
    pub games: u64,
    /// Games that reached an end rule of the variant or in which nobody could move: not
    /// stopped by the move cap or by repetition.
    pub finished: u64,
    /// Finished games South won.
    pub south_wins: u64,
    /// Finished games North won.
    pub north_wins: u64,
    /// Finished games drawn.
    pub draws: u64,
    /// South's win rate over the finished games.
    pub south_rate: Option<f64>,
    /// Its 95% Wilson interval, low end.
    pub south_low: Option<f64>,
    /// High end.
    pub south_high: Option<f64>,
    /// North's win rate.
    pub north_rate: Option<f64>,
    /// Low end.
    pub north_low: Option<f64>,
    /// High end.
    pub north_high: Option<f64>,
    /// Draw rate.
    pub draw_rate: Option<f64>,
    /// Low end.
    pub draw_low: Option<f64>,
    /// High end.
    pub draw_high: Option<f64>,
    /// Win rate of the player who moved first.
    pub first_mover_rate: Option<f64>,
    /// Low end.
    pub first_mover_low: Option<f64>,
    /// High end.
    pub first_mover_high: Option<f64>,
    /// Mean moves per game.
    pub mean_turns: f64,
    /// Median moves per game.
    pub median_turns: f64,
    /// Share of games stopped by the move cap.
    pub cap_share: f64,
    /// Share of games stopped by repetition.
    pub repetition_share: f64,
    /// Share of games ended because neither player could move.
    pub no_moves_share: f64,
    /// Mean capture events per game.
    pub mean_captures: f64,
    /// Mean passes per game.
    pub mean_passes: f64,
    /// Mean extra turns per game.
    pub mean_extra_turns: f64,
    /// Games in which some hole was refused as endless (R11).
    pub games_with_endless_refusals: u64,
    /// Games in which the drop cap was reached.
    pub games_with_drop_cap_hits: u64,
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn write<T: Serialize>(record: &T) -> String {
        let mut out = csv::Writer::from_writer(Vec::new());
        out.serialize(record).unwrap();
        String::from_utf8(out.into_inner().unwrap()).unwrap()
    }

    fn read<T: de::DeserializeOwned>(text: &str) -> Result<T, csv::Error> {
        csv::Reader::from_reader(text.as_bytes())
            .deserialize()
            .next()
            .expect("a row")
    }

    /// Writes `record`, checks that reading it back gives it again and that [`Row`] writes
    /// the same line as serde, and returns the text.
    fn round_trip<T>(record: &T) -> String
    where
        T: Row + Serialize + de::DeserializeOwned + PartialEq + fmt::Debug,
    {
        let text = write(record);
        assert_eq!(&read::<T>(&text).unwrap(), record, "{text}");
        let mut line = Vec::new();
        record.write_row(&mut line);
        let (_header, row) = text.split_once('\n').expect("a header line");
        assert_eq!(String::from_utf8(line).unwrap(), row);
        text
    }

    #[test]
    fn typed_columns_are_written_as_text_and_read_back() {
        let record = GameRecord {
            variant: "Oware".into(),
            rules_hash: Hex64(0x00ab_cdef_0123_4567),
            seed: Hex64(1),
            south_agent: "random".into(),
            north_agent: "alphabeta:3".into(),
            starter: Side::North,
            winner: None,
            end_reason: EndClass::NoMoves,
            end_rule: EndReason::NoMoves,
            ..GameRecord::default()
        };
        let text = round_trip(&record);
        let row = text.lines().nth(1).unwrap();
        assert!(
            row.starts_with(
                "Oware,00abcdef01234567,0,0000000000000001,random,alphabeta:3,north,draw,"
            ),
            "{row}"
        );
        assert!(row.ends_with(",no-moves,no-moves,,"), "{row}");
        assert_eq!(Hex64(u64::MAX).to_string(), "ffffffffffffffff");
        round_trip(&GameRecord {
            seed: Hex64(u64::MAX),
            winner: Some(Side::South),
            ..GameRecord::default()
        });
    }

    #[test]
    fn every_end_is_written_by_its_name() {
        let reasons = [
            EndReason::LastSeeds,
            EndReason::Majority,
            EndReason::EmptyRow,
            EndReason::Singletons,
            EndReason::Quiet,
            EndReason::Emptied,
            EndReason::Unfeedable,
            EndReason::GrandSlam,
            EndReason::Stuck,
            EndReason::EndlessMove,
            EndReason::BoardEmpty,
            EndReason::NoMoves,
            EndReason::Cap,
            EndReason::Repetition,
        ];
        for reason in reasons {
            let text = round_trip(&GameRecord {
                end_reason: reason.class(),
                end_rule: reason,
                ..GameRecord::default()
            });
            let names = format!(",{},{},", reason.class().name(), reason.name());
            assert!(text.contains(&names), "{text}");
        }
        let ends = [
            MatchEnd::LoseBelow,
            MatchEnd::FirstTo,
            MatchEnd::RoundCap,
            MatchEnd::CannotStart,
        ];
        for end in ends {
            let text = round_trip(&MatchRecord {
                end_reason: end,
                round_1_winner: Some(Side::North),
                ..MatchRecord::default()
            });
            assert!(
                text.ends_with(&format!(",north,{}\n", end.name())),
                "{text}"
            );
        }
    }

    #[test]
    fn a_bad_value_is_an_error_naming_what_was_expected() {
        let good = write(&GameRecord::default());
        for (from, to, expected) in [
            (
                ",0000000000000000,",
                ",00000000000000ag,",
                "16 lowercase hex digits",
            ),
            (
                ",0000000000000000,",
                ",0000000000000000F,",
                "16 lowercase hex digits",
            ),
            (
                ",0000000000000000,",
                ",+000000000000000,",
                "16 lowercase hex digits",
            ),
            (
                ",south,draw,",
                ",south,nobody,",
                "expected one of `south`, `north`, `draw`",
            ),
            (
                ",normal,last-seeds,",
                ",normal,sudden-death,",
                "unknown variant `sudden-death`",
            ),
            (
                ",normal,last-seeds,",
                ",finished,last-seeds,",
                "unknown variant `finished`",
            ),
        ] {
            let bad = good.replacen(from, to, 1);
            assert_ne!(bad, good, "{from}");
            let error = read::<GameRecord>(&bad).unwrap_err().to_string();
            assert!(error.contains(expected), "{error}");
        }
    }

    /// Names as users write them: commas, quotes, line breaks, spaces, non-ASCII letters.
    fn name() -> impl Strategy<Value = Name> {
        "[a-z ,\"\r\nü:0-9-]{0,12}".prop_map(Name::from)
    }

    fn side() -> impl Strategy<Value = Side> {
        prop_oneof![Just(Side::South), Just(Side::North)]
    }

    proptest! {
        #[test]
        fn rows_are_written_as_serde_writes_them(
            (variant, south_agent, north_agent) in (name(), name(), name()),
            (hash, seed, game) in (any::<u64>(), any::<u64>(), any::<u64>()),
            (starter, winner, totals) in (side(), proptest::option::of(side()), any::<(u16, u16)>()),
            counts in any::<[u32; 7]>(),
            (round, match_index) in (proptest::option::of(any::<u16>()), proptest::option::of(any::<u64>())),
            (extra_turn, score_difference) in (any::<bool>(), any::<i32>()),
        ) {
            round_trip(&GameRecord {
                variant: variant.clone(),
                rules_hash: Hex64(hash),
                game,
                seed: Hex64(seed),
                south_agent: south_agent.clone(),
                north_agent: north_agent.clone(),
                starter,
                winner,
                south_total: totals.0,
                north_total: totals.1,
                turns: counts[0],
                passes: counts[1],
                extra_turns: counts[2],
                captures: counts[3],
                max_laps: counts[4],
                endless_refused: counts[5],
                drop_cap_hits: counts[6],
                end_reason: EndClass::Cap,
                end_rule: EndReason::Cap,
                match_index,
                round,
            });
            round_trip(&MatchRecord {
                variant: variant.clone(),
                rules_hash: Hex64(hash),
                match_index: game,
                seed: Hex64(seed),
                south_agent,
                north_agent,
                starter,
                rounds: totals.0,
                winner,
                south_total: counts[0],
                north_total: counts[1],
                south_rounds: totals.1,
                north_rounds: round.unwrap_or(0),
                starter_rounds: totals.0 / 2,
                round_1_winner: winner.map(Side::other),
                end_reason: MatchEnd::FirstTo,
            });
            round_trip(&MoveRecord {
                variant,
                game,
                turn: counts[0],
                player: starter,
                hole: counts[1],
                branching: counts[2],
                laps: counts[3],
                sown: counts[4],
                captures: counts[5],
                captured: counts[6],
                extra_turn,
                score_difference,
                round,
            });
        }
    }
}
