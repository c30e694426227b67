//! The page of `jigsolve serve` in a real browser: Debian's Chromium,
//! driven through ChromeDriver by plain WebDriver requests (JSON over
//! HTTP), as a person would use it: choose Impuzzable and solve it, and
//! count it without symmetry; show the search of Impuzzable and of the
//! tangram square; the best board of Scramble; paint a 3 x 20 board, add
//! the pentominoes, count and show the search; paint hexagons (the
//! pieces read back from a file) and triangles and count; type tiles
//! into the tile table and count; start Bedlam and stop it;
//! paste a bad file; open a shared link; count on a server under a
//! memory cap and read the warning of the threads it refused.
//!
//! Without /usr/bin/chromium and /usr/bin/chromedriver (`scripts/setup.sh`
//! installs them) the test says so loudly and passes, unless
//! `JIGSOLVE_BROWSER_TESTS=1` (as `scripts/test.sh` sets it): then it
//! fails. With `JIGSOLVE_SCREENSHOTS=DIR` it saves screenshots of the page
//! there (the README's are made so).

mod browser;
mod server;

use serde_json::{json, Value};
use server::Server;
use std::process::Command;
use std::time::Duration;

mod common;

use browser::{browser_available, choose_catalog, picture_shown, Browser};

/// Counts the drawn puzzle on the page and checks its raw, distinct and
/// unique counts against `jigsolve solve --count` on the text the page
/// wrote; returns the command line's summary.
fn counted_as_solve_counts(browser: &Browser, what: &str, text: &str) -> Value {
    browser.click("#count");
    browser.wait(
        &format!("the {what} count to end"),
        "return document.getElementById('status').textContent.startsWith('done: complete')",
    );
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("drawn.toml"), text).unwrap();
    let cli = Command::new(assert_cmd::cargo::cargo_bin("jigsolve"))
        .args(["solve", "drawn.toml", "--count", "--json"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&cli.stdout).to_string();
    let summary: Value = serde_json::from_str(out.lines().last().unwrap_or("")).unwrap();
    for key in ["raw", "distinct", "unique"] {
        assert_eq!(
            browser.text(&format!("#count-{key}")),
            summary[key].to_string(),
            "{what}: {key}"
        );
    }
    summary
}

/// Shows the search of the puzzle on the page and checks its table
/// against `jigsolve tree --json` on the page's text: as many depths, the
/// same total; and that its picture is the tree drawn.
fn search_shown_as_tree_shows_it(browser: &Browser, server: &Server, name: &str) {
    browser.click("#tree");
    browser.wait(
        &format!("the search tree of {name}"),
        "return document.getElementById('status').textContent.startsWith('done: complete') && !document.getElementById('tree-view').hidden",
    );
    let text = browser.script("return document.getElementById('text').value");
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("puzzle.toml"), text.as_str().unwrap()).unwrap();
    let cli = Command::new(assert_cmd::cargo::cargo_bin("jigsolve"))
        .args(["tree", "puzzle.toml", "--json"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let tree: Value = serde_json::from_slice(&cli.stdout).unwrap();
    let nodes = tree["nodes"].as_u64().unwrap();
    let grouped = common::grouped(nodes);
    assert_eq!(browser.text("#tree-nodes"), grouped, "{name}");
    assert_eq!(
        browser.script("return document.querySelectorAll('#tree-table tbody tr').length"),
        tree["depths"].as_array().unwrap().len(),
        "{name}"
    );
    let formula = tree["naive_space"]["formula"].as_str().unwrap();
    assert!(
        browser.text("#tree-naive-space").starts_with(formula),
        "{name}: {formula}"
    );
    assert!(
        browser.text("#tree-pruned").contains("never visited"),
        "{name}"
    );
    picture_shown(browser, "tree-picture");
    let src = browser.script("return document.getElementById('tree-picture').getAttribute('src')");
    // The page's addresses are relative to it (the page is at the root).
    let path = format!("/{}", src.as_str().unwrap().trim_start_matches('/'));
    let (status, svg) = server.get_bytes(&path);
    assert_eq!(status, 200);
    let svg = String::from_utf8(svg).unwrap();
    assert!(svg.starts_with("<svg"), "{name}");
    assert!(svg.contains(&format!("{grouped} nodes")), "{name}");
}

#[test]
fn the_page_in_a_real_browser() {
    if !browser_available() {
        return;
    }
    let server = Server::start(&["--threads", "2"]);
    let browser = Browser::start();
    browser.go(&server.url("/"));

    // Impuzzable: choose it, solve, one unique solution and its picture.
    choose_catalog(&browser, "impuzzable");
    picture_shown(&browser, "puzzle-picture");
    browser.click("#solve");
    browser.wait(
        "the search to end",
        "return document.getElementById('status').textContent.startsWith('done')",
    );
    assert_eq!(browser.text("#count-unique"), "1");
    assert!(browser.text("#mean-unique").contains("rotations"));
    picture_shown(&browser, "solution-picture");
    assert_eq!(browser.text("#position"), "solution 1 of 1");
    assert!(browser.script("return location.hash").as_str().unwrap() == "#catalog=impuzzable");
    browser.screenshot("serve-impuzzable");

    // Symmetry off (`--no-symmetry`): every distinct solution listed, 4.
    browser.click("#search-options summary");
    browser.click("#opt-symmetry");
    browser.click("#count");
    browser.wait(
        "the count without symmetry",
        "return document.getElementById('status').textContent.startsWith('done: complete')",
    );
    assert_eq!(browser.text("#count-listed"), "4");
    assert_eq!(browser.text("#count-unique"), "1");
    assert_eq!(browser.text("#position"), "solution 1 of 4");
    browser.click("#opt-symmetry");

    // Show the search: Impuzzable's tree (edge matching) and the tangram
    // square's (polygons), as `jigsolve tree` counts and draws them.
    search_shown_as_tree_shows_it(&browser, &server, "impuzzable");
    assert!(browser
        .text("#tree-naive-space")
        .starts_with("9! x 4^9 = 95,126,814,720"));
    browser.script("document.getElementById('status').scrollIntoView(); return true");
    browser.screenshot("serve-tree");
    choose_catalog(&browser, "tangram-square");
    search_shown_as_tree_shows_it(&browser, &server, "tangram-square");

    // The best board of Scramble: its full score, 12 of 12, its picture
    // and its link to the viewer.
    choose_catalog(&browser, "scramble");
    browser.click("#best");
    browser.wait(
        "the best board's full score",
        "return document.getElementById('status').textContent.startsWith('done: full score')",
    );
    assert_eq!(browser.text("#best-score"), "12 of 12");
    picture_shown(&browser, "best-picture");
    let link = browser.script("return document.getElementById('best-link').href");
    assert!(
        link.as_str()
            .unwrap()
            .starts_with("https://e2.bucas.name/#puzzle=scramble&board_w=3&board_h=3"),
        "{link}"
    );
    browser.screenshot("serve-best");

    // Paint a 3 x 20 board: a 3 x 21 board with its last column erased
    // cell by cell; the pentominoes; count: 2 unique solutions.
    browser.click("#tab-grid");
    browser.type_into("#grid-rows", "3");
    browser.type_into("#grid-cols", "21");
    browser.click("#grid-resize");
    for y in 0..3 {
        browser.click(&format!("#board-grid .cell[data-x='20'][data-y='{y}']"));
    }
    browser.click("#add-pentominoes");
    browser.wait(
        "the drawn puzzle read",
        "return document.getElementById('puzzle-info').textContent.startsWith('drawn:')",
    );
    let text = browser.script("return document.getElementById('text').value");
    assert!(
        text.as_str().unwrap().contains("board = \"\"\"\n####################\n####################\n####################\n\"\"\""),
        "{text}"
    );
    browser.click("#count");
    browser.wait(
        "the count to end",
        "return document.getElementById('status').textContent.startsWith('done: complete')",
    );
    assert_eq!(browser.text("#count-unique"), "2");
    assert_eq!(browser.text("#count-raw"), "8");
    picture_shown(&browser, "solution-picture");
    browser.click("#next");
    browser.wait(
        "solution 2",
        "return document.getElementById('position').textContent === 'solution 2 of 2'",
    );
    picture_shown(&browser, "solution-picture");
    browser.screenshot("serve-pentomino-3x20");
    search_shown_as_tree_shows_it(&browser, &server, "the painted 3 x 20 board");

    // Hexagons: the tetrahexes read back from the catalog's file into the
    // painter, a 4 x 8 parallelogram painted with its last hexagon of
    // each line erased: the 4 x 7 board, 18 raw and 9 unique solutions.
    browser.click("#tab-text");
    choose_catalog(&browser, "tetrahex-4x7");
    browser.click("#tab-grid");
    assert_eq!(
        browser.script("return document.getElementById('grid-lattice').value"),
        "hexagon"
    );
    assert_eq!(
        browser.script("return document.querySelectorAll('#piece-list li').length"),
        7
    );
    browser.type_into("#grid-rows", "4");
    browser.type_into("#grid-cols", "8");
    browser.click("#grid-resize");
    for y in 0..4 {
        browser.click(&format!("#board-grid .cell[data-x='7'][data-y='{y}']"));
    }
    browser.wait(
        "the painted hexagons read",
        "return document.getElementById('puzzle-info').textContent.startsWith('drawn:')",
    );
    let text = browser.script("return document.getElementById('text').value");
    assert!(
        text.as_str().unwrap().contains("lattice = \"hexagon\"\nsides = \"two\"\nboard = \"\"\"\n# # # # # # #\n # # # # # # #\n  # # # # # # #\n   # # # # # # #\n\"\"\""),
        "{text}"
    );
    browser.click("#count");
    browser.wait(
        "the hexagon count to end",
        "return document.getElementById('status').textContent.startsWith('done: complete')",
    );
    assert_eq!(browser.text("#count-raw"), "18");
    assert_eq!(browser.text("#count-unique"), "9");
    browser.screenshot("serve-hexagons");

    // Triangles: a parallelogram of 3 rhombi in a line, tiled by a
    // rhombus painted on the piece grid (3 copies); the command line
    // counts the written file the same.
    browser.click("#grid-lattice option[value='triangle']");
    browser.type_into("#grid-rows", "1");
    browser.type_into("#grid-cols", "3");
    browser.click("#grid-resize");
    browser.click("#piece-grid .cell[data-x='0'][data-y='0']");
    browser.click("#piece-grid .cell[data-x='1'][data-y='0']");
    browser.type_into("#piece-name", "R");
    browser.type_into("#piece-copies", "3");
    browser.click("#add-piece");
    browser.wait(
        "the painted triangles read",
        "return document.getElementById('puzzle-info').textContent.startsWith('drawn:') && document.getElementById('text').value.includes('copies = 3')",
    );
    let text = browser
        .script("return document.getElementById('text').value")
        .as_str()
        .unwrap()
        .to_string();
    assert!(text.contains("lattice = \"triangle\""), "{text}");
    assert!(text.contains("board = \"\"\"\n######\n\"\"\""), "{text}");
    assert!(text.contains("shape = \"\"\"\n##\n\"\"\""), "{text}");
    let summary = counted_as_solve_counts(&browser, "triangle", &text);
    assert!(summary["raw"].as_u64().unwrap() > 0, "{summary}");

    // Cubes: a 2 x 2 x 2 box painted layer by layer, filled by two copies
    // of a 2 x 2 slab painted on the piece's first layer; the command line
    // counts the written file the same, and the file is layers of art.
    browser.click("#grid-lattice option[value='cube']");
    browser.type_into("#grid-layers", "2");
    browser.type_into("#grid-rows", "2");
    browser.type_into("#grid-cols", "2");
    browser.click("#grid-resize");
    for (x, y) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
        browser.click(&format!(
            "#piece-grid .cell[data-x='{x}'][data-y='{y}'][data-z='0']"
        ));
    }
    browser.type_into("#piece-name", "S");
    browser.type_into("#piece-copies", "2");
    browser.click("#add-piece");
    browser.wait(
        "the painted cubes read",
        "return document.getElementById('puzzle-info').textContent.startsWith('drawn:') && document.getElementById('text').value.includes('copies = 2')",
    );
    let text = browser
        .script("return document.getElementById('text').value")
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        text.contains("board = [\"\"\"\n##\n##\n\"\"\", \"\"\"\n##\n##\n\"\"\"]"),
        "{text}"
    );
    let summary = counted_as_solve_counts(&browser, "cube", &text);
    // Three ways to cut the box in two slabs, one up to its symmetry.
    assert_eq!(summary["distinct"], 3, "{summary}");
    assert_eq!(summary["unique"], 1, "{summary}");

    // The tile table: four tiles of a 2 x 2 board and a hint typed in,
    // counted as the command line counts the file written.
    browser.click("#tab-edge");
    browser.type_into("#edge-rows", "2");
    browser.type_into("#edge-cols", "2");
    browser.click("#edge-resize");
    browser.type_into("#edge-border", "0");
    let tiles = [
        ["0", "+1", "+2", "0"],
        ["0", "0", "+3", "-1"],
        ["-2", "+4", "0", "0"],
        ["-3", "0", "0", "-4"],
    ];
    for (t, marks) in tiles.iter().enumerate() {
        for (side, mark) in marks.iter().enumerate() {
            browser.type_into(
                &format!(
                    "#tile-table tbody tr:nth-child({}) td:nth-of-type({}) input",
                    t + 1,
                    side + 1
                ),
                mark,
            );
        }
    }
    browser.click("#add-hint");
    for (i, value) in ["2", "1", "1", "3"].iter().enumerate() {
        browser.type_into(
            &format!(
                "#hint-table tbody tr:nth-child(1) td:nth-of-type({}) input",
                i + 1
            ),
            value,
        );
    }
    browser.wait(
        "the tiles read",
        "return document.getElementById('puzzle-info').textContent === 'drawn: edge matching' && document.getElementById('text').value.includes('rotation = 3')",
    );
    let text = browser
        .script("return document.getElementById('text').value")
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        text.contains("border = \"0\"\ntiles = [\n  \"0 +1 +2 0\",\n  \"0 0 +3 -1\",\n  \"-2 +4 0 0\",\n  \"-3 0 0 -4\",\n]\n\n[[hints]]\ntile = 2\nrow = 1\ncol = 1\nrotation = 3\n"),
        "{text}"
    );
    let summary = counted_as_solve_counts(&browser, "tile", &text);
    assert_eq!(summary["raw"], 1, "{summary}");
    picture_shown(&browser, "solution-picture");

    // The tile table reads an edge file back: impuzzable's nine tiles
    // appear in it, the keys it cannot hold are named, and a mark changed
    // in the table rewrites the file with the other tiles kept.
    browser.click("#tab-text");
    choose_catalog(&browser, "impuzzable");
    browser.click("#tab-edge");
    let value = |css: &str| {
        browser
            .script(&format!("return document.querySelector(\"{css}\").value"))
            .as_str()
            .unwrap()
            .to_string()
    };
    assert_eq!(value("#edge-rows"), "3");
    assert_eq!(value("#edge-cols"), "3");
    let cell = |t: usize, side: usize| {
        format!("#tile-table tbody tr:nth-child({t}) td:nth-of-type({side}) input")
    };
    let first: Vec<String> = (1..=4).map(|side| value(&cell(1, side))).collect();
    assert_eq!(first, ["-3", "-2", "+3", "+1"]);
    assert_eq!(value(&cell(9, 4)), "-2");
    let note = browser.text("#edge-note");
    assert!(
        note.contains("marks") && note.contains("[expected]"),
        "{note}"
    );
    browser.type_into(&cell(9, 4), "-3");
    browser.wait(
        "the edited table written",
        "return document.getElementById('text').value.includes('\"-4 +3 +3 -3\"')",
    );
    let text = browser
        .script("return document.getElementById('text').value")
        .as_str()
        .unwrap()
        .to_string();
    assert!(text.contains("\"-3 -2 +3 +1\""), "{text}");

    // Bedlam: count, see it run, Stop; the server is idle again.
    browser.click("#tab-text");
    choose_catalog(&browser, "bedlam");
    browser.click("#count");
    browser.wait(
        "Bedlam's progress",
        "const n = document.getElementById('progress-nodes'); return !!n && n.textContent !== '0'",
    );
    assert_eq!(server.status()["running"], 1);
    browser.screenshot("serve-bedlam");
    browser.click("#stop");
    browser.wait(
        "Bedlam stopped",
        "return document.getElementById('status').textContent.startsWith('done: stopped')",
    );
    assert_eq!(server.status()["running"], 0);

    // A bad file: its error, with its line, as the command line says it.
    let bad = "family = \"edge\"\nrows = 1\ncols = 1\n\ntiles = [\"1 2 3\"]\n";
    browser.type_into("#label", "bad.toml");
    browser.type_into("#text", bad);
    browser.wait(
        "the error",
        "return !document.getElementById('error').hidden",
    );
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bad.toml"), bad).unwrap();
    let cli = Command::new(assert_cmd::cargo::cargo_bin("jigsolve"))
        .args(["solve", "bad.toml"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let cli_message = String::from_utf8_lossy(&cli.stderr)
        .trim()
        .trim_start_matches("error: ")
        .to_string();
    assert!(cli_message.starts_with("bad.toml:5:"), "{cli_message}");
    assert_eq!(browser.text("#error"), format!("{cli_message} show line 5"));
    browser.click("#error-line");
    let selected = browser.script(
        "const a = document.getElementById('text'); return a.value.slice(a.selectionStart, a.selectionEnd)",
    );
    assert_eq!(selected, "tiles = [\"1 2 3\"]");
    browser.screenshot("serve-error");

    // A shared link: the same puzzle, text and all, in a fresh page.
    let scramble = server.get("/api/catalog/scramble").1["text"]
        .as_str()
        .unwrap()
        .replace("name = \"scramble\"", "name = \"my-scramble\"");
    browser.type_into("#label", "mine.toml");
    browser.type_into("#text", &scramble);
    browser.wait(
        "the pasted puzzle read",
        "return document.getElementById('puzzle-info').textContent.startsWith('my-scramble:')",
    );
    browser.click("#share");
    // The link is written once the page has updated its address, which is
    // asynchronous: on a loaded machine the click returns before it.
    browser.wait(
        "the share link",
        "return document.getElementById('share-link').value !== ''",
    );
    let link = browser
        .script("return document.getElementById('share-link').value")
        .as_str()
        .unwrap()
        .to_string();
    assert!(link.contains("#label=mine.toml&text="), "{link}");
    browser.call("POST", "/url", Some(json!({ "url": "about:blank" })));
    browser.go(&link);
    browser.wait(
        "the linked puzzle read",
        "return document.getElementById('puzzle-info').textContent.startsWith('my-scramble:')",
    );
    let text = browser.script("return document.getElementById('text').value");
    assert_eq!(text.as_str().unwrap(), scramble);
    assert_eq!(
        browser.script("return document.getElementById('label').value"),
        "mine.toml"
    );
    picture_shown(&browser, "puzzle-picture");
    browser.go(&server.url("/#catalog=hunde-spiel"));
    browser.wait(
        "the catalog link read",
        "return document.getElementById('puzzle-info').textContent.startsWith('hunde-spiel:')",
    );
    drop(browser);
    server.wait_idle(Duration::from_secs(10));
}

/// A calendar on the page: choosing A-Puzzle-A-Day shows a picker per open
/// group; "Count every goal" shows the 372 month-day pairs, the fewest and
/// the heat map; a date's row lists that date's solutions (Oct 6: 7), as
/// `solve --open` counts them.
#[test]
fn a_calendar_on_the_page() {
    if !browser_available() {
        return;
    }
    let server = Server::start(&["--threads", "2"]);
    let browser = Browser::start();
    browser.go(&server.url("/"));
    choose_catalog(&browser, "a-puzzle-a-day");
    browser.wait(
        "the calendar's pickers",
        "return !document.getElementById('calendar').hidden && document.querySelectorAll('#open-pickers select').length === 2",
    );
    browser.click("#by-open");
    browser.wait(
        "every date counted",
        "return document.getElementById('status').textContent.startsWith('done: complete') && !document.getElementById('goals-view').hidden",
    );
    assert_eq!(
        browser.script("return document.querySelectorAll('#goals-table tbody tr').length"),
        372
    );
    assert_eq!(browser.text("#count-distinct"), "25,061");
    let summary = browser.text("#goals-summary");
    assert!(summary.contains("fewest: Oct 6 (7)"), "{summary}");
    assert!(summary.contains("most: Jan 25 (216)"), "{summary}");
    picture_shown(&browser, "heat-map");
    browser.script(
        "for (const tr of document.querySelectorAll('#goals-table tbody tr')) if (tr.cells[0].textContent === 'Oct 6') tr.querySelector('button').click(); return true",
    );
    browser.wait(
        "Oct 6 counted",
        "return document.getElementById('status').textContent.startsWith('done: complete') && !document.getElementById('browser').hidden",
    );
    assert_eq!(browser.text("#count-distinct"), "7");
    picture_shown(&browser, "solution-picture");
    browser.screenshot("serve-calendar");
}

/// A search the system gave fewer threads than asked (a server under a
/// memory cap) ends with the command line's warning on the page.
#[cfg(unix)]
#[test]
fn refused_threads_are_a_warning_on_the_page() {
    if !browser_available() {
        return;
    }
    let server = Server::start_capped(&["--threads", "16"], 3_000_000);
    let browser = Browser::start();
    browser.go(&server.url("/"));
    choose_catalog(&browser, "pentomino-6x10");
    browser.click("#search-options summary");
    browser.type_into("#opt-threads", "16");
    browser.click("#count");
    browser.wait(
        "the count to end",
        "return document.getElementById('status').textContent.startsWith('done: complete')",
    );
    assert_eq!(browser.text("#count-raw"), "9,356");
    let warning = browser.text("#search-warning");
    assert!(
        warning.contains("the system refused some search threads")
            && warning.contains("of the 16 asked for ran the search"),
        "{warning}"
    );
}
