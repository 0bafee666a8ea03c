//! The browser board in a real browser: headless Chromium (Debian's
//! `chromium` and `chromium-driver`, which `.ci/run` installs) driven over
//! WebDriver against `gulbara serve --http` on an ephemeral loopback port.
//!
//! Each test plays a whole game against the engine by clicking: the Roll
//! button, a checker's point, then where it goes, Done at the end of a
//! turn. The dice are typed into the dice box at the start (both sides'
//! rolls, in order), so the games are the same on every run: the
//! sequences were chosen so that the Gul bara game has the person play an
//! escalating chain stage by stage and a remainder, and the backgammon
//! game a hit and entries from the bar. The tests read the page's state
//! only to decide what to click and to wait for the engine; they check
//! what the page shows, that the record it writes replays with
//! `gulbara replay`, and that nothing reached the console as an error.
//! Screenshots go to docs/screenshots/.
//!
//! They need chromium and chromedriver, so a plain `cargo test` lists them
//! as ignored with that reason; `cargo test -- --include-ignored` (what
//! `.ci/run` runs, after installing them) runs them, and fails without them.
//!
//! No test asserts how fast something happens: every wait is for a
//! condition, with a long bound that only guards against a hang.

mod common;

use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{Proc, Web, bin, free_port, scratch_dir};
use fantoccini::actions::{
    InputSource, KeyAction, KeyActions, MOUSE_BUTTON_LEFT, MouseActions, PointerAction,
};
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};
use tokio::sync::{Semaphore, SemaphorePermit};

/// The longest any one condition is waited for.
const GUARD: Duration = Duration::from_secs(90);

const CHROMIUM: &[&str] = &["/usr/bin/chromium", "/usr/bin/chromium-browser"];
const CHROMEDRIVER: &[&str] = &["/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver"];

/// Why the browser tests are ignored by a plain `cargo test`: they need
/// tools that `.ci/run` installs, and run with `--include-ignored`.
const NEEDS: &str = "needs chromium and chromium-driver (apt-get install -y chromium chromium-driver); run with --include-ignored";

/// The browser and its driver. The tests that use them are `#[ignore]`d
/// unless asked for, and once asked for, their absence fails the test.
fn tools() -> (PathBuf, PathBuf) {
    let find = |c: &[&str]| c.iter().map(PathBuf::from).find(|p| p.exists());
    match (find(CHROMIUM), find(CHROMEDRIVER)) {
        (Some(b), Some(d)) => (b, d),
        _ => panic!("{NEEDS}"),
    }
}

/// One browser session on one game page.
struct Page {
    client: Client,
    /// Where the browser saves downloads.
    downloads: PathBuf,
    _driver: Proc,
    _web: Web,
    name: &'static str,
    /// Held while the browser runs (dropped last).
    _permit: SemaphorePermit<'static>,
}

/// At most two browsers at once: six Chromiums starting together on two
/// cores is what made session starts time out.
static BROWSERS: Semaphore = Semaphore::const_new(2);

/// How many times a WebDriver session start is tried.
const SESSION_ATTEMPTS: usize = 3;

/// Starts chromedriver on a free port and waits until it listens.
async fn start_driver(driver: &Path) -> (Proc, u16) {
    let port = free_port();
    let driver_proc = Proc(
        Command::new(driver)
            .args([format!("--port={port}"), "--allowed-ips=127.0.0.1".into()])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver"),
    );
    let start = Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(start.elapsed() < GUARD, "chromedriver never listened");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    (driver_proc, port)
}

/// Asks chromedriver on `port` for a headless Chromium session.
async fn start_session(
    port: u16,
    browser: &Path,
    profile: &Path,
    downloads: &Path,
) -> Result<Client, fantoccini::error::NewSessionError> {
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".into(),
        json!({
            "binary": browser.to_string_lossy(),
            "args": [
                "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
                format!("--user-data-dir={}", profile.display()),
                "--window-size=1100,820",
            ],
            "prefs": {
                "download.default_directory": downloads.to_string_lossy(),
                "download.prompt_for_download": false,
            },
        }),
    );
    let connector = hyper_util::client::legacy::connect::HttpConnector::new();
    ClientBuilder::new(connector)
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{port}"))
        .await
}

impl Page {
    /// Starts the server, chromedriver and Chromium, and opens the board.
    async fn open(name: &'static str) -> Page {
        Page::open_with(name, &[]).await
    }

    /// [`Page::open`] with more `serve` options.
    async fn open_with(name: &'static str, serve: &[&str]) -> Page {
        // The person always starts (no opening throw): these tests' dice
        // begin with the person's first roll.
        Page::open_at(name, serve, "anim=30&start=you").await
    }

    /// [`Page::open_with`] at the board's address with `query`.
    /// The browser and its driver come from [`tools`]: a missing one fails
    /// the test with what to install.
    async fn open_at(name: &'static str, serve: &[&str], query: &str) -> Page {
        let (browser, driver) = tools();
        let permit = BROWSERS.acquire().await.expect("the browser semaphore");
        let web = Web::start(false, serve);
        let downloads = scratch_dir(&format!("downloads-{name}"));
        // Chromium can outlast chromedriver's own start-up wait on a loaded
        // machine; a failed session start is retried with a fresh driver
        // and profile, and every failure is printed.
        let mut failures = Vec::new();
        let (client, driver_proc) = loop {
            let attempt = failures.len() + 1;
            let (driver_proc, port) = start_driver(&driver).await;
            let profile = scratch_dir(&format!("chromium-{name}-{attempt}"));
            match start_session(port, &browser, &profile, &downloads).await {
                Ok(client) => break (client, driver_proc),
                Err(e) => {
                    eprintln!("{name}: WebDriver session attempt {attempt} failed: {e}");
                    failures.push(e.to_string());
                    assert!(
                        failures.len() < SESSION_ATTEMPTS,
                        "no WebDriver session after {SESSION_ATTEMPTS} attempts: {failures:?}"
                    );
                }
            }
        };
        client
            .goto(&format!("http://{}/?{query}", web.http))
            .await
            .expect("open the board");
        let page = Page {
            client,
            downloads,
            _driver: driver_proc,
            _web: web,
            name,
            _permit: permit,
        };
        let first = if query.contains("start=you") {
            "S.phase === 'roll'"
        } else {
            "S.phase === 'opening'"
        };
        page.wait("the first game starts", first).await;
        page
    }

    /// Evaluates a JavaScript expression in the page (`S` is the page's state).
    async fn js(&self, expr: &str) -> Value {
        let script = format!("const S = window.gulbara.state(); return ({expr});");
        self.client
            .execute(&script, vec![])
            .await
            .unwrap_or_else(|e| panic!("{}: script {expr}: {e}", self.name))
    }

    async fn text(&self, id: &str) -> String {
        self.js(&format!("document.getElementById('{id}').textContent"))
            .await
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    /// Waits until `expr` is true in the page.
    async fn wait(&self, what: &str, expr: &str) {
        let start = Instant::now();
        loop {
            if self.js(expr).await.as_bool() == Some(true) {
                return;
            }
            if start.elapsed() > GUARD {
                let status = self.text("status").await;
                let errors = self.js("window.gulbara.errors()").await;
                let log = self.js("window.gulbara.log().slice(-40).join('\\n')").await;
                let session = self.js("JSON.stringify(window.gulbara.session())").await;
                let shown = self.text("f-match").await;
                panic!(
                    "{}: waited too long for {what} ({expr}); status: {status}; errors: {errors}; session: {session}, shown as {shown:?}; phase {}\nthe last protocol lines:\n{}",
                    self.name,
                    self.js("S.phase").await,
                    log.as_str().unwrap_or_default()
                );
            }
            tokio::time::sleep(Duration::from_millis(15)).await;
        }
    }

    async fn click_css(&self, css: &str) {
        self.client
            .find(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("{}: no {css}: {e}", self.name))
            .click()
            .await
            .unwrap_or_else(|e| panic!("{}: click {css}: {e}", self.name));
    }

    async fn click_point(&self, key: &str) {
        self.click_css(&format!("[data-point=\"{key}\"]")).await;
    }

    /// Picks the checker on `from` and clicks `to`.
    async fn click_move(&self, from: &str, to: &str) {
        self.click_point(from).await;
        self.wait("the checker is picked", &format!("S.selected === '{from}'"))
            .await;
        self.click_point(to).await;
    }

    /// Types into an input (appending to what it holds).
    async fn type_into(&self, css: &str, text: &str) {
        self.client
            .find(Locator::Css(css))
            .await
            .expect("the input")
            .send_keys(text)
            .await
            .expect("typing");
    }

    /// Sets a setting through its control, as a person does.
    async fn set_option(&self, key: &str, value: &str) {
        let css = format!("[id=\"opt-{key}\"]");
        let e = self.client.find(Locator::Css(&css)).await.expect("option");
        if e.tag_name().await.expect("tag") == "select" {
            e.select_by_value(value).await.expect("choose");
        } else {
            e.clear().await.expect("clear");
            // Tab leaves the field, which commits the change.
            e.send_keys(&format!("{value}\u{E004}"))
                .await
                .expect("type");
        }
        self.wait(
            &format!("{key} set"),
            &format!(
                "S.keys.find((k) => k.name === '{key}')?.value === '{value}' && ['roll', 'opening'].includes(S.phase)"
            ),
        )
        .await;
    }

    /// A game of `variant` against the baseline at 0-ply: its replies, and
    /// so the game the dice make, do not change when the variant's shipped
    /// network is retrained.
    async fn baseline_game(&self, variant: &str) {
        self.choose_variant(variant).await;
        self.set_option("engine.ply", "1").await;
        self.set_option("engine.eval", "heuristic").await;
    }

    async fn choose_variant(&self, variant: &str) {
        let e = self
            .client
            .find(Locator::Id("variant"))
            .await
            .expect("select");
        e.select_by_value(variant)
            .await
            .expect("choose the variant");
        self.wait(
            "the new variant's game",
            &format!(
                "S.variant === '{variant}' && ['roll', 'opening'].includes(S.phase) && S.moves.length === 0"
            ),
        )
        .await;
    }

    /// Reloads the board at `query` and waits until the same game is back:
    /// the same moves and turns, the person to roll.
    async fn reload_keeps_the_game(&self, query: &str) {
        let before = self.js("S.moves.join(' ') + '|' + S.turns.length").await;
        self.client
            .goto(&format!("http://{}/?{query}", self._web.http))
            .await
            .expect("reload the board");
        self.wait(
            "the game back after the reload",
            &format!(
                "window.gulbara && S.phase === 'roll' && S.moves.join(' ') + '|' + S.turns.length === {before}"
            ),
        )
        .await;
    }

    /// Reloads the board with slow steps (400 ms), the person starting and
    /// nothing saved, and waits for its first game.
    async fn reload_slow(&self) {
        self.client
            .goto(&format!(
                "http://{}/?anim=400&start=you&saved=off",
                self._web.http
            ))
            .await
            .expect("reload the board");
        self.wait("the first game starts", "S.phase === 'roll'")
            .await;
    }

    /// Doubles and waits for the engine's answer.
    async fn double(&self) {
        let n = self.js("S.turns.length").await;
        self.click_css("#double").await;
        self.wait(
            "the engine's answer",
            &format!("S.turns.length > {n} && S.phase !== 'idle'"),
        )
        .await;
    }

    /// Chooses the side setting (`watch`, ...).
    async fn choose_side(&self, value: &str) {
        self.client
            .find(Locator::Id("pref-side"))
            .await
            .expect("the side setting")
            .select_by_value(value)
            .await
            .unwrap_or_else(|e| panic!("{}: choose side {value}: {e}", self.name));
    }

    /// The review's statistics row that starts with "Luck", its cells.
    async fn review_luck_row(&self) -> Value {
        let table = self
            .js("[...document.querySelectorAll('.review-stats tr')].map((tr) => [...tr.children].map((c) => c.textContent))")
            .await;
        table
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r[0].as_str().unwrap().starts_with("Luck"))
            .expect("a luck row")
            .clone()
    }

    /// Chooses the session in the settings (`kind` money or match, the
    /// match length, the cube on or off) and waits for its first game.
    async fn choose_session(&self, kind: &str, length: u32, cube: &str) {
        for (id, value) in [("session-kind", kind), ("cube", cube)] {
            self.client
                .find(Locator::Id(id))
                .await
                .expect("a session control")
                .select_by_value(value)
                .await
                .expect("choose");
            self.wait("the new session", "S.phase === 'roll'").await;
        }
        if kind == "match" {
            let field = self
                .client
                .find(Locator::Id("match-length"))
                .await
                .expect("the match length");
            field.clear().await.expect("clear");
            field
                .send_keys(&format!("{length}\u{E004}"))
                .await
                .expect("type");
        }
        let session = "window.gulbara.session()";
        let shown = if kind == "match" {
            format!("match to {length}: you 0, the engine 0")
        } else {
            "money play".to_string()
        };
        self.wait(
            "the session chosen",
            &format!(
                "{session}.kind === '{kind}' && {session}.cube === {} && S.phase === 'roll' && S.moves.length === 0 \
                 && document.getElementById('f-match').textContent.startsWith('{shown}')",
                cube == "on"
            ),
        )
        .await;
    }

    /// Saves a screenshot of the page (or of the board alone) into docs/screenshots/.
    async fn screenshot(&self, file: &str, board_only: bool) {
        let png = if board_only {
            self.client
                .find(Locator::Id("board"))
                .await
                .expect("the board")
                .screenshot()
                .await
        } else {
            // The page from its top (a control the test used may have scrolled it).
            self.client
                .execute("window.scrollTo(0, 0)", vec![])
                .await
                .expect("scroll");
            self.client.screenshot().await
        }
        .expect("a screenshot");
        assert!(png.starts_with(b"\x89PNG"), "a PNG");
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/screenshots");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(file), png).unwrap();
    }

    /// A screenshot of one element of the page (scrolled into view).
    async fn screenshot_of(&self, css: &str, file: &str) {
        let e = self
            .client
            .find(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("{}: no {css}: {e}", self.name));
        let png = e.screenshot().await.expect("a screenshot");
        assert!(png.starts_with(b"\x89PNG"), "a PNG");
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/screenshots");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(file), png).unwrap();
    }

    /// One of the person's steps by clicking: its checker's point, then
    /// where it goes. Returns the step.
    async fn click_step(&self) -> String {
        let step = self
            .js("S.legal[0].norm[S.stage.length]")
            .await
            .as_str()
            .expect("a step to play")
            .to_string();
        let before = self.js("S.stage.join(' ') + '|' + S.moves.length").await;
        let (from, to) = step.split_once('/').unwrap();
        // The board's keys are White's numbering; the person may play Black.
        let key = |p: &str| format!("window.gulbara.key('{p}')");
        let from = self.js(&key(from)).await.as_str().unwrap().to_string();
        let to = self.js(&key(to)).await.as_str().unwrap().to_string();
        let (from, to) = (from.as_str(), to.as_str());
        assert_eq!(
            self.js("S.legal[0].norm.slice(0, S.stage.length).join(' ') === S.stage.join(' ')")
                .await,
            json!(true),
            "{}: the steps played so far follow the first legal play",
            self.name
        );
        self.click_point(from).await;
        self.wait("the checker is picked", &format!("S.selected === '{from}'"))
            .await;
        // The destination is offered, and only legal ones are.
        let dests = self
            .js("[...document.querySelectorAll('.point.dest')].map((e) => e.dataset.point)")
            .await;
        assert!(
            dests.as_array().unwrap().iter().any(|d| d == to),
            "{}: {to} is not offered after picking {from}: {dests}",
            self.name
        );
        self.click_point(to).await;
        self.wait(
            "the step is taken",
            &format!(
                "(S.stage.join(' ') + '|' + S.moves.length) !== {before} && S.phase !== 'idle'"
            ),
        )
        .await;
        step
    }

    /// One of the person's steps by dragging its checker onto the
    /// destination (pointer down, a move, up). Returns the step.
    async fn drag_step(&self) -> String {
        let step = self
            .js("S.legal[0].norm[S.stage.length]")
            .await
            .as_str()
            .expect("a step to drag")
            .to_string();
        let (from, to) = step.split_once('/').unwrap();
        // The board in view, as a person would scroll it (typing into the
        // dice box may have scrolled the page down to the controls).
        self.js("document.getElementById('board').scrollIntoView({ block: 'start' }) || true")
            .await;
        // Viewport coordinates, read first: the board is drawn anew once the drag starts.
        let centre = |key: &str| {
            format!(
                "(() => {{ const r = document.querySelector('[data-point=\"{key}\"]').getBoundingClientRect(); \
                 return [Math.round(r.x + r.width / 2), Math.round(r.y + r.height / 2)]; }})()"
            )
        };
        let a = self.js(&centre(from)).await;
        let b = self.js(&centre(to)).await;
        let at = |v: &Value, i: usize| v[i].as_f64().unwrap();
        let n = self.js("S.stage.length").await;
        let mouse = MouseActions::new("mouse".into())
            .then(PointerAction::MoveTo {
                duration: None,
                x: at(&a, 0),
                y: at(&a, 1),
            })
            .then(PointerAction::Down {
                button: MOUSE_BUTTON_LEFT,
            })
            .then(PointerAction::MoveTo {
                duration: Some(Duration::from_millis(50)),
                x: at(&a, 0) + 15.0,
                y: at(&a, 1) + 15.0,
            })
            .then(PointerAction::MoveTo {
                duration: Some(Duration::from_millis(100)),
                x: at(&b, 0),
                y: at(&b, 1),
            })
            .then(PointerAction::Up {
                button: MOUSE_BUTTON_LEFT,
            });
        self.client.perform_actions(mouse).await.expect("a drag");
        self.wait("the dragged step", &format!("S.stage.length > {n}"))
            .await;
        assert_eq!(self.js("S.stage[S.stage.length - 1]").await, json!(step));
        step
    }

    /// Plays the game to its end by clicking, with `dice` typed first.
    /// Before each action, a screenshot is taken the first time each of
    /// `shots`' conditions holds; once, at the first chain stage after
    /// another, the person undoes back across the stage boundary (when
    /// `undo_across`). Returns every view of the game seen on the way.
    async fn play_to_the_end(
        &self,
        dice: &str,
        shots: &[(&str, &str, bool)],
        mut undo_across: bool,
    ) -> Vec<Value> {
        let rolls_before = self.js(ROLLS_MADE).await.as_u64().unwrap();
        self.type_into("#dice-input", dice).await;
        let mut taken = vec![false; shots.len()];
        let mut views = Vec::new();
        let mut turns = 0;
        loop {
            self.wait(
                "the person's turn",
                "['roll', 'move', 'done', 'over'].includes(S.phase)",
            )
            .await;
            let view = self
                .js(
                    "({ phase: S.phase, pending: S.show.pending, tomove: S.show.tomove, \
                      stage: S.stage.length, bounds: S.bounds.length, \
                      stageText: document.getElementById('f-stage').textContent, \
                      escalation: document.getElementById('f-escalation').textContent, \
                      turn: document.getElementById('f-turn').textContent, \
                      legal0: S.legal[0] ? S.legal[0].steps : null, \
                      bar: S.board.bar.w, result: S.show.result || null })",
                )
                .await;
            views.push(view.clone());
            for (i, (cond, file, board_only)) in shots.iter().enumerate() {
                if !taken[i] && self.js(cond).await.as_bool() == Some(true) {
                    taken[i] = true;
                    self.screenshot(file, *board_only).await;
                }
            }
            match view["phase"].as_str().unwrap() {
                "over" => {
                    for (i, (cond, file, _)) in shots.iter().enumerate() {
                        assert!(taken[i], "{}: never saw {cond} for {file}", self.name);
                    }
                    // Every roll was a typed one, none random: the game is
                    // the same on every run.
                    let rolls = self.js(ROLLS_MADE).await.as_u64().unwrap();
                    assert!(
                        rolls <= rolls_before + dice.split_whitespace().count() as u64,
                        "{}: {rolls} rolls, more than the dice typed",
                        self.name
                    );
                    return views;
                }
                "roll" => {
                    turns += 1;
                    assert!(turns < 400, "{}: the game does not end", self.name);
                    self.roll().await;
                }
                "move" if undo_across && view["stage"] == 0 && view["bounds"] != 0 => {
                    // Back into the stage before: all its steps but the last.
                    undo_across = false;
                    let n = self.js("S.moves.length").await;
                    self.click_css("#undo").await;
                    self.wait(
                        "the undo across the stage",
                        &format!("S.moves.length < {n} && S.phase === 'move' && S.stage.length === S.playable - 1"),
                    )
                    .await;
                }
                "move" => {
                    self.click_step().await;
                }
                "done" => {
                    self.end_turn().await;
                }
                other => panic!("{}: unexpected phase {other}", self.name),
            }
        }
    }

    /// Rolls (the next typed dice) and waits for the roll to be taken.
    async fn roll(&self) {
        let n = self.js("S.moves.length").await;
        self.click_css("#roll").await;
        self.wait("the roll is taken", &format!("S.moves.length > {n}"))
            .await;
    }

    /// Ends the person's turn and waits for the engine's: its turn begun,
    /// the game over, or its double offered.
    async fn end_turn(&self) {
        let n = self.js("S.turns.length").await;
        self.click_css("#done").await;
        self.wait(
            "the engine's turn",
            &format!("S.turns.length > {n} || ['over', 'cube'].includes(S.phase)"),
        )
        .await;
    }

    /// `record` replays with `gulbara replay` (written as `game.txt` in a
    /// folder of its own, named by `tag`).
    fn replays(&self, record: &str, tag: &str) {
        let dir = scratch_dir(&format!("record-{}-{tag}", self.name));
        let file = dir.join("game.txt");
        std::fs::write(&file, record).unwrap();
        let out = Command::new(bin())
            .arg("replay")
            .arg(&file)
            .output()
            .expect("run gulbara replay");
        assert!(
            out.status.success(),
            "{}: replay failed: {}\n{record}",
            self.name,
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// The record the page shows replays with `gulbara replay`, and the
    /// download button saves the same text.
    async fn check_record(&self, winner: &str) {
        let record = self
            .js("document.getElementById('record').textContent")
            .await;
        let record = record.as_str().unwrap().to_string();
        assert!(
            record.contains(&format!("({winner})")),
            "{}: the record names the winner: {record}",
            self.name
        );
        self.replays(&record, "end");
        self.click_css("#download").await;
        let saved = self.downloads.join(format!("gulbara-{}.txt", self.name));
        let start = Instant::now();
        while std::fs::read_to_string(&saved).ok().as_deref() != Some(record.as_str()) {
            assert!(
                start.elapsed() < GUARD,
                "{}: nothing downloaded to {}",
                self.name,
                saved.display()
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    async fn no_errors(&self) {
        let errors = self.js("window.gulbara.errors()").await;
        assert_eq!(errors, json!([]), "{}: errors on the page", self.name);
    }

    /// Presses and releases a key wherever the focus is.
    async fn press(&self, key: char) {
        let keys = KeyActions::new("keyboard".into())
            .then(KeyAction::Down { value: key })
            .then(KeyAction::Up { value: key });
        self.client
            .perform_actions(keys)
            .await
            .expect("a key press");
    }

    /// Resizes the window (a phone-sized one for the narrow layout).
    async fn resize(&self, width: u32, height: u32) {
        self.client
            .set_window_size(width, height)
            .await
            .expect("resize the window");
    }

    async fn close(self) {
        let _ = self.client.close().await;
    }

    /// The end of a test: no errors reached the page's console, and the
    /// browser is closed.
    async fn finish(self) {
        self.no_errors().await;
        self.close().await;
    }
}

/// The rolls made so far in the page's game (its roll tokens).
const ROLLS_MADE: &str = "S.moves.filter((t) => /^[1-6][1-6]$/.test(t)).length";

/// Gul bara rolls (White's, then Black's, ...): White's 7th roll, 1-1, is
/// past the three exempt rolls and escalates; later the person plays
/// remainders of the engine's broken chains.
const GULBARA_DICE: &str = "52 45 64 65 36 46 11 23 62 36 12 13 24 22 22 35 63 56 41 33 21 65 44 42 62 14 64 23 52 21 16 11 44 53";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromium-driver (apt-get install -y chromium chromium-driver); run with --include-ignored"]
async fn a_whole_gul_bara_game_with_a_chain_and_a_remainder() {
    // The engine plays a fixed network (the one shipped until the 128-hidden
    // one replaced it), so the game these dice make does not change when
    // the shipped network is retrained.
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let page = Page::open_with("gulbara", &["--weights-dir", fixtures.to_str().unwrap()]).await;
    let answer = page
        .js("window.gulbara.command('set engine.weights gulbara-64h-layout1.gbnn')")
        .await;
    assert_eq!(answer, json!([]), "the fixed network loads");
    page.set_option("engine.ply", "1").await;
    assert!(
        page.text("f-escalation")
            .await
            .contains("next doublet escalates: White no")
    );
    page.screenshot("gulbara-start.png", false).await;

    // A first turn by hand: a step, its undo, a hint.
    page.type_into("#dice-input", "52").await;
    page.click_css("#roll").await;
    page.wait("the first move", "S.phase === 'move'").await;
    assert_eq!(page.text("f-stage").await, "5-2");
    page.click_css("#hint").await;
    page.wait("hints", "document.querySelectorAll('#hints li').length > 0")
        .await;
    let hint = page.text("hints").await;
    assert!(hint.contains("24/"), "{hint}");
    let first = page.click_step().await;
    assert_eq!(page.js("S.stage").await, json!([first]));
    page.click_css("#undo").await;
    page.wait("the undo", "S.stage.length === 0 && S.board.pts[24] === 15")
        .await;
    page.wait(
        "the evaluation",
        "document.getElementById('evaltext').textContent.includes('White wins')",
    )
    .await;

    // The rest of the game (the first roll is taken already).
    let dice = GULBARA_DICE.strip_prefix("52 ").unwrap();
    let views = page
        .play_to_the_end(
            dice,
            &[
                (
                    "S.phase === 'move' && S.show.pending.kind === 'chain' && S.stage.length === 2",
                    "gulbara-chain.png",
                    false,
                ),
                (
                    "S.phase === 'move' && S.show.pending.kind === 'remainder'",
                    "gulbara-remainder.png",
                    false,
                ),
            ],
            true,
        )
        .await;
    let end = views.last().unwrap().clone();
    let mut chain_stages = 0;
    let mut remainder_stages = 0;
    for v in &views {
        if v["phase"] == "move" && v["pending"]["kind"] == "chain" && v["stage"] == 0 {
            chain_stages += 1;
            assert!(
                v["stageText"]
                    .as_str()
                    .unwrap()
                    .contains("of an escalating chain"),
                "{v}"
            );
            assert!(
                v["escalation"]
                    .as_str()
                    .unwrap()
                    .contains("a chain is being played")
            );
        }
        if v["phase"] == "move" && v["pending"]["kind"] == "remainder" && v["stage"] == 0 {
            remainder_stages += 1;
            assert!(
                v["stageText"].as_str().unwrap().starts_with("remainder: "),
                "{v}"
            );
            assert!(v["escalation"].as_str().unwrap().contains("pending"), "{v}");
            assert_eq!(v["turn"], "White (you)");
        }
    }
    assert!(
        chain_stages >= 2,
        "the person played a chain stage by stage: {chain_stages}"
    );
    assert!(remainder_stages >= 1, "the person played a remainder");
    assert_eq!(end["result"]["winner"], "b", "{end}");
    // The end says what kind of win it was, and the session's score.
    let status = page.text("status").await;
    assert!(
        status.contains("The engine wins a mars: 2 points.")
            && status.contains("Session: you 0, the engine 2 after 1 game."),
        "{status}"
    );
    page.screenshot("gulbara-end.png", false).await;
    page.check_record("Black").await;
    page.finish().await;
}

/// Long nardy rolls, both sides', in order (the person plays the first
/// legal play each time, so the game is long).
const LONG_NARDY_DICE: &str = "33 66 26 26 22 66 22 15 26 31 42 65 13 21 34 64 23 32 45 54 63 46 36 13 56 36 45 56 24 66 45 23 22 53 33 43 53 42 54 52 52 26 32 14 66 44 16 41 22 46 46 32 64 63 32 66 35 66 26 52 64 25 15 65 13 56 53 23 22 65 12 21 46 55 56 14 36 15 12 31 43 35 56 14";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromium-driver (apt-get install -y chromium chromium-driver); run with --include-ignored"]
async fn a_whole_long_nardy_game_with_the_keyboard_too() {
    let page = Page::open("long_nardy").await;
    page.baseline_game("long_nardy").await;
    assert_eq!(page.text("f-variant").await, "Long nardy");
    assert!(page.text("f-escalation").await.contains("do not escalate"));
    // The head rule's option is offered; Gul bara's are not.
    assert_eq!(
        page.js("!!document.getElementById('opt-rules.head_first_turn')")
            .await,
        json!(true)
    );
    assert_eq!(
        page.js("!!document.getElementById('opt-rules.exempt_rolls')")
            .await,
        json!(false)
    );
    // The first turn from the keyboard: `r` rolls, Enter on a point picks
    // it and Enter on the destination moves there.
    let (first, rest) = LONG_NARDY_DICE.split_once(' ').unwrap();
    page.type_into("#dice-input", first).await;
    // A click on the title takes the focus out of the dice box.
    page.click_css("header h1").await;
    page.press('r').await;
    page.wait("the keyboard roll", "S.phase === 'move'").await;
    let step = page.js("S.legal[0].norm[0]").await;
    let (from, to) = step.as_str().unwrap().split_once('/').unwrap();
    for key in [from, to] {
        page.client
            .find(Locator::Css(&format!("[data-point=\"{key}\"]")))
            .await
            .unwrap()
            .send_keys("\u{E007}")
            .await
            .unwrap();
        page.wait(
            "the key is taken",
            &format!("S.selected === '{key}' || S.stage.length > 0 || S.moves.length > 1"),
        )
        .await;
    }
    page.wait(
        "the keyboard step",
        "S.stage.length === 1 || S.moves.length > 1",
    )
    .await;
    let views = page
        .play_to_the_end(
            rest,
            &[(
                "S.phase === 'move' && S.moves.length > 30",
                "long-nardy.png",
                false,
            )],
            false,
        )
        .await;
    let end = views.last().unwrap();
    assert!(end["result"]["winner"].is_string(), "{end}");
    let winner = if end["result"]["winner"] == "w" {
        "White"
    } else {
        "Black"
    };
    page.check_record(winner).await;
    // New game: the start position again, an empty move list.
    page.click_css("#newgame").await;
    page.wait(
        "the new game",
        "S.phase === 'roll' && S.moves.length === 0 && S.board.pts[24] === 15 && S.board.pts[12] === -15 \
         && document.querySelectorAll('#moves li').length === 0",
    )
    .await;
    page.finish().await;
}

/// Backgammon rolls, both sides', in order: the person hits twice and
/// enters from the bar several times.
const BACKGAMMON_DICE: &str = "33 66 26 26 22 66 22 15 26 31 42 65 13 21 34 64 23 32 45 54 63 46 36 13 56 36 45 56 24 66 45 23 22 53 33 43 53 42 54 52 52 26 32 14";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromium-driver (apt-get install -y chromium chromium-driver); run with --include-ignored"]
async fn a_whole_backgammon_game_with_a_hit_and_an_entry_from_the_bar() {
    let page = Page::open("backgammon").await;
    page.baseline_game("backgammon").await;
    // Checker play only: money play without the cube.
    page.choose_session("money", 0, "off").await;
    // The start position: 2 on 24, 5 on 13, 3 on 8, 5 on 6 for each side.
    assert_eq!(
        page.js("[24, 13, 8, 6].map((p) => S.board.pts[p]).join(',') + ' ' + [1, 12, 17, 19].map((p) => S.board.pts[p]).join(',')").await,
        json!("2,5,3,5 -2,-5,-3,-5")
    );
    // The first step by dragging a checker.
    let (first, rest) = BACKGAMMON_DICE.split_once(' ').unwrap();
    page.type_into("#dice-input", first).await;
    page.click_css("#roll").await;
    page.wait("the first move", "S.phase === 'move'").await;
    assert_eq!(page.drag_step().await, "13/10");
    let views = page
        .play_to_the_end(
            rest,
            &[
                (
                    "S.phase === 'move' && S.board.bar.b > 0 && S.stage.length > 0",
                    "backgammon-hit.png",
                    true,
                ),
                (
                    "S.phase === 'move' && S.board.bar.w > 0",
                    "backgammon-bar.png",
                    false,
                ),
            ],
            false,
        )
        .await;
    // The person's plays: a hit (`*`) and an entry (`bar/`).
    let plays: Vec<String> = views
        .iter()
        .filter(|v| v["phase"] == "move" && v["stage"] == 0)
        .filter_map(|v| v["legal0"].as_array())
        .map(|p| {
            p.iter()
                .map(|s| s.as_str().unwrap())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    assert!(plays.iter().any(|p| p.contains('*')), "a hit: {plays:?}");
    assert!(
        plays.iter().any(|p| p.starts_with("bar/")),
        "an entry: {plays:?}"
    );
    let end = views.last().unwrap();
    assert_eq!(end["result"]["winner"], "b", "{end}");
    page.check_record("Black").await;
    // The narrow (phone) layout: the board above the panel, still whole.
    page.resize(390, 844).await;
    page.wait(
        "the narrow layout",
        "document.getElementById('board').getBoundingClientRect().width <= 390",
    )
    .await;
    page.screenshot("narrow.png", false).await;
    page.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromium-driver (apt-get install -y chromium chromium-driver); run with --include-ignored"]
async fn a_closed_connection_is_told_and_taken_up_again() {
    // The server closes an idle session; the page says so and offers to reconnect.
    let page = Page::open_with("reconnect", &["--idle-timeout", "4"]).await;
    page.wait(
        "the close",
        "!document.getElementById('reconnect').hidden && S.phase === 'idle'",
    )
    .await;
    assert!(
        page.text("status")
            .await
            .contains("connection to the engine closed")
    );
    assert_eq!(page.text("conn").await, "disconnected");
    page.click_css("#reconnect").await;
    page.wait(
        "the new session",
        "S.phase === 'roll' && document.getElementById('reconnect').hidden",
    )
    .await;
    assert!(page.text("conn").await.starts_with("connected to gulbara"));
    // The new session plays.
    page.type_into("#dice-input", "65").await;
    page.click_css("#roll").await;
    page.wait("a move", "S.phase === 'move' && S.legal.length === 2")
        .await;
    page.finish().await;
}

/// Short nardy rolls, both sides', in order (hits and entries too).
const SHORT_NARDY_DICE: &str = "25 13 14 44 64 21 41 44 51 64 36 25 13 11 16 51 46 24 61 52 44 52 32 62 43 14 56 12 66 31 63 66 54 56 23 35 45 45 14 26 44 62 35 66 63 14 65 12";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromium-driver (apt-get install -y chromium chromium-driver); run with --include-ignored"]
async fn a_whole_short_nardy_game() {
    let page = Page::open("short_nardy").await;
    page.baseline_game("short_nardy").await;
    assert_eq!(page.text("f-variant").await, "Short nardy");
    let views = page.play_to_the_end(SHORT_NARDY_DICE, &[], false).await;
    let end = views.last().unwrap();
    assert_eq!(end["result"]["winner"], "b", "{end}");
    assert!(
        views.iter().any(|v| v["bar"].as_u64() > Some(0)),
        "the person had a checker on the bar"
    );
    page.check_record("Black").await;
    page.finish().await;
}

/// The dice of the cube match: both sides' rolls in turn, game after game.
const CUBE_MATCH_DICE: &str = "31 66 21 55 43 66 21 64 32 55 41 66 21 44 31 65 42 66 21 55 \
    32 64 41 66 21 55 43 66 21 64 32 55 41 66 21 44 31 65 42 66 21 55 32 64 41 66 21 55 \
    43 66 21 64 32 55 41 66 21 44 31 65 42 66 21 55 32 64 41 66 21 55 43 66 21 64 32 55 \
    41 66 21 44 31 65 42 66 21 55 32 64 41 66 21 55 43 66 21 64 32 55 41 66 21 44 31 65 \
    42 66 21 55 32 64 41 66 21 55 43 66 21 64 32 55 41 66 21 44 31 65 42 66 21 55 32 64 \
    41 66 21 55 43 66 21 64 32 55 41 66 21 44 31 65 42 66 21 55 32 64 41 66 21 55 43 66";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromium-driver (apt-get install -y chromium chromium-driver); run with --include-ignored"]
async fn a_backgammon_match_with_a_double_a_take_and_a_drop() {
    let page = Page::open("cube").await;
    page.baseline_game("backgammon").await;
    // A match to 5 points with the cube, chosen in the settings.
    page.choose_session("match", 5, "on").await;
    let session = "window.gulbara.session()";
    let shown = page.text("f-match").await;
    assert!(
        shown.starts_with("match to 5: you 0, the engine 0"),
        "{shown}"
    );
    page.type_into("#dice-input", CUBE_MATCH_DICE).await;
    let mut events: Vec<String> = Vec::new();
    let mut engine_doubles = 0;
    let mut doubled_this_game = false;
    let mut steps = 0;
    loop {
        steps += 1;
        assert!(steps < 3000, "the match does not end: {events:?}");
        page.wait(
            "the person's turn",
            "['roll', 'move', 'done', 'over', 'cube'].includes(S.phase)",
        )
        .await;
        let phase = page.js("S.phase").await;
        match phase.as_str().unwrap() {
            "roll" => {
                // No doubling in the Crawford game.
                if page.text("f-match").await.contains("Crawford game") {
                    assert_eq!(
                        page.js("document.getElementById('double').disabled").await,
                        json!(true)
                    );
                }
                let rolled = page
                    .js("S.turns.filter((t) => t.side === 'w' && !t.cube).length")
                    .await;
                let can = page.js("!document.getElementById('double').disabled").await;
                if can == json!(true) && !doubled_this_game && rolled.as_u64().unwrap() >= 1 {
                    doubled_this_game = true;
                    page.double().await;
                    let label = page.js("S.turns.filter((t) => t.cube).pop().label").await;
                    events.push(format!("you {}", label.as_str().unwrap()));
                    eprintln!("cube event: {}", events.last().unwrap());
                    continue;
                }
                page.roll().await;
            }
            "cube" => {
                engine_doubles += 1;
                if engine_doubles == 1 {
                    page.screenshot("cube-offered.png", false).await;
                }
                // The engine's double shows on the board as the cube offered.
                let offered = page.js("S.offer").await;
                assert_eq!(
                    page.js("document.querySelector('.cube.offered text').textContent")
                        .await,
                    json!(offered.to_string())
                );
                let word = if engine_doubles % 2 == 1 {
                    "drop"
                } else {
                    "take"
                };
                events.push(format!("engine double={offered}:{word}"));
                eprintln!("cube event: {}", events.last().unwrap());
                let n = page.js("S.turns.length").await;
                page.click_css(&format!("#{word}")).await;
                page.wait("the answer is taken", &format!("S.turns.length > {n}"))
                    .await;
            }
            "move" => {
                page.click_step().await;
            }
            "done" => {
                page.end_turn().await;
            }
            "over" => {
                let scored = page.js("S.scored").await;
                let score = page.js(&format!("{session}.score")).await;
                events.push(format!("game over {scored} score {score}"));
                eprintln!("cube event: {}", events.last().unwrap());
                // Each game's record, cube actions and score included, replays.
                let record = page
                    .js("document.getElementById('record').textContent")
                    .await;
                let record = record.as_str().unwrap().to_string();
                assert!(
                    record.contains("[Session \"match 5 cube on crawford on\"]"),
                    "{record}"
                );
                page.replays(&record, &format!("game-{}", events.len()));
                if page.js(&format!("{session}.winner")).await != json!(null) {
                    break;
                }
                doubled_this_game = false;
                page.click_css("#newgame").await;
                page.wait(
                    "the next game of the match",
                    "S.phase === 'roll' && S.moves.length === 0",
                )
                .await;
            }
            other => panic!("unexpected phase {other}"),
        }
    }
    // The match as the dice make it against the baseline: the person's
    // double taken, the engine's redouble dropped (2 points); again, and
    // this time the person takes the redouble and wins 4; the Crawford game
    // without the cube, the engine's backgammon ending the match 5-4.
    assert_eq!(
        events,
        [
            "you double=2:take",
            "engine double=4:drop",
            r#"game over {"points":2,"winner":"b"} score {"b":2,"w":0}"#,
            "you double=2:take",
            "engine double=4:take",
            r#"game over {"points":4,"winner":"w"} score {"b":2,"w":4}"#,
            r#"game over {"points":3,"winner":"b"} score {"b":5,"w":4}"#,
        ]
    );
    let status = page.text("status").await;
    assert!(status.contains("The engine wins the match 5-4"), "{status}");
    page.finish().await;
}

/// A rotating match (issue 29): Greek tavli to 7 points, chosen in the
/// settings. Its games come in turn, Portes, Plakoto, Fevga and round again,
/// each with its own board, rules and record, the score kept across them;
/// the engine's `show` says which game of the rotation is in play. The
/// winner of each game starts the next, with no opening throw.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromium-driver (apt-get install -y chromium chromium-driver); run with --include-ignored"]
async fn a_tavli_match_rotates_portes_plakoto_and_fevga() {
    // `keepalive=150`: the page's keep-alive `isready` every 150 ms instead
    // of 45 s, so that it falls between the page's own requests (it once
    // ended the next request's answer early).
    let query = "anim=0&seed=29&start=you&keepalive=150";
    let page = Page::open_at("tavli", &[], query).await;
    page.set_option("engine.ply", "1").await;
    page.choose_session("match", 7, "off").await;
    page.client
        .find(Locator::Id("rotation"))
        .await
        .expect("the rotation setting")
        .select_by_value("portes,plakoto,fevga")
        .await
        .expect("choose Greek tavli");
    page.wait(
        "the match's first game",
        "S.variant === 'portes' && S.phase === 'roll' && S.moves.length === 0",
    )
    .await;
    let rotation = ["portes", "plakoto", "fevga"];
    let names = ["Portes", "Plakoto", "Fevga"];
    let session = "window.gulbara.session()";
    let mut games: Vec<String> = Vec::new();
    let mut steps = 0;
    // The last game's winner, 'w' or 'b' (none after a draw).
    let mut last_winner: Option<String> = None;
    let (mut rolls, mut reloaded) = (0, false);
    loop {
        steps += 1;
        assert!(steps < 6000, "the match does not end: {games:?}");
        page.wait(
            "the person's turn",
            "['roll', 'move', 'done', 'over'].includes(S.phase)",
        )
        .await;
        match page.js("S.phase").await.as_str().unwrap() {
            "roll" => {
                rolls += 1;
                // A reload in the second game takes the match up again at
                // that game of the rotation.
                if games.len() == 1 && rolls > 3 && !reloaded {
                    reloaded = true;
                    page.reload_keeps_the_game(query).await;
                    assert_eq!(page.js("S.variant").await, json!("plakoto"));
                    assert_eq!(
                        page.js(&format!(
                            "{session}.rotation.join(',') + ' ' + {session}.game"
                        ))
                        .await,
                        json!("portes,plakoto,fevga 1")
                    );
                    assert_eq!(
                        page.js("document.getElementById('rotation').value").await,
                        json!("portes,plakoto,fevga")
                    );
                }
                page.roll().await;
            }
            "move" => {
                page.click_step().await;
            }
            "done" => page.end_turn().await,
            "over" => {
                let k = games.len();
                let variant = rotation[k % 3];
                assert_eq!(page.js("S.variant").await, json!(variant), "game {}", k + 1);
                let shown = page.text("f-match").await;
                assert!(
                    shown.contains(&format!("game {}, {}", k + 1, names[k % 3])),
                    "{shown}"
                );
                // The engine is at the same game of the rotation.
                let said = page
                    .js("window.gulbara.log().filter((l) => l.includes('rotation portes,plakoto,fevga game')).pop()")
                    .await;
                assert!(
                    said.as_str()
                        .unwrap_or_default()
                        .ends_with(&format!("rotation portes,plakoto,fevga game {}", k + 1)),
                    "{said}"
                );
                let record = page
                    .js("document.getElementById('record').textContent")
                    .await;
                let record = record.as_str().unwrap().to_string();
                assert!(
                    record.contains(&format!("[Variant \"{variant}\"]"))
                        && record.contains(&format!(
                            "a rotating match (portes,plakoto,fevga), game {}",
                            k + 1
                        )),
                    "{record}"
                );
                page.replays(&record, &format!("game-{}", k + 1));
                // The first game: the person starts (`start=you`); each
                // later one: the last game's winner, with no throw.
                let starter = page.js("S.starter").await;
                match &last_winner {
                    Some(w) if k > 0 => {
                        assert_eq!(starter, json!(w), "game {}", k + 1);
                        let side = if w == "w" { "White" } else { "Black" };
                        assert!(
                            record.contains(&format!(" Opening winner starter {side}\n")),
                            "{record}"
                        );
                    }
                    _ => assert!(!record.contains(" Opening winner"), "{record}"),
                }
                last_winner = page
                    .js("S.scored ? S.scored.winner : null")
                    .await
                    .as_str()
                    .map(str::to_string);
                let score = page.js(&format!("{session}.score")).await;
                games.push(format!("{variant} {score}"));
                eprintln!("tavli: {}", games.last().unwrap());
                if page.js(&format!("{session}.winner")).await != json!(null) {
                    break;
                }
                page.click_css("#newgame").await;
                let next = rotation[(k + 1) % 3];
                // Started by the winner: the engine may be playing already.
                page.wait(
                    "the rotation's next game",
                    &format!(
                        "S.variant === '{next}' && S.starter === '{}' && S.opening === null",
                        last_winner.as_deref().unwrap_or("w")
                    ),
                )
                .await;
                // Its own rules: the settings show the next game's.
                assert_eq!(
                    page.js("document.getElementById('variant').value").await,
                    json!(next)
                );
            }
            other => panic!("unexpected phase {other}"),
        }
    }
    // A match to 7 needs at least four games (two points at most a game):
    // the rotation comes round to Portes again.
    assert!(games.len() >= 4 && reloaded, "{games:?}");
    let status = page.text("status").await;
    assert!(status.contains("the match"), "{status}");
    page.finish().await;
}

/// Opens a backgammon money game without the cube against the baseline, and
/// rolls `dice` for the person.
async fn backgammon_roll(name: &'static str, dice: &str) -> Page {
    let page = Page::open(name).await;
    page.baseline_game("backgammon").await;
    page.choose_session("money", 0, "off").await;
    page.type_into("#dice-input", dice).await;
    page.click_css("#roll").await;
    page.wait("the person's move", "S.phase === 'move'").await;
    page
}

/// Issue 30, bug 3: roll 6-1 and play the 1: the 1 greys out, not the 6.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromium-driver (apt-get install -y chromium chromium-driver); run with --include-ignored"]
async fn the_die_played_is_the_die_that_greys() {
    let page = backgammon_roll("die-greys", "61").await;
    let dice = "[...document.querySelectorAll('g.die')].map((g) => g.dataset.die + (g.classList.contains('used') ? '*' : '')).join(' ')";
    assert_eq!(page.js(dice).await, json!("6 1"));
    page.click_point("6").await;
    page.wait("the checker is picked", "S.selected === '6'")
        .await;
    page.click_point("5").await;
    page.wait("the step is taken", "S.stage.length === 1").await;
    assert_eq!(page.js(dice).await, json!("6 1*"));
    page.finish().await;
}

/// Issue 30, bug 2: after a turn played with the mouse, Enter ends it
/// (the focus is on the last point clicked).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromium-driver (apt-get install -y chromium chromium-driver); run with --include-ignored"]
async fn enter_ends_a_turn_played_with_the_mouse() {
    let page = backgammon_roll("enter-ends", "61").await;
    page.click_move("13", "7").await;
    page.click_move("8", "7").await;
    page.wait("the turn is whole", "S.phase === 'done'").await;
    assert_eq!(
        page.js("document.activeElement?.closest?.('[data-point]')?.dataset.point ?? null")
            .await,
        json!("7"),
        "the focus is on the last point clicked"
    );
    let turns = page.js("S.turns.length").await;
    page.press('\u{E007}').await;
    page.wait(
        "Enter ends the turn",
        &format!("S.turns.length > {turns} || S.phase === 'roll'"),
    )
    .await;
    page.finish().await;
}

/// Issue 30, bug 9: a bad token in the dice list is skipped with a word,
/// and the rest of the list is kept (it was all thrown away before, and the
/// engine rolled at random without a word).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromium-driver (apt-get install -y chromium chromium-driver); run with --include-ignored"]
async fn a_bad_token_in_the_dice_list_is_skipped_and_said() {
    let page = backgammon_roll("bad-dice-token", "61 7x 52 31").await;
    page.click_move("13", "7").await;
    page.click_move("8", "7").await;
    page.wait("the turn is whole", "S.phase === 'done'").await;
    page.end_turn().await;
    page.wait("the person's next roll", "S.phase === 'roll'")
        .await;
    // The engine rolled the next good token, 5-2; 3-1 is still to come.
    assert_eq!(page.js("S.turns[1].label").await, json!("52"));
    assert_eq!(
        page.js("document.getElementById('dice-input').value").await,
        json!("31")
    );
    let status = page.text("status").await;
    assert!(status.contains("bad dice '7x'"), "{status}");
    page.finish().await;
}

/// Issue 30, bug 4: a roll with no legal play (here a checker on the bar
/// against the engine's points) is said, not passed without a word. The
/// dice are a game against the baseline at 0-ply, the person playing each
/// turn's first legal play: 2-5, the engine's 1-3, 1-4, the engine's 4-4
/// hitting, then 6-4 enters nowhere.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromium-driver (apt-get install -y chromium chromium-driver); run with --include-ignored"]
async fn a_roll_with_no_legal_play_is_said() {
    let page = backgammon_roll("no-legal-play", "25 13 14 44 64 31").await;
    for turn in 0..2 {
        if turn > 0 {
            page.roll().await;
            page.wait("the person's move", "S.phase === 'move'").await;
        }
        while page.js("S.phase").await == json!("move") {
            page.click_step().await;
        }
        page.end_turn().await;
        page.wait("the person's roll", "S.phase === 'roll'").await;
    }
    assert_eq!(page.js("S.board.bar.w").await, json!(1), "the engine hit");
    page.roll().await;
    page.wait(
        "the person's next roll, after the engine's turn",
        "S.phase === 'roll' && S.turns.length === 6",
    )
    .await;
    let status = page.text("status").await;
    assert!(
        status.contains("You rolled 6-4 and could not move."),
        "{status}"
    );
    page.finish().await;
}

/// Issue 30, bug 5: a record taken in the middle of a turn replays (the
/// turn under way was written as `pass`, which `gulbara replay` refuses).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromium-driver (apt-get install -y chromium chromium-driver); run with --include-ignored"]
async fn a_record_taken_in_the_middle_of_a_turn_replays() {
    let page = backgammon_roll("record-mid-turn", "61 52 31").await;
    let record = "document.getElementById('record').textContent";
    // Before any step, then after one of the two.
    for steps in 0..2 {
        if steps == 1 {
            page.click_step().await;
        }
        let r = page.js(record).await.as_str().unwrap().to_string();
        page.replays(&r, &format!("mid-first-turn-{steps}"));
    }
    page.click_step().await;
    page.end_turn().await;
    page.wait("the person's roll", "S.phase === 'roll'").await;
    page.roll().await;
    page.wait("the person's move", "S.phase === 'move'").await;
    page.click_step().await;
    let r = page.js(record).await.as_str().unwrap().to_string();
    // The whole turns are there; the one under way (3-1) is not.
    assert!(r.contains("1) 61: ") && r.contains(" 52: "), "{r}");
    assert!(!r.contains("31:"), "{r}");
    page.replays(&r, "mid-second-turn");
    page.finish().await;
}

/// Issue 30, bug 8: after the person's roll the evaluation bar judges the
/// roll (the position after its best play), as the top hint does.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromium-driver (apt-get install -y chromium chromium-driver); run with --include-ignored"]
async fn the_evaluation_after_a_roll_agrees_with_the_top_hint() {
    let page = backgammon_roll("eval-after-roll", "61").await;
    page.click_css("#hint").await;
    page.wait("the hints", "S.hints && S.hints.length > 0")
        .await;
    let hint = page.js("Number(S.hints[0].equity)").await.as_f64().unwrap();
    let shown =
        "Number(document.getElementById('evaltext').textContent.match(/equity ([-+0-9.]+)/)?.[1])";
    page.wait(
        "the bar judges the roll",
        &format!("Math.abs({shown} - {hint}) < 0.0015"),
    )
    .await;
    page.finish().await;
}

/// Issue 30, bug 1: New game pressed while the engine is still moving
/// starts a clean game; the engine's unfinished turn is dropped, never
/// played onto the new board (which showed 16 checkers a side, and the
/// next roll failed).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromium-driver (apt-get install -y chromium chromium-driver); run with --include-ignored"]
async fn new_game_while_the_engine_moves_starts_clean() {
    let page = backgammon_roll("new-game-mid-turn", "61 52").await;
    // Slow steps: the engine's turn lasts long enough to be cut.
    page.reload_slow().await;
    page.baseline_game("backgammon").await;
    page.choose_session("money", 0, "off").await;
    page.type_into("#dice-input", "61 52 31").await;
    page.click_css("#roll").await;
    page.wait("the person's move", "S.phase === 'move'").await;
    while page.js("S.phase").await == json!("move") {
        page.click_step().await;
    }
    page.click_css("#done").await;
    page.wait("the engine moves", "S.phase === 'engine'").await;
    page.click_css("#newgame").await;
    // A game in progress: the board asks first.
    page.wait("the question", "!document.getElementById('confirm').hidden")
        .await;
    page.click_css("#confirm-yes").await;
    page.wait("the new game", "S.phase === 'roll' && S.moves.length === 0")
        .await;
    page.click_css("#roll").await;
    page.wait("the person's move in the new game", "S.phase === 'move'")
        .await;
    // Whatever the old turn was doing has ended by now (its steps take
    // 400 ms each): the new game holds only its first roll.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(page.js("S.moves.join(' ')").await, json!("31"));
    assert_eq!(page.js("S.turns.length").await, json!(1));
    let count = "[...S.board.pts].reduce((a, n) => a + (n > 0 ? n : 0), 0) + S.board.bar.w";
    assert_eq!(page.js(count).await, json!(15));
    let status = page.text("status").await;
    assert!(!status.contains("Error"), "{status}");
    page.finish().await;
}

/// Issue 30, bug 7: while the engine plays a chain, the dice and the
/// status show the stage it is playing (they showed the first stage's dice
/// and "The engine is thinking…" all through). Gul bara against the
/// baseline: the person's fourth roll, 1-1, escalates and breaks in the
/// 3s, and the engine plays the remainder, two 3s, then its 4s, 5s and 6s.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromium-driver (apt-get install -y chromium chromium-driver); run with --include-ignored"]
async fn the_engines_chain_shows_the_stage_it_plays() {
    let page = Page::open("engine-chain").await;
    // Slow steps, to look at the chain while it is played.
    page.reload_slow().await;
    page.baseline_game("gulbara").await;
    page.type_into("#dice-input", "52 45 64 65 36 46 11 23")
        .await;
    for turn in 0..4 {
        page.roll().await;
        page.wait("the person's move", "S.phase === 'move'").await;
        while page.js("S.phase").await == json!("move") {
            page.click_step().await;
        }
        if turn < 3 {
            page.end_turn().await;
            page.wait("the person's roll", "S.phase === 'roll'").await;
        }
    }
    page.click_css("#done").await;
    let dice = "[...document.querySelectorAll('g.die')].map((g) => g.dataset.die).join('')";
    // The dice and the status, read at once.
    page.wait(
        "the engine's 5s shown while it plays them",
        &format!(
            "S.phase === 'engine' && {dice} === '5555' && document.getElementById('status').textContent.includes('The engine plays its chain: 4 5s.')"
        ),
    )
    .await;
    page.wait("the person's roll", "S.phase === 'roll'").await;
    page.finish().await;
}

/// Issue 30, bug 6: the steps of a play can be taken in either order of
/// the dice. Long nardy's opening 6-3 from the head: 24 offers 21 as well
/// as 18 and 15, and 24/21 21/15 is played.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromium-driver (apt-get install -y chromium chromium-driver); run with --include-ignored"]
async fn a_play_can_take_its_dice_in_either_order() {
    let page = Page::open("either-order").await;
    page.baseline_game("long_nardy").await;
    page.type_into("#dice-input", "63").await;
    page.click_css("#roll").await;
    page.wait("the person's move", "S.phase === 'move'").await;
    page.click_point("24").await;
    page.wait("the checker is picked", "S.selected === '24'")
        .await;
    let dests = page
        .js("[...document.querySelectorAll('.point.dest')].map((e) => e.dataset.point).sort().join(' ')")
        .await;
    assert_eq!(dests, json!("15 18 21"));
    page.click_point("21").await;
    page.wait("the 3 is played", "S.stage.join(' ') === '24/21'")
        .await;
    page.click_point("21").await;
    page.wait("the checker is picked", "S.selected === '21'")
        .await;
    page.click_point("15").await;
    page.wait("the turn is whole", "S.phase === 'done'").await;
    assert_eq!(page.js("S.moves.join(' ')").await, json!("63 24/21 21/15"));
    page.end_turn().await;
    page.wait("the person's roll", "S.phase === 'roll'").await;
    page.finish().await;
}

/// The players' tools through a whole game (issue 30, "What players
/// expect"): the opening throw (a tie thrown again), a hint drawn on the
/// board when hovered and played by a click, both sides' last moves
/// marked, a reload that keeps the game, stepping back and forth through
/// the game read-only, the review with its equity graph (a click on it
/// shows the position), and a position loaded by `load`. The dice after
/// the opening come from the page's seeded generator (`?seed=`), so the
/// game is the same on every run.
async fn a_game_with_the_players_tools(
    variant: &'static str,
    name: &'static str,
    load: &str,
    loaded: &str,
) {
    let query = "anim=0&seed=7";
    let page = Page::open_at(name, &[], query).await;
    page.baseline_game(variant).await;
    page.wait("the opening throw", "S.phase === 'opening'")
        .await;
    // A reload before the opening throw keeps the game at its opening.
    page.client
        .goto(&format!("http://{}/?{query}", page._web.http))
        .await
        .expect("reload the board");
    page.wait(
        "the opening again after the reload",
        "window.gulbara && S.phase === 'opening' && S.moves.length === 0 \
         && document.getElementById('status').textContent.includes('Throw for the opening')",
    )
    .await;
    assert_eq!(
        page.js("S.keys.find((k) => k.name === 'engine.eval').value")
            .await,
        json!("heuristic"),
        "{name}: the settings kept"
    );
    page.type_into("#dice-input", "44 53").await;
    page.click_css("#roll").await;
    page.wait(
        "a tie thrown again",
        "S.phase === 'opening' && document.getElementById('status').textContent.includes('A tie')",
    )
    .await;
    assert_eq!(page.js("S.moves.length").await, json!(0));
    page.click_css("#roll").await;
    page.wait(
        "the opening decided",
        "S.opening !== null && ['roll', 'move'].includes(S.phase)",
    )
    .await;
    assert_eq!(page.js("S.opening").await, json!({"w": 5, "b": 3}));
    assert_eq!(page.js("S.starter").await, json!("w"));
    let single = page
        .js("S.keys.find((k) => k.name === 'rules.opening').value === 'single'")
        .await
        == json!(true);
    if single {
        // The winner plays the numbers thrown.
        assert_eq!(page.js("S.moves.join(' ')").await, json!("53"));
        assert_eq!(page.js("S.phase").await, json!("move"));
    } else {
        // The winner rolls both dice afresh.
        assert_eq!(page.js("S.moves.length").await, json!(0));
        assert_eq!(page.js("S.phase").await, json!("roll"));
    }
    let status = page.text("status").await;
    assert!(
        status.contains("Opening throw: you 5, the engine 3. You start"),
        "{status}"
    );

    let (mut hinted, mut reloaded, mut stepped, mut marked) = (false, false, false, false);
    let mut rolls = 0;
    loop {
        page.wait(
            "the person's turn",
            "['roll', 'move', 'done', 'over', 'cube'].includes(S.phase)",
        )
        .await;
        let phase = page.js("S.phase").await;
        // Both sides' last turns are marked on the board, step by step.
        if !marked
            && page
                .js("S.marks.w.length > 0 && S.marks.b.length > 0")
                .await
                == json!(true)
        {
            marked = true;
            for side in ["w", "b"] {
                let drawn = page
                    .js(&format!(
                        "document.querySelectorAll('[data-mark^=\"{side} from\"]').length === S.marks.{side}.length \
                         && document.querySelectorAll('[data-mark^=\"{side} to\"]').length === S.marks.{side}.length"
                    ))
                    .await;
                assert_eq!(drawn, json!(true), "{name}: the marks of {side}");
            }
            if variant == "backgammon" {
                page.screenshot("last-move-marks.png", true).await;
            }
        }
        match phase.as_str().unwrap() {
            "over" => break,
            "roll" => {
                rolls += 1;
                assert!(rolls < 400, "{name}: the game does not end");
                if rolls == 4 && !reloaded {
                    reloaded = true;
                    page.reload_keeps_the_game(query).await;
                    let status = page.text("status").await;
                    assert!(status.contains("Your game is back"), "{status}");
                    assert_eq!(page.js("S.variant").await, json!(variant));
                    assert_eq!(
                        page.js("document.querySelectorAll('#moves li').length === S.turns.length")
                            .await,
                        json!(true)
                    );
                }
                if rolls == 6 && !stepped {
                    stepped = true;
                    let live = page.js("document.getElementById('board').innerHTML").await;
                    let n = page.js("S.turns.length").await.as_u64().unwrap();
                    page.click_css("#hist-prev").await;
                    page.wait("one move back", &format!("S.view === {}", n - 1))
                        .await;
                    assert_ne!(
                        page.js("document.getElementById('board').innerHTML").await,
                        live
                    );
                    assert_eq!(
                        page.js("document.querySelector('#moves li.viewed').dataset.turn")
                            .await,
                        json!((n - 2).to_string())
                    );
                    // Read-only: nothing can be played while looking back.
                    assert_eq!(
                        page.js("document.getElementById('roll').disabled").await,
                        json!(true)
                    );
                    page.press('\u{E012}').await; // ArrowLeft
                    page.wait("two moves back", &format!("S.view === {}", n - 2))
                        .await;
                    page.press('\u{E014}').await; // ArrowRight
                    page.wait("one move back again", &format!("S.view === {}", n - 1))
                        .await;
                    page.click_css("#hist-live").await;
                    page.wait("back to the game", "S.view === null").await;
                    assert_eq!(
                        page.js("document.getElementById('board').innerHTML").await,
                        live
                    );
                }
                page.roll().await;
            }
            "move" if !hinted => {
                hinted = true;
                page.click_css("#hint").await;
                page.wait("the hints", "S.hints.length > 0").await;
                let first = page.js("S.hints[0]").await;
                assert!(
                    first["probs"]["win"].is_string(),
                    "{name}: the chances: {first}"
                );
                let li = page
                    .client
                    .find(Locator::Css("#hints li[data-hint=\"0\"]"))
                    .await
                    .expect("the first hint");
                let hover = MouseActions::new("mouse".into()).then(PointerAction::MoveToElement {
                    element: li.clone(),
                    duration: None,
                    x: 0.0,
                    y: 0.0,
                });
                page.client.perform_actions(hover).await.expect("hover");
                let steps = first["play"]
                    .as_str()
                    .unwrap()
                    .split(' ')
                    .filter(|t| t.contains('/'))
                    .count();
                page.wait(
                    "the hint on the board",
                    &format!("document.querySelectorAll('.hint-arrow').length === {steps}"),
                )
                .await;
                let n = page.js("S.moves.length").await;
                li.click().await.expect("click the hint");
                page.wait(
                    "the hint played",
                    &format!("S.moves.length > {n} && S.phase !== 'move' || S.moves.length > {n} && S.stage.length === 0"),
                )
                .await;
                let played = page.js("S.moves.slice(-1)[0]").await;
                assert!(played.is_string(), "{name}: {played}");
            }
            "move" => {
                page.click_step().await;
            }
            "done" => {
                page.end_turn().await;
            }
            "cube" => {
                // Backgammon's cube: the engine doubled; the person takes.
                let n = page.js("S.turns.length").await;
                page.click_css("#take").await;
                page.wait("the take", &format!("S.turns.length > {n}"))
                    .await;
            }
            other => panic!("{name}: unexpected phase {other}"),
        }
    }
    assert!(
        hinted && reloaded && stepped && marked,
        "{name}: {hinted} {reloaded} {stepped} {marked}"
    );
    let status = page.text("status").await;
    // A pinning game may also end drawn (both mothers pinned) or stuck.
    assert!(
        status.contains("Session: you") || status.contains("no points"),
        "{status}"
    );

    // The review: every decision, the graph, and a click that shows the position.
    page.click_css("#review").await;
    page.wait(
        "the review",
        "S.review !== null && !document.getElementById('review-box').hidden",
    )
    .await;
    let decisions = page.js("S.review.length").await.as_u64().unwrap();
    assert!(decisions >= 5, "{name}: {decisions} decisions");
    assert_eq!(
        page.js("document.querySelectorAll('#graph .dot').length")
            .await,
        json!(decisions)
    );
    assert_eq!(
        page.js("document.querySelectorAll('#review-list li').length")
            .await,
        json!(decisions)
    );
    assert_eq!(
        page.js("document.querySelectorAll('#graph polyline').length")
            .await,
        json!(1)
    );
    assert_eq!(
        page.js("S.review.every((d) => d.loss >= 0 && d.at !== null)")
            .await,
        json!(true)
    );
    // The worst decision of the game, clicked on the graph.
    let worst = page
        .js("S.review.reduce((w, d, i) => (d.loss > S.review[w].loss ? i : w), 0)")
        .await
        .as_u64()
        .unwrap();
    let at = page.js(&format!("S.review[{worst}].at")).await;
    page.click_css(&format!("#graph .dot[data-decision=\"{worst}\"]"))
        .await;
    page.wait("the position of the decision", &format!("S.view === {at}"))
        .await;
    if variant == "backgammon" {
        page.screenshot("review-position.png", false).await;
        page.screenshot_of("#review-box", "review.png").await;
    }
    page.click_css("#hist-live").await;

    // A position loaded from the panel.
    page.click_css("#load-box summary").await;
    page.type_into("#load-text", load).await;
    page.click_css("#load").await;
    page.wait("the position loaded", loaded).await;
    page.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromium-driver (apt-get install -y chromium chromium-driver); run with --include-ignored"]
async fn a_backgammon_game_with_the_players_tools() {
    // gnubg's Position ID of the start with 5-2 to play (protocol/SPEC.md).
    a_game_with_the_players_tools(
        "backgammon",
        "tools-backgammon",
        "4HPwATDgc/ABMA:cIkKAAAAAAAE",
        "S.base === 'gnubgid 4HPwATDgc/ABMA:cIkKAAAAAAAE' && S.phase === 'move' \
         && S.board.pts[24] === 2 && S.board.pts[1] === -2 && S.turns.length === 0",
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromium-driver (apt-get install -y chromium chromium-driver); run with --include-ignored"]
async fn a_short_nardy_game_with_the_players_tools() {
    a_game_with_the_players_tools(
        "short_nardy",
        "tools-short-nardy",
        "4HPwATDgc/ABMA",
        "S.base === 'gnubgid 4HPwATDgc/ABMA' && S.phase === 'roll' && S.board.pts[6] === 5",
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromium-driver (apt-get install -y chromium chromium-driver); run with --include-ignored"]
async fn a_gul_bara_game_with_the_players_tools() {
    // Position text: White's last checker on its 1-point, Black's fifteen on
    // their start, White to roll.
    a_game_with_the_players_tools(
        "gulbara",
        "tools-gulbara",
        "1,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0,0 w 20 20",
        "S.base.startsWith('board 1,0,') && S.phase === 'roll' && S.board.off.w === 14",
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromium-driver (apt-get install -y chromium chromium-driver); run with --include-ignored"]
async fn a_long_nardy_game_with_the_players_tools() {
    a_game_with_the_players_tools(
        "long_nardy",
        "tools-long-nardy",
        "2,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0,0 w 20 20",
        "S.base.startsWith('board 2,0,') && S.phase === 'roll' && S.board.off.w === 13",
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromium-driver (apt-get install -y chromium chromium-driver); run with --include-ignored"]
async fn a_fevga_game_with_the_players_tools() {
    a_game_with_the_players_tools(
        "fevga",
        "tools-fevga",
        "2,0,0,0,0,0,0,0,0,0,0,-15,0,0,0,0,0,0,0,0,0,0,0,0 w 20 20",
        "S.base.startsWith('board 2,0,') && S.phase === 'roll' && S.board.off.w === 13",
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromium-driver (apt-get install -y chromium chromium-driver); run with --include-ignored"]
async fn a_portes_game_with_the_players_tools() {
    a_game_with_the_players_tools(
        "portes",
        "tools-portes",
        "4HPwATDgc/ABMA",
        "S.base === 'gnubgid 4HPwATDgc/ABMA' && S.phase === 'roll' && S.board.pts[6] === 5",
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromium-driver (apt-get install -y chromium chromium-driver); run with --include-ignored"]
async fn a_tabla_game_with_the_players_tools() {
    a_game_with_the_players_tools(
        "tabla",
        "tools-tabla",
        "4HPwATDgc/ABMA",
        "S.base === 'gnubgid 4HPwATDgc/ABMA' && S.phase === 'roll' && S.board.pts[6] === 5",
    )
    .await;
}

/// Plakoto and Tapa: a whole game each; the loaded position has a Black
/// checker pinned under White's on White's 5, drawn under its pinner.
const PINNED: &str = "-14,0,0,0,1,0,0,2,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,12 w 3 3 pins=5";
const PINNED_SHOWN: &str = "S.base.startsWith('board -14,') && S.phase === 'roll' \
     && S.board.pins[5] === 'b' && S.board.pts[5] === 1 \
     && document.querySelector('[data-point=\"5\"] [data-pinned=\"b\"]') !== null \
     && document.querySelector('[data-point=\"5\"]').getAttribute('aria-label').includes('pinning a black checker')";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromium-driver (apt-get install -y chromium chromium-driver); run with --include-ignored"]
async fn a_plakoto_game_with_the_players_tools() {
    a_game_with_the_players_tools("plakoto", "tools-plakoto", PINNED, PINNED_SHOWN).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromium-driver (apt-get install -y chromium chromium-driver); run with --include-ignored"]
async fn a_tapa_game_with_the_players_tools() {
    a_game_with_the_players_tools("tapa", "tools-tapa", PINNED, PINNED_SHOWN).await;
}

/// Playing Black, then watching the engine play both sides (issue 30,
/// "The opening and the sides"): a whole backgammon game as Black against
/// the baseline, its record replayed by `gulbara replay`, then a game the
/// engine plays alone from its opening throw to the end.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromium-driver (apt-get install -y chromium chromium-driver); run with --include-ignored"]
async fn playing_black_and_watching_the_engine_play_both() {
    let page = Page::open_at("black-and-watch", &[], "anim=0&seed=11&side=b&start=you").await;
    page.baseline_game("backgammon").await;
    page.choose_session("money", 0, "off").await;
    assert_eq!(page.js("S.starter").await, json!("b"));
    assert_eq!(page.text("f-turn").await, "Black (you)");
    let mut rolls = 0;
    loop {
        page.wait(
            "Black's turn",
            "['roll', 'move', 'done', 'over'].includes(S.phase)",
        )
        .await;
        match page.js("S.phase").await.as_str().unwrap() {
            "over" => break,
            "roll" => {
                rolls += 1;
                assert!(rolls < 400, "the game does not end");
                page.roll().await;
            }
            "move" => {
                page.click_step().await;
            }
            "done" => page.end_turn().await,
            other => panic!("unexpected phase {other}"),
        }
    }
    assert_eq!(page.js("S.turns[0].side").await, json!("b"));
    let record = page
        .js("document.getElementById('record').textContent")
        .await;
    let record = record.as_str().unwrap();
    assert!(
        record.contains("White : gulbara") && record.contains("Black : you"),
        "{record}"
    );
    page.replays(record, "black");

    // Watching: the engine throws the opening and plays both sides to the end.
    page.choose_side("watch").await;
    page.wait(
        "the engine's game to its end",
        "S.phase === 'over' && S.turns.length > 10",
    )
    .await;
    assert_eq!(page.js("S.opening !== null").await, json!(true));
    assert_eq!(
        page.js("S.turns.some((t) => t.side === 'w') && S.turns.some((t) => t.side === 'b')")
            .await,
        json!(true)
    );
    let status = page.text("status").await;
    assert!(
        status.contains("White wins") || status.contains("Black wins"),
        "{status}"
    );
    page.finish().await;
}

/// The board asks before a game is thrown away, helps with the keyboard,
/// the double-click and the automatic plays, loads a gnubg .mat, keeps the
/// hints and messages in view on a 420-pixel window, and has its settings
/// and rules in words (issue 30, "Keeping games", "Convenience", "Words a
/// player understands", "Keyboard and narrow screens").
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromium-driver (apt-get install -y chromium chromium-driver); run with --include-ignored"]
async fn the_board_asks_helps_and_fits() {
    let page = backgammon_roll("asks-helps-fits", "31").await;
    // Words: each setting's name and its rule beside it.
    let label = page
        .js("document.getElementById('opt-rules.opening').closest('label').textContent")
        .await;
    let label = label.as_str().unwrap();
    assert!(
        label.starts_with("Opening") && label.contains("the winner rolls both dice"),
        "{label}"
    );

    // Picking a checker sends the focus, and Tab, to its destinations.
    page.click_point("8").await;
    page.wait("8 picked", "S.selected === '8'").await;
    let focused = "document.activeElement.closest('[data-point]')?.dataset.point";
    let dests = page
        .js("[...document.querySelectorAll('.point.dest')].map((e) => e.dataset.point)")
        .await;
    let is_dest = |v: &Value| dests.as_array().unwrap().contains(v);
    assert!(is_dest(&page.js(focused).await), "{dests}");
    page.press('\u{E004}').await; // Tab
    let next = page.js(focused).await;
    assert!(
        is_dest(&next) || next == json!("8"),
        "Tab went to {next}; {dests}"
    );
    page.press('\u{E00C}').await; // Escape
    page.wait("nothing picked", "S.selected === null").await;

    // A double-click moves a checker by the higher die: 8/5 with 3-1.
    let point = page
        .client
        .find(Locator::Css("[data-point=\"8\"]"))
        .await
        .expect("point 8");
    let double = MouseActions::new("mouse".into())
        .then(PointerAction::MoveToElement {
            element: point,
            duration: None,
            x: 0.0,
            y: 40.0,
        })
        .then(PointerAction::Down {
            button: MOUSE_BUTTON_LEFT,
        })
        .then(PointerAction::Up {
            button: MOUSE_BUTTON_LEFT,
        })
        .then(PointerAction::Down {
            button: MOUSE_BUTTON_LEFT,
        })
        .then(PointerAction::Up {
            button: MOUSE_BUTTON_LEFT,
        });
    page.client
        .perform_actions(double)
        .await
        .expect("double-click");
    page.wait("8/5 played", "S.stage.join(' ') === '8/5'").await;

    // New game and another variant ask first; "Keep playing" keeps the game.
    let moves = page.js("S.moves.join(' ') + '|' + S.stage.join(' ')").await;
    page.click_css("#newgame").await;
    page.wait("the question", "!document.getElementById('confirm').hidden")
        .await;
    page.click_css("#confirm-no").await;
    page.wait(
        "the question gone",
        "document.getElementById('confirm').hidden",
    )
    .await;
    assert_eq!(
        page.js("S.moves.join(' ') + '|' + S.stage.join(' ')").await,
        moves
    );
    page.client
        .find(Locator::Id("variant"))
        .await
        .expect("select")
        .select_by_value("long_nardy")
        .await
        .expect("choose");
    page.wait("the question", "!document.getElementById('confirm').hidden")
        .await;
    page.press('\u{E00C}').await; // Escape: no
    page.wait(
        "the variant kept",
        "document.getElementById('confirm').hidden && document.getElementById('variant').value === 'backgammon'",
    )
    .await;
    assert_eq!(page.js("S.variant").await, json!("backgammon"));

    // Hints and messages in view on a 420-pixel window.
    page.click_css("#hint").await;
    page.wait("the hints", "S.hints.length > 0").await;
    page.resize(420, 860).await;
    page.wait(
        "the narrow layout",
        "document.getElementById('board').getBoundingClientRect().width <= 420",
    )
    .await;
    page.client
        .execute("window.scrollTo(0, 0)", vec![])
        .await
        .expect("scroll");
    let in_view = |id: &str| {
        format!(
            "(() => {{ const r = document.getElementById('{id}').getBoundingClientRect(); \
             return r.top >= 0 && r.bottom <= window.innerHeight && r.height > 0; }})()"
        )
    };
    let rect = |id: &str| {
        format!(
            "JSON.stringify([document.getElementById('{id}').getBoundingClientRect(), window.innerHeight])"
        )
    };
    page.screenshot("narrow-hints.png", false).await;
    for id in ["status", "hints"] {
        assert_eq!(
            page.js(&in_view(id)).await,
            json!(true),
            "{id} out of view: {}",
            page.js(&rect(id)).await
        );
    }
    page.resize(1100, 900).await;

    // Automatic plays: a forced move, then a bear-off with no contact,
    // each in a loaded position (the game in progress discarded first).
    page.client
        .execute(
            "document.getElementById('pref-autoForced').click(); document.getElementById('pref-autoBearoff').click();",
            vec![],
        )
        .await
        .expect("the settings");
    page.click_css("#load-box summary").await;
    // White's last checker on its 2-point: 2-1 can only play 2/1 1/off.
    page.type_into(
        "#load-text",
        "0,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,-15 w 10 10",
    )
    .await;
    page.click_css("#load").await;
    page.wait("the question", "!document.getElementById('confirm').hidden")
        .await;
    page.click_css("#confirm-yes").await;
    page.wait(
        "the position",
        "S.base.startsWith('board ') && S.phase === 'roll'",
    )
    .await;
    page.type_into("#dice-input", "21").await;
    page.click_css("#roll").await;
    page.wait(
        "the forced move played by itself",
        "S.phase === 'done' && !!S.show.result",
    )
    .await;
    page.click_css("#done").await;
    page.wait("the game over", "S.phase === 'over'").await;
    assert_eq!(
        page.js("S.turns[0].steps.join(' ')").await,
        json!("2/1 1/off")
    );
    // Two checkers home, Black's all past them: 5-4 bears both off.
    page.client
        .execute("document.getElementById('load-text').value = ''", vec![])
        .await
        .expect("clear");
    page.type_into(
        "#load-text",
        "0,0,0,1,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,-15 w 10 10",
    )
    .await;
    page.click_css("#load").await;
    page.wait(
        "the position",
        "S.base.startsWith('board 0,0,0,1,1') && S.phase === 'roll'",
    )
    .await;
    page.type_into("#dice-input", "54").await;
    page.click_css("#roll").await;
    page.wait(
        "the bear-off played by itself",
        "S.phase === 'done' && !!S.show.result",
    )
    .await;
    page.click_css("#done").await;
    page.wait("the game over", "S.phase === 'over'").await;
    let steps = page.js("S.turns[0].steps.slice().sort().join(' ')").await;
    assert_eq!(steps, json!("4/off 5/off"));

    // A gnubg .mat loads as a game, and play goes on from it.
    let mat = " 0 point match\n\n Game 1\n gnubg : 0                      root : 0\n  1) 31: 8/5 6/5                 42: 8/4 6/4\n  2) 61: 13/7 8/7\n";
    page.client
        .execute(
            "document.getElementById('load-text').value = arguments[0]",
            vec![json!(mat)],
        )
        .await
        .expect("paste");
    page.click_css("#load").await;
    page.wait(
        "the game loaded and the engine's turn played",
        "S.turns.length >= 4 && S.turns[2].steps.join(' ') === '13/7 8/7' && S.phase === 'roll'",
    )
    .await;
    assert_eq!(page.js("S.variant").await, json!("backgammon"));
    assert_eq!(page.js("S.turns[1].side").await, json!("b"));

    // An XGID too (the game loaded above is in progress: asked first).
    page.client
        .execute(
            "document.getElementById('load-text').value = arguments[0]",
            vec![json!("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10")],
        )
        .await
        .expect("paste");
    page.click_css("#load").await;
    page.wait("the question", "!document.getElementById('confirm').hidden")
        .await;
    page.click_css("#confirm-yes").await;
    page.wait(
        "the XGID's position, 5-2 to play",
        "S.base.startsWith('xgid XGID=') && S.phase === 'move' && S.show.pending.dice === '52'",
    )
    .await;

    // The rules page, reached from the board.
    let href = page.js("document.getElementById('rules-link').href").await;
    assert!(href.as_str().unwrap().ends_with("/rules.html"), "{href}");
    page.client
        .goto(&format!("http://{}/rules.html#gulbara", page._web.http))
        .await
        .expect("the rules page");
    let rules = page
        .client
        .execute(
            "return document.getElementById('gulbara').nextElementSibling.textContent",
            vec![],
        )
        .await
        .expect("the Gul bara rules");
    let rules = rules.as_str().unwrap();
    assert!(
        rules.contains("Escalation") && rules.contains("Remainders"),
        "{rules}"
    );
    let errors = page
        .client
        .execute("return document.querySelectorAll('h2').length", vec![])
        .await
        .expect("headings");
    assert!(errors.as_u64().unwrap() >= 6);
    page.close().await;
}

// ---------------------------------------------------------------------------
// Issue 50's bugs, worst first: each test fails on the page before its fix.

/// Loads `text` (a position, an ID or a record) from the panel, saying
/// yes if the game in progress must be discarded, and waits for `ready`.
async fn load_from_panel(page: &Page, text: &str, ready: &str) {
    page.client
        .execute(
            "const d = document.getElementById('load-box'); d.open = true; document.getElementById('load-text').value = arguments[0];",
            vec![json!(text)],
        )
        .await
        .expect("paste");
    page.click_css("#load").await;
    page.wait(
        "the text loaded",
        &format!("!document.getElementById('confirm').hidden || ({ready})"),
    )
    .await;
    if page
        .js("!document.getElementById('confirm').hidden")
        .await
        .as_bool()
        == Some(true)
    {
        page.click_css("#confirm-yes").await;
    }
    page.wait("the text loaded", ready).await;
}

/// White's last two checkers on its 2-point, Black's last one on its
/// 5-point: after White's 2-1 Black bears off with 31 rolls of 36, else
/// White does: Black doubles, and White should pass.
const BLACK_DOUBLES: &str = "0,2,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,-1,0,0,0,0 w 10 10";

/// Bug 1: when the engine doubles, the evaluation is of the position at its
/// double, and Hint gives the take and the pass with their cubeful figures,
/// best first. Bug 9: after the drop, nobody is to move.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromium-driver (apt-get install -y chromium chromium-driver); run with --include-ignored"]
async fn the_engines_double_is_judged_afresh_and_hinted() {
    let page = Page::open("engine-double").await;
    page.baseline_game("backgammon").await;
    page.choose_session("money", 0, "on").await;
    play_21_from(&page, BLACK_DOUBLES, "the turn played").await;
    page.wait("the engine's double", "S.phase === 'cube'").await;
    let evaltext = page.text("evaltext").await;
    assert!(
        evaltext.starts_with("evaluation at the engine's double: White wins "),
        "{evaltext}"
    );
    assert_eq!(
        page.js("document.getElementById('hint').disabled").await,
        json!(false),
        "Hint at the engine's double"
    );
    page.click_css("#hint").await;
    page.wait("the cube hint", "S.cubeHints !== null").await;
    let hints = page
        .js("[...document.querySelectorAll('#hints li')].map((l) => l.textContent)")
        .await;
    let hints: Vec<&str> = hints
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h.as_str().unwrap())
        .collect();
    // Black wins 31 times in 36: a take loses more than the pass's 1.
    assert_eq!(hints[0], "Pass  cubeful equity -1.000", "{hints:?}");
    assert!(
        hints[1].starts_with("Take  cubeful equity -") && hints[1].contains(" (-"),
        "{hints:?}"
    );
    assert!(hints[2].ends_with(": Double, pass"), "{hints:?}");
    page.click_css("#drop").await;
    page.wait("the game over", "S.phase === 'over'").await;
    assert_eq!(page.text("f-turn").await, "game over");
    page.finish().await;
}

/// Bugs 2 and 3: a reviewed position shows the cube of its moment, its
/// dice, the best turn and its evaluation; at 1300×950 the review's list
/// is in view with the board.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium, chromium-driver and gnubg (apt-get install -y chromium chromium-driver gnubg); run with --include-ignored"]
async fn a_reviewed_position_is_shown_as_it_was() {
    let page = Page::open("review-then").await;
    page.baseline_game("backgammon").await;
    page.choose_session("match", 5, "on").await;
    // As in the cube match above: the person doubles at its second roll, the
    // engine takes, and the game goes on a turn.
    play_a_doubled_game(&page).await;
    assert!(page.js("S.cube.value").await.as_u64().unwrap() >= 2);
    page.resize(1300, 950).await;
    page.click_css("#review").await;
    page.wait(
        "the review",
        "S.review !== null && !document.getElementById('sec-review').hidden",
    )
    .await;
    // The same judgements as `gulbara analyse` at the same depth.
    same_as_analyse(&page).await;
    // The list in view beside the board, the page at its top.
    page.client
        .execute("window.scrollTo(0, 0)", vec![])
        .await
        .expect("scroll");
    let fits = page
        .js("(() => { const b = document.getElementById('board').getBoundingClientRect(); \
             const l = document.querySelector('#review-list li').getBoundingClientRect(); \
             return [b.top >= 0 && b.bottom <= innerHeight, l.top >= 0 && l.bottom <= innerHeight, l.top, innerHeight]; })()")
        .await;
    assert_eq!(fits[0], json!(true), "the board in view: {fits}");
    assert_eq!(fits[1], json!(true), "the review list in view: {fits}");
    // The first decision: White's first roll, before the double.
    let roll = page.js("S.review[0].roll").await;
    let roll = roll.as_str().unwrap().to_string();
    page.click_css("#review-list li[data-decision=\"0\"]").await;
    page.wait("the decision's position", "S.view === S.review[0].at")
        .await;
    assert_eq!(
        page.js("document.querySelector('#board .cube text').textContent + ' ' + document.querySelector('#board .cube').dataset.owner")
            .await,
        json!("64 center"),
        "the cube before the double"
    );
    let dice = page
        .js("[...document.querySelectorAll('#board .die')].map((d) => d.dataset.die).join('')")
        .await;
    assert_eq!(dice, json!(roll), "the decision's dice");
    let arrows = page
        .js("document.querySelectorAll('#board .review-arrow').length")
        .await;
    assert!(arrows.as_u64().unwrap() >= 1, "the best turn drawn");
    let evaltext = page.text("evaltext").await;
    assert!(
        evaltext.starts_with(&format!("review at depth 1: White to play {roll}")),
        "{evaltext}"
    );
    page.screenshot("review-cube-position.png", false).await;
    // The position shown, as an XGID and a gnubg ID: the starting position,
    // White to play the decision's roll.
    page.click_css("#copy-ids").await;
    page.wait(
        "the IDs",
        "document.getElementById('ids').textContent.includes('gnubg ID')",
    )
    .await;
    let ids = page.text("ids").await;
    assert!(
        ids.starts_with(&format!(
            "XGID=-b----E-C---eE---c-e----B-:0:0:1:{roll}:0:0:"
        )) && ids.contains("\ngnubg ID 4HPwATDgc/ABMA:"),
        "{ids}"
    );
    // The game as a gnubg .mat, which gnubg itself imports and exports
    // again with the same rolls and the same cube actions.
    page.click_css("#download-mat").await;
    let saved = page.downloads.join("gulbara-backgammon.mat");
    // What the server writes of the page's record: the file, once saved whole.
    let ours = page
        .js("fetch('/api/mat', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: document.getElementById('record').textContent }).then((r) => r.json()).then((j) => j.mat)")
        .await;
    let ours = ours.as_str().expect("the .mat text").to_string();
    let start = Instant::now();
    while std::fs::read_to_string(&saved).ok().as_deref() != Some(ours.as_str()) {
        assert!(start.elapsed() < GUARD, "no .mat downloaded: {ours}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(
        ours.contains(" 5 point match") && ours.contains("Doubles => 2") && ours.contains("Takes"),
        "{ours}"
    );
    gnubg_reads_the_same(&saved, &ours);
    // Another candidate, clicked, is drawn instead.
    let n = page
        .js("document.querySelectorAll('#review-detail li').length")
        .await;
    if n.as_u64().unwrap() > 1 {
        page.click_css("#review-detail li[data-candidate=\"1\"]")
            .await;
        page.wait(
            "the second candidate drawn",
            "S.reviewPick.cand === 1 && [...document.querySelectorAll('#board .review-arrow')].map((a) => a.dataset.playStep).join(' ') === S.reviewPick.play.split(' ').filter((x) => x.includes('/')).join(' ')",
        )
        .await;
    }
    page.finish().await;
}

/// Black's 13 back checkers behind White's prime from its 2- to 7-point,
/// its other two at home: Black (to move) can play 1-1 at home only, and
/// then nothing with 6-5.
const BLACK_PRIMED: &str = "-13,2,2,2,2,2,2,0,0,0,0,0,3,0,0,0,0,0,0,-2,0,0,0,0 b 10 10";

/// Bug 4: an engine's roll with no move is said so in the move list, not
/// as a turn under way, and its old marks leave the board.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromium-driver (apt-get install -y chromium chromium-driver); run with --include-ignored"]
async fn an_engine_dance_is_no_move_under_way() {
    let page = Page::open("dance").await;
    page.baseline_game("backgammon").await;
    page.choose_session("money", 0, "off").await;
    page.type_into("#dice-input", "11 21 65").await;
    load_from_panel(
        &page,
        BLACK_PRIMED,
        "S.base.startsWith('board ') && S.phase === 'roll' && S.turns.length === 1",
    )
    .await;
    assert!(
        page.js("document.querySelectorAll('#board .mark.b').length")
            .await
            .as_u64()
            .unwrap()
            > 0,
        "the engine's 1-1 marked"
    );
    page.roll().await;
    page.wait("the person's move", "S.phase === 'move'").await;
    page.click_move("13", "11").await;
    page.wait("13/11", "S.stage.length === 1").await;
    page.click_move("13", "12").await;
    page.wait("the turn played", "S.phase === 'done'").await;
    page.click_css("#done").await;
    page.wait(
        "the engine's dance and the person's roll",
        "S.phase === 'roll' && S.turns.length === 3",
    )
    .await;
    let last = page
        .js("document.querySelector('#moves li:last-child').textContent")
        .await;
    assert_eq!(last, json!("Black 65: cannot move"));
    assert_eq!(
        page.js("document.querySelectorAll('#board .mark.b').length")
            .await,
        json!(0),
        "the engine's old marks gone"
    );
    page.finish().await;
}

/// Bug 5: playing Black, the board is turned: Black's home at the bottom
/// right, its numbers on the points, and the board's label says so.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromium-driver (apt-get install -y chromium chromium-driver); run with --include-ignored"]
async fn playing_black_the_board_is_turned() {
    let page = Page::open_at("black-turned", &[], "anim=0&side=b&start=you").await;
    page.baseline_game("backgammon").await;
    // Black's 1-point is White's 24.
    let at = page
        .js("(() => { const s = document.getElementById('board').getBoundingClientRect(); \
             const p = document.querySelector('[data-point=\"24\"] polygon').getBoundingClientRect(); \
             return [p.x + p.width / 2 > s.x + s.width / 2, p.y + p.height / 2 > s.y + s.height / 2, \
                     document.querySelector('[data-point=\"24\"] .num').textContent]; })()")
        .await;
    assert_eq!(
        at,
        json!([true, true, "1"]),
        "Black's 1-point at the bottom right"
    );
    let label = page
        .js("document.getElementById('board').getAttribute('aria-label')")
        .await;
    assert!(label.as_str().unwrap().contains("Black (you)"), "{label}");
    // The person's back checkers: two on its 24-point, at the top right.
    let back = page
        .js("(() => { const s = document.getElementById('board').getBoundingClientRect(); \
             const p = document.querySelector('[data-point=\"1\"] polygon').getBoundingClientRect(); \
             return p.x > s.x + s.width / 2 && p.y < s.y + s.height / 2 \
                 && document.querySelectorAll('[data-point=\"1\"] .checker.b').length === 2; })()")
        .await;
    assert_eq!(back, json!(true));
    page.finish().await;
}

/// Bug 6: watching, a tied opening throw is thrown again by itself.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromium-driver (apt-get install -y chromium chromium-driver); run with --include-ignored"]
async fn watching_goes_on_after_a_tied_opening_throw() {
    let page = Page::open("watch-tie").await;
    page.baseline_game("backgammon").await;
    page.type_into("#dice-input", "44 53").await;
    page.choose_side("watch").await;
    page.wait(
        "the game after the tie",
        "S.opening && S.opening.w === 5 && S.opening.b === 3 && S.turns.length >= 3",
    )
    .await;
    page.finish().await;
}

/// Bug 7: in money play the match's settings are not shown.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromium-driver (apt-get install -y chromium chromium-driver); run with --include-ignored"]
async fn money_play_shows_no_match_settings() {
    let page = Page::open("money-settings").await;
    let shown = "['length-label', 'rotation-label'].map((id) => document.getElementById(id).getClientRects().length > 0)";
    assert_eq!(
        page.js("window.gulbara.session().kind").await,
        json!("money")
    );
    assert_eq!(page.js(shown).await, json!([false, false]));
    page.choose_session("match", 3, "off").await;
    assert_eq!(page.js(shown).await, json!([true, true]));
    page.finish().await;
}

/// Bug 8: a finished record loaded says it is over, and how it ended.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromium-driver (apt-get install -y chromium chromium-driver); run with --include-ignored"]
async fn a_finished_record_loaded_says_so() {
    let page = Page::open("finished-record").await;
    let record = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/gulbara_record_before_variants.txt"),
    )
    .expect("the record");
    load_from_panel(&page, &record, "S.phase === 'over' && S.turns.length > 20").await;
    let status = page.text("status").await;
    assert!(
        status.contains("it is over, Black won 2 points"),
        "{status}"
    );
    assert_eq!(page.text("f-turn").await, "game over");
    page.finish().await;
}

/// White's last checker on its 2-point, Black's on its 1-point: 2-1 wins a
/// single game.
const WHITE_WINS_21: &str = "0,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,-1 w 10 10";

/// Loads `board` (the person to roll) from the panel, rolls 2-1, plays
/// its two steps and ends the turn; `what` names the turn played.
async fn play_21_from(page: &Page, board: &str, what: &str) {
    load_from_panel(
        page,
        board,
        "S.base.startsWith('board ') && S.phase === 'roll'",
    )
    .await;
    page.type_into("#dice-input", "21").await;
    page.roll().await;
    page.wait("the person's move", "S.phase === 'move'").await;
    page.click_step().await;
    page.click_step().await;
    page.wait(what, "S.phase === 'done'").await;
    page.click_css("#done").await;
}

/// Plays 2-1 from [`WHITE_WINS_21`] to the end of the game.
async fn win_with_21(page: &Page) {
    play_21_from(page, WHITE_WINS_21, "the game won").await;
    page.wait("the game over", "S.phase === 'over'").await;
}

/// Bug 9: no cube in the Crawford game, and no Crawford game once the
/// match is over.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromium-driver (apt-get install -y chromium chromium-driver); run with --include-ignored"]
async fn the_crawford_game_has_no_cube_and_the_match_ends_clean() {
    let page = Page::open("crawford").await;
    page.baseline_game("backgammon").await;
    page.choose_session("match", 2, "on").await;
    win_with_21(&page).await;
    assert!(
        page.text("f-match")
            .await
            .starts_with("match to 2: you 1, the engine 0, next: the Crawford game")
    );
    page.click_css("#newgame").await;
    page.wait(
        "the Crawford game",
        "S.phase === 'roll' && S.moves.length === 0",
    )
    .await;
    let shown = page.text("f-match").await;
    assert_eq!(
        shown,
        "match to 2: you 1, the engine 0, Crawford game; no cube in the Crawford game"
    );
    assert_eq!(
        page.js("document.querySelector('#board .cube') === null")
            .await,
        json!(true),
        "no cube drawn in the Crawford game"
    );
    win_with_21(&page).await;
    let shown = page.text("f-match").await;
    assert!(!shown.contains("Crawford game,"), "{shown}");
    assert!(
        shown.starts_with("match to 2: you 2, the engine 0; "),
        "{shown}"
    );
    assert!(page.text("status").await.contains("You win the match 2-0"));
    page.finish().await;
}

/// Bug 10: at a match score, the hints lead with the match-winning chances
/// they are ranked by, each with its difference from the best.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromium-driver (apt-get install -y chromium chromium-driver); run with --include-ignored"]
async fn match_hints_lead_with_what_ranks_them() {
    let page = Page::open("match-hints").await;
    page.baseline_game("backgammon").await;
    page.choose_session("match", 5, "on").await;
    page.type_into("#dice-input", "31").await;
    page.roll().await;
    page.wait("the person's move", "S.phase === 'move'").await;
    page.click_css("#hint").await;
    page.wait("the hints", "S.hints.length > 1").await;
    let texts = page
        .js("[...document.querySelectorAll('#hints li')].map((l) => l.textContent.split('  ')[1])")
        .await;
    let texts: Vec<&str> = texts
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap())
        .collect();
    let mwc = |t: &str| -> f64 { t.split(' ').nth(1).unwrap().parse().unwrap() };
    assert!(
        texts[0].starts_with("mwc ") && !texts[0].contains('('),
        "{texts:?}"
    );
    for t in &texts[1..] {
        assert!(t.starts_with("mwc "), "{texts:?}");
        // The difference shown is the difference from the best.
        let diff: f64 = t
            .split('(')
            .nth(1)
            .unwrap()
            .trim_end_matches(')')
            .parse()
            .unwrap();
        assert!((diff - (mwc(t) - mwc(texts[0]))).abs() < 1.5e-4, "{t}");
        assert!(diff <= 0.0, "{t}");
    }
    page.finish().await;
}

/// Bug 11: Gul bara's facts (rolls counted, stage, escalation) are shown in
/// Gul bara only.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromium-driver (apt-get install -y chromium chromium-driver); run with --include-ignored"]
async fn each_game_shows_its_own_facts() {
    let page = Page::open("own-facts").await;
    let shown = "['f-rolls', 'f-stage', 'f-escalation'].map((id) => document.getElementById(id).getClientRects().length > 0)";
    assert_eq!(page.js("S.variant").await, json!("gulbara"));
    assert_eq!(page.js(shown).await, json!([true, true, true]));
    for v in ["backgammon", "plakoto", "long_nardy"] {
        page.choose_variant(v).await;
        assert_eq!(page.js(shown).await, json!([false, false, false]), "{v}");
    }
    page.finish().await;
}

/// Bug 12: a turn played whole keeps its dice, used, until Done; "Your game
/// is back." is said once; the rules page's title counts nine games.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromium-driver (apt-get install -y chromium chromium-driver); run with --include-ignored"]
async fn the_dice_stay_and_the_words_are_right() {
    let page = backgammon_roll("dice-stay", "31").await;
    page.click_move("8", "5").await;
    page.wait("8/5", "S.stage.length === 1").await;
    page.click_move("6", "5").await;
    page.wait("the turn played", "S.phase === 'done'").await;
    let dice = "[...document.querySelectorAll('#board g.die')].map((g) => g.dataset.die + (g.classList.contains('used') ? '*' : '')).join(' ')";
    assert_eq!(page.js(dice).await, json!("3* 1*"));
    page.end_turn().await;
    page.wait("the person's roll", "S.phase === 'roll'").await;
    page.client.refresh().await.expect("reload");
    page.wait("the game back", "S.phase === 'roll' && S.moves.length > 3")
        .await;
    assert!(page.text("status").await.starts_with("Your game is back."));
    page.click_css("#hist-prev").await;
    page.wait("a move back", "S.view !== null").await;
    page.click_css("#hist-live").await;
    page.wait("back to the game", "S.view === null").await;
    let status = page.text("status").await;
    assert_eq!(status, "Back to the game.");
    page.client
        .goto(&format!("http://{}/rules.html", page._web.http))
        .await
        .expect("the rules page");
    let title = page.client.title().await.expect("the title");
    let games = page
        .client
        .execute("return document.querySelectorAll('h2[id]').length", vec![])
        .await
        .expect("the games");
    assert_eq!(games, json!(9));
    assert_eq!(title, "gulbara — the rules of the nine games");
    page.close().await;
}

/// Bug 13: on a 390-pixel phone the move is made with buttons of a
/// finger's size, and the game and session settings come before the facts
/// and the move list.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromium-driver (apt-get install -y chromium chromium-driver); run with --include-ignored"]
async fn a_phone_moves_with_buttons_and_has_its_settings_up() {
    let page = backgammon_roll("phone", "31").await;
    page.resize(390, 844).await;
    page.wait(
        "the narrow layout",
        "document.getElementById('board').getBoundingClientRect().width <= 390",
    )
    .await;
    let sizes = page
        .js("[...document.querySelectorAll('#pad button')].map((b) => { const r = b.getBoundingClientRect(); return r.width >= 44 && r.height >= 44; })")
        .await;
    let sizes = sizes.as_array().unwrap();
    assert!(!sizes.is_empty(), "no move buttons");
    assert!(sizes.iter().all(|s| s == &json!(true)), "{sizes:?}");
    page.click_css("#pad [data-pad-from=\"8\"]").await;
    page.wait("8 picked", "S.selected === '8'").await;
    page.click_css("#pad [data-pad-to=\"5\"]").await;
    page.wait("8/5 played", "S.stage.join(' ') === '8/5'").await;
    let order = page
        .js(
            "(() => { const y = (id) => document.getElementById(id).getBoundingClientRect().top; \
             return [y('variant') < y('sec-game'), y('session-kind') < y('sec-moves')]; })()",
        )
        .await;
    assert_eq!(order, json!([true, true]));
    page.screenshot("phone.png", false).await;
    page.finish().await;
}

/// gnubg (`/usr/games/gnubg`, Debian's `gnubg`) imports the `.mat` file at
/// `file` and exports it again: the same rolls and cube actions, in order.
fn gnubg_reads_the_same(file: &Path, ours: &str) {
    let gnubg = Path::new("/usr/games/gnubg");
    assert!(
        gnubg.is_file(),
        "needs gnubg (apt-get install -y gnubg) for the .mat check"
    );
    let dir = scratch_dir("gnubg-mat");
    let theirs = dir.join("again.mat");
    let home = dir.join("home");
    std::fs::create_dir_all(&home).unwrap();
    let mut child = Command::new(gnubg)
        .args(["-t", "-q"])
        .env("HOME", &home)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start gnubg");
    {
        use std::io::Write as _;
        let mut stdin = child.stdin.take().unwrap();
        write!(
            stdin,
            "import mat {}\nexport match mat {}\nquit\ny\n",
            file.display(),
            theirs.display()
        )
        .unwrap();
    }
    let start = Instant::now();
    while child.try_wait().expect("gnubg").is_none() {
        assert!(start.elapsed() < GUARD, "gnubg does not end");
        std::thread::sleep(Duration::from_millis(50));
    }
    let again = std::fs::read_to_string(&theirs)
        .unwrap_or_else(|e| panic!("gnubg exported nothing: {e}\n{ours}"));
    // The actions of both files, in order: rolls and cube words.
    let actions = |t: &str| -> Vec<String> {
        t.lines()
            .filter(|l| {
                l.trim_start()
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_digit())
                    && l.contains(')')
            })
            .flat_map(|l| l.split_whitespace().map(String::from).collect::<Vec<_>>())
            .filter(|w| {
                (w.len() == 3 && w.ends_with(':'))
                    || ["Doubles", "Takes", "Drops"].contains(&w.as_str())
            })
            .collect()
    };
    assert_eq!(
        actions(&again),
        actions(ours),
        "gnubg's export:\n{again}\nours:\n{ours}"
    );
    assert!(!actions(ours).is_empty());
}

/// A first visit explains itself: one line on what the site is, the choice
/// of game above the board (the last one remembered), and the dice box
/// said to be optional.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromium-driver (apt-get install -y chromium chromium-driver); run with --include-ignored"]
async fn a_first_visit_explains_itself() {
    let page = Page::open("first-visit").await;
    let intro = page.text("intro").await;
    assert!(intro.contains("Nine games, one choice away"), "{intro}");
    let up = page
        .js("document.getElementById('variant').getBoundingClientRect().bottom <= document.getElementById('board').getBoundingClientRect().top")
        .await;
    assert_eq!(up, json!(true), "the choice of game above the board");
    assert_eq!(
        page.js("document.querySelector('label[for=\"dice-input\"]').textContent + '|' + document.getElementById('dice-input').placeholder")
            .await,
        json!("Your own dice (optional)|random")
    );
    page.screenshot("first-visit.png", false).await;
    page.choose_variant("backgammon").await;
    // The next visit (the game in progress not taken up) is backgammon's.
    page.client
        .goto(&format!(
            "http://{}/?anim=30&start=you&saved=off",
            page._web.http
        ))
        .await
        .expect("the next visit");
    page.wait(
        "the game remembered",
        "window.gulbara && S.variant === 'backgammon' && S.phase === 'roll'",
    )
    .await;
    assert_eq!(
        page.js("document.getElementById('variant').value").await,
        json!("backgammon")
    );
    page.finish().await;
}

/// The review's judgements are `gulbara analyse --ply N`'s for the page's
/// record at the review's depth N: each decision's play, best play and loss,
/// and each cube decision's action and error.
async fn same_as_analyse(page: &Page) {
    let record = page
        .js("document.getElementById('record').textContent")
        .await;
    let record = record.as_str().unwrap().to_string();
    let ply = page.js("S.reviewPly").await.as_u64().unwrap();
    let dir = scratch_dir(&format!("analyse-{}", page.name));
    let file = dir.join("game.txt");
    std::fs::write(&file, &record).unwrap();
    let out = Command::new(bin())
        .args(["analyse", "--ply", &ply.to_string()])
        .arg(&file)
        .output()
        .expect("run gulbara analyse");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    // `game 1 turn T NAME ROLL: played P (+E); best B (+E); lost L`
    let cli: Vec<String> = text
        .lines()
        .filter(|l| l.starts_with("game ") && l.contains(": played "))
        .map(|l| {
            let rest = l.split_once(": played ").unwrap().1;
            let (played, rest) = rest.split_once(" (").unwrap();
            let best = rest.split_once("; best ").unwrap().1;
            let (best, rest) = best.split_once(" (").unwrap();
            let lost = rest.rsplit_once("lost ").unwrap().1;
            format!("{played} | {best} | {lost}")
        })
        .collect();
    let page_view = page
        .js("S.review.map((d) => `${d.played} | ${d.best} | ${d.loss.toFixed(3)}`)")
        .await;
    let page_view: Vec<String> = page_view
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    assert!(!cli.is_empty());
    assert_eq!(
        page_view, cli,
        "the review against `gulbara analyse --ply {ply}`"
    );
    // `game 1 turn T NAME cube: DID; ...: PROPER; [ERROR, ]lost L`
    let cli_cube: Vec<String> = text
        .lines()
        .filter(|l| l.contains(" cube: "))
        .map(|l| {
            let rest = l.split_once(" cube: ").unwrap().1;
            let did = rest.split(';').next().unwrap();
            let error = ["missed double", "wrong double", "wrong take", "wrong pass"]
                .into_iter()
                .find(|e| rest.contains(&format!("{e}, ")))
                .unwrap_or("none");
            format!("{did} {error}")
        })
        .collect();
    let page_cube = page
        .js("S.reviewCube.map((c) => `${c.did} ${c.error ?? 'none'}`)")
        .await;
    let page_cube: Vec<String> = page_cube
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        page_cube, cli_cube,
        "the cube decisions against `gulbara analyse`"
    );
}

/// The board knows the games from the engine's `variants` answer, asked on
/// connect: its choice of game lists the engine's games in the engine's
/// order and names, and the rule settings mark each game's default from it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromium-driver (apt-get install -y chromium chromium-driver); run with --include-ignored"]
async fn the_games_come_from_the_engine() {
    let page = Page::open("variants").await;
    let log = page.js("window.gulbara.log()").await;
    assert!(
        log.as_array()
            .unwrap()
            .iter()
            .any(|l| l.as_str() == Some("> variants")),
        "the page asks the engine for its games"
    );
    // The engine's own answer, over a pipe.
    let mut engine = Command::new(bin())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start gulbara");
    {
        use std::io::Write;
        let mut stdin = engine.stdin.take().unwrap();
        stdin.write_all(b"variants\nquit\n").unwrap();
    }
    let out = engine.wait_with_output().expect("gulbara's answer");
    let text = String::from_utf8(out.stdout).unwrap();
    let want: Vec<String> = text
        .lines()
        .filter_map(|l| l.strip_prefix("variant "))
        .map(|l| {
            let name = l.split(' ').next().unwrap();
            let display = l.split_once(" display ").unwrap().1;
            format!("{name}|{display}")
        })
        .collect();
    assert_eq!(want.len(), 9, "{text}");
    let shown = page
        .js("[...document.getElementById('variant').options].map((o) => `${o.value}|${o.textContent}`)")
        .await;
    assert_eq!(shown, json!(want));
    // Gul bara's defaults, from its `option` lines, marked in the settings.
    let default = |key: &str| {
        format!(
            "[...document.getElementById('opt-{key}').options].filter((o) => o.textContent.endsWith(' (default)')).map((o) => o.value)"
        )
    };
    assert_eq!(
        page.js(&default("rules.remainder")).await,
        json!(["opponent"])
    );
    assert_eq!(page.js(&default("rules.opening")).await, json!(["single"]));
    // Long nardy's opening defaults to the winner rolling afresh.
    page.choose_variant("long_nardy").await;
    assert_eq!(page.js(&default("rules.opening")).await, json!(["reroll"]));
    assert_eq!(
        page.js("document.getElementById('gulbara-facts').hidden")
            .await,
        json!(true)
    );
    page.finish().await;
}

/// Plays [`CUBE_MATCH_DICE`] on a backgammon board with the cube: the
/// person doubles at its second roll, the engine takes (or drops, which
/// ends the game), an engine redouble is taken, and the game goes on until
/// the person has rolled three times.
async fn play_a_doubled_game(page: &Page) {
    page.type_into("#dice-input", CUBE_MATCH_DICE).await;
    let mut doubled = false;
    loop {
        page.wait(
            "the person's turn",
            "['roll', 'move', 'done', 'cube', 'over'].includes(S.phase)",
        )
        .await;
        match page.js("S.phase").await.as_str().unwrap() {
            "over" => break,
            "cube" => {
                // The engine's redouble, taken.
                let n = page.js("S.turns.length").await;
                page.click_css("#take").await;
                page.wait("the take", &format!("S.turns.length > {n}"))
                    .await;
            }
            "roll"
                if doubled
                    && page
                        .js("S.turns.filter((t) => t.side === 'w' && !t.cube).length")
                        .await
                        .as_u64()
                        .unwrap()
                        >= 3 =>
            {
                break;
            }
            "roll" => {
                let rolled = page
                    .js("S.turns.filter((t) => t.side === 'w' && !t.cube).length")
                    .await;
                if !doubled && rolled.as_u64().unwrap() >= 1 {
                    doubled = true;
                    page.double().await;
                    continue;
                }
                page.roll().await;
            }
            "move" => {
                page.click_step().await;
            }
            _ => page.end_turn().await,
        }
    }
}

/// Clicks Review and waits for it, keeping every status the page showed
/// meanwhile; returns the turns judged it told, in order (`k/n`).
async fn review_with_progress(page: &Page) -> Vec<(u64, u64)> {
    // Each status set is a text node added: all of them are kept, however
    // many come between two runs of the observer.
    page.js("(() => { window.statuses = []; new MutationObserver((records) => { for (const r of records) for (const n of r.addedNodes) window.statuses.push(n.textContent); }).observe(document.getElementById('status'), { childList: true }); return true; })()")
        .await;
    page.click_css("#review").await;
    page.wait(
        "the review",
        "S.review !== null && !document.getElementById('sec-review').hidden",
    )
    .await;
    let statuses = page.js("window.statuses").await;
    let mut told: Vec<(u64, u64)> = Vec::new();
    for s in statuses.as_array().unwrap() {
        let s = s.as_str().unwrap();
        let Some(at) = s.find(" turns judged") else {
            continue;
        };
        let head = &s[..at];
        let kn = head.rsplit(' ').next().unwrap();
        let (k, n) = kn.split_once('/').unwrap();
        let kn = (k.parse().unwrap(), n.parse().unwrap());
        // The elapsed seconds redraw the same count: kept once.
        if told.last() != Some(&kn) {
            told.push(kn);
        }
    }
    told
}

/// The review tells each turn it has judged while it runs (k/n in the
/// status, and a progress bar), and its luck is scaled by the cube: in
/// money play each roll's luck times the cube of its moment, in points,
/// the side's luck and its luck-adjusted result in the same unit.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromium-driver (apt-get install -y chromium chromium-driver); run with --include-ignored"]
async fn the_review_tells_its_progress_and_scales_luck_by_the_cube() {
    let page = Page::open("review-progress").await;
    page.baseline_game("backgammon").await;
    page.choose_session("money", 0, "on").await;
    play_a_doubled_game(&page).await;
    let cube = page.js("S.cube.value").await.as_u64().unwrap();
    assert!(cube >= 2, "the double taken");
    let told = review_with_progress(&page).await;
    // Every turn of the record, one by one, in order.
    let n = page
        .js("S.turns.filter((t) => !t.cube).length")
        .await
        .as_u64()
        .unwrap();
    let want: Vec<(u64, u64)> = (1..=n).map(|k| (k, n)).collect();
    assert_eq!(told, want, "the turns judged, as the page told them");
    assert_eq!(
        page.js("document.getElementById('review-progress').hidden")
            .await,
        json!(true),
        "the bar goes once the review is in"
    );
    // Each roll's luck in points: its cubeless luck times the cube of its
    // moment, which the page's own cube history says.
    let rows = page
        .js("S.reviewLuck.map((l) => { let c = 1; for (const t of S.turns.slice(0, l.at)) { const m = t.cube && t.label.match(/^double=(\\d+):(take|beaver)$/); if (m) c = Number(m[1]) * (m[2] === 'beaver' ? 2 : 1); } return [l.luck, l.scaled, l.cube, c]; })")
        .await;
    let rows = rows.as_array().unwrap();
    assert!(rows.len() >= 6);
    let mut scaled_by_two = 0;
    for r in rows {
        let (luck, scaled) = (r[0].as_f64().unwrap(), r[1].as_f64().unwrap());
        let (cube, then) = (r[2].as_u64().unwrap(), r[3].as_u64().unwrap());
        assert_eq!(cube, then, "the cube of the roll's moment: {r}");
        assert!((scaled - luck * cube as f64).abs() < 1e-5, "{r}");
        if cube >= 2 && luck.abs() > 1e-3 {
            scaled_by_two += 1;
        }
    }
    assert!(scaled_by_two > 0, "some luck after the double: {rows:?}");
    // The table: the unit said, each side's luck the sum of its rolls'.
    let luck_row = page.review_luck_row().await;
    assert_eq!(luck_row[0], json!("Luck (points)"));
    for (i, side) in ["w", "b"].iter().enumerate() {
        let sum = page
            .js(&format!(
                "S.reviewLuck.filter((l) => l.side === '{side}').reduce((a, l) => a + l.scaled, 0)"
            ))
            .await
            .as_f64()
            .unwrap();
        let shown = luck_row[i + 1].as_str().unwrap();
        assert_eq!(
            shown,
            format!("{}{:.3}", if sum >= 0.0 { "+" } else { "" }, sum)
        );
    }
    page.finish().await;
}

/// In a match the review's luck and luck-adjusted result are match-winning
/// chances (as gnubg gives them at a match score).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium and chromium-driver (apt-get install -y chromium chromium-driver); run with --include-ignored"]
async fn a_match_review_gives_luck_in_match_winning_chances() {
    let page = Page::open("review-mwc").await;
    page.baseline_game("backgammon").await;
    page.choose_session("match", 5, "on").await;
    play_a_doubled_game(&page).await;
    review_with_progress(&page).await;
    assert_eq!(page.js("S.reviewUnit").await, json!("mwc"));
    let luck_row = page.review_luck_row().await;
    assert_eq!(luck_row[0], json!("Luck (MWC)"));
    for cell in &luck_row.as_array().unwrap()[1..] {
        let s = cell.as_str().unwrap();
        assert!(s.ends_with('%'), "{s}");
    }
    // A roll's match-winning chances stay within what a game can swing.
    let most = page
        .js("Math.max(...S.reviewLuck.map((l) => Math.abs(l.scaled)))")
        .await
        .as_f64()
        .unwrap();
    assert!(most > 0.0 && most < 1.0, "{most}");
    page.finish().await;
}
