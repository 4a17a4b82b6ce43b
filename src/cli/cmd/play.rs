//! `sowlab play FILE [--vs AGENT] [--seat south|north] [--seed S]`: reads command lines, hands
//! them to a [`Session`], prints its replies and writes the files `save` asks for.

use std::io::{BufRead, IsTerminal, Read};

use super::super::args::PlayArgs;
use super::super::{load_rules, repeated, Console, Error, Outcome};
use crate::outdir::disk::{create_file, replace_file, FileError, Links};
use crate::play::{Session, Setup};
use crate::rules::Side;

/// The longest command line read: a longer one is skipped, never held whole in memory.
const LONGEST_LINE: u64 = 4096;

/// Plays until `quit` or the end of `input`. A failed `save` is said at once and the game goes
/// on; if no later save succeeded, the session then ends with that error (exit code 2), so a
/// script learns of it.
pub fn run(
    args: &PlayArgs,
    console: &mut Console<'_>,
    input: &mut dyn BufRead,
) -> Result<Outcome, Error> {
    let rules = load_rules(&args.file, &args.set)?;
    super::perfect_fits(&rules, args.vs.into_iter())?;
    // Colours and a prompt only on a terminal (`console.terminal` is false for callers that
    // capture the output); typed commands are on the screen already, others are echoed.
    let screen = console.terminal && std::io::stdout().is_terminal();
    let echo = !std::io::stdin().is_terminal();
    let setup = Setup {
        opponent: args.vs,
        human: args.seat.map_or(Side::South, |seat| seat.side()),
        seed: args.seed,
        source: args.file.display().to_string(),
        replay: format!(
            "sowlab trace {}{}",
            crate::made::quote_path(&args.file),
            repeated("--set", &args.set)
        ),
        colour: screen,
        forced: args.forced,
    };
    let (mut session, opening) = Session::start(&rules, setup);
    let out = &mut *console.out;
    let mut print = |text: &str| {
        out.write_all(text.as_bytes())
            .and_then(|()| out.flush())
            .map_err(Error::Stdout)
    };
    print(&opening)?;
    let mut failed: Option<FileError> = None;
    let mut bytes = Vec::new();
    loop {
        if screen {
            print(&session.prompt())?;
        }
        bytes.clear();
        let read = (&mut *input)
            .take(LONGEST_LINE + 1)
            .read_until(b'\n', &mut bytes)
            .map_err(Error::Stdin)?;
        if read == 0 {
            print(&format!("\n{}", session.end_of_input()))?;
            break;
        }
        if bytes.len() as u64 > LONGEST_LINE {
            input.skip_until(b'\n').map_err(Error::Stdin)?;
            print(&format!(
                "a line of more than {LONGEST_LINE} bytes is no command; it was ignored\n"
            ))?;
            continue;
        }
        let line = String::from_utf8_lossy(&bytes);
        let line = line.trim_end_matches(['\n', '\r']);
        match (echo, screen) {
            (true, true) => print(&format!("{line}\n"))?,
            (true, false) => print(&format!("> {line}\n"))?,
            (false, _) => {}
        }
        let reply = session.command(line);
        print(&reply.text)?;
        if let Some(save) = reply.save {
            let written = if save.replace {
                replace_file(&save.path, save.contents.as_bytes(), Links::Refuse)
            } else {
                create_file(&save.path, save.contents.as_bytes())
            };
            match written {
                Ok(()) => {
                    print(&save.done)?;
                    failed = None;
                }
                Err(e) if e.source.kind() == std::io::ErrorKind::AlreadyExists => {
                    print(&format!(
                        "cannot save: `{}` exists; `save! FILE` replaces it\n",
                        save.path.display()
                    ))?;
                    failed = Some(e);
                }
                Err(e) => {
                    print(&format!("cannot save: {e}\n"))?;
                    failed = Some(e);
                }
            }
        }
        if reply.quit {
            break;
        }
    }
    match failed {
        Some(e) => Err(Error::File(e)),
        None => Ok(Outcome::Done),
    }
}
