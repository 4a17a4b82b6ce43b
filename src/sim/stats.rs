//! Statistics over game records: rates with Wilson intervals, means and medians, by variant
//! and seating. Pure functions; `summary.csv` is built here.

use super::record::{GameRecord, SummaryRecord};

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

/// Two-proportion z-test (pooled) of `k1/n1` against `k2/n2`: `(z, two-sided p-value)`.
pub fn two_proportion(k1: u64, n1: u64, k2: u64, n2: u64) -> (f64, f64) {
    if n1 == 0 || n2 == 0 {
        return (0.0, 1.0);
    }
    let (p1, p2) = (k1 as f64 / n1 as f64, k2 as f64 / n2 as f64);
    let pooled = (k1 + k2) as f64 / (n1 + n2) as f64;
    let se = (pooled * (1.0 - pooled) * (1.0 / n1 as f64 + 1.0 / n2 as f64)).sqrt();
    if se == 0.0 {
        return (0.0, 1.0);
    }
    let z = (p1 - p2) / se;
    (z, (2.0 * normal_tail(z.abs())).min(1.0))
}

/// Accumulates game records into summary rows, one per (variant, South agent, North agent),
/// in order of first appearance. Memory is flat in the number of games: game lengths are
/// kept as a histogram.
#[derive(Default)]
pub struct Summary {
    groups: Vec<Group>,
}

struct Group {
    key: (String, String, String, String),
    games: u64,
    wins: [u64; 3],
    first_mover_wins: u64,
    turns: u64,
    lengths: Vec<u64>,
    reasons: [u64; 3],
    captures: u64,
    passes: u64,
    extra_turns: u64,
    endless: u64,
    drop_cap: u64,
}

impl Summary {
    /// Counts one game.
    pub fn add(&mut self, r: &GameRecord) {
        let key = (
            r.variant.clone(),
            r.rules_hash.clone(),
            r.south_agent.clone(),
            r.north_agent.clone(),
        );
        let i = match self.groups.iter().position(|g| g.key == key) {
            Some(i) => i,
            None => {
                self.groups.push(Group {
                    key,
                    games: 0,
                    wins: [0; 3],
                    first_mover_wins: 0,
                    turns: 0,
                    lengths: Vec::new(),
                    reasons: [0; 3],
                    captures: 0,
                    passes: 0,
                    extra_turns: 0,
                    endless: 0,
                    drop_cap: 0,
                });
                self.groups.len() - 1
            }
        };
        let g = &mut self.groups[i];
        g.games += 1;
        g.wins[match r.winner.as_str() {
            "south" => 0,
            "north" => 1,
            _ => 2,
        }] += 1;
        g.first_mover_wins += u64::from(r.winner == r.starter);
        g.turns += u64::from(r.turns);
        let length = r.turns as usize;
        if g.lengths.len() <= length {
            g.lengths.resize(length + 1, 0);
        }
        g.lengths[length] += 1;
        match r.end_reason.as_str() {
            "cap" => g.reasons[0] += 1,
            "repetition" => g.reasons[1] += 1,
            "no-moves" => g.reasons[2] += 1,
            _ => {}
        }
        g.captures += u64::from(r.captures);
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
                let n = g.games;
                let share = |k: u64| k as f64 / n as f64;
                let (south_rate, south_low, south_high) = wilson(g.wins[0], n, Z95);
                let (north_rate, north_low, north_high) = wilson(g.wins[1], n, Z95);
                let (draw_rate, draw_low, draw_high) = wilson(g.wins[2], n, Z95);
                let (first_mover_rate, first_mover_low, first_mover_high) =
                    wilson(g.first_mover_wins, n, Z95);
                SummaryRecord {
                    variant: g.key.0.clone(),
                    rules_hash: g.key.1.clone(),
                    south_agent: g.key.2.clone(),
                    north_agent: g.key.3.clone(),
                    games: n,
                    south_wins: g.wins[0],
                    north_wins: g.wins[1],
                    draws: g.wins[2],
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
                    mean_turns: share(g.turns),
                    median_turns: median(&g.lengths, n),
                    cap_share: share(g.reasons[0]),
                    repetition_share: share(g.reasons[1]),
                    no_moves_share: share(g.reasons[2]),
                    mean_captures: share(g.captures),
                    mean_passes: share(g.passes),
                    mean_extra_turns: share(g.extra_turns),
                    games_with_endless_refusals: g.endless,
                    games_with_drop_cap_hits: g.drop_cap,
                }
            })
            .collect()
    }
}

/// The median of `n` values given as a histogram (the mean of the two middle values when `n`
/// is even).
fn median(histogram: &[u64], n: u64) -> f64 {
    let nth = |k: u64| -> f64 {
        let mut seen = 0;
        for (value, &count) in histogram.iter().enumerate() {
            seen += count;
            if seen > k {
                return value as f64;
            }
        }
        0.0
    };
    if n == 0 {
        0.0
    } else if n % 2 == 1 {
        nth(n / 2)
    } else {
        (nth(n / 2 - 1) + nth(n / 2)) / 2.0
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
    fn two_proportion_test_matches_a_hand_computation() {
        // 60/100 vs 45/100: pooled 0.525, se = sqrt(.525*.475*.02) = 0.070623, z = 2.12396,
        // two-sided p = 0.03368.
        let (z, p) = two_proportion(60, 100, 45, 100);
        assert!(close(z, 2.123_96), "{z}");
        assert!((p - 0.033_68).abs() < 1e-4, "{p}");
        let (_, p) = two_proportion(50, 100, 50, 100);
        assert!(close(p, 1.0));
    }

    #[test]
    fn normal_tail_is_accurate() {
        assert!((normal_tail(1.959_964) - 0.025).abs() < 1e-6);
        assert!((normal_tail(0.0) - 0.5).abs() < 1e-7);
        assert!((normal_tail(-1.0) - 0.841_344_7).abs() < 1e-6);
    }

    #[test]
    fn median_of_a_histogram() {
        assert_eq!(median(&[0, 1, 1, 1], 3), 2.0);
        assert_eq!(median(&[0, 1, 1, 0, 2], 4), 3.0);
        assert_eq!(median(&[0, 2], 2), 1.0);
    }
}
