//! Shared helpers: paths, compiled variants, the binary.

use std::path::{Path, PathBuf};

use sowlab::rules::Rules;

/// The repository root.
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A path inside the repository.
pub fn path(relative: &str) -> PathBuf {
    root().join(relative)
}

/// A shipped variant, compiled; `name` without `.sow`.
pub fn variant(name: &str) -> Rules {
    let file = path(&format!("variants/{name}.sow"));
    sowlab::lang::compile_path(&file, &[])
        .unwrap_or_else(|e| panic!("{name} does not compile:\n{}", e.render(false)))
}

/// The `sowlab` binary, ready to be given arguments, run from the repository root.
pub fn sowlab() -> assert_cmd::Command {
    let mut cmd = assert_cmd::Command::cargo_bin("sowlab").expect("the binary is built");
    cmd.current_dir(root());
    // One date for every run, so that runs made on either side of midnight compare equal.
    cmd.env("SOURCE_DATE_EPOCH", "1796083200");
    cmd
}

/// Checks `text` against the golden file at `relative` (from the repository root);
/// `SOWLAB_BLESS=1` writes `text` there first — read the change before committing it.
pub fn assert_golden(relative: &str, text: &str) {
    let golden = path(relative);
    if std::env::var_os("SOWLAB_BLESS").is_some() {
        std::fs::create_dir_all(golden.parent().expect("a folder")).unwrap();
        std::fs::write(&golden, text).unwrap();
    }
    let expected = std::fs::read_to_string(&golden).unwrap_or_default();
    assert_eq!(text, expected, "the output differs from {relative}");
}

/// A run's finish without the seconds its cells took, which no two runs share: what two runs
/// of one experiment must agree on.
pub fn untimed(finish: sowlab::sim::output::Finish) -> sowlab::sim::output::Finish {
    use sowlab::sim::output::Finish;
    match finish {
        Finish::Complete { units, rounds, .. } => Finish::Complete {
            units,
            rounds,
            seconds: Vec::new(),
        },
        other => other,
    }
}

/// What stands at a path, links not followed: what a run must leave alone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Entry {
    /// A directory.
    Dir,
    /// A regular file, with its bytes and permission bits.
    File(Vec<u8>, u32),
    /// A symbolic link, with what it names.
    Link(PathBuf),
}

/// Everything under `dir` (itself not included), links not followed, by path, sorted.
pub fn tree(dir: &Path) -> Vec<(PathBuf, Entry)> {
    use std::os::unix::fs::PermissionsExt;
    let mut found = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(at) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&at) else {
            continue;
        };
        for entry in entries {
            let path = entry.expect("a readable entry").path();
            let metadata = std::fs::symlink_metadata(&path).expect("an entry's metadata");
            let kind = if metadata.file_type().is_symlink() {
                Entry::Link(std::fs::read_link(&path).expect("a readable link"))
            } else if metadata.is_dir() {
                pending.push(path.clone());
                Entry::Dir
            } else {
                let bytes = std::fs::read(&path).unwrap_or_default();
                Entry::File(bytes, metadata.permissions().mode())
            };
            found.push((path, kind));
        }
    }
    found.sort_by(|a, b| a.0.cmp(&b.0));
    found
}

/// Bytes as text, for messages.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The data a step-through page (`trace --html`) carries: the JSON object inside its
/// `<script type="application/json" id="game">`.
pub fn page_data(page: &str) -> serde_json::Value {
    let open = "<script type=\"application/json\" id=\"game\">";
    let start = page.find(open).expect("the page's data") + open.len();
    let end = start + page[start..].find("</script>").expect("the data's end");
    serde_json::from_str(&page[start..end]).expect("the page's data is JSON")
}

/// The frames of a step-through page.
pub fn page_frames(page: &str) -> Vec<serde_json::Value> {
    page_data(page)["frames"]
        .as_array()
        .expect("frames")
        .clone()
}

/// The states `sowlab trace ARGS --json` prints, one per move (round ends left out).
pub fn trace_states<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Vec<serde_json::Value> {
    let output = sowlab()
        .arg("trace")
        .args(args)
        .arg("--json")
        .output()
        .unwrap();
    assert!(output.status.success());
    String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .filter(|v: &serde_json::Value| v.get("turn").is_some())
        .collect()
}
