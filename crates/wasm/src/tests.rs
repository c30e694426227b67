//! The entry point's answers, asserted as the page reads them.

use super::*;

use std::sync::Mutex;

fn request(body: Value) -> (Value, Vec<Value>) {
    let events = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&events);
    let emit: Emit = Arc::new(move |e: &str| {
        sink.lock().unwrap().push(serde_json::from_str(e).unwrap());
    });
    let answer = handle(&body.to_string(), &emit);
    let events = events.lock().unwrap().clone();
    (serde_json::from_str(&answer).unwrap(), events)
}

fn catalog_source(name: &str) -> Source {
    let entry = catalog::find(name).unwrap();
    Source {
        label: entry.path.into(),
        text: entry.text.into(),
    }
}

#[test]
fn shards_of_a_count_add_up_to_the_published_count_and_their_solutions_verify() {
    let entry = catalog::find("pentomino-6x10").unwrap();
    let puzzle = family::load(
        &Source {
            label: entry.name.into(),
            text: entry.text.into(),
        },
        None,
    )
    .unwrap();
    let mut unique = 0;
    let mut seen = 0;
    for i in 0..3 {
        let (answer, events) = request(json!({
            "route": "search", "mode": "count", "text": entry.text,
            "label": entry.name, "shard": [i, 3], "keep": 50
        }));
        unique += answer["summary"]["unique"].as_u64().unwrap();
        for e in events.iter().filter(|e| e["type"] == "solution") {
            puzzle.verify(&e["solution"]).unwrap();
            seen += 1;
        }
    }
    assert_eq!(unique, 2339, "pentominoes 6 x 10, unique solutions");
    assert_eq!(seen, 150, "50 kept solutions a shard");
}

#[test]
fn every_date_of_a_calendar_is_counted_in_one_request() {
    let entry = catalog::find("a-puzzle-a-day").unwrap();
    let (answer, _) = request(json!({
        "route": "search", "mode": "by-open", "text": entry.text, "label": entry.name
    }));
    let goals = answer["goals"].as_array().unwrap();
    let with: Vec<&Value> = goals
        .iter()
        .filter(|g| g["counts"]["distinct"] != 0)
        .collect();
    // Every month-day pair has a solution (Feb 30 too: the frame does
    // not know the calendar), 25,061 in all.
    assert_eq!(with.len(), 372, "{}", answer["summary"]);
    let total: u64 = with
        .iter()
        .map(|g| g["counts"]["distinct"].as_u64().unwrap())
        .sum();
    assert_eq!(total, 25_061);
    assert_eq!(answer["summary"]["distinct"], 25_061);
    assert!(answer["heat_map"].as_str().unwrap().starts_with("<svg"));
}

#[test]
fn bad_requests_are_errors_that_say_what_is_wrong() {
    let (answer, _) = request(
        json!({"route": "search", "mode": "count", "text": "board = 7\n", "label": "bad.toml"}),
    );
    assert!(
        answer["error"].as_str().unwrap().contains("bad.toml"),
        "{answer}"
    );
    let scramble = catalog::find("scramble").unwrap();
    let (answer, _) = request(
        json!({"route": "search", "mode": "best", "text": scramble.text, "label": scramble.path}),
    );
    assert!(
        answer["error"].as_str().unwrap().contains("\"seed\""),
        "{answer}"
    );
    let (answer, _) = request(json!({"route": "nowhere"}));
    assert!(
        answer["error"].as_str().unwrap().contains("unknown route"),
        "{answer}"
    );
    let (answer, _) =
        request(json!({"route": "search", "mode": "count", "text": "x", "shard": [3, 3]}));
    assert!(
        answer["error"].as_str().unwrap().contains("shard"),
        "{answer}"
    );
    let (answer, _) = request(json!({"route": "catalog"}));
    assert!(answer["puzzles"].as_array().unwrap().len() > 20, "{answer}");
}

#[test]
fn a_count_says_how_far_it_is_and_its_kept_solutions_draw_with_their_weight() {
    let source = catalog_source("hexiamond-6x6");
    let (answer, events) = request(json!({
        "route": "search", "mode": "count", "text": source.text, "label": source.label, "keep": 3
    }));
    let progress: Vec<&Value> = events.iter().filter(|e| e["type"] == "progress").collect();
    // The heartbeat beats at the first poll, then every quarter second.
    assert!(!progress.is_empty(), "{events:?}");
    assert!(progress
        .iter()
        .all(|p| p["fraction"].as_f64().unwrap() <= 1.0));
    assert_eq!(answer["summary"]["unique"], 156, "{answer}");
    let kept: Vec<&Value> = events.iter().filter(|e| e["type"] == "solution").collect();
    assert_eq!(kept.len(), 3);
    let (drawn, _) = request(json!({
        "route": "picture", "text": source.text, "label": source.label,
        "solution": kept[1]["solution"], "index": 2, "weight": kept[1]["weight"]
    }));
    let svg = drawn["svg"].as_str().unwrap();
    assert!(svg.starts_with("<svg"), "{drawn}");
    let raw = &kept[1]["weight"]["raw"];
    assert!(
        svg.contains(&format!("solution 2 (stands for {raw} raw")),
        "{svg}"
    );
    // A solution that does not fit the puzzle is not drawn.
    let (refused, _) = request(json!({
        "route": "picture", "text": source.text, "label": source.label, "solution": {"pieces": []}
    }));
    assert!(refused["error"].is_string(), "{refused}");
}

#[test]
fn the_best_board_of_a_worker_reaches_full_score_with_its_boards_as_events() {
    let source = catalog_source("scramble");
    let (answer, events) = request(json!({
        "route": "search", "mode": "best", "text": source.text, "label": source.label, "seed": 7
    }));
    assert_eq!(answer["summary"]["end"], "full score", "{answer}");
    assert_eq!(answer["summary"]["score"], 12);
    let boards: Vec<&Value> = events.iter().filter(|e| e["type"] == "best").collect();
    let last = &boards.last().expect("a board as an event")["line"];
    assert_eq!(last["score"], 12);
    let puzzle = family::load_edge(&source, None, "the test").unwrap();
    let board = family::edge_board_of(&puzzle, last).unwrap();
    assert_eq!(
        jigsolve_edge::score::score(&puzzle, &board).unwrap(),
        12,
        "rescored by the edge crate's checker"
    );
    let (drawn, _) = request(json!({
        "route": "picture", "text": source.text, "label": source.label, "best": last
    }));
    assert!(
        drawn["svg"]
            .as_str()
            .unwrap()
            .contains("12 of 12 inner edges match"),
        "{drawn}"
    );
}

#[test]
fn the_tree_is_counted_as_the_count_walks_it() {
    let source = catalog_source("impuzzable");
    let (answer, _) = request(json!({
        "route": "search", "mode": "tree", "text": source.text, "label": source.label
    }));
    let (count, _) = request(json!({
        "route": "search", "mode": "count", "text": source.text, "label": source.label
    }));
    assert_eq!(
        answer["tree"]["nodes"], count["summary"]["nodes"],
        "{answer}"
    );
    assert!(answer["naive"]["space"]
        .as_str()
        .unwrap()
        .starts_with("9! x 4^9"));
    assert!(answer["svg"].as_str().unwrap().starts_with("<svg"));
}

#[test]
fn goal_lines_of_shards_added_up_draw_the_whole_search_s_heat_map() {
    let source = catalog_source("a-puzzle-a-day");
    let ask = |shard: Value| {
        request(json!({
            "route": "search", "mode": "by-open", "text": source.text, "label": source.label,
            "shard": shard
        }))
        .0
    };
    let whole = ask(Value::Null);
    let parts = [ask(json!([0, 2])), ask(json!([1, 2]))];
    let mut added: Vec<Value> = whole["goals"].as_array().unwrap().clone();
    for goal in &mut added {
        let mut sum = 0;
        for part in &parts {
            let same = part["goals"]
                .as_array()
                .unwrap()
                .iter()
                .find(|g| g["open"] == goal["open"]);
            sum += same.map_or(0, |g| g["counts"]["distinct"].as_u64().unwrap());
        }
        assert_eq!(
            goal["counts"]["distinct"].as_u64().unwrap(),
            sum,
            "{}",
            goal["open"]
        );
        goal["counts"]["distinct"] = json!(sum);
    }
    let (drawn, _) = request(json!({
        "route": "heat-map", "text": source.text, "label": source.label, "goals": added
    }));
    assert_eq!(drawn["svg"], whole["heat_map"]);
}
