//! How an output was made: the tool's version, the git commit it was built from, and the
//! date, as `run.json` and every report record them.

/// The tool's version (Cargo.toml's).
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The git commit the binary was built from (12 hex digits), or `unknown`.
pub const COMMIT: &str = env!("SOWLAB_COMMIT");

/// `0.1.0 (commit 1a2b3c4d5e6f)`: the build, as outputs name it.
pub fn build() -> String {
    format!("{VERSION} (commit {COMMIT})")
}

/// Today's date in UTC, `2026-12-01`; or the date of `SOURCE_DATE_EPOCH` (seconds since
/// 1970) when it is set, so that outputs can be made byte for byte again.
pub fn today() -> String {
    let seconds = std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|s| s.trim().parse::<i64>().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs() as i64)
        });
    let (y, m, d) = civil(seconds.div_euclid(86_400));
    format!("{y:04}-{m:02}-{d:02}")
}

/// The proleptic Gregorian date of a day counted from 1970-01-01 (Howard Hinnant's
/// `civil_from_days`).
fn civil(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// `path` as [`quote`] gives it, for a command line.
pub fn quote_path(path: &std::path::Path) -> String {
    quote(&path.display().to_string())
}

/// `word` as a POSIX shell reads it back: unchanged when it holds only characters no shell
/// treats specially (letters, digits and `_-./:,=+@%`, not starting with `=`), else in single quotes, each `'` in it
/// written `'\''`. Commands that outputs record, and the ones sowlab suggests, quote every
/// path and value so, and can be pasted into a shell as they are.
pub fn quote(word: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "_-./:,=+@%".contains(c);
    if !word.is_empty() && !word.starts_with('=') && word.chars().all(plain) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::{civil, quote};

    #[test]
    fn words_are_quoted_only_where_a_shell_needs_it() {
        assert_eq!(quote("variants/hoyito-i.sow"), "variants/hoyito-i.sow");
        assert_eq!(quote("holes=9"), "holes=9");
        assert_eq!(quote("my game.sow"), "'my game.sow'");
        assert_eq!(quote("it's"), "'it'\\''s'");
        assert_eq!(quote("$(rm -rf x)"), "'$(rm -rf x)'");
        assert_eq!(quote(""), "''");
        assert_eq!(quote("=x"), "'=x'");
    }

    #[test]
    fn days_become_dates() {
        assert_eq!(civil(0), (1970, 1, 1));
        assert_eq!(civil(59), (1970, 3, 1));
        assert_eq!(civil(11_016), (2000, 2, 29));
        assert_eq!(civil(20_788), (2026, 12, 1));
        assert_eq!(civil(-1), (1969, 12, 31));
    }
}
