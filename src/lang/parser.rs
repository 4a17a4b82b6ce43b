//! The pest parser and the conversion of its token tree into the syntax tree (no semantics).

use pest::iterators::Pair;
use pest::Parser;
use pest_derive::Parser;

use super::ast::{Block, BlockKind, Condition, File, Rule as AstRule, Spanned, Test, Value};
use crate::rules::{
    Award, Direction, Effect, Endless, FeedJudged, GrandSlam, LapStart, LastSeedsCheck, Recipient,
    Side, SkipLaps, Starter, Stores, Surplus, Trigger,
};
use crate::source::Span;

/// The generated parser for `grammar/sow.pest`.
#[derive(Parser)]
#[grammar = "../grammar/sow.pest"]
pub struct SowParser;

/// A number that does not fit, found while building the tree.
#[derive(Clone, Copy, Debug)]
pub struct NumberTooLarge {
    /// Where.
    pub span: Span,
    /// The largest number allowed there.
    pub max: u64,
}

/// Parses `text` into a syntax tree.
///
/// # Errors
/// A pest error for malformed text; a [`NumberTooLarge`] for a number beyond its range.
pub fn parse(text: &str) -> Result<Result<File, NumberTooLarge>, pest::error::Error<Rule>> {
    // Ask pest for the keywords it tried, so errors can list them.
    pest::set_error_detail(true);
    let file = SowParser::parse(Rule::file, text)?
        .next()
        .expect("the file rule always yields one pair");
    Ok(file_of(file))
}

fn file_of(pair: Pair<'_, Rule>) -> Result<File, NumberTooLarge> {
    let mut file = File {
        extends: Vec::new(),
        blocks: Vec::new(),
    };
    for item in pair.into_inner() {
        match item.as_rule() {
            Rule::extends => {
                let string = item.into_inner().next().expect("extends has a string");
                file.extends.push(Spanned {
                    span: Span::of(string.as_span()),
                    value: text_of(string),
                });
            }
            Rule::EOI => {}
            _ => file.blocks.push(block_of(item)?),
        }
    }
    Ok(file)
}

fn block_of(pair: Pair<'_, Rule>) -> Result<Block, NumberTooLarge> {
    let rule = pair.as_rule();
    let whole = pair.as_span();
    let mut inner = pair.into_inner().peekable();
    let name = match inner.peek().map(Pair::as_rule) {
        Some(Rule::string) => inner.next().map(text_of),
        _ => None,
    };
    let header_end = inner.peek().map_or(whole.end(), |p| p.as_span().start());
    let span = Span {
        start: whole.start(),
        end: header_end.max(whole.start()),
    };
    let name = name.unwrap_or_default();
    let kind = match rule {
        Rule::game => BlockKind::Game(name),
        Rule::board => BlockKind::Board,
        Rule::sowing => BlockKind::Sowing,
        Rule::capture => BlockKind::Capture(name),
        Rule::no_capture => BlockKind::NoCapture(name),
        Rule::feeding => BlockKind::Feeding,
        Rule::no_feeding => BlockKind::NoFeeding,
        Rule::ending => BlockKind::End,
        _ => BlockKind::Match,
    };
    let span = if matches!(kind, BlockKind::NoCapture(_) | BlockKind::NoFeeding) {
        Span {
            start: whole.start(),
            end: whole.start() + trimmed_len(whole.as_str()),
        }
    } else {
        Span {
            start: span.start,
            end: span.start + trimmed_len(&whole.as_str()[..span.end - span.start]),
        }
    };
    let rules = inner.map(rule_of).collect::<Result<_, _>>()?;
    Ok(Block { kind, span, rules })
}

fn rule_of(pair: Pair<'_, Rule>) -> Result<AstRule, NumberTooLarge> {
    let span = span_of(&pair);
    let rule = pair.as_rule();
    let mut readings = Vec::new();
    let mut parts = Vec::new();
    for part in pair.into_inner() {
        if part.as_rule() == Rule::reading {
            for id in part.into_inner() {
                let digits = &id.as_str()[1..];
                let span = span_of(&id);
                let number = digits.parse().map_err(|_| NumberTooLarge {
                    span,
                    max: u64::from(u16::MAX),
                })?;
                readings.push(Spanned {
                    value: number,
                    span,
                });
            }
        } else {
            parts.push(part);
        }
    }
    let mut parts = parts.into_iter();
    let value = match rule {
        Rule::about => {
            let key = need(&mut parts).as_str().to_string();
            let mut texts = vec![text_of(need(&mut parts))];
            texts.extend(parts.by_ref().map(text_of));
            Value::About(key, texts)
        }
        Rule::holes => Value::Holes(number(need(&mut parts))?),
        Rule::seeds => Value::Seeds(number(need(&mut parts))?),
        Rule::layout => {
            let mut counts = vec![number(need(&mut parts))?];
            for p in parts.by_ref() {
                counts.push(number(p)?);
            }
            Value::Layout(counts)
        }
        Rule::stores => Value::Stores(match need(&mut parts).as_str() {
            "none" => Stores::None,
            "kept" => Stores::Kept,
            _ => Stores::Sown,
        }),
        Rule::starter => Value::Starter(side(need(&mut parts))),
        Rule::direction => Value::Direction(match need(&mut parts).as_str() {
            "clockwise" => Direction::Clockwise,
            _ => Direction::Counterclockwise,
        }),
        Rule::lap_start => Value::LapStart(match first(need(&mut parts)).as_rule() {
            Rule::lifted_hole => LapStart::LiftedHole,
            _ => LapStart::NextHole,
        }),
        Rule::origin => {
            let kind = first(need(&mut parts));
            let laps = match parts.next().map(|scope| first(scope).as_rule()) {
                Some(Rule::first_lap) => SkipLaps::First,
                _ => SkipLaps::Every,
            };
            match kind.as_rule() {
                Rule::never => Value::SkipNever,
                Rule::always => Value::Skip(None, laps),
                _ => Value::Skip(Some(number(first(kind))?), laps),
            }
        }
        Rule::relay => {
            let what = need(&mut parts);
            match what.as_rule() {
                Rule::never => Value::Relay(None),
                _ => Value::Relay(Some(condition(what)?)),
            }
        }
        Rule::store_turn => Value::StoreTurn(need(&mut parts).as_rule() == Rule::in_own_store),
        Rule::drop_cap => Value::DropCap(number(need(&mut parts))?),
        Rule::trigger => Value::Trigger(match first(need(&mut parts)).as_rule() {
            Rule::passing_drop => Trigger::PassingDrop,
            Rule::every_drop => Trigger::EveryDrop,
            Rule::lap_end => Trigger::LapEnd,
            _ => Trigger::MoveEnd,
        }),
        Rule::condition_rule => Value::If(condition(need(&mut parts))?),
        Rule::take => {
            let taken = first(need(&mut parts)).as_rule();
            let chain = parts
                .next()
                .map(|chain| condition(first(chain)))
                .transpose()?;
            Value::Take {
                opposite: taken != Rule::hole,
                with_seed: taken == Rule::opposite_with_seed,
                chain,
            }
        }
        Rule::recipient => Value::To(match need(&mut parts).as_str() {
            "owner" => Recipient::Owner,
            _ => Recipient::Mover,
        }),
        Rule::effect => Value::Then(match first(need(&mut parts)).as_rule() {
            Rule::continues => Effect::Continue,
            Rule::ends => Effect::EndSowing,
            _ => Effect::ExtraTurn,
        }),
        Rule::grand_slam => Value::GrandSlam(match first(need(&mut parts)).as_rule() {
            Rule::captures_nothing => GrandSlam::CapturesNothing,
            Rule::forbidden => GrandSlam::Forbidden,
            _ => GrandSlam::Captures,
        }),
        Rule::judged => Value::Judged(match need(&mut parts).as_rule() {
            Rule::on_first_lap => FeedJudged::FirstLap,
            _ => FeedJudged::AfterMove,
        }),
        Rule::unfeedable => Value::Unfeedable(award(need(&mut parts))),
        Rule::last_seeds => {
            let first_part = need(&mut parts);
            if first_part.as_rule() == Rule::none {
                Value::LastSeeds(None)
            } else {
                let at_most = number(first_part)?;
                let check = match first(need(&mut parts)).as_rule() {
                    Rule::after_each_move => LastSeedsCheck::AfterMove,
                    _ => LastSeedsCheck::AfterCapture,
                };
                Value::LastSeeds(Some((at_most, check, award(need(&mut parts)))))
            }
        }
        Rule::majority => Value::Majority(optional_award(need(&mut parts))),
        Rule::empty_row => Value::EmptyRow(optional_award(need(&mut parts))),
        Rule::no_move => {
            let what = need(&mut parts);
            Value::NoMove((what.as_rule() == Rule::award).then(|| award(what)))
        }
        Rule::move_cap => Value::MoveCap(number(need(&mut parts))?, award(need(&mut parts))),
        Rule::repetition => Value::Repetition(number(need(&mut parts))?, award(need(&mut parts))),
        Rule::unfinished => Value::UnfinishedDraw(need(&mut parts).as_rule() == Rule::draw),
        Rule::endless => Value::Endless(match first(need(&mut parts)).as_rule() {
            Rule::end_the_game => Endless::EndsGame,
            Rule::stop_at_cap => Endless::StopAtCap,
            _ => Endless::Illegal,
        }),
        Rule::winner => Value::Winner,
        Rule::refill => Value::Refill(number(need(&mut parts))?),
        Rule::unfilled => Value::UnfilledClosed(need(&mut parts).as_rule() == Rule::closed),
        Rule::surplus => Value::Surplus(match need(&mut parts).as_rule() {
            Rule::opponent_holes => Surplus::OpponentHoles,
            _ => Surplus::Reserve,
        }),
        Rule::match_starter => Value::MatchStarter(match need(&mut parts).as_rule() {
            Rule::round_loser => Starter::RoundLoser,
            Rule::alternate => Starter::Alternate,
            _ => Starter::RoundWinner,
        }),
        Rule::lose_below => Value::LoseBelow(number(need(&mut parts))?),
        Rule::round_cap => Value::RoundCap(number(need(&mut parts))?),
        _ => Value::FromRound(number(need(&mut parts))?, award(need(&mut parts))),
    };
    Ok(AstRule {
        value,
        readings,
        span,
    })
}

fn condition(pair: Pair<'_, Rule>) -> Result<Condition, NumberTooLarge> {
    pair.into_inner()
        .map(|test| {
            let span = span_of(&test);
            let inner = first(test);
            let value = match inner.as_rule() {
                Rule::count_test => {
                    let kind = first(inner);
                    match kind.as_rule() {
                        Rule::count_is => {
                            Test::CountIs(kind.into_inner().map(number).collect::<Result<_, _>>()?)
                        }
                        Rule::count_at_least => Test::CountAtLeast(number(first(kind))?),
                        _ => Test::CountAtMost(number(first(kind))?),
                    }
                }
                Rule::was_empty => Test::WasEmpty,
                Rule::occupied => Test::Occupied,
                Rule::own_side => Test::OwnSide,
                Rule::opponent_side => Test::OpponentSide,
                Rule::opposite_empty => Test::OppositeEmpty,
                _ => Test::OppositeOccupied,
            };
            Ok(Spanned { value, span })
        })
        .collect()
}

fn award(pair: Pair<'_, Rule>) -> Award {
    match first(pair).as_rule() {
        Rule::to_capturer => Award::Capturer,
        Rule::to_player_to_move => Award::PlayerToMove,
        Rule::to_last_mover => Award::LastMover,
        Rule::to_owners => Award::Owners,
        Rule::to_previous_winner => Award::PreviousWinner,
        Rule::to_nobody => Award::Nobody,
        _ => Award::Split,
    }
}

fn optional_award(pair: Pair<'_, Rule>) -> Option<Award> {
    (pair.as_rule() == Rule::award).then(|| award(pair))
}

fn side(pair: Pair<'_, Rule>) -> Side {
    if pair.as_str() == "north" {
        Side::North
    } else {
        Side::South
    }
}

/// The span of a token without the blanks and comments pest's implicit whitespace adds after
/// optional parts, so carets stay under what was written.
fn span_of(pair: &Pair<'_, Rule>) -> Span {
    let span = pair.as_span();
    Span {
        start: span.start(),
        end: span.start() + trimmed_len(span.as_str()),
    }
}

/// Length of `text` once trailing blanks and trailing comments are cut.
fn trimmed_len(text: &str) -> usize {
    let mut end = text.trim_end().len();
    loop {
        let line_start = text[..end].rfind('\n').map_or(0, |i| i + 1);
        match comment_start(&text[line_start..end]) {
            Some(i) => end = text[..line_start + i].trim_end().len(),
            None => return end,
        }
    }
}

/// Where a `#` comment starts on a line, outside quoted texts.
fn comment_start(line: &str) -> Option<usize> {
    let mut quoted = false;
    let mut escaped = false;
    for (i, c) in line.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if quoted => escaped = true,
            '"' => quoted = !quoted,
            '#' if !quoted => return Some(i),
            _ => {}
        }
    }
    None
}

fn need<'a>(parts: &mut impl Iterator<Item = Pair<'a, Rule>>) -> Pair<'a, Rule> {
    parts.next().expect("the grammar guarantees this part")
}

fn first(pair: Pair<'_, Rule>) -> Pair<'_, Rule> {
    pair.into_inner()
        .next()
        .expect("the grammar guarantees an inner token")
}

fn number<T: TryFrom<u64> + Into<u64> + Bounded>(
    pair: Pair<'_, Rule>,
) -> Result<T, NumberTooLarge> {
    let too_large = NumberTooLarge {
        span: span_of(&pair),
        max: T::MAX.into(),
    };
    let value: u64 = pair.as_str().parse().map_err(|_| too_large)?;
    T::try_from(value).map_err(|_| too_large)
}

/// The unsigned integer types numbers are read into, with their largest value.
trait Bounded: Sized {
    const MAX: Self;
}

impl Bounded for u16 {
    const MAX: u16 = u16::MAX;
}

impl Bounded for u32 {
    const MAX: u32 = u32::MAX;
}

fn text_of(pair: Pair<'_, Rule>) -> String {
    let raw = pair.into_inner().next().map_or("", |t| t.as_str());
    let mut text = String::with_capacity(raw.len());
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => text.extend(chars.next()),
            c => text.push(c),
        }
    }
    text
}
