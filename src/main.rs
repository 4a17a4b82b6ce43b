//! The `sowlab` binary: everything happens in [`sowlab::cli::run`].

fn main() -> std::process::ExitCode {
    sowlab::cli::run(std::env::args_os())
}
