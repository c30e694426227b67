//! The best-board search against the independent scorer: every reported
//! score recounted, full scores on puzzles known to have solutions, the same
//! run from the same seed, hints kept, bad options refused, and viewer links
//! read back.

mod common;

use common::load;
use jigsolve_edge::best::{
    max_score, search_best, BestEnd, BestError, BestOptions, BestOrder, Improvement,
};
use jigsolve_edge::score::{link, read_link, score, BoardError, LinkError};
use jigsolve_edge::{verify, Placement, Puzzle};
use jigsolve_search::Control;
use std::sync::Mutex;

/// Runs the search, checking every improvement with the scorer as it comes
/// (and that scores only go up); returns the improvements and the end.
fn run(puzzle: &Puzzle, options: &BestOptions, control: &Control) -> (Vec<Improvement>, BestEnd) {
    let seen = Mutex::new(Vec::<Improvement>::new());
    let sink = |found: &Improvement| {
        assert_eq!(
            score(puzzle, &found.placements),
            Ok(found.score),
            "{}: a reported score the scorer does not give",
            puzzle.name
        );
        let mut seen = seen.lock().unwrap();
        if let Some(last) = seen.last() {
            assert!(found.score > last.score, "scores must only go up");
        }
        seen.push(found.clone());
    };
    let report = search_best(puzzle, options, control, &sink).unwrap();
    let seen = seen.into_inner().unwrap();
    assert_eq!(
        report.best.as_ref().map(|b| b.score),
        seen.last().map(|b| b.score)
    );
    (seen, report.end)
}

fn options(seed: u64, threads: usize) -> BestOptions {
    BestOptions {
        seed,
        threads,
        restart_nodes: 2_000_000,
        ..BestOptions::default()
    }
}

fn full(board: &[Option<Placement>]) -> Vec<Placement> {
    board.iter().map(|p| p.expect("a full board")).collect()
}

#[test]
fn solvable_puzzles_reach_the_full_score_and_every_score_is_recounted() {
    for (path, order) in [
        ("data/edge/owen-set2/pieces_06x06.txt", BestOrder::Rows),
        (
            "data/edge/owen-set2/pieces_06x06.txt",
            BestOrder::BorderFirst,
        ),
        (
            "data/edge/owen-set2/pieces_06x06.txt",
            BestOrder::ColumnsLast,
        ),
        ("data/edge/heule/clue1.txt", BestOrder::Rows),
        ("data/edge/heule/clue3.txt", BestOrder::BorderFirst),
        ("data/edge/heule/clue1.txt", BestOrder::ColumnsLast),
    ] {
        let puzzle = load(path);
        let control = Control::new().with_time_limit(std::time::Duration::from_secs(60));
        let opts = BestOptions {
            order,
            ..options(7, 2)
        };
        let (seen, end) = run(&puzzle, &opts, &control);
        assert_eq!(end, BestEnd::FullScore, "{path} {order}");
        let best = seen.last().unwrap();
        assert_eq!(best.score, max_score(puzzle.rows, puzzle.cols));
        // A full score is a solution: the solver's verifier agrees.
        verify(&puzzle, &full(&best.placements)).unwrap();
    }
}

#[test]
fn colour_quotas_still_reach_the_full_score() {
    // Quotas on two colours of each puzzle: the cut boards are never the
    // only way to a solution on these.
    for path in [
        "data/edge/owen-set2/pieces_06x06.txt",
        "data/edge/heule/clue1.txt",
    ] {
        let puzzle = load(path);
        let quota_marks = ["2", "3"]
            .iter()
            .map(|m| puzzle.marks.id(m).expect("the puzzle has the colour"))
            .collect();
        let control = Control::new().with_time_limit(std::time::Duration::from_secs(60));
        let opts = BestOptions {
            quota_marks,
            ..options(7, 2)
        };
        let (seen, end) = run(&puzzle, &opts, &control);
        assert_eq!(end, BestEnd::FullScore, "{path}");
        verify(&puzzle, &full(&seen.last().unwrap().placements)).unwrap();
    }
}

#[test]
fn polished_boards_and_every_option_keep_the_recounted_score() {
    // Eternity II in Blackwood's order, without frame breaks, polishing
    // every completed board within 20 points of the best, with and without
    // reassignment: each improvement (many of them polished copies) is
    // recounted by the sink.
    let puzzle = load("puzzles/edge/eternity2.toml");
    for (polish, frame_breaks, reassign) in [
        (Some(20), false, Some(50)),
        (Some(20), true, None),
        (None, true, Some(20)),
        (Some(0), true, Some(1)),
    ] {
        let control = Control::new().with_node_limit(3_000_000);
        let opts = BestOptions {
            order: BestOrder::ColumnsLast,
            polish,
            reassign,
            frame_breaks,
            restart_nodes: 1_000_000,
            ..options(4, 1)
        };
        let (seen, _) = run(&puzzle, &opts, &control);
        assert!(
            seen.last().unwrap().score > 400,
            "{polish:?} {frame_breaks} {reassign:?}"
        );
    }
}

#[test]
fn a_restart_short_of_the_breaks_is_given_up_at_the_stall_cap() {
    // Eternity II's exact part takes about a million nodes to reach the
    // break zone (depth 201), so a stall cap of one node (checked every
    // 16,384) ends nearly every restart early, and without the cap one
    // restart runs to the node limit.
    let puzzle = load("puzzles/edge/eternity2.toml");
    let restarts = |stall_nodes| {
        let control = Control::new().with_node_limit(2_000_000);
        let opts = BestOptions {
            restart_nodes: 50_000_000,
            stall_nodes,
            ..options(2, 1)
        };
        let report = search_best(&puzzle, &opts, &control, &|_: &Improvement| {}).unwrap();
        report.restarts
    };
    assert_eq!(restarts(None), 1);
    assert!(restarts(Some(1)) > 20, "{}", restarts(Some(1)));
}

#[test]
fn the_same_seed_gives_the_same_run_with_one_thread() {
    let puzzle = load("puzzles/edge/eternity2.toml");
    let go = |seed| {
        let control = Control::new().with_node_limit(3_000_000);
        let opts = BestOptions {
            restart_nodes: 500_000,
            ..options(seed, 1)
        };
        let (seen, end) = run(&puzzle, &opts, &control);
        assert!(matches!(end, BestEnd::Stopped(_)));
        seen.into_iter()
            .map(|i| (i.score, i.placements, i.restart))
            .collect::<Vec<_>>()
    };
    let a = go(11);
    assert!(a.len() > 5, "a few improvements at least");
    assert_eq!(a, go(11));
    assert_ne!(a, go(12), "another seed, another run");
}

#[test]
fn hints_stay_in_place_on_every_reported_board() {
    // The starter piece alone, and with the four clue pieces (official
    // pieces 249, 181, 255 and 208; the squares and turns are explained in
    // the catalog file).
    // Boards fill less far with five pins: the exact search dies at the clue
    // pieces of row 3 unless the early choices happen to fit them.
    for (path, hints, most_of_a_board) in [
        ("puzzles/edge/eternity2.toml", vec![(138, 7, 8, 0)], 400),
        (
            "puzzles/edge/eternity2-clues.toml",
            vec![
                (138, 7, 8, 0),
                (248, 2, 2, 1),
                (180, 2, 13, 0),
                (254, 13, 2, 0),
                (207, 13, 13, 0),
            ],
            300,
        ),
    ] {
        let puzzle = load(path);
        let pinned: Vec<_> = puzzle
            .hints
            .iter()
            .map(|h| (h.tile, h.row, h.col, h.rotation))
            .collect();
        assert_eq!(pinned, hints, "{path}");
        let control = Control::new().with_node_limit(2_000_000);
        let (seen, _) = run(&puzzle, &options(5, 1), &control);
        for found in &seen {
            for h in &puzzle.hints {
                let p = found.placements[h.row * puzzle.cols + h.col].unwrap();
                assert_eq!((p.tile as usize, p.rotation), (h.tile, h.rotation));
            }
        }
        // Most of a board is filled within two million nodes.
        assert!(
            seen.last().unwrap().score > most_of_a_board,
            "{path}: {}",
            seen.last().unwrap().score
        );
    }
}

/// Eternity II's quota colours, as the command line takes them.
fn e2_quota_marks(puzzle: &Puzzle) -> Vec<jigsolve_edge::MarkId> {
    ["13", "16", "10"]
        .map(|m| puzzle.marks.id(m).unwrap())
        .to_vec()
}

#[test]
fn a_pin_brings_a_break_and_the_clue_board_fills_further() {
    // Eternity II's five clues: with a break allowed near each pin the
    // exact early part gets past them; without, restarts die there (with
    // the breaks from 78.5% of the depth, as before pins moved them).
    let clues = load("puzzles/edge/eternity2-clues.toml");
    for seed in [1, 2] {
        let best_with = |pin_breaks| {
            let control = Control::new().with_node_limit(20_000_000);
            // The command line's restarts and Eternity II's quota colours.
            let opts = BestOptions {
                pin_breaks,
                breaks_after: Some(198),
                max_breaks: Some(10),
                seed,
                quota_marks: e2_quota_marks(&clues),
                ..BestOptions::default()
            };
            let (seen, _) = run(&clues, &opts, &control);
            let best = seen.last().unwrap().clone();
            for h in &clues.hints {
                let p = best.placements[h.row * clues.cols + h.col].unwrap();
                assert_eq!((p.tile as usize, p.rotation), (h.tile, h.rotation));
            }
            best.score
        };
        let (with, without) = (best_with(Some(true)), best_with(Some(false)));
        assert!(
            with >= without + 20,
            "seed {seed}: {with} against {without}"
        );
        assert_eq!(best_with(None), with, "more than one pin: on by default");
    }
    // The starter piece alone: off by default, the same run as off.
    let starter = load("puzzles/edge/eternity2.toml");
    let scores = |pin_breaks| {
        let control = Control::new().with_node_limit(5_000_000);
        let opts = BestOptions {
            pin_breaks,
            ..options(3, 1)
        };
        let (seen, _) = run(&starter, &opts, &control);
        seen.iter().map(|f| (f.score, f.nodes)).collect::<Vec<_>>()
    };
    assert_eq!(scores(None), scores(Some(false)));
}

#[test]
fn with_pins_the_breaks_begin_earlier_and_the_clue_board_scores_higher() {
    // Most restarts of the five-clue board died before the breaks began
    // at 78.5% of the depth; with more than one pin they begin at 65%,
    // with 12 breaks rather than 10.
    let clues = load("puzzles/edge/eternity2-clues.toml");
    for seed in [1, 2] {
        let best_with = |breaks_after, max_breaks| {
            let control = Control::new().with_node_limit(40_000_000);
            let opts = BestOptions {
                breaks_after,
                max_breaks,
                seed,
                quota_marks: e2_quota_marks(&clues),
                ..BestOptions::default()
            };
            let (seen, _) = run(&clues, &opts, &control);
            seen.last().unwrap().score
        };
        let now = best_with(None, None);
        assert_eq!(
            now,
            best_with(Some(164), Some(12)),
            "the defaults with pins"
        );
        let before = best_with(Some(198), Some(10));
        eprintln!("seed {seed}: {now} against {before}");
        // (8 points and more before polishing reassigned tiles and the
        // completion bar rose: both lift the old rules' boards more.)
        assert!(now > before, "seed {seed}: {now} against {before}");
    }
}

#[test]
fn bad_options_are_refused() {
    let puzzle = load("data/edge/owen-set2/pieces_06x06.txt");
    let control = Control::new();
    let nothing = |_: &Improvement| {};
    let try_with = |o: BestOptions| search_best(&puzzle, &o, &control, &nothing).err();
    assert_eq!(
        try_with(BestOptions {
            threads: 0,
            ..options(1, 1)
        }),
        Some(BestError::NoThreads)
    );
    assert_eq!(
        try_with(BestOptions {
            restart_nodes: 0,
            ..options(1, 1)
        }),
        Some(BestError::NoRestartNodes)
    );
    assert_eq!(
        try_with(BestOptions {
            breaks_after: Some(37),
            ..options(1, 1)
        }),
        Some(BestError::BreaksAfter {
            after: 37,
            cells: 36
        })
    );
}

#[test]
fn the_scorer_counts_inner_edges_only_and_checks_the_board() {
    let puzzle = load("data/edge/owen-set2/pieces_06x06.txt");
    let control = Control::new().with_time_limit(std::time::Duration::from_secs(60));
    let (seen, _) = run(&puzzle, &options(3, 1), &control);
    let solution = seen.last().unwrap().placements.clone();
    assert_eq!(score(&puzzle, &solution), Ok(60));
    // Emptying a corner loses its two edges, an inner cell its four.
    let mut board = solution.clone();
    board[0] = None;
    assert_eq!(score(&puzzle, &board), Ok(58));
    board[7] = None;
    assert_eq!(score(&puzzle, &board), Ok(54));
    assert_eq!(score(&puzzle, &vec![None; 36]), Ok(0));
    // Swapping two inner tiles breaks the edges around both (the tiles
    // differ, so at least one edge of each no longer fits).
    let mut swapped = solution.clone();
    swapped.swap(7, 28);
    assert!(score(&puzzle, &swapped).unwrap() < 60);
    let mut twice = solution.clone();
    twice[1] = twice[0];
    assert_eq!(
        score(&puzzle, &twice),
        Err(BoardError::Reused {
            tile: twice[0].unwrap().tile as usize + 1
        })
    );
    assert!(matches!(
        score(&puzzle, &solution[..35]),
        Err(BoardError::Size { found: 35, .. })
    ));
    let mut foreign = solution.clone();
    foreign[3] = Some(Placement {
        tile: 36,
        rotation: 0,
    });
    assert!(matches!(
        score(&puzzle, &foreign),
        Err(BoardError::NoSuchTile { tile: 37, .. })
    ));
    // A hint the board breaks.
    let e2 = load("puzzles/edge/eternity2.toml");
    assert!(matches!(
        score(&e2, &vec![None; 256]),
        Err(BoardError::Hint { hint: 1, .. })
    ));
}

#[test]
fn links_read_back_to_the_board() {
    let puzzle = load("puzzles/edge/eternity2.toml");
    let control = Control::new().with_node_limit(1_000_000);
    let (seen, _) = run(&puzzle, &options(9, 1), &control);
    let best = seen.last().unwrap();
    let address = link(&puzzle, &best.placements).unwrap();
    assert!(address
        .starts_with("https://e2.bucas.name/#puzzle=eternity2&board_w=16&board_h=16&board_edges="));
    let edges = address.split("board_edges=").nth(1).unwrap();
    assert_eq!(edges.len(), 4 * 256);
    // Colour 0, the border, is 'a'; the frame's outer sides all show it.
    assert!(edges[..4].starts_with('a'));
    let back = read_link(&puzzle, &address).unwrap();
    for (a, b) in best.placements.iter().zip(&back) {
        let look =
            |p: &Option<Placement>| p.map(|p| puzzle.tiles[p.tile as usize].rotated(p.rotation));
        assert_eq!(look(a), look(b));
    }
    assert_eq!(score(&puzzle, &back), Ok(best.score));
    // Another size, a foreign letter, a cell no tile shows.
    let small = load("data/edge/owen-set2/pieces_06x06.txt");
    assert!(matches!(
        read_link(&small, &address),
        Err(LinkError::Size { w: 16, h: 16, .. })
    ));
    let foreign = address.replacen("board_edges=a", "board_edges=z", 1);
    assert!(matches!(
        read_link(&puzzle, &foreign),
        Err(LinkError::Edges { .. })
    ));
    let all_b = format!(
        "https://e2.bucas.name/#puzzle=x&board_w=16&board_h=16&board_edges={}",
        "b".repeat(1024)
    );
    assert!(matches!(
        read_link(&puzzle, &all_b),
        // The hinted cell is read first.
        Err(LinkError::NoTile { row: 8, col: 9, .. })
    ));
}
