//! Calendar puzzles: cells left open by name (`--open`), every goal in one
//! search (`--by-open`), the heat map, and the file format's open groups,
//! holes and piece ranges. Every per-goal count is checked against the same
//! puzzle written without open cells (the date's two cells taken off the
//! board) and solved on its own; listed solutions pass `verify`.

mod common;
use common::*;
use serde_json::Value;
use std::collections::HashMap;

const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

/// The catalog's A-Puzzle-A-Day file.
fn calendar_text() -> String {
    std::fs::read_to_string(root().join("puzzles/grid/a-puzzle-a-day.toml")).unwrap()
}

/// The calendar as a plain polyform puzzle for one date: its month and
/// day taken off the board, no open groups.
fn one_date_file(month: usize, day: usize) -> String {
    let mut rows: Vec<Vec<char>> = vec![
        "######.".chars().collect(),
        "######.".chars().collect(),
        "#######".chars().collect(),
        "#######".chars().collect(),
        "#######".chars().collect(),
        "#######".chars().collect(),
        "###....".chars().collect(),
    ];
    rows[month / 6][month % 6] = '.';
    rows[2 + (day - 1) / 7][(day - 1) % 7] = '.';
    let board: Vec<String> = rows.into_iter().map(|r| r.into_iter().collect()).collect();
    let text = calendar_text();
    let pieces = &text[text.find("[[piece]]").unwrap()..text.find("[expected]").unwrap()];
    format!(
        "family = \"grid\"\nname = \"date\"\nsides = \"two\"\nboard = \"\"\"\n{}\n\"\"\"\n\n{pieces}",
        board.join("\n")
    )
}

/// `solve --by-open --json` of `puzzle`: each goal's distinct count by its
/// open cells joined with spaces, and the summary.
fn by_open(puzzle: &str, extra: &[&str]) -> (HashMap<String, u128>, Value) {
    let mut args = vec!["solve", puzzle, "--by-open", "--json", "--no-progress"];
    args.extend_from_slice(extra);
    let out = succeeds(jigsolve().current_dir(root()).args(&args));
    let lines = json_lines(&out.stdout);
    let mut goals = HashMap::new();
    for line in &lines[..lines.len() - 1] {
        assert_eq!(line["type"], "goal", "{line}");
        let open = line["open"].as_object().unwrap();
        // One cell of a group is its name, several (the hole limit's) a list.
        let name: Vec<&str> = open
            .values()
            .flat_map(|v| match v.as_array() {
                Some(a) => a.iter().map(|c| c.as_str().unwrap()).collect(),
                None => vec![v.as_str().unwrap()],
            })
            .collect();
        goals.insert(
            name.join(" "),
            line["counts"]["distinct"].as_u64().unwrap() as u128,
        );
    }
    (goals, lines.last().unwrap().clone())
}

#[test]
fn every_date_of_a_puzzle_a_day_is_counted_as_if_solved_alone() {
    let (goals, summary) = by_open("a-puzzle-a-day", &[]);
    assert_eq!(goals.len(), 12 * 31);
    assert_eq!(summary["distinct"], 25_061, "{summary}");
    assert_eq!(summary["goals"]["with_solutions"], 372);
    assert_eq!(goals.values().sum::<u128>(), 25_061);
    assert_eq!(goals["Oct 6"], 7);
    assert_eq!(goals["Jan 25"], 216);
    assert_eq!(*goals.values().min().unwrap(), 7);
    // Every date, as a file of its own without open cells: the bitboard
    // engine on all of them, dancing links on a dozen.
    let dir = tempfile::tempdir().unwrap();
    for (m, month) in MONTHS.iter().enumerate() {
        for day in 1..=31 {
            let path = dir.path().join(format!("{month}-{day}.toml"));
            std::fs::write(&path, one_date_file(m, day)).unwrap();
            let mut args = vec!["solve", path.to_str().unwrap(), "--count", "--json"];
            if (m * 31 + day) % 31 == 0 {
                args.extend(["--engine", "dlx"]);
            }
            let alone = last_json(&succeeds(jigsolve().args(&args)));
            assert_eq!(
                alone["distinct"].as_u64().unwrap() as u128,
                goals[&format!("{month} {day}")],
                "{month} {day}"
            );
        }
    }
}

/// The calendar frame with any two cells left open (`holes = 2`, no
/// groups): 59,787 ways, the "roughly 60 thousand ways the pieces can fit"
/// of public solvers; and the month-day pairs among them are 25,061.
#[test]
fn any_two_cells_open_is_the_hole_limit() {
    let text = calendar_text();
    let start = text.find("[[open]]").unwrap();
    let end = text.find("[[piece]]").unwrap();
    let any_two = format!(
        "holes = 2\n{}",
        &text[end..text.find("[expected]").unwrap()]
    );
    let f = file(&format!("{}{any_two}", &text[..start]));
    let summary = last_json(&succeeds(jigsolve().args([
        "solve",
        f.path().to_str().unwrap(),
        "--count",
        "--json",
    ])));
    assert_eq!(summary["raw"], 59_787, "{summary}");
    assert_eq!(summary["distinct"], 59_787, "{summary}");
}

#[test]
fn one_date_is_solved_by_name_and_its_solutions_verify() {
    let out = succeeds(jigsolve().args([
        "solve",
        "a-puzzle-a-day",
        "--open",
        "oct, 6",
        "--json",
        "--no-progress",
    ]));
    let lines = json_lines(&out.stdout);
    assert_eq!(lines.len(), 7 + 1);
    for line in &lines[..7] {
        let open = &line["solution"]["open"];
        assert_eq!(open[0]["group"], "month");
        assert_eq!(open[0]["label"], "Oct");
        assert_eq!(open[1]["label"], "6");
        let grid: Vec<&str> = line["solution"]["grid"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r.as_str().unwrap())
            .collect();
        assert_eq!(grid.concat().matches('_').count(), 2, "{grid:?}");
    }
    let saved = file(&String::from_utf8_lossy(&out.stdout));
    assert_verified("a-puzzle-a-day", saved.path());
    // A solution of another date is not one of this puzzle's with Oct 6
    // open, but it is one of the calendar's.
    let mut moved: Value = lines[0].clone();
    moved["solution"]["placements"]
        .as_array_mut()
        .unwrap()
        .retain(|p| p["piece"] != "month");
    let broken = file(&format!("{moved}\n"));
    let out = jigsolve()
        .args(["verify", "a-puzzle-a-day"])
        .arg(broken.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn the_heat_map_shows_each_cell_with_its_count() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("heat.svg");
    let (goals, _) = by_open("a-puzzle-a-day", &["--heat-map", svg.to_str().unwrap()]);
    let text = std::fs::read_to_string(&svg).unwrap();
    roxmltree::Document::parse(&text).unwrap();
    let jan: u128 = (1..=31).map(|d| goals[&format!("Jan {d}")]).sum();
    let sixth: u128 = MONTHS.iter().map(|m| goals[&format!("{m} 6")]).sum();
    assert!(text.contains(&format!(">Jan {jan}<")), "Jan {jan}");
    assert!(text.contains(&format!(">6 {sixth}<")), "6 {sixth}");
    let png = dir.path().join("heat.png");
    succeeds(
        jigsolve()
            .args(["solve", "a-puzzle-a-day", "--by-open", "--heat-map"])
            .arg(&png),
    );
    assert!(std::fs::read(&png).unwrap().starts_with(b"\x89PNG"));
}

#[test]
fn the_weekday_calendar_counts_every_month_day_and_weekday() {
    let (goals, summary) = by_open("calendar-weekday", &[]);
    assert_eq!(goals.len(), 12 * 31 * 7);
    assert_eq!(summary["distinct"], 4_937_780, "{summary}");
    assert_eq!(goals["Apr 6 Mon"], 97);
    assert_eq!(goals["Jun 7 Tue"], 10_374);
    for goal in ["Apr 6 Mon", "Feb 29 Sat", "Dec 31 Sun"] {
        let cells = goal.replace(' ', ",");
        let alone = last_json(&succeeds(jigsolve().args([
            "solve",
            "calendar-weekday",
            "--open",
            &cells,
            "--count",
            "--json",
            "--engine",
            "dlx",
        ])));
        assert_eq!(
            alone["distinct"].as_u64().unwrap() as u128,
            goals[goal],
            "{goal}"
        );
    }
}

#[test]
fn open_groups_holes_and_ranges_in_a_file() {
    // At most two open cells anywhere on a 2 x 3 board, and one or two
    // dominoes: counted against the same board with each pair of cells
    // taken off and exactly two dominoes (one domino cannot cover four).
    let text = "family = \"grid\"\nname = \"small\"\nboard = \"\"\"\n###\n###\n\"\"\"\nholes = 2\n[[piece]]\nname = \"D\"\nshape = \"##\"\ncopies = \"1..2\"\n";
    let f = file(text);
    let (goals, summary) = by_open(f.path().to_str().unwrap(), &[]);
    // Pairs of cells whose removal leaves a board two dominoes tile.
    let cells = [(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1)];
    let mut want = 0;
    for i in 0..6 {
        for j in i + 1..6 {
            let mut rows = vec![vec!['#'; 3]; 2];
            rows[cells[i].1][cells[i].0] = '.';
            rows[cells[j].1][cells[j].0] = '.';
            let board: Vec<String> = rows.into_iter().map(|r| r.into_iter().collect()).collect();
            let plain = format!(
                "family = \"grid\"\nboard = \"\"\"\n{}\n\"\"\"\n[[piece]]\nname = \"D\"\nshape = \"##\"\ncopies = 2\n",
                board.join("\n")
            );
            let g = file(&plain);
            let out = jigsolve()
                .args(["solve", g.path().to_str().unwrap(), "--count", "--json"])
                .output()
                .unwrap();
            if out.status.code() == Some(0) {
                let n = last_json(&out)["distinct"].as_u64().unwrap();
                want += n;
                assert!(n > 0);
            }
        }
    }
    assert_eq!(summary["distinct"].as_u64().unwrap(), want);
    assert_eq!(goals.values().sum::<u128>(), want as u128);
    // The listed solutions verify, their open cells among them.
    let out = succeeds(jigsolve().args([
        "solve",
        f.path().to_str().unwrap(),
        "--json",
        "--no-symmetry",
    ]));
    let lines = json_lines(&out.stdout);
    assert_eq!(lines.len() as u64, want + 1);
    assert!(lines[..lines.len() - 1]
        .iter()
        .all(|l| l["solution"]["open"].as_array().unwrap().len() == 2));
    let saved = file(&String::from_utf8_lossy(&out.stdout));
    assert_verified(f.path().to_str().unwrap(), saved.path());
}

#[test]
fn wrong_open_cells_and_ranges_are_named_with_their_line() {
    let calendar = calendar_text();
    // A group cell off the board.
    let off = calendar.replace("cells = \"m\"", "cells = [[6, 0]]").replace(
        "labels = [\"Jan\", \"Feb\", \"Mar\", \"Apr\", \"May\", \"Jun\", \"Jul\", \"Aug\", \"Sep\", \"Oct\", \"Nov\", \"Dec\"]",
        "",
    );
    assert_rejected(
        &off,
        ":20: open group 'month': the cell (6,0) is not a board cell",
    );
    // A letter the art does not draw.
    let letter = calendar.replace("cells = \"m\"", "cells = \"q\"");
    assert_rejected(
        &letter,
        ":22: open group 'month': no board cell is drawn with 'q'",
    );
    // Labels that do not match the cells.
    let labels = calendar.replace("\"Nov\", \"Dec\"]", "\"Nov\"]");
    assert_rejected(
        &labels,
        ":23: open group 'month' has 12 cells but 11 labels",
    );
    // A range whose least is more than its most.
    let range = calendar.replace("name = \"R\"\n", "name = \"R\"\ncopies = \"3..1\"\n");
    assert_rejected(
        &range,
        ":33: piece 'R' has copies = \"3..1\": the least is more than the most",
    );
    let range = calendar.replace("name = \"R\"\n", "name = \"R\"\ncopies = \"two\"\n");
    assert_rejected(
        &range,
        ":33: expected a number of copies from 0 to 65535, or a range",
    );

    for (args, message) in [
        (
            vec!["--open", "Jan,32"],
            "no cell that may stay open is called '32'",
        ),
        (
            vec!["--open", "Jan"],
            "--open names 0 cells of 'day', which leaves 1 open",
        ),
        (
            vec!["--open", "Jan,Feb,3"],
            "--open names 2 cells of 'month', which leaves 1 open",
        ),
        (vec!["--by-open", "--limit", "3"], "add --json"),
        (
            vec!["--by-open", "--open", "Jan,1"],
            "--by-open counts every goal and --open solves one: give one or the other",
        ),
        (
            vec!["--by-open", "--svg", "pictures"],
            "--by-open lists no solutions to draw: --svg and --png go without it",
        ),
        (
            vec![
                "--by-open",
                "--json",
                "--limit",
                "2",
                "--checkpoint",
                "c.json",
            ],
            "saves each goal's counts but not its first solutions",
        ),
        (
            vec!["--heat-map", "h.svg"],
            "--heat-map draws the counts of --by-open",
        ),
        (
            vec!["--by-open", "--heat-map", "h.jpg"],
            "name a .svg or .png file",
        ),
    ] {
        let out = jigsolve()
            .args(["solve", "a-puzzle-a-day"])
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(message), "{args:?}: {err}");
    }
    let out = jigsolve()
        .args(["solve", "pentomino-6x10", "--by-open"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("leaves no cells open"));
}

/// `split --by-open` prints shards that count by goal; `merge` adds their
/// goals up to the one search's; they do not merge with a plain count's
/// shards, and an edited goal count is refused.
#[test]
fn shards_counted_by_goal_merge_to_the_whole() {
    let (whole, _) = by_open("a-puzzle-a-day", &[]);
    let dir = tempfile::tempdir().unwrap();
    let plan = succeeds(jigsolve().current_dir(dir.path()).args([
        "split",
        "a-puzzle-a-day",
        "--shards",
        "3",
        "--by-open",
    ]));
    let commands: Vec<String> = String::from_utf8_lossy(&plan.stdout)
        .lines()
        .filter(|l| l.starts_with("jigsolve "))
        .map(str::to_string)
        .collect();
    assert_eq!(commands.len(), 3);
    for c in &commands {
        assert!(c.contains("--by-open --shard"), "{c}");
        let words: Vec<&str> = c.split_whitespace().skip(1).collect();
        succeeds(
            jigsolve()
                .current_dir(dir.path())
                .args(&words)
                .arg("--no-progress"),
        );
    }
    let files: Vec<std::path::PathBuf> = (0..3)
        .map(|i| {
            dir.path()
                .join(format!("a-puzzle-a-day.shard-{i}-of-3.json"))
        })
        .collect();
    let out = succeeds(jigsolve().arg("merge").arg("--json").args(&files));
    let lines = json_lines(&out.stdout);
    let merged = lines.last().unwrap();
    assert_eq!(merged["distinct"], 25_061, "{merged}");
    assert_eq!(merged["complete"], true);
    let mut goals = HashMap::new();
    for line in &lines[..lines.len() - 1] {
        let open = &line["open"];
        let name = format!(
            "{} {}",
            open["month"].as_str().unwrap(),
            open["day"].as_str().unwrap()
        );
        goals.insert(name, line["counts"]["distinct"].as_u64().unwrap() as u128);
    }
    assert_eq!(goals, whole);

    // A plain count's shard is of another split.
    let plain = dir.path().join("plain.json");
    succeeds(
        jigsolve()
            .args([
                "solve",
                "a-puzzle-a-day",
                "--count",
                "--shard",
                "1/3",
                "--output",
            ])
            .arg(&plain),
    );
    let out = jigsolve()
        .arg("merge")
        .args([&files[0], &plain, &files[2]])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("split"));
    // An edited goal count.
    let text = std::fs::read_to_string(&files[1]).unwrap();
    let mut v: Value = serde_json::from_str(&text).unwrap();
    let n = v["goals"][0]["counts"]["distinct"].as_u64().unwrap();
    v["goals"][0]["counts"]["distinct"] = serde_json::json!(n + 1);
    std::fs::write(&files[1], v.to_string()).unwrap();
    let out = jigsolve().arg("merge").args(&files).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("checksum"));
}

/// `--by-open --json --limit N`: each goal's line carries its first N
/// solutions (all of them when it has fewer), each a solution of that goal
/// that `verify` accepts.
#[test]
fn each_goal_lists_its_first_solutions() {
    let out = succeeds(jigsolve().args([
        "solve",
        "a-puzzle-a-day",
        "--by-open",
        "--json",
        "--limit",
        "3",
        "--no-progress",
    ]));
    let lines = json_lines(&out.stdout);
    let mut listed = String::new();
    for line in &lines[..lines.len() - 1] {
        let distinct = line["counts"]["distinct"].as_u64().unwrap();
        let first = line["solutions"].as_array().unwrap();
        assert_eq!(first.len() as u64, distinct.min(3), "{}", line["open"]);
        for solution in first {
            let open = solution["open"].as_array().unwrap();
            assert_eq!(open[0]["label"], line["open"]["month"]);
            assert_eq!(open[1]["label"], line["open"]["day"]);
            let record = serde_json::json!({"type": "solution", "solution": solution});
            listed.push_str(&format!("{record}\n"));
        }
    }
    let saved = file(&listed);
    assert_verified("a-puzzle-a-day", saved.path());
}

/// `solve --by-open --checkpoint`, stopped by a node limit again and again
/// and resumed until done (one thread and two), gives every goal the count
/// of one uninterrupted run; the checkpoint is refused by a plain count
/// (other options), and an edited goal count fails its checksum.
#[test]
fn a_count_by_goal_stopped_and_resumed_counts_every_goal_once() {
    let (whole, summary) = by_open("a-puzzle-a-day", &["--stats"]);
    assert_eq!(summary["complete"], true);
    // --stats: the nodes and the placements tried at each depth.
    assert!(summary["nodes_per_depth"].is_array(), "{summary}");
    assert!(summary["tried_per_depth"].is_array(), "{summary}");
    let dir = tempfile::tempdir().unwrap();
    for threads in ["1", "2"] {
        let file = dir.path().join(format!("goals-{threads}.checkpoint"));
        let mut runs = 0;
        let (goals, last) = loop {
            runs += 1;
            assert!(runs < 100, "not done after 100 runs");
            let out = jigsolve()
                .current_dir(root())
                .args([
                    "solve",
                    "a-puzzle-a-day",
                    "--by-open",
                    "--json",
                    "--no-progress",
                ])
                .args([
                    "--threads",
                    threads,
                    "--node-limit",
                    "40000",
                    "--checkpoint",
                ])
                .arg(&file)
                .output()
                .unwrap();
            match out.status.code() {
                Some(0) => {
                    let (goals, last) = by_open(
                        "a-puzzle-a-day",
                        &["--threads", threads, "--checkpoint", file.to_str().unwrap()],
                    );
                    break (goals, last);
                }
                Some(3) => continue,
                other => panic!("{other:?}: {}", String::from_utf8_lossy(&out.stderr)),
            }
        };
        assert!(runs > 3, "{threads} threads: {runs} runs");
        assert_eq!(last["complete"], true);
        assert_eq!(last["distinct"], 25061, "{last}");
        assert!(
            last["checkpoint"]
                .as_str()
                .unwrap()
                .contains("resumed with"),
            "{last}"
        );
        assert_eq!(goals, whole, "{threads} threads");
    }

    // A plain count does not take a checkpoint counted by goal.
    let file = dir.path().join("goals-1.checkpoint");
    let with = |args: &[&str]| {
        let mut cmd = jigsolve();
        cmd.current_dir(root())
            .args(["solve", "a-puzzle-a-day", "--no-progress", "--checkpoint"])
            .arg(&file)
            .args(args);
        cmd
    };
    let err = refuses(&mut with(&["--count"]));
    assert!(err.contains("made with other options"), "{err}");
    // An edited goal count is refused.
    let text = std::fs::read_to_string(&file).unwrap();
    let at = text.find("\"goals\":[[[").expect("the goals are saved");
    let edited = text[..at].to_string() + &text[at..].replacen("\"2", "\"3", 1);
    assert_ne!(edited, text);
    std::fs::write(&file, edited).unwrap();
    let err = refuses(&mut with(&["--by-open"]));
    assert!(err.contains("checksum"), "{err}");
}
