//! Statistics over game records: rates with Wilson intervals, means and medians, by variant
//! and seating; the tally of outcomes, lengths and ends that `summary.csv` and the reports
//! both count with. Pure functions; `summary.csv` is built here.

use super::record::{GameRecord, Hex64, Name, SummaryRecord};
use super::runner::Place;
use crate::agents::Pairing;
use crate::engine::EndClass;
use crate::rules::Side;

/// The normal quantile for a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The Wilson score interval of `k` successes in `n` trials at normal quantile `z`:
/// `(rate, low, high)`. With no trials everything is 0 and the interval is `[0, 1]`.
pub fn wilson(k: u64, n: u64, z: f64) -> (f64, f64, f64) {
    if n == 0 {
        return (0.0, 0.0, 1.0);
    }
    let n = n as f64;
    let p = k as f64 / n;
    let z2 = z * z;
    let denominator = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denominator;
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denominator;
    // At the boundaries the interval ends exactly at 0 or 1 (no rounding residue).
    let low = if k == 0 {
        0.0
    } else {
        (centre - half).max(0.0)
    };
    let high = if k as f64 == n {
        1.0
    } else {
        (centre + half).min(1.0)
    };
    (p, low, high)
}

/// The standard normal upper-tail probability, `P(Z > z)`, to about 1e-7 (Abramowitz and
/// Stegun 7.1.26 on the complementary error function).
pub fn normal_tail(z: f64) -> f64 {
    let x = z.abs() / std::f64::consts::SQRT_2;
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let erfc = poly * (-x * x).exp();
    if z >= 0.0 {
        erfc / 2.0
    } else {
        1.0 - erfc / 2.0
    }
}

/// McNemar's test of two paired binary outcomes, from the discordant pairs only: `b` pairs in
/// which the first member succeeded and the second did not, `c` the other way round.
/// Returns `(z, p)`: `z = (b − c) / √(b + c)` (McNemar's statistic is `z²`, without continuity
/// correction) and the two-sided exact mid-p value
/// `p = 2 · [P(X < m) + ½ · P(X = m)]`, `m = min(b, c)`, `X ~ Binomial(b + c, ½)`, at most 1
/// (Fagerland, Lydersen and Laake 2013 recommend it over the exact and the asymptotic test).
/// With no discordant pairs: `(0, 1)`.
pub fn mcnemar(b: u64, c: u64) -> (f64, f64) {
    let n = b + c;
    if n == 0 {
        return (0.0, 1.0);
    }
    let z = (b as f64 - c as f64) / (n as f64).sqrt();
    let m = b.min(c);
    // ln P(X = k), stepped up from k = 0 in logs so large n does not underflow.
    let mut ln_pmf = -(n as f64) * std::f64::consts::LN_2;
    let mut below = 0.0;
    for k in 0..m {
        below += ln_pmf.exp();
        ln_pmf += ((n - k) as f64).ln() - ((k + 1) as f64).ln();
    }
    let p = 2.0 * (below + 0.5 * ln_pmf.exp());
    (z, p.min(1.0))
}

/// The difference of two paired proportions `p₁ − p₂` from `n` pairs, of which `b` succeeded
/// in the first member only and `c` in the second only, `d = (b − c) / n`, with Bonett and
/// Price's adjusted Wald interval ("Adjusted Wald confidence interval for a difference of
/// binomial proportions based on paired data", J. Educ. Behav. Stat. 37, 2012): with
/// `p̃b = (b + 1)/(n + 2)`, `p̃c = (c + 1)/(n + 2)`, the interval is
/// `p̃b − p̃c ± z √((p̃b + p̃c − (p̃b − p̃c)²)/(n + 2))`, clipped to `[−1, 1]`. Unlike the Wald
/// interval it never collapses to a point, with few discordant pairs or none. Returns
/// `(d, low, high)`; with no pairs `(0, −1, 1)`.
///
/// The same interval serves a difference of two shares of one multinomial sample (South's
/// wins minus North's among the same games), whose variance has the same form.
pub fn paired_difference(b: u64, c: u64, n: u64, z: f64) -> (f64, f64, f64) {
    if n == 0 {
        return (0.0, -1.0, 1.0);
    }
    let d = (b as f64 - c as f64) / n as f64;
    let m = n as f64 + 2.0;
    let (pb, pc) = ((b as f64 + 1.0) / m, (c as f64 + 1.0) / m);
    let centre = pb - pc;
    let half = z * ((pb + pc - centre * centre) / m).max(0.0).sqrt();
    (d, (centre - half).max(-1.0), (centre + half).min(1.0))
}

/// The normal quantile for 80% power, one-sided.
pub const Z80: f64 = 0.841_621_233_572_914_3;

/// The smallest difference of paired proportions that McNemar's test at 5% (two-sided)
/// would detect with 80% power, from `n` pairs of which `b + c` were discordant:
/// `(z₀.₉₇₅ + z₀.₈₀) √(ψ / n)`, where `ψ` is the share of discordant pairs, estimated as
/// `(b + c + 2)/(n + 2)` so that it is not 0 with no discordant pairs (Connor, "Sample size for
/// testing differences in proportions for the paired-sample design", Biometrics 43, 1987, for
/// a difference small against `ψ`). A test that finds no difference could not have told one
/// smaller than this; `None` with no pairs.
pub fn detectable_difference(b: u64, c: u64, n: u64) -> Option<f64> {
    if n == 0 {
        return None;
    }
    let psi = (b + c + 2) as f64 / (n + 2) as f64;
    Some(((Z95 + Z80) * (psi / n as f64).sqrt()).min(1.0))
}

/// Holm's step-down adjustment of the p-values of one family of tests: with the `m` values
/// sorted ascending, `p̃₍ᵢ₎ = maxⱼ≤ᵢ min(1, (m − j + 1) · p₍ⱼ₎)` (i from 1), returned in the
/// order given. Rejecting where `p̃ < α` controls the family-wise error rate at `α`.
pub fn holm(p: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..p.len()).collect();
    order.sort_by(|&i, &j| p[i].total_cmp(&p[j]));
    let m = p.len();
    let mut adjusted = vec![1.0; m];
    let mut running: f64 = 0.0;
    for (rank, &i) in order.iter().enumerate() {
        running = running.max(((m - rank) as f64 * p[i]).min(1.0));
        adjusted[i] = running;
    }
    adjusted
}

/// A ratio of two totals over clusters, `R = Σy / Σx` (moves with a property over moves, with a
/// game as the cluster), with its 95% interval by the delta method, which treats each game as
/// one observation because the moves of one game are not independent:
/// `var(R) = Σ(yᵢ − R xᵢ)² / (n (n − 1) x̄²)` over `n` games (Cochran, *Sampling Techniques*,
/// 3rd ed. 1977, §6.4).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Ratio {
    n: f64,
    x: f64,
    y: f64,
    xx: f64,
    xy: f64,
    yy: f64,
}

impl Ratio {
    /// Adds one cluster: `x` units of which `y` counted (or summed `y` over `x` units).
    pub fn add(&mut self, x: f64, y: f64) {
        self.n += 1.0;
        self.x += x;
        self.y += y;
        self.xx += x * x;
        self.xy += x * y;
        self.yy += y * y;
    }

    /// Clusters added.
    pub fn count(&self) -> u64 {
        self.n as u64
    }

    /// `(R, low, high)` at normal quantile `z`; `(0, 0, 0)` with nothing counted.
    pub fn interval(&self, z: f64) -> (f64, f64, f64) {
        if self.x == 0.0 {
            return (0.0, 0.0, 0.0);
        }
        let r = self.y / self.x;
        if self.n < 2.0 {
            return (r, r, r);
        }
        let residuals = (self.yy - 2.0 * r * self.xy + r * r * self.xx).max(0.0);
        let mean_x = self.x / self.n;
        let half = z * (residuals / (self.n * (self.n - 1.0))).sqrt() / mean_x;
        (r, r - half, r + half)
    }
}

/// Counts of small whole numbers (moves per game, rounds per match, legal moves per move):
/// memory flat in the number of values counted. What `summary.csv` and the reports measure
/// game lengths with.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Histogram {
    counts: Vec<u64>,
    n: u64,
}

impl Histogram {
    /// Counts one value.
    pub fn add(&mut self, value: usize) {
        if self.counts.len() <= value {
            self.counts.resize(value + 1, 0);
        }
        self.counts[value] += 1;
        self.n += 1;
    }

    /// Values counted.
    pub fn count(&self) -> u64 {
        self.n
    }

    /// How many times each value was counted, from 0 to the largest.
    pub fn counts(&self) -> &[u64] {
        &self.counts
    }

    /// The largest value counted.
    pub fn max(&self) -> Option<usize> {
        self.counts.len().checked_sub(1)
    }

    /// The sum of the values and the sum of their squares, for a mean and its interval;
    /// summed exactly, in integers.
    pub fn moments(&self) -> (f64, f64) {
        let (mut sum, mut squares) = (0u128, 0u128);
        for (value, &count) in self.counts.iter().enumerate() {
            let (v, c) = (value as u128, u128::from(count));
            sum += v * c;
            squares += v * v * c;
        }
        (sum as f64, squares as f64)
    }

    /// The median, the mean of the two middle values when the count is even (as `summary.csv`
    /// gives it); 0 for none.
    pub fn median(&self) -> f64 {
        let n = self.n;
        if n == 0 {
            0.0
        } else if n % 2 == 1 {
            self.nth(n / 2)
        } else {
            (self.nth(n / 2 - 1) + self.nth(n / 2)) / 2.0
        }
    }

    /// The `q`-quantile by nearest rank, so always a value counted (for an even count,
    /// `quantile(0.5)` is the lower middle value, not [`Histogram::median`]); 0 for none.
    /// The reports' box plots use it.
    pub fn quantile(&self, q: f64) -> f64 {
        if self.n == 0 {
            return 0.0;
        }
        let rank = ((q * self.n as f64).ceil() as u64).clamp(1, self.n);
        self.nth(rank - 1)
    }

    /// The `k`-th smallest value, from 0.
    fn nth(&self, k: u64) -> f64 {
        let mut seen = 0;
        for (value, &count) in self.counts.iter().enumerate() {
            seen += count;
            if seen > k {
                return value as f64;
            }
        }
        0.0
    }
}

/// Wins by South, wins by North, and draws, of a set of games or matches.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Outcomes {
    /// Won by South.
    pub south: u64,
    /// Won by North.
    pub north: u64,
    /// Drawn.
    pub draws: u64,
}

impl Outcomes {
    /// Counts one result: won by `winner`, or drawn.
    pub fn add(&mut self, winner: Option<Side>) {
        match winner {
            Some(Side::South) => self.south += 1,
            Some(Side::North) => self.north += 1,
            None => self.draws += 1,
        }
    }

    /// Results counted.
    pub fn total(&self) -> u64 {
        self.south + self.north + self.draws
    }
}

impl std::ops::Add for Outcomes {
    type Output = Outcomes;

    fn add(self, other: Outcomes) -> Outcomes {
        Outcomes {
            south: self.south + other.south,
            north: self.north + other.north,
            draws: self.draws + other.draws,
        }
    }
}

/// What `summary.csv` and the reports both count of a set of games, counted in one place so
/// that they cannot disagree: outcomes, first-mover wins, lengths, how the games ended,
/// captures.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    /// Games.
    pub games: u64,
    /// Games whose outcome is counted: the finished ones, or every game when unfinished games
    /// are scored (`summary.csv` always scores them).
    pub scored: u64,
    /// Among the scored games: wins by South, by North, draws.
    pub outcomes: Outcomes,
    /// Among the scored games: wins by the player who moved first.
    pub first_mover_wins: u64,
    /// Game lengths in moves.
    pub lengths: Histogram,
    /// Games by how they ended: normal, no moves, cap, repetition ([`EndClass`] order).
    pub ends: [u64; 4],
    /// Capture events, summed, and their sum of squares (for an interval on the mean).
    pub captures: (f64, f64),
}

impl Tally {
    /// Counts one game; its outcome only if it finished or `score_unfinished`. Returns whether
    /// the outcome was counted.
    pub fn add(&mut self, r: &GameRecord, score_unfinished: bool) -> bool {
        let scored = score_unfinished || !r.end_reason.unfinished();
        self.games += 1;
        if scored {
            self.scored += 1;
            self.outcomes.add(r.winner);
            self.first_mover_wins += u64::from(r.winner == Some(r.starter));
        }
        self.lengths.add(r.turns as usize);
        self.ends[r.end_reason as usize] += 1;
        self.captures.0 += f64::from(r.captures);
        self.captures.1 += f64::from(r.captures).powi(2);
        scored
    }

    /// Games that ended as `class` does.
    pub fn ended(&self, class: EndClass) -> u64 {
        self.ends[class as usize]
    }

    /// Games stopped by the move cap or by repetition.
    pub fn unfinished(&self) -> u64 {
        self.ended(EndClass::Cap) + self.ended(EndClass::Repetition)
    }

    /// Games that reached an end rule of the variant, or in which nobody could move.
    pub fn finished(&self) -> u64 {
        self.games - self.unfinished()
    }
}

/// Accumulates game records into summary rows, one per variant and seating (pairing and seat
/// order), in order of first appearance. Memory is flat in the number of games: game lengths
/// are kept as a histogram.
pub struct Summary {
    /// The run's pairings, each `A,B`.
    pairings: Vec<Name>,
    /// Games per variant, pairing and seat order: how a game's index gives its seating.
    games: u64,
    groups: Vec<Group>,
}

struct Group {
    /// Variant, rules hash, pairing and seat order.
    key: (Name, Hex64, usize, u8),
    south: Name,
    north: Name,
    tally: Tally,
    passes: u64,
    extra_turns: u64,
    endless: u64,
    drop_cap: u64,
}

impl Summary {
    /// A summary of the games of a run of `pairings`, `games` per variant, pairing and seat
    /// order.
    pub fn new(pairings: &[Pairing], games: u64) -> Summary {
        Summary {
            pairings: pairings.iter().map(|p| p.to_string().into()).collect(),
            games,
            groups: Vec::new(),
        }
    }

    /// Counts one game.
    pub fn add(&mut self, r: &GameRecord) {
        let place = Place::of(r.game, self.pairings.len(), self.games, 0);
        let key = (r.variant.clone(), r.rules_hash, place.pairing, place.seats);
        let i = match self.groups.iter().position(|g| g.key == key) {
            Some(i) => i,
            None => {
                self.groups.push(Group {
                    key,
                    south: r.south_agent.clone(),
                    north: r.north_agent.clone(),
                    tally: Tally::default(),
                    passes: 0,
                    extra_turns: 0,
                    endless: 0,
                    drop_cap: 0,
                });
                self.groups.len() - 1
            }
        };
        let g = &mut self.groups[i];
        g.tally.add(r, false);
        g.passes += u64::from(r.passes);
        g.extra_turns += u64::from(r.extra_turns);
        g.endless += u64::from(r.endless_refused > 0);
        g.drop_cap += u64::from(r.drop_cap_hits > 0);
    }

    /// The summary rows.
    pub fn rows(&self) -> Vec<SummaryRecord> {
        self.groups
            .iter()
            .map(|g| {
                let t = &g.tally;
                let n = t.games;
                let share = |k: u64| k as f64 / n as f64;
                // Over the finished games; nothing where none finished.
                let rate = |k: u64| match t.scored {
                    0 => (None, None, None),
                    scored => {
                        let (rate, low, high) = wilson(k, scored, Z95);
                        (Some(rate), Some(low), Some(high))
                    }
                };
                let (south_rate, south_low, south_high) = rate(t.outcomes.south);
                let (north_rate, north_low, north_high) = rate(t.outcomes.north);
                let (draw_rate, draw_low, draw_high) = rate(t.outcomes.draws);
                let (first_mover_rate, first_mover_low, first_mover_high) =
                    rate(t.first_mover_wins);
                let (variant, rules_hash, pairing, seat_order) = g.key.clone();
                SummaryRecord {
                    variant,
                    rules_hash,
                    pairing: self.pairings[pairing].clone(),
                    seat_order,
                    south_agent: g.south.clone(),
                    north_agent: g.north.clone(),
                    games: n,
                    finished: t.scored,
                    south_wins: t.outcomes.south,
                    north_wins: t.outcomes.north,
                    draws: t.outcomes.draws,
                    south_rate,
                    south_low,
                    south_high,
                    north_rate,
                    north_low,
                    north_high,
                    draw_rate,
                    draw_low,
                    draw_high,
                    first_mover_rate,
                    first_mover_low,
                    first_mover_high,
                    mean_turns: t.lengths.moments().0 / n as f64,
                    median_turns: t.lengths.median(),
                    cap_share: share(t.ended(EndClass::Cap)),
                    repetition_share: share(t.ended(EndClass::Repetition)),
                    no_moves_share: share(t.ended(EndClass::NoMoves)),
                    mean_captures: t.captures.0 / n as f64,
                    mean_passes: share(g.passes),
                    mean_extra_turns: share(g.extra_turns),
                    games_with_endless_refusals: g.endless,
                    games_with_drop_cap_hits: g.drop_cap,
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 5e-5
    }

    #[test]
    fn wilson_interval_matches_published_values() {
        // Newcombe (1998), Table I: 81/263 → 0.2553 to 0.3662; 15/148 → 0.0624 to 0.1605.
        let (p, lo, hi) = wilson(81, 263, Z95);
        assert!(
            close(p, 0.307_985) && close(lo, 0.2553) && close(hi, 0.3662),
            "{lo} {hi}"
        );
        let (_, lo, hi) = wilson(15, 148, Z95);
        assert!(close(lo, 0.0624) && close(hi, 0.1605), "{lo} {hi}");
        // 0 of 10: the interval still has width.
        let (_, lo, hi) = wilson(0, 10, Z95);
        assert!(close(lo, 0.0) && close(hi, 0.2775), "{hi}");
    }

    #[test]
    fn ratio_interval_treats_each_game_as_one_observation() {
        // Three games of 2, 4 and 4 moves with 1, 1 and 4 forced moves. By hand: R = 6/10 =
        // 0.6; residuals yᵢ − 0.6 xᵢ = −0.2, −1.4, 1.6, squares summing to 4.56;
        // se = √(4.56 / (3 · 2)) / (10/3) = 0.261534; half-width 1.959964 · se = 0.512597.
        let mut forced = Ratio::default();
        for (moves, forced_moves) in [(2.0, 1.0), (4.0, 1.0), (4.0, 4.0)] {
            forced.add(moves, forced_moves);
        }
        let (r, lo, hi) = forced.interval(Z95);
        assert!(
            close(r, 0.6) && close(lo, 0.087_403) && close(hi, 1.112_597),
            "{lo} {hi}"
        );
        assert_eq!(forced.count(), 3);
        // One game: no spread to estimate, the interval is the point.
        let mut one = Ratio::default();
        one.add(5.0, 2.0);
        assert_eq!(one.interval(Z95), (0.4, 0.4, 0.4));
        assert_eq!(Ratio::default().interval(Z95), (0.0, 0.0, 0.0));
    }

    #[test]
    fn mcnemar_matches_textbook_examples() {
        // Agresti, Categorical Data Analysis, 2nd ed. (2002), Table 10.1: presidential
        // approval of 1600 people in two surveys, 794 approve/approve, 150 approve/disapprove,
        // 86 disapprove/approve, 570 disapprove/disapprove. Published: z = 4.17, z² = 17.36.
        // By hand: 64 / √236 = 4.16605.
        let (z, p) = mcnemar(150, 86);
        assert!((z - 4.166_05).abs() < 1e-5, "{z}");
        assert!((z * z - 17.36).abs() < 0.01);
        assert!(p < 1e-4, "{p}");
        // Fagerland, Lydersen and Laake, BMC Med. Res. Methodol. 13:91 (2013), the airway
        // hyper-responsiveness example, b = 1, c = 7. Published: exact p = 0.070, mid-p =
        // 0.039, asymptotic 0.034. By hand: 2 · (1/256 + ½ · 8/256) = 10/256 = 0.0390625.
        let (z, p) = mcnemar(1, 7);
        assert!((p - 0.039_062_5).abs() < 1e-12, "{p}");
        assert!((z * z - 4.5).abs() < 1e-12);
        assert_eq!(mcnemar(7, 1).1, p, "two-sided: symmetric");
        // Equal discordant counts: 2 · (P(X < 3) + ½ P(X = 3)) = 2 · (22 + 10)/64 = 1.
        let (z, p) = mcnemar(3, 3);
        assert!(z == 0.0 && (p - 1.0).abs() < 1e-12);
        assert_eq!(mcnemar(0, 0), (0.0, 1.0));
        // Large counts neither underflow nor overflow: 5000 vs 5400 is z = −3.92.
        let (z, p) = mcnemar(5000, 5400);
        assert!(
            (z + 3.922_32).abs() < 1e-4 && p > 5e-5 && p < 1.5e-4,
            "{z} {p}"
        );
    }

    #[test]
    fn paired_difference_is_bonett_and_prices_adjusted_wald() {
        // Agresti (2002), Table 10.1: b = 150, c = 86, n = 1600; d = 0.04. By hand:
        // p̃b = 151/1602 = 0.094257, p̃c = 87/1602 = 0.054307, centre 0.039950,
        // √((0.148564 − 0.001596)/1602) = 0.0095781, half 0.018773: (0.021177, 0.058723),
        // beside the Wald interval's (0.021284, 0.058716).
        let (d, lo, hi) = paired_difference(150, 86, 1600, Z95);
        assert!((d - 0.04).abs() < 1e-12);
        assert!(
            (lo - 0.021_177).abs() < 2e-6 && (hi - 0.058_723).abs() < 2e-6,
            "{lo} {hi}"
        );
        // Few pairs and no discordant ones: the Wald interval was the point 0. By hand,
        // n = 10: p̃b = p̃c = 1/12, half = 1.959964 √((1/6)/12) = 0.230985.
        let (d, lo, hi) = paired_difference(0, 0, 10, Z95);
        assert!(d == 0.0 && (lo + 0.230_985).abs() < 1e-5 && (hi - 0.230_985).abs() < 1e-5);
        // All 4 pairs discordant one way: d = 1, and the interval is not the point 1. By
        // hand: p̃b = 5/6, p̃c = 1/6, centre 2/3, √((1 − 4/9)/6) = 0.304290, half 0.596397,
        // so (0.070270, 1) after clipping.
        let (d, lo, hi) = paired_difference(4, 0, 4, Z95);
        assert!(
            d == 1.0 && (lo - 0.070_270).abs() < 1e-5 && hi == 1.0,
            "{lo}"
        );
        assert_eq!(paired_difference(0, 0, 0, Z95), (0.0, -1.0, 1.0));
    }

    #[test]
    fn the_detectable_difference_follows_connors_approximation() {
        // 400 pairs, 40 discordant: ψ = 42/402 = 0.104478; (1.959964 + 0.841621) √(ψ/400)
        // = 2.801585 · 0.016162 = 0.045278.
        let d = detectable_difference(25, 15, 400).unwrap();
        assert!((d - 0.045_278).abs() < 1e-5, "{d}");
        // No discordant pair still leaves a difference it could not see.
        assert!(detectable_difference(0, 0, 400).unwrap() > 0.0);
        assert_eq!(detectable_difference(0, 0, 0), None);
    }

    #[test]
    fn holm_adjusts_by_rank_and_keeps_order() {
        // Sorted 0.005, 0.01, 0.03, 0.04 → 4·0.005 = 0.02, 3·0.01 = 0.03, 2·0.03 = 0.06,
        // max(0.06, 1·0.04) = 0.06; given back in input order.
        let adjusted = holm(&[0.01, 0.04, 0.03, 0.005]);
        let expected = [0.03, 0.06, 0.06, 0.02];
        for (a, e) in adjusted.iter().zip(expected) {
            assert!((a - e).abs() < 1e-12, "{adjusted:?}");
        }
        assert_eq!(holm(&[0.6, 0.7]), vec![1.0, 1.0]);
        assert!(holm(&[]).is_empty());
    }

    #[test]
    fn normal_tail_is_accurate() {
        assert!((normal_tail(1.959_964) - 0.025).abs() < 1e-6);
        assert!((normal_tail(0.0) - 0.5).abs() < 1e-7);
        assert!((normal_tail(-1.0) - 0.841_344_7).abs() < 1e-6);
    }

    fn histogram(values: &[usize]) -> Histogram {
        let mut h = Histogram::default();
        values.iter().for_each(|&v| h.add(v));
        h
    }

    #[test]
    fn medians_and_quantiles_of_a_histogram() {
        assert_eq!(histogram(&[1, 2, 3]).median(), 2.0);
        // An even count: summary.csv's median is the mean of the two middle values, the
        // nearest-rank one the lower of them.
        let even = histogram(&[4, 1, 4, 2]);
        assert_eq!((even.median(), even.quantile(0.5)), (3.0, 2.0));
        assert_eq!(histogram(&[1, 1]).median(), 1.0);
        assert_eq!((even.quantile(0.0), even.quantile(0.95)), (1.0, 4.0));
        assert_eq!(
            (even.count(), even.max(), even.counts()),
            (4, Some(4), &[0, 1, 1, 0, 2][..])
        );
        assert_eq!(even.moments(), (11.0, 37.0));
        let none = Histogram::default();
        assert_eq!(
            (none.median(), none.quantile(0.5), none.max()),
            (0.0, 0.0, None)
        );
    }

    /// Three games: South wins at the cap, North wins normally, a draw by repetition.
    /// Scoring the unfinished games counts every outcome; not scoring them keeps only North's
    /// win. Everything else counts all three either way.
    #[test]
    fn a_tally_scores_unfinished_games_only_when_asked() {
        let game = |winner, end_reason, turns, captures| GameRecord {
            winner,
            starter: Side::South,
            end_reason,
            turns,
            captures,
            ..GameRecord::default()
        };
        let games = [
            game(Some(Side::South), EndClass::Cap, 2000, 3),
            game(Some(Side::North), EndClass::Normal, 40, 5),
            game(None, EndClass::Repetition, 60, 0),
        ];
        for (score_unfinished, scored, outcomes, first_mover_wins) in
            [(true, 3, [1, 1, 1], 1), (false, 1, [0, 1, 0], 0)]
        {
            let mut tally = Tally::default();
            let counted: Vec<bool> = games
                .iter()
                .map(|g| tally.add(g, score_unfinished))
                .collect();
            assert_eq!(counted, [score_unfinished, true, score_unfinished]);
            let [south, north, draws] = outcomes;
            assert_eq!(
                (tally.games, tally.scored, tally.outcomes),
                (
                    3,
                    scored,
                    Outcomes {
                        south,
                        north,
                        draws
                    }
                )
            );
            assert_eq!(tally.first_mover_wins, first_mover_wins);
            assert_eq!(tally.ends, [1, 0, 1, 1]);
            assert_eq!((tally.unfinished(), tally.finished()), (2, 1));
            assert_eq!(tally.lengths.median(), 60.0);
            assert_eq!(tally.captures, (8.0, 34.0));
        }
    }
}
