//! The pest parser and the conversion of its token tree into the syntax tree (no semantics).

use pest::iterators::Pair;
use pest::Parser;
use pest_derive::Parser;

use super::ast::{
    About, Block, BlockKind, BoardRule, CaptureRule, ChainSpec, Condition, CountSpec, Declared,
    EndRule, FeedingRule, File, FirstMoveSpec, HouseRule, Item, LastSeeds, MatchRule, Relay, Seeds,
    Skip, SkipHolesSpec, SowingRule, Spanned, Take, Taken, Test,
};
use crate::rules::{
    Award, ChainWay, Direction, DirectionRule, Effect, EndCheck, Endless, FeedDuty, FeedJudged,
    GrandSlam, HouseContents, HouseSown, LapStart, LastSeedsCheck, Majority, MatchScoring,
    MoveFilter, Raid, Recipient, Ring, RowTest, Scoring, Side, SkipLaps, Starter, Stores, Surplus,
    Territory, Trigger, Unfeedable,
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

type Built<T> = Result<T, NumberTooLarge>;

/// Parses `text` into a syntax tree.
///
/// # Errors
/// A pest error for malformed text; a [`NumberTooLarge`] for a number beyond its range.
pub fn parse(text: &str) -> Result<Built<File>, pest::error::Error<Rule>> {
    // Ask pest for the keywords it tried, so errors can list them.
    pest::set_error_detail(true);
    let file = SowParser::parse(Rule::file, text)?
        .next()
        .expect("the file rule always yields one pair");
    Ok(file_of(file))
}

fn file_of(pair: Pair<'_, Rule>) -> Built<File> {
    let mut file = File {
        extends: Vec::new(),
        blocks: Vec::new(),
    };
    for item in pair.into_inner() {
        match item.as_rule() {
            Rule::extends => {
                let string = first(item);
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

fn block_of(pair: Pair<'_, Rule>) -> Built<Block> {
    let rule = pair.as_rule();
    let whole = pair.as_span();
    if rule == Rule::alternative {
        return alternative_of(pair);
    }
    let mut inner = pair.into_inner().peekable();
    let name = match inner.peek().map(Pair::as_rule) {
        Some(Rule::string) => inner.next().map(text_of),
        _ => None,
    };
    // The header runs to the first rule; a one-line block (`no feeding`) is all header.
    let header_end = inner.peek().map_or(whole.end(), |p| p.as_span().start());
    let header = &whole.as_str()[..header_end - whole.start()];
    let span = Span {
        start: whole.start(),
        end: whole.start() + trimmed_len(header),
    };
    let name = name.unwrap_or_default();
    let kind = match rule {
        Rule::readings => BlockKind::Readings(
            inner
                .map(|declaration| {
                    let span = span_of(&declaration);
                    let mut parts = declaration.into_inner();
                    let id = need(&mut parts);
                    let number = reading_number(&id)?;
                    let text = text_of(need(&mut parts));
                    Ok(Spanned {
                        value: Declared { number, text },
                        span,
                    })
                })
                .collect::<Built<_>>()?,
        ),
        Rule::game => BlockKind::Game {
            name,
            fields: items(inner, about)?,
        },
        Rule::board => BlockKind::Board(items(inner, board_rule)?),
        Rule::sowing => BlockKind::Sowing(items(inner, sowing_rule)?),
        Rule::capture => BlockKind::Capture {
            name,
            rules: items(inner, capture_rule)?,
        },
        Rule::no_capture => BlockKind::NoCapture(name),
        Rule::house => BlockKind::House {
            name,
            rules: items(inner, house_rule)?,
        },
        Rule::no_house => BlockKind::NoHouse(name),
        Rule::feeding => BlockKind::Feeding(items(inner, feeding_rule)?),
        Rule::no_feeding => BlockKind::NoFeeding,
        Rule::ending => BlockKind::End(items(inner, end_rule)?),
        Rule::matches => BlockKind::Match(items(inner, match_rule)?),
        Rule::no_match => BlockKind::NoMatch,
        other => unwired(other),
    };
    Ok(Block { kind, span })
}

/// `alternative R2 "name" { blocks }`: its header runs from the keyword to the name.
fn alternative_of(pair: Pair<'_, Rule>) -> Built<Block> {
    let start = pair.as_span().start();
    let mut inner = pair.into_inner();
    let id = need(&mut inner);
    let reading = Spanned {
        value: reading_number(&id)?,
        span: span_of(&id),
    };
    let name = need(&mut inner);
    let span = Span {
        start,
        end: name.as_span().end(),
    };
    let name = text_of(name);
    let blocks = inner.map(block_of).collect::<Built<_>>()?;
    let kind = BlockKind::Alternative {
        reading,
        name,
        blocks,
    };
    Ok(Block { kind, span })
}

/// The rules of a block, each converted by `convert` from its rule pair's parts (readings
/// taken out).
fn items<'a, R>(
    pairs: impl Iterator<Item = Pair<'a, Rule>>,
    convert: fn(Rule, &mut Parts<'a>) -> Built<R>,
) -> Built<Vec<Item<R>>> {
    pairs
        .map(|pair| {
            let span = span_of(&pair);
            let rule = pair.as_rule();
            let mut readings = Vec::new();
            let mut parts = Vec::new();
            for part in pair.into_inner() {
                if part.as_rule() == Rule::reading {
                    for id in part.into_inner() {
                        readings.push(Spanned {
                            value: reading_number(&id)?,
                            span: span_of(&id),
                        });
                    }
                } else {
                    parts.push(part);
                }
            }
            let mut parts = parts.into_iter();
            Ok(Item {
                rule: convert(rule, &mut parts)?,
                readings,
                span,
            })
        })
        .collect()
}

/// The parts of one rule line, in order.
type Parts<'a> = std::vec::IntoIter<Pair<'a, Rule>>;

fn about(rule: Rule, parts: &mut Parts<'_>) -> Built<About> {
    match rule {
        Rule::about => Ok(About {
            key: need(parts).as_str().to_string(),
            texts: parts.map(text_of).collect(),
        }),
        other => unwired(other),
    }
}

fn board_rule(rule: Rule, parts: &mut Parts<'_>) -> Built<BoardRule> {
    Ok(match rule {
        Rule::holes => BoardRule::Holes(number(need(parts))?),
        Rule::seeds => BoardRule::Seeds(Seeds::PerHole(number(need(parts))?)),
        Rule::layout => BoardRule::Seeds(Seeds::Layout(parts.map(number).collect::<Built<_>>()?)),
        Rule::stores => BoardRule::Stores(match first(need(parts)).as_rule() {
            Rule::none => Stores::None,
            Rule::kept => Stores::Kept,
            Rule::sown => Stores::Sown,
            Rule::sown_by_both => Stores::SownByBoth,
            other => unwired(other),
        }),
        Rule::starter => BoardRule::Starter(side(need(parts))),
        other => unwired(other),
    })
}

fn sowing_rule(rule: Rule, parts: &mut Parts<'_>) -> Built<SowingRule> {
    Ok(match rule {
        Rule::direction => {
            let kind = first(need(parts));
            SowingRule::Direction(match kind.as_rule() {
                Rule::clockwise | Rule::counterclockwise => DirectionRule::Fixed(direction(&kind)),
                Rule::chosen => DirectionRule::Chosen,
                Rule::by_parity => DirectionRule::ByParity {
                    odd: direction(&first(kind)),
                },
                Rule::outward => DirectionRule::ByHole { outward: true },
                Rule::inward => DirectionRule::ByHole { outward: false },
                other => unwired(other),
            })
        }
        Rule::lap_start => SowingRule::LapStart(match first(need(parts)).as_rule() {
            Rule::lifted_hole => LapStart::LiftedHole,
            Rule::single_moves_on => LapStart::LiftedHoleSingleMovesOn,
            Rule::next_hole => LapStart::NextHole,
            other => unwired(other),
        }),
        Rule::skip_holes => {
            let mut part = need(parts);
            let row = if part.as_rule() == Rule::skip_row {
                let row = row_test(first(part));
                part = need(parts);
                row
            } else {
                RowTest::Either
            };
            let held = first(part);
            let span = span_of(&held);
            let value = match held.as_rule() {
                Rule::held_range => {
                    let mut bounds = held.into_inner();
                    CountSpec::Range(number(need(&mut bounds))?, number(need(&mut bounds))?)
                }
                Rule::held_set => {
                    CountSpec::Is(held.into_inner().map(number).collect::<Built<_>>()?, None)
                }
                Rule::count_at_least => CountSpec::AtLeast(number(first(held))?),
                Rule::count_at_most => CountSpec::AtMost(number(first(held))?),
                other => unwired(other),
            };
            let mut except_last = false;
            let mut except_first_move = false;
            for flag in parts {
                match flag.as_rule() {
                    Rule::except_last => except_last = true,
                    Rule::except_first_move => except_first_move = true,
                    other => unwired(other),
                }
            }
            SowingRule::SkipHoles(SkipHolesSpec {
                count: Spanned { value, span },
                row,
                except_last,
                except_first_move,
            })
        }
        Rule::min_seeds => SowingRule::MinSeeds(number(need(parts))?, parts.next().is_some()),
        Rule::play_from => SowingRule::PlayFrom(need(parts).as_rule() == Rule::any_hole),
        Rule::ring => SowingRule::Ring(match need(parts).as_rule() {
            Rule::own_row => Ring::OwnRow,
            Rule::both_rows => Ring::Board,
            other => unwired(other),
        }),
        Rule::first_move => {
            let mut spec = FirstMoveSpec {
                places: Vec::new(),
                game_only: false,
                last_seed_across: false,
            };
            for part in parts {
                match part.as_rule() {
                    Rule::of_the_game => spec.game_only = true,
                    Rule::last_seed_across => spec.last_seed_across = true,
                    Rule::places => spec.places = places(part)?,
                    other => unwired(other),
                }
            }
            SowingRule::FirstMove(spec)
        }
        Rule::opening => SowingRule::Opening(parts.map(number).collect::<Built<_>>()?),
        Rule::after_round => SowingRule::OpponentAfterRound,
        Rule::locked => SowingRule::LockPlayed,
        Rule::bear_off => SowingRule::BearOff(number(need(parts))?),
        Rule::move_filter => SowingRule::MoveFilter(match need(parts).as_rule() {
            Rule::not_into_occupied_own => MoveFilter::NotIntoOccupiedOwn,
            Rule::reaches_opponent => MoveFilter::ReachesOpponentOrEmptyOwn,
            Rule::single_into_empty => MoveFilter::SingleIntoEmpty,
            other => unwired(other),
        }),
        Rule::origin => {
            let kind = first(need(parts));
            let laps = match parts.next().map(|scope| first(scope).as_rule()) {
                None | Some(Rule::every_lap) => SkipLaps::Every,
                Some(Rule::first_lap) => SkipLaps::First,
                Some(other) => unwired(other),
            };
            SowingRule::SkipOrigin(match kind.as_rule() {
                Rule::never => Skip::Never,
                Rule::always => Skip::From(None, laps),
                Rule::from_seeds => Skip::From(Some(number(first(kind))?), laps),
                other => unwired(other),
            })
        }
        Rule::relay => {
            let what = need(parts);
            SowingRule::Relay(match what.as_rule() {
                Rule::never => Relay::Never,
                Rule::next_hole => Relay::NextHole,
                Rule::condition => Relay::When(condition(what)?),
                other => unwired(other),
            })
        }
        Rule::store_turn => SowingRule::StoreTurn(match need(parts).as_rule() {
            Rule::in_own_store => true,
            Rule::never => false,
            other => unwired(other),
        }),
        Rule::drop_cap => SowingRule::DropCap(number(need(parts))?),
        other => unwired(other),
    })
}

fn capture_rule(rule: Rule, parts: &mut Parts<'_>) -> Built<CaptureRule> {
    Ok(match rule {
        Rule::trigger => CaptureRule::On(trigger(need(parts))),
        Rule::condition_rule => CaptureRule::If(condition(need(parts))?),
        Rule::take => {
            let target = first(need(parts));
            let taken = match target.as_rule() {
                Rule::hole => Taken::Hole,
                Rule::opposite => Taken::Opposite,
                Rule::hole_and_opposite => Taken::HoleAndOpposite,
                Rule::next_hole => Taken::Next,
                Rule::after_next => Taken::AfterNext,
                Rule::after_next_and_opposite => Taken::AfterNextAndOpposite,
                Rule::opposite_of_next => Taken::OppositeOfNext,
                Rule::every_hole => Taken::Every(condition(first(target))?),
                other => unwired(other),
            };
            let mut with_seed = false;
            let mut chain = None;
            for part in parts {
                match part.as_rule() {
                    Rule::with_seed => with_seed = true,
                    Rule::chain => chain = Some(chain_spec(part)?),
                    other => unwired(other),
                }
            }
            CaptureRule::Take(Take {
                taken,
                with_seed,
                chain,
            })
        }
        Rule::recipient => CaptureRule::To(recipient(need(parts))),
        Rule::effect => CaptureRule::Then(effect(need(parts))),
        Rule::grand_slam => CaptureRule::GrandSlam(match first(need(parts)).as_rule() {
            Rule::captures_nothing => GrandSlam::CapturesNothing,
            Rule::forbidden => GrandSlam::Forbidden,
            Rule::captures => GrandSlam::Captures,
            Rule::slam_then_turn => GrandSlam::CapturesThenExtraTurn,
            Rule::slam_rest => GrandSlam::CapturesOpponentTakesRest,
            Rule::all_but_first => GrandSlam::AllButFirstHole,
            Rule::all_but_last => GrandSlam::AllButLastHole,
            other => unwired(other),
        }),
        Rule::from_move => CaptureRule::FromMove(number(need(parts))?),
        other => unwired(other),
    })
}

fn house_rule(rule: Rule, parts: &mut Parts<'_>) -> Built<HouseRule> {
    Ok(match rule {
        Rule::trigger => HouseRule::On(trigger(need(parts))),
        Rule::condition_rule => HouseRule::If(condition(need(parts))?),
        Rule::recipient => HouseRule::To(recipient(need(parts))),
        Rule::house_limit => HouseRule::Limit(number(need(parts))?),
        Rule::not_matching => HouseRule::NotMatching,
        Rule::house_contents => HouseRule::Contents(match need(parts).as_rule() {
            Rule::captured => HouseContents::Captured,
            Rule::kept => HouseContents::Kept,
            other => unwired(other),
        }),
        Rule::house_sown => HouseRule::Sown(match need(parts).as_rule() {
            Rule::to_owner => HouseSown::ToOwner,
            Rule::kept => HouseSown::Kept,
            other => unwired(other),
        }),
        Rule::effect => HouseRule::Then(effect(need(parts))),
        Rule::raided => {
            let more = number(need(parts))?;
            let extra_turn = match need(parts).as_rule() {
                Rule::another_turn => true,
                Rule::ends => false,
                other => unwired(other),
            };
            HouseRule::Raided(Raid { more, extra_turn })
        }
        other => unwired(other),
    })
}

fn trigger(pair: Pair<'_, Rule>) -> Trigger {
    match first(pair).as_rule() {
        Rule::passing_drop => Trigger::PassingDrop,
        Rule::every_drop => Trigger::EveryDrop,
        Rule::lap_end => Trigger::LapEnd,
        Rule::move_end => Trigger::MoveEnd,
        other => unwired(other),
    }
}

fn recipient(pair: Pair<'_, Rule>) -> Recipient {
    match first(pair).as_rule() {
        Rule::mover => Recipient::Mover,
        Rule::owner => Recipient::Owner,
        other => unwired(other),
    }
}

fn effect(pair: Pair<'_, Rule>) -> Effect {
    match first(pair).as_rule() {
        Rule::continues => Effect::Continue,
        Rule::continues_then_turn => Effect::ContinueThenExtraTurn,
        Rule::ends => Effect::EndSowing,
        Rule::extra_turn => Effect::ExtraTurn,
        Rule::extra_turn_once => Effect::ExtraTurnOnce,
        Rule::from_next => Effect::ContinueFromNext,
        Rule::seed_moves_on => Effect::SeedMovesOn,
        other => unwired(other),
    }
}

fn direction(pair: &Pair<'_, Rule>) -> Direction {
    match pair.as_rule() {
        Rule::clockwise => Direction::Clockwise,
        Rule::counterclockwise => Direction::Counterclockwise,
        other => unwired(other),
    }
}

fn chain_spec(pair: Pair<'_, Rule>) -> Built<ChainSpec> {
    let mut parts = pair.into_inner();
    let kind = need(&mut parts);
    let (way, condition) = match kind.as_rule() {
        Rule::across_empty => (ChainWay::AcrossEmpty, None),
        Rule::chain_way => {
            let way = match first(kind).as_rule() {
                Rule::backward => ChainWay::Backward,
                Rule::forward => ChainWay::Forward,
                Rule::both_ways => ChainWay::Both,
                other => unwired(other),
            };
            (way, Some(condition(need(&mut parts))?))
        }
        other => unwired(other),
    };
    let limit = parts
        .next()
        .map(|limit| {
            let n = first(limit);
            Ok(Spanned {
                span: span_of(&n),
                value: number(n)?,
            })
        })
        .transpose()?;
    Ok(ChainSpec {
        way,
        condition,
        limit,
    })
}

fn feeding_rule(rule: Rule, parts: &mut Parts<'_>) -> Built<FeedingRule> {
    Ok(match rule {
        Rule::duty => FeedingRule::Duty(match need(parts).as_rule() {
            Rule::always => FeedDuty::Always,
            Rule::row_is_empty => FeedDuty::RowEmpty,
            other => unwired(other),
        }),
        Rule::judged => FeedingRule::Judged(match need(parts).as_rule() {
            Rule::on_first_lap => FeedJudged::FirstLap,
            Rule::after_move => FeedJudged::AfterMove,
            other => unwired(other),
        }),
        Rule::unfeedable => {
            let what = need(parts);
            FeedingRule::Unfeedable(match what.as_rule() {
                Rule::any_move => Unfeedable::AnyMove,
                Rule::award => Unfeedable::Ends(award(what)),
                other => unwired(other),
            })
        }
        other => unwired(other),
    })
}

fn end_rule(rule: Rule, parts: &mut Parts<'_>) -> Built<EndRule> {
    Ok(match rule {
        Rule::last_seeds => {
            let first_part = need(parts);
            EndRule::LastSeeds(match first_part.as_rule() {
                Rule::none => None,
                Rule::number => {
                    let at_most = number(first_part)?;
                    let check = match first(need(parts)).as_rule() {
                        Rule::after_each_move => LastSeedsCheck::AfterMove,
                        Rule::after_each_capture => LastSeedsCheck::AfterCapture,
                        other => unwired(other),
                    };
                    Some(LastSeeds {
                        at_most,
                        check,
                        to: award(need(parts)),
                    })
                }
                other => unwired(other),
            })
        }
        Rule::majority => {
            let first = need(parts);
            EndRule::Majority(match first.as_rule() {
                Rule::none => None,
                Rule::at_least_half => Some(Majority {
                    at_half: true,
                    award: award(need(parts)),
                }),
                _ => Some(Majority {
                    at_half: false,
                    award: award(first),
                }),
            })
        }
        Rule::empty_row => {
            let what = need(parts);
            EndRule::EmptyRow(match what.as_rule() {
                Rule::none => None,
                Rule::award => Some((RowTest::Either, award(what))),
                Rule::row_which => Some((row_test(first(what)), award(need(parts)))),
                other => unwired(other),
            })
        }
        Rule::singletons => EndRule::Singletons(optional_award(need(parts))),
        Rule::quiet => EndRule::Quiet(number(need(parts))?, award(need(parts))),
        Rule::no_move => {
            let what = need(parts);
            EndRule::NoMove(match what.as_rule() {
                Rule::pass => None,
                Rule::award => Some(award(what)),
                other => unwired(other),
            })
        }
        Rule::move_cap => EndRule::MoveCap(number(need(parts))?, award(need(parts))),
        Rule::repetition => EndRule::Repetition(number(need(parts))?, award(need(parts))),
        Rule::unfinished => EndRule::UnfinishedDraw(match need(parts).as_rule() {
            Rule::draw => true,
            Rule::by_totals => false,
            other => unwired(other),
        }),
        Rule::endless => EndRule::Endless(match first(need(parts)).as_rule() {
            Rule::end_the_game => Endless::EndsGame,
            Rule::stop_at_cap => Endless::StopAtCap,
            Rule::illegal => Endless::Illegal,
            other => unwired(other),
        }),
        Rule::winner => EndRule::Winner(match need(parts).as_rule() {
            Rule::most_captured => Scoring::MostCaptured,
            Rule::stuck_loses => Scoring::StuckLoses,
            Rule::emptied_wins => Scoring::EmptiedWins,
            Rule::emptied_loses => Scoring::EmptiedLoses,
            other => unwired(other),
        }),
        Rule::end_order => EndRule::Order(
            parts
                .map(|check| match first(check).as_rule() {
                    Rule::check_last_seeds => EndCheck::LastSeeds,
                    Rule::check_majority => EndCheck::Majority,
                    Rule::check_empty_row => EndCheck::EmptyRow,
                    Rule::check_singletons => EndCheck::Singletons,
                    Rule::check_quiet => EndCheck::Quiet,
                    Rule::check_no_move => EndCheck::NoMove,
                    other => unwired(other),
                })
                .collect(),
        ),
        other => unwired(other),
    })
}

fn match_rule(rule: Rule, parts: &mut Parts<'_>) -> Built<MatchRule> {
    Ok(match rule {
        Rule::refill => {
            let what = need(parts);
            MatchRule::Refill(match what.as_rule() {
                Rule::none => None,
                Rule::number => Some(number(what)?),
                other => unwired(other),
            })
        }
        Rule::unfilled => MatchRule::UnfilledClosed(match need(parts).as_rule() {
            Rule::closed => true,
            Rule::open => false,
            other => unwired(other),
        }),
        Rule::surplus => MatchRule::Surplus(match need(parts).as_rule() {
            Rule::opponent_holes => Surplus::OpponentHoles,
            Rule::reserve => Surplus::Reserve,
            other => unwired(other),
        }),
        Rule::refill_from => MatchRule::RefillFromLast(match need(parts).as_rule() {
            Rule::last_hole => true,
            Rule::first_hole => false,
            other => unwired(other),
        }),
        Rule::filled => MatchRule::Mirrored,
        Rule::leftover => MatchRule::LeftoverHole(parts.next().is_some()),
        Rule::territory => MatchRule::Territory(match need(parts).as_rule() {
            Rule::own_row => Territory::Rows,
            Rule::holes_held => Territory::Kept,
            other => unwired(other),
        }),
        Rule::match_starter => MatchRule::Starter(match need(parts).as_rule() {
            Rule::round_loser => Starter::RoundLoser,
            Rule::alternate => Starter::Alternate,
            Rule::round_winner => Starter::RoundWinner,
            Rule::previous_starter => Starter::PreviousStarter,
            Rule::poorer_player => Starter::Poorer,
            other => unwired(other),
        }),
        Rule::lose_below => MatchRule::LoseBelow(number(need(parts))?),
        Rule::round_cap => MatchRule::RoundCap(number(need(parts))?),
        Rule::first_to => MatchRule::FirstTo(number(need(parts))?),
        Rule::match_winner => MatchRule::Winner(match need(parts).as_rule() {
            Rule::most_seeds => MatchScoring::Seeds,
            Rule::most_rounds => MatchScoring::RoundsWon,
            other => unwired(other),
        }),
        Rule::from_round => MatchRule::FromRound(number(need(parts))?, award(need(parts))),
        other => unwired(other),
    })
}

fn condition(pair: Pair<'_, Rule>) -> Built<Condition> {
    pair.into_inner()
        .map(|test| {
            let span = span_of(&test);
            let inner = first(test);
            let value = match inner.as_rule() {
                Rule::count_test => Test::Count(count_spec(first(inner))?),
                Rule::opposite_count => Test::OppositeCount(count_spec(first(inner))?),
                Rule::next_count => Test::NextCount(count_spec(first(inner))?),
                Rule::next_empty => Test::NextEmpty,
                Rule::next_occupied => Test::NextOccupied,
                Rule::opposite_equal => Test::OppositeEqual,
                Rule::end_hole => Test::EndHole,
                Rule::not_last_hole => Test::NotLastHole,
                Rule::first_hole => Test::FirstHole,
                Rule::last_hole => Test::LastHole,
                Rule::not_first_hole => Test::NotFirstHole,
                Rule::was_empty => Test::WasEmpty,
                Rule::occupied => Test::Occupied,
                Rule::own_side => Test::OwnSide,
                Rule::opponent_side => Test::OpponentSide,
                Rule::opposite_empty => Test::OppositeEmpty,
                Rule::opposite_occupied => Test::OppositeOccupied,
                other => unwired(other),
            };
            Ok(Spanned { value, span })
        })
        .collect()
}

fn count_spec(pair: Pair<'_, Rule>) -> Built<CountSpec> {
    let kind = first(pair);
    Ok(match kind.as_rule() {
        Rule::count_is => {
            let mut counts = Vec::new();
            let mut at_least = None;
            for part in kind.into_inner() {
                match part.as_rule() {
                    Rule::number => counts.push(number(part)?),
                    Rule::or_at_least => at_least = Some(number(first(part))?),
                    other => unwired(other),
                }
            }
            CountSpec::Is(counts, at_least)
        }
        Rule::count_range => {
            let mut bounds = kind.into_inner();
            CountSpec::Range(number(need(&mut bounds))?, number(need(&mut bounds))?)
        }
        Rule::count_at_least => CountSpec::AtLeast(number(first(kind))?),
        Rule::count_at_most => CountSpec::AtMost(number(first(kind))?),
        Rule::count_even => CountSpec::Even,
        Rule::count_odd => CountSpec::Odd,
        other => unwired(other),
    })
}

fn reading_number(id: &Pair<'_, Rule>) -> Built<u16> {
    id.as_str()[1..].parse().map_err(|_| NumberTooLarge {
        span: span_of(id),
        max: u64::from(u16::MAX),
    })
}

fn award(pair: Pair<'_, Rule>) -> Award {
    match first(pair).as_rule() {
        Rule::to_capturer => Award::Capturer,
        Rule::to_player_to_move => Award::PlayerToMove,
        Rule::to_last_mover => Award::LastMover,
        Rule::to_owners => Award::Owners,
        Rule::to_previous_winner => Award::PreviousWinner,
        Rule::to_nobody => Award::Nobody,
        Rule::to_opponent => Award::Opponent,
        Rule::to_starter => Award::Starter,
        Rule::split_odd_to_poorer => Award::SplitOddToPoorer,
        Rule::split => Award::Split,
        other => unwired(other),
    }
}

/// The words a file gives `award` in (`to opponent`), as [`award`] reads them: for messages
/// that quote a rule.
pub fn award_text(award: Award) -> &'static str {
    match award {
        Award::Capturer => "to capturer",
        Award::PlayerToMove => "to player to move",
        Award::LastMover => "to last mover",
        Award::Owners => "to owners",
        Award::PreviousWinner => "to previous winner",
        Award::Nobody => "to nobody",
        Award::Opponent => "to opponent",
        Award::Starter => "to starter",
        Award::SplitOddToPoorer => "split, odd seed to the poorer",
        Award::Split => "split",
    }
}

fn optional_award(pair: Pair<'_, Rule>) -> Option<Award> {
    match pair.as_rule() {
        Rule::none => None,
        Rule::award => Some(award(pair)),
        other => unwired(other),
    }
}

fn side(pair: Pair<'_, Rule>) -> Side {
    match first(pair).as_rule() {
        Rule::south => Side::South,
        Rule::north => Side::North,
        other => unwired(other),
    }
}

/// A grammar rule this converter does not handle where it stands: the grammar and the
/// converter disagree, which the test parsing every rule of the language catches.
/// `own`, `opponent's` or `either`: whose row a rule looks at.
fn row_test(word: Pair<'_, Rule>) -> RowTest {
    match word.as_rule() {
        Rule::own => RowTest::Mover,
        Rule::opponents => RowTest::Opponent,
        Rule::either => RowTest::Either,
        other => unwired(other),
    }
}

fn unwired(rule: Rule) -> ! {
    unreachable!("grammar rule `{rule:?}` is not wired into the syntax tree here")
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

/// `4 to 6` as one range, `1 or 7` and `1, 3, 5` as ranges of one place each.
fn places(pair: Pair<'_, Rule>) -> Built<Vec<(u16, u16)>> {
    let range = pair.as_str().contains("to");
    let numbers = pair.into_inner().map(number).collect::<Built<Vec<u16>>>()?;
    Ok(match numbers[..] {
        [from, to] if range => vec![(from, to)],
        _ => numbers.iter().map(|&n| (n, n)).collect(),
    })
}

fn need<'a>(parts: &mut impl Iterator<Item = Pair<'a, Rule>>) -> Pair<'a, Rule> {
    parts.next().expect("the grammar guarantees this part")
}

fn first(pair: Pair<'_, Rule>) -> Pair<'_, Rule> {
    pair.into_inner()
        .next()
        .expect("the grammar guarantees an inner token")
}

fn number<T: TryFrom<u64> + Into<u64> + Bounded>(pair: Pair<'_, Rule>) -> Built<T> {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Every alternative of every rule, so a grammar rule not wired into the syntax tree
    /// fails here rather than in a user's hands.
    const EVERY_RULE: &str = r#"
        extends "other.sow"
        game "All" { source: "a", "b"  note: "c" }
        readings { R17: "a"  R18: "b" }
        alternative R17 "other" { board { holes: 5 } no feeding }
        board { holes: 6 per row  seeds: 4 per hole  layout: 1 2  stores: none  stores: kept
                stores: sown  stores: sown by both  starter: south  starter: north }
        sowing { direction: counterclockwise  direction: clockwise  direction: chosen
                 direction: odd seeds clockwise  direction: odd seeds counterclockwise
                 direction: outward  direction: inward  laps start: next hole
                 laps start: lifted hole  laps start: lifted hole, a single seed to the next hole
                 skip origin: never  skip origin: always
                 skip origin: from 12 seeds on first lap  skip origin: always on every lap
                 skip holes: holding 3  skip holes: holding at least 4, but not the last seed
                 skip holes: holding 2 to 3  skip holes: holding 2, 4 or 6
                 skip holes: holding at most 1  skip holes: own holding 1
                 skip holes: opponent's holding 2, except on the first move of the game
                 relay: never  relay: when occupied  relay: next hole  extra turn: in own store
                 extra turn: never  drop cap: 100  min seeds: 2  ring: own row  ring: both rows  play from: any hole  play from: own row
                 min seeds: 2, unless no hole holds that many
                 first move: own holes 4 to 6  first move: own holes 1  opening: 3, 8
                 first move of the game: own holes 1 or 7
                 first move: own holes 1, 3, 5, a last seed bound for the own row goes to the
                     opponent's first hole
                 first lap: not into an occupied own hole
                 first lap: reaches the opponent or ends in an empty own hole
                 first lap: a single seed only into an empty hole
                 after a round: opponent's holes only  locked: played holes
                 bear off: when no hole holds more than 1 }
        capture "c" { on: every drop  on: every drop but the last of a lap
                      on: last drop of a lap  on: last drop of the move
                      if: count is 2 or 3 and count at least 1 and count at most 5
                      if: was empty and occupied and own side and opponent side
                      if: opposite empty and opposite occupied
                      if: count is even and opposite count is 1, 2 or at least 4 and opposite
                          equal and next empty and next occupied and next count is 0 to 2 and
                          end hole and not last hole and count is odd
                      if: first hole and not first hole and last hole
                      if: count is 4 to 6 and count is 1, 2 or at least 4
                      take: hole  take: opposite  take: opposite and capturing seed
                      take: hole and backward while count is 4  take: hole and opposite
                      take: next hole  take: hole after next  take: opposite of next
                      take: every hole where count is even
                      take: hole and forward while count is odd
                      take: hole and both ways while count is 2 or 4, at most 1 hole
                      take: hole after next and on across empty holes
                      take: hole after next and its opposite
                      to: mover  to: owner  then: sowing continues  then: sowing ends
                      then: extra turn  then: sowing continues, then another turn
                      then: extra turn, not twice in a row
                      then: sowing goes on from the next hole
                      then: the capturing seed moves on  grand slam: captures
                      grand slam: captures nothing  grand slam: forbidden  from move: 3
                      grand slam: captures, then another turn
                      grand slam: captures, the opponent takes the rest
                      grand slam: captures all but the first hole
                      grand slam: captures all but the last hole
                      reading R1, R2 }
        no capture "c"
        house "h" { on: last drop of the move  if: count is 3  to: mover  limit: 1 per player
                    not matching: the other player's house  contents: captured
                    contents: kept  sown: to owner  sown: kept  then: sowing ends
                    raided: the seed and 1 more, then sowing ends
                    raided: the seed and 0 more, then another turn }
        no house "h"
        feeding { judged: after the move  judged: on the first lap  unfeedable: to owners
                  unfeedable: any move  duty: always  duty: when the opponent's row is empty }
        no feeding
        end { last seeds: none  last seeds: at most 4 after each capture, to capturer
              last seeds: at most 4 after each move, to player to move  majority: none
              majority: to last mover  majority: at least half, to owners
              empty row: split  empty row: own, to owners
              empty row: opponent's, split, odd seed to the poorer
              empty row: either, to opponent  singletons: to starter  singletons: none
              no capture for: 100 moves, to owners  no move: pass
              no move: end, to nobody  move cap: 10, to previous winner
              repetition: 3, to owners  unfinished: scored by totals  unfinished: draw
              endless moves: illegal  endless moves: end the game
              endless moves: stop at cap  winner: most captured
              winner: a player who cannot move loses  winner: first to empty own holes
              winner: a player whose row is empty loses
              order: last seeds, majority, empty row, singletons, no capture for, no move }
        match { refill: 4 per hole  refill: none  unfilled holes: closed  unfilled holes: open
                surplus: reserve  surplus: opponent holes  territory: own row
                territory: holes held  starter: round winner  starter: round loser
                starter: alternate  starter: previous starter  lose below: 4  round cap: 50
                first to: 3 rounds  winner: most seeds  winner: most rounds
                from round 3: last seeds to previous winner  refill from: first hole
                refill from: last hole  filled: as many as the poorer
                leftover hole: to the larger remainder  starter: poorer player
                leftover hole: to the larger remainder, a tie to the poorer }
        no match
    "#;

    #[test]
    fn every_rule_of_the_grammar_converts() {
        let file = parse(EVERY_RULE).expect("parses").expect("numbers fit");
        let rules: usize = file
            .blocks
            .iter()
            .map(|b| match &b.kind {
                BlockKind::Game { fields, .. } => fields.len(),
                BlockKind::Board(r) => r.len(),
                BlockKind::Sowing(r) => r.len(),
                BlockKind::Capture { rules, .. } => rules.len(),
                BlockKind::Feeding(r) => r.len(),
                BlockKind::End(r) => r.len(),
                BlockKind::Match(r) => r.len(),
                BlockKind::House { rules, .. } => rules.len(),
                BlockKind::Readings(r) => r.len(),
                // Its board rule and `no feeding`.
                BlockKind::Alternative { blocks, .. } => blocks.len(),
                BlockKind::NoCapture(_)
                | BlockKind::NoHouse(_)
                | BlockKind::NoFeeding
                | BlockKind::NoMatch => 1,
            })
            .sum();
        assert_eq!(file.extends.len(), 1);
        assert_eq!(
            rules,
            2 + 2 + 2 + 9 + 44 + 40 + 1 + 12 + 1 + 6 + 1 + 27 + 24 + 1
        );
    }

    /// Each award's words, given to a rule, read back as that award.
    #[test]
    fn award_text_is_read_back_as_its_award() {
        use Award::*;
        let every = [
            Capturer,
            PlayerToMove,
            LastMover,
            Owners,
            Split,
            SplitOddToPoorer,
            Opponent,
            Starter,
            Nobody,
            PreviousWinner,
        ];
        for award in every {
            let text = format!("end {{ no move: end, {} }}", award_text(award));
            let file = parse(&text).expect("parses").expect("numbers fit");
            let BlockKind::End(rules) = &file.blocks[0].kind else {
                panic!("an end block: {text}");
            };
            assert_eq!(rules[0].rule, EndRule::NoMove(Some(award)), "{text}");
        }
    }

    /// The text above uses every rule of the grammar: a rule added without an example here
    /// (and so without a test of its conversion) fails.
    #[test]
    fn the_test_text_covers_the_whole_grammar() {
        let tree = SowParser::parse(Rule::file, EVERY_RULE).expect("parses");
        let used: std::collections::BTreeSet<Rule> = tree.flatten().map(|p| p.as_rule()).collect();
        let missing: Vec<&Rule> = Rule::all_rules()
            .iter()
            .filter(|r| !used.contains(r))
            // Silent rules never show in a tree (`control` is only ever looked ahead for); EOI
            // is matched, not a rule of the language.
            .filter(|r| {
                !matches!(
                    r,
                    Rule::EOI
                        | Rule::WHITESPACE
                        | Rule::COMMENT
                        | Rule::block
                        | Rule::alternative_block
                        | Rule::control
                )
            })
            .collect();
        assert!(missing.is_empty(), "EVERY_RULE lacks {missing:?}");
    }
}
