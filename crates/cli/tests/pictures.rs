//! Pictures on the command line: `solve --svg DIR` / `--png DIR` and
//! `render`, for every family; bad paths and bad solution files give a clear
//! message naming the path (and line) and exit code 2.

use predicates::prelude::*;
use std::path::Path;

mod common;
use common::jigsolve;

const PNG_MAGIC: &[u8] = b"\x89PNG\r\n\x1a\n";

fn files_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn solve_writes_one_picture_per_listed_solution() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("svg");
    let png = dir.path().join("deeper/png");
    jigsolve()
        .args(["solve", "pentomino-3x20", "--threads", "1", "--svg"])
        .arg(&svg)
        .arg("--png")
        .arg(&png)
        .assert()
        .code(0)
        // The text output is still there.
        .stdout(predicate::str::contains("solution 2 (stands for"));
    assert_eq!(
        files_in(&svg),
        ["pentomino-3x20-0001.svg", "pentomino-3x20-0002.svg"]
    );
    assert_eq!(
        files_in(&png),
        ["pentomino-3x20-0001.png", "pentomino-3x20-0002.png"]
    );
    let text = std::fs::read_to_string(svg.join("pentomino-3x20-0002.svg")).unwrap();
    assert!(text.starts_with("<svg "), "{text}");
    assert!(text.contains("pentomino-3x20: solution 2 (stands for 4 raw, 4 distinct)"));
    assert!(text.trim_end().ends_with("</svg>"));
    let bytes = std::fs::read(png.join("pentomino-3x20-0001.png")).unwrap();
    assert_eq!(&bytes[..8], PNG_MAGIC);
}

#[test]
fn solve_pictures_respect_the_limit_in_every_family() {
    for (puzzle, name) in [
        ("impuzzable", "impuzzable"),
        ("soma", "soma"),
        ("tangram-t", "tangram-t"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        jigsolve()
            .args(["solve", puzzle, "--limit", "2", "--json", "--svg"])
            .arg(dir.path())
            .assert()
            .code(0);
        let files = files_in(dir.path());
        // Impuzzable has one unique solution; the others have more than two.
        let expected = if puzzle == "impuzzable" { 1 } else { 2 };
        assert_eq!(files.len(), expected, "{puzzle}: {files:?}");
        assert_eq!(files[0], format!("{name}-0001.svg"));
    }
}

#[test]
fn count_with_pictures_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    jigsolve()
        .args(["solve", "impuzzable", "--count", "--png"])
        .arg(dir.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--png draws the solutions that are listed",
        ));
}

#[test]
fn a_file_where_the_directory_should_be_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("taken");
    std::fs::write(&file, "x").unwrap();
    jigsolve()
        .args(["solve", "impuzzable", "--svg"])
        .arg(&file)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(format!(
            "{}: exists and is not a directory",
            file.display()
        )))
        .stdout(predicate::str::is_empty());
    // A directory that would have to be made inside a file.
    let inside = file.join("pictures");
    jigsolve()
        .args(["solve", "impuzzable", "--png"])
        .arg(&inside)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(format!(
            "{}: cannot create the directory for --png",
            inside.display()
        )));
}

#[cfg(unix)]
#[test]
fn a_directory_that_cannot_be_written_is_an_error() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let locked = dir.path().join("locked");
    std::fs::create_dir(&locked).unwrap();
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o555)).unwrap();
    // Root writes through permissions; then use a directory nobody can
    // write in.
    let target = if std::fs::write(locked.join("probe"), "").is_ok() {
        std::path::PathBuf::from("/proc/self")
    } else {
        locked.clone()
    };
    assert!(target.is_dir());
    jigsolve()
        .args(["solve", "impuzzable", "--svg"])
        .arg(&target)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(format!(
            "{}: cannot write files in this directory (--svg)",
            target.display()
        )))
        .stderr(predicate::str::contains("panicked").not());
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn render_draws_the_puzzle_to_standard_output() {
    for puzzle in ["hunde-spiel", "atwood", "stomachion"] {
        let out = jigsolve().args(["render", puzzle]).assert().code(0);
        let text = String::from_utf8_lossy(&out.get_output().stdout).to_string();
        assert!(text.starts_with("<svg "), "{puzzle}");
        assert!(text.contains(&format!("<title>{puzzle}: ")), "{puzzle}");
    }
}

#[test]
fn render_reads_formats_as_solve_does() {
    let wh =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/edge/owen-set2/pieces_03x03.txt");
    jigsolve()
        .args(["render", "--format", "wh"])
        .arg(&wh)
        .assert()
        .code(0)
        .stdout(predicate::str::starts_with("<svg "))
        .stdout(predicate::str::contains("9 tiles for a 3 x 3 board"));
    jigsolve()
        .args(["render", "--format", "nonsense", "impuzzable"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("unknown --format"));
}

#[test]
fn render_draws_a_chosen_solution_of_a_json_file() {
    let dir = tempfile::tempdir().unwrap();
    for puzzle in ["scramble", "pentomino-6x10", "tangram-arrow"] {
        let out = jigsolve()
            .args(["solve", puzzle, "--limit", "2", "--json", "--threads", "1"])
            .assert()
            .code(0);
        let solutions = dir.path().join(format!("{puzzle}.jsonl"));
        std::fs::write(&solutions, &out.get_output().stdout).unwrap();
        let svg = dir.path().join(format!("{puzzle}.svg"));
        let png = dir.path().join(format!("{puzzle}.png"));
        jigsolve()
            .args(["render", puzzle, "--index", "2", "--solution"])
            .arg(&solutions)
            .arg("--svg")
            .arg(&svg)
            .arg("--png")
            .arg(&png)
            .assert()
            .code(0)
            .stdout(predicate::str::is_empty());
        let text = std::fs::read_to_string(&svg).unwrap();
        assert!(
            text.contains(&format!("<title>{puzzle}: solution 2</title>")),
            "{puzzle}"
        );
        assert_eq!(&std::fs::read(&png).unwrap()[..8], PNG_MAGIC);
        // PNG to standard output.
        let out = jigsolve()
            .args(["render", puzzle, "--png", "-", "--solution"])
            .arg(&solutions)
            .assert()
            .code(0);
        assert_eq!(&out.get_output().stdout[..8], PNG_MAGIC);
        // Past the end of the file.
        jigsolve()
            .args(["render", puzzle, "--index", "3", "--solution"])
            .arg(&solutions)
            .assert()
            .code(2)
            .stderr(predicate::str::contains("has 2 solutions; --index 3"));
    }
}

#[test]
fn render_rejects_bad_solution_files_naming_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let out = jigsolve()
        .args(["solve", "impuzzable", "--json"])
        .assert()
        .code(0);
    let good = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    let first = good.lines().next().unwrap();

    // Not JSON on line 2.
    let bad = dir.path().join("bad.jsonl");
    std::fs::write(&bad, format!("{first}\n{{oops\n")).unwrap();
    jigsolve()
        .args(["render", "impuzzable", "--index", "2", "--solution"])
        .arg(&bad)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(format!(
            "{}:2: not JSON",
            bad.display()
        )));

    // A solution whose tiles do not match: tile 9 and tile 8 swapped.
    let wrong = first
        .replacen("\"tile\":9", "\"tile\":99", 1)
        .replacen("\"tile\":8", "\"tile\":9", 1)
        .replacen("\"tile\":99", "\"tile\":8", 1);
    assert_ne!(wrong, first);
    let file = dir.path().join("wrong.jsonl");
    std::fs::write(&file, format!("{wrong}\n")).unwrap();
    jigsolve()
        .args(["render", "impuzzable", "--solution"])
        .arg(&file)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(format!(
            "{}:1: not a solution of",
            file.display()
        )));

    // A solution of another family.
    jigsolve()
        .args(["render", "soma", "--solution"])
        .arg({
            let f = dir.path().join("good.jsonl");
            std::fs::write(&f, &good).unwrap();
            f
        })
        .assert()
        .code(2)
        .stderr(predicate::str::contains("not a polyform solution"));

    // No such file; no solution in a file; --index alone.
    jigsolve()
        .args(["render", "impuzzable", "--solution", "/nonexistent/x.jsonl"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "/nonexistent/x.jsonl: cannot read the file",
        ));
    let empty = dir.path().join("empty.jsonl");
    std::fs::write(&empty, "\n").unwrap();
    jigsolve()
        .args(["render", "impuzzable", "--solution"])
        .arg(&empty)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no solution in the file"));
    jigsolve()
        .args(["render", "impuzzable", "--index", "2"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--index picks a solution"));
}

#[test]
fn render_to_a_directory_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    jigsolve()
        .args(["render", "impuzzable", "--svg"])
        .arg(dir.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("is a directory"));
    jigsolve()
        .args(["render", "impuzzable", "--svg", "-", "--png", "-"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("only one of --svg and --png"));
}
