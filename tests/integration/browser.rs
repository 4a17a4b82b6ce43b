//! The step-through page in a real browser: headless Chromium driven through ChromeDriver
//! (Debian's `chromium` and `chromium-driver`) over the WebDriver protocol. The page loads with
//! no console error; stepping forward with the button and back with the arrow key shows, at
//! every step, the seeds the page's own frame holds and, at every move's end, exactly the state
//! `trace --json` gives; a screenshot is written to `target/browser/step-through.png`.
//!
//! Where no browser is installed the test says so on stderr and passes, unless
//! `SOWLAB_BROWSER_TEST=required` (as `.ci/run` sets once it has installed one): then it fails.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use base64::Engine;
use serde_json::{json, Value};

use crate::util::{page_frames, path, sowlab, trace_states};

const CHROMIUM: [&str; 2] = ["chromium", "chromium-browser"];
const DRIVER: [&str; 1] = ["chromedriver"];
/// WebDriver's key for an element reference.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

/// The first of `names` found on the `PATH`.
fn found(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    names.iter().find_map(|name| {
        std::env::split_paths(&path)
            .map(|dir| dir.join(name))
            .find(|p| p.is_file())
    })
}

/// ChromeDriver on a free port, stopped when dropped.
struct Driver {
    child: Child,
    base: String,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Driver {
    fn start(binary: &Path) -> Driver {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let child = Command::new(binary)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let driver = Driver {
            child,
            base: format!("http://127.0.0.1:{port}"),
        };
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let ready = ureq::get(&format!("{}/status", driver.base))
                .call()
                .ok()
                .and_then(|r| r.into_json::<Value>().ok())
                .is_some_and(|v| v["value"]["ready"] == json!(true));
            if ready {
                return driver;
            }
            assert!(Instant::now() < deadline, "chromedriver did not start");
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

/// A browser session.
struct Session<'d> {
    driver: &'d Driver,
    id: String,
}

impl Session<'_> {
    fn url(&self, tail: &str) -> String {
        format!("{}/session/{}{tail}", self.driver.base, self.id)
    }

    fn post(&self, tail: &str, body: Value) -> Value {
        let response = ureq::post(&self.url(tail))
            .send_json(body)
            .unwrap_or_else(|e| panic!("POST {tail}: {e}"));
        response.into_json::<Value>().expect("JSON")["value"].take()
    }

    fn get(&self, tail: &str) -> Value {
        let response = ureq::get(&self.url(tail))
            .call()
            .unwrap_or_else(|e| panic!("GET {tail}: {e}"));
        response.into_json::<Value>().expect("JSON")["value"].take()
    }

    fn run(&self, script: &str) -> Value {
        self.post("/execute/sync", json!({ "script": script, "args": [] }))
    }

    fn click(&self, css: &str) {
        let element = self.post("/element", json!({ "using": "css selector", "value": css }));
        let id = element[ELEMENT].as_str().expect("an element").to_string();
        self.post(&format!("/element/{id}/click"), json!({}));
    }

    fn key(&self, key: &str) {
        self.post(
            "/actions",
            json!({ "actions": [{ "type": "key", "id": "keyboard", "actions": [
                { "type": "keyDown", "value": key }, { "type": "keyUp", "value": key }
            ]}]}),
        );
    }

    /// What the page shows: its frame, every hole's seeds and both stores, read from the board.
    fn shown(&self) -> (usize, Vec<Value>, Vec<Value>) {
        let v = self.run(
            "return [Number(document.body.dataset.frame), \
             [...document.querySelectorAll('.pit .count')].map(e => Number(e.dataset.seeds)), \
             [...document.querySelectorAll('.store-count')].map(e => Number(e.textContent))];",
        );
        let frame = v[0].as_u64().expect("a frame") as usize;
        let list = |i: usize| v[i].as_array().expect("a list").clone();
        (frame, list(1), list(2))
    }

    /// The console's errors and warnings since the last call.
    fn console_errors(&self) -> Vec<String> {
        let log = self.post("/se/log", json!({ "type": "browser" }));
        log.as_array()
            .into_iter()
            .flatten()
            .filter(|entry| matches!(entry["level"].as_str(), Some("SEVERE" | "WARNING")))
            .map(|entry| entry["message"].to_string())
            .collect()
    }
}

impl Drop for Session<'_> {
    fn drop(&mut self) {
        let _ = ureq::delete(&self.url("")).call();
    }
}

#[test]
fn the_step_through_page_shows_the_traces_states_in_a_real_browser() {
    let required = std::env::var("SOWLAB_BROWSER_TEST").is_ok_and(|v| v == "required");
    let (Some(chromium), Some(chromedriver)) = (found(&CHROMIUM), found(&DRIVER)) else {
        assert!(
            !required,
            "SOWLAB_BROWSER_TEST=required, but chromium or chromedriver is missing"
        );
        eprintln!(
            "SKIPPED the browser test: no chromium and chromedriver (Debian: apt-get install \
             chromium chromium-driver); .ci/run installs them"
        );
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let html = dir.path().join("game.html");
    // Hoyito I: relay moves of up to six laps, captures; 40 moves.
    let game = ["variants/hoyito-i.sow", "--random", "40", "--seed", "3"];
    sowlab()
        .arg("trace")
        .args(game)
        .arg("--html")
        .arg(&html)
        .assert()
        .success();
    let states = trace_states(&game);
    let page = std::fs::read_to_string(&html).unwrap();
    let frames = page_frames(&page);

    let driver = Driver::start(&chromedriver);
    let capabilities = json!({ "capabilities": { "alwaysMatch": {
        "browserName": "chrome",
        "goog:chromeOptions": {
            "binary": chromium,
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1200,900"]
        },
        "goog:loggingPrefs": { "browser": "ALL" }
    }}});
    let created: Value = ureq::post(&format!("{}/session", driver.base))
        .send_json(capabilities)
        .expect("a session")
        .into_json()
        .unwrap();
    let session = Session {
        driver: &driver,
        id: created["value"]["sessionId"]
            .as_str()
            .expect("a session id")
            .to_string(),
    };
    let url = format!("file://{}", html.display());
    session.post("/url", json!({ "url": url }));
    assert_eq!(
        session.console_errors(),
        Vec::<String>::new(),
        "errors on load"
    );

    // Every step shows its frame; a move's last frame is the trace's state after that move.
    let check = |expected_frame: usize| {
        let (frame, board, stores) = session.shown();
        assert_eq!(frame, expected_frame);
        let f = &frames[frame];
        assert_eq!(
            board,
            f["board"].as_array().unwrap().clone(),
            "frame {frame}"
        );
        assert_eq!(
            stores,
            f["stores"].as_array().unwrap().clone(),
            "frame {frame}"
        );
        let index = f["index"].as_u64().unwrap() as usize;
        let move_end = frames
            .get(frame + 1)
            .is_none_or(|next| next["index"] != f["index"]);
        if index > 0 && move_end {
            let state = &states[index - 1];
            assert_eq!(
                board,
                state["board"].as_array().unwrap().clone(),
                "move {index}"
            );
            assert_eq!(
                stores,
                state["store"].as_array().unwrap().clone(),
                "move {index}"
            );
        }
    };
    check(0);
    let mut screenshot = None;
    for (i, frame) in frames.iter().enumerate().skip(1) {
        session.click("#next");
        check(i);
        // The picture for the note: the third lap of a relay move.
        if screenshot.is_none() && frame["lap"] == 3 {
            screenshot = Some(session.get("/screenshot"));
        }
    }
    // One more goes nowhere.
    session.click("#next");
    check(frames.len() - 1);
    for i in (0..frames.len() - 1).rev() {
        session.key("\u{E012}"); // ArrowLeft
        check(i);
    }
    // A move at a time, from the start: the end of move 1, then of move 2.
    session.key("\u{E015}"); // ArrowDown
    let (frame, ..) = session.shown();
    assert_eq!(frames[frame]["index"], json!(1));
    assert_ne!(frames[frame + 1]["index"], json!(1), "the end of move 1");
    assert_eq!(
        session.console_errors(),
        Vec::<String>::new(),
        "errors while stepping"
    );

    let png = base64::engine::general_purpose::STANDARD
        .decode(
            screenshot
                .expect("a relay move")
                .as_str()
                .expect("a screenshot"),
        )
        .unwrap();
    let out = path("target/browser");
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(out.join("step-through.png"), png).unwrap();
}
