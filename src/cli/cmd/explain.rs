//! `sowlab explain FILE [--picture FILE.svg|FILE.png]`: the compiled rules in words, and the
//! readings they rest on; the start position drawn on request.

use super::super::args::ExplainArgs;
use super::super::{load_rules, Console, Error, Outcome};
use crate::engine::Game;
use crate::outdir::disk::{replace_file, Links};
use crate::report::chart::{render_png, render_svg};
use crate::report::diagram::{Diagram, Layout, Scene};
use crate::report::error::ReportError;
use crate::rules::explain;

/// Prints the explanation, and draws the start position where `--picture` asks.
pub fn run(args: &ExplainArgs, console: &mut Console<'_>) -> Result<Outcome, Error> {
    let rules = load_rules(&args.file, &args.set)?;
    if let Some(path) = &args.picture {
        let game = Game::new(&rules);
        let layout = Layout::of(&rules);
        let scene = Scene::at(&game, format!("{}: start", rules.provenance.name));
        let diagram = Diagram::new(&rules, &layout, &scene);
        let png = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("png"));
        let bytes = if png {
            render_png(&diagram)
        } else {
            render_svg(&diagram).map(String::into_bytes)
        }
        .map_err(|message| ReportError::Chart {
            path: path.clone(),
            message,
        })?;
        replace_file(path, &bytes, Links::Refuse)?;
    }
    console
        .out
        .write_all(explain::explain(&rules).as_bytes())
        .map_err(Error::Stdout)?;
    Ok(Outcome::Done)
}
