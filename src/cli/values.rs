//! Flag values that need more than a number type: agent pairings, `--set` settings, sweep
//! ranges and thread counts. clap parses them with these, so a bad value is a usage error
//! naming its flag.

use std::fmt;
use std::str::FromStr;

use crate::agents::AgentSpec;
use crate::engine::Move;

/// The most games per variant, pairing and seat order (`--games`).
pub const MAX_GAMES: u64 = 1_000_000_000;

/// The most random moves `trace --random` plays: the largest move cap a variant may set.
pub const MAX_RANDOM_MOVES: u32 = 10_000_000;

/// Worker threads allowed per core: more only slows a run down.
const THREADS_PER_CORE: usize = 4;

/// The rungs of `balance --ladder`: two or more different agents, weakest first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ladder(pub Vec<AgentSpec>);

impl FromStr for Ladder {
    type Err = String;

    fn from_str(s: &str) -> Result<Ladder, String> {
        let rungs: Vec<AgentSpec> = s
            .split(',')
            .map(|a| a.trim().parse::<AgentSpec>().map_err(|e| e.to_string()))
            .collect::<Result<_, _>>()?;
        if rungs.len() < 2 {
            return Err(
                "give two or more agents, weakest first, e.g. `random,greedy,alphabeta:2`".into(),
            );
        }
        if let Some(i) = (1..rungs.len()).find(|&i| rungs[..i].contains(&rungs[i])) {
            return Err(format!("`{}` is on the ladder twice", rungs[i]));
        }
        Ok(Ladder(rungs))
    }
}

impl fmt::Display for Ladder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rungs: Vec<String> = self.0.iter().map(ToString::to_string).collect();
        f.write_str(&rungs.join(","))
    }
}

/// A move of `trace --moves`: a hole, `3`, or where the mover chooses the direction, `3cw` or
/// `3ccw` (counterclockwise if not said).
pub fn move_value(s: &str) -> Result<Move, String> {
    Move::parse(s)
        .ok_or_else(|| format!("`{s}` is not a move: a hole number, with `cw` or `ccw` where the mover chooses the direction"))
}

/// `sweep`'s `--set KEY=RANGE`: `holes=6..12` (inclusive), `seeds=3,4,6` or one value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Axis {
    /// The setting swept.
    pub key: String,
    /// Its values, in order.
    pub values: Vec<String>,
    /// As given, for the command line that results record.
    written: String,
}

/// The most points of one sweep range.
const MAX_RANGE_STEPS: u32 = 100;

impl FromStr for Axis {
    type Err = String;

    fn from_str(s: &str) -> Result<Axis, String> {
        let (key, range) = s
            .split_once('=')
            .ok_or("expected KEY=RANGE, e.g. holes=6..12")?;
        let values = if let Some((a, b)) = range.split_once("..") {
            let (a, b): (u32, u32) = (
                a.trim().parse().map_err(|_| "bad range start")?,
                b.trim().parse().map_err(|_| "bad range end")?,
            );
            if a > b || b - a > MAX_RANGE_STEPS {
                return Err(format!(
                    "a range must go up, by at most {MAX_RANGE_STEPS} steps"
                ));
            }
            (a..=b).map(|v| v.to_string()).collect()
        } else {
            range
                .split(',')
                .map(|v| v.trim().to_string())
                .filter(|v| !v.is_empty())
                .collect()
        };
        Ok(Axis {
            key: key.trim().to_string(),
            values,
            written: s.to_string(),
        })
    }
}

impl fmt::Display for Axis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.written)
    }
}

/// The cores of this machine (1 where the system does not say).
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The most worker threads: a few per core.
pub fn max_threads() -> usize {
    THREADS_PER_CORE * cores()
}

/// `--threads T`: 1 to [`max_threads`].
pub fn threads(s: &str) -> Result<usize, String> {
    let max = max_threads();
    match s.trim().parse::<usize>() {
        Ok(n) if (1..=max).contains(&n) => Ok(n),
        _ => Err(format!(
            "must be a whole number from 1 to {max} ({THREADS_PER_CORE} per core)"
        )),
    }
}

/// The largest `--memory`: 1 TiB.
const MAX_MEMORY: u64 = 1 << 40;

/// `--memory SIZE`: bytes, or a whole number of `K`, `M` or `G` (binary: 1K is 1024 bytes),
/// from 1K to 1024G.
pub fn memory(s: &str) -> Result<u64, String> {
    let s = s.trim();
    let (digits, unit) = match s.char_indices().last() {
        Some((i, c)) if c.is_ascii_alphabetic() => (&s[..i], c.to_ascii_uppercase()),
        _ => (s, 'B'),
    };
    let shift = match unit {
        'B' => Some(0),
        'K' => Some(10),
        'M' => Some(20),
        'G' => Some(30),
        _ => None,
    };
    let bytes = shift
        .zip(digits.parse::<u64>().ok())
        .and_then(|(shift, n)| n.checked_mul(1 << shift));
    match bytes {
        Some(b) if (1024..=MAX_MEMORY).contains(&b) => Ok(b),
        _ => Err(format!(
            "must be a size from 1K to 1024G: bytes, or a whole number with K, M or G (e.g. 512M, 4G), not `{s}`"
        )),
    }
}

/// `A..B` (inclusive) or one number `A`, each from 1 to `max`.
fn span(s: &str, max: u32) -> Result<std::ops::RangeInclusive<u32>, String> {
    let number = |t: &str| match t.trim().parse::<u32>() {
        Ok(n) if (1..=max).contains(&n) => Ok(n),
        _ => Err(format!("`{t}` is not a whole number from 1 to {max}")),
    };
    let (low, high) = match s.split_once("..") {
        Some((a, b)) => (number(a)?, number(b)?),
        None => (number(s)?, number(s)?),
    };
    if low > high {
        return Err(format!("`{s}` is empty: give the smaller number first"));
    }
    Ok(low..=high)
}

/// Holes a row: `2..6`, 1 to 16.
pub fn hole_span(s: &str) -> Result<std::ops::RangeInclusive<u32>, String> {
    span(s, 16)
}

/// Seeds a hole: `1..6`, 1 to 1000.
pub fn seed_span(s: &str) -> Result<std::ops::RangeInclusive<u32>, String> {
    span(s, 1000)
}

/// A small board: `3,2` (holes a row, 1 to 16; seeds a hole, 1 to 1000).
pub fn board(s: &str) -> Result<(u16, u16), String> {
    let bad = || format!("`{s}` should be HOLES,SEEDS, e.g. 3,2 (holes 1 to 16, seeds 1 to 1000)");
    let (h, k) = s.split_once(',').ok_or_else(bad)?;
    let holes: u16 = h.trim().parse().map_err(|_| bad())?;
    let seeds: u16 = k.trim().parse().map_err(|_| bad())?;
    if !(1..=16).contains(&holes) || !(1..=1000).contains(&seeds) {
        return Err(bad());
    }
    Ok((holes, seeds))
}

#[cfg(test)]
mod tests {
    use super::memory;

    #[test]
    fn memory_sizes_read_in_binary_units() {
        assert_eq!(memory("4G"), Ok(4 << 30));
        assert_eq!(memory("512m"), Ok(512 << 20));
        assert_eq!(memory("2048"), Ok(2048));
        for bad in [
            "",
            "G",
            "1.5G",
            "12T",
            "100",
            "-1G",
            "2000G",
            "99999999999999999999",
        ] {
            assert!(memory(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn spans_are_inclusive_and_checked() {
        assert_eq!(super::hole_span("2..6"), Ok(2..=6));
        assert_eq!(super::seed_span("3"), Ok(3..=3));
        assert!(super::hole_span("0..6").is_err());
        assert!(super::hole_span("2..17").is_err());
        assert!(super::seed_span("6..2").is_err());
        assert!(super::seed_span("x").is_err());
    }
}
