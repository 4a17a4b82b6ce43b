//! Progress on stderr: an indicatif bar with rate and ETA when stderr is a terminal, nothing
//! otherwise.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A bar for `total` games, drawn only on a `terminal`.
pub fn bar(total: u64, what: &str, terminal: bool) -> ProgressBar {
    if !terminal {
        return ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::hidden());
    }
    let bar = ProgressBar::new(total);
    let template = format!("{what} {{bar:40}} {{pos}}/{{len}} games  {{per_sec}}  ETA {{eta}}");
    if let Ok(style) = ProgressStyle::with_template(&template) {
        bar.set_style(style);
    }
    bar
}

/// A spinner with a message, for work of unknown length, drawn only on a `terminal`.
pub fn spinner(what: &str, terminal: bool) -> ProgressBar {
    if !terminal {
        return ProgressBar::hidden();
    }
    let spinner = ProgressBar::new_spinner();
    if let Ok(style) =
        ProgressStyle::with_template(&format!("{{spinner}} {what} {{msg}}  {{elapsed}}"))
    {
        spinner.set_style(style);
    }
    spinner.enable_steady_tick(std::time::Duration::from_millis(200));
    spinner
}
