//! Records the git commit sowlab is built from, so every output can say which build made it
//! (`SOWLAB_COMMIT`: the commit's hash, or `unknown` outside a git checkout).

use std::process::Command;

fn main() {
    let commit = Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .output()
        .ok()
        .filter(|out| out.status.success())
        .and_then(|out| String::from_utf8(out.stdout).ok())
        .map(|hash| hash.trim().to_string())
        .filter(|hash| !hash.is_empty())
        .unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=SOWLAB_COMMIT={commit}");
    // A new commit or a checkout moves HEAD or the branch it names.
    println!("cargo:rerun-if-changed=.git/HEAD");
    println!("cargo:rerun-if-changed=.git/refs/heads");
    println!("cargo:rerun-if-changed=build.rs");
}
