//! `jigsolve-fuzz`: runs the real `jigsolve` binary on mutated inputs.
//!
//! The seeds are the files people actually feed it: the catalog, the
//! benchmark data, the JSON Lines of `solve --json` and the result files
//! of `solve --shard` and the checkpoints of `solve --checkpoint`. Each
//! input is one seed changed in the ways files go wrong (lines lost,
//! repeated or swapped; numbers turned into edge values; parentheses nested
//! deep; truncation; flipped bytes) or plain random
//! bytes, and goes through the reader that takes it. A run fails when the
//! binary panics, dies of a signal, exits with a code other than 0 to 3
//! (or 130), or outlives a time bound proportional to its input. Failing
//! inputs are written to the output directory with the command that failed.
//!
//! Everything is drawn from one seed, so a run can be repeated; it needs no
//! nightly compiler and no instrumentation.

mod http;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// SplitMix64: small, fast, and the same sequence everywhere for a seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Which reader an input goes through.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Reader {
    /// `solve FILE` (every family's TOML, `wh`, `hints`, Owen's files).
    Puzzle,
    /// `verify PUZZLE FILE`.
    Verify,
    /// `render PUZZLE --solution FILE`.
    Render,
    /// `merge FILE OTHER`.
    Merge,
    /// `solve PUZZLE --count --checkpoint FILE`.
    Checkpoint,
    /// `solve FILE --limit 2`: solutions listed as text (their letter grids
    /// and drawings span the board's box, so far-apart cells matter).
    Listed,
    /// `tree FILE --max-nodes N --time-limit 2`.
    Tree,
    /// A puzzle whose `name` is made hostile (shell syntax, `../`, an
    /// absolute path, a line break), through every place a name becomes a
    /// file name or a printed command: `solve --shard`, `hints`, and the
    /// lines of `split` run by `sh`, in a folder of their own; a run fails
    /// when anything appears outside that folder.
    Names,
    /// `merge FILE OTHER` of the JSON Lines of `best --json`.
    BestMerge,
}

struct Seed {
    reader: Reader,
    /// The catalog puzzle a solutions file belongs to.
    puzzle: Option<String>,
    bytes: Vec<u8>,
}

struct Options {
    bin: PathBuf,
    root: PathBuf,
    seed: u64,
    seconds: f64,
    out: PathBuf,
    /// Send malformed and hostile requests to a running `jigsolve serve`
    /// instead of files to the readers.
    http: bool,
}

fn parse_options() -> Result<Options, String> {
    let mut args = std::env::args().skip(1);
    let mut o = Options {
        bin: std::env::var_os("JIGSOLVE_BIN")
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from("target/release/jigsolve")),
        root: PathBuf::from("."),
        seed: 1,
        seconds: 60.0,
        out: PathBuf::from("target/fuzz-failures"),
        http: false,
    };
    while let Some(a) = args.next() {
        let mut value = || args.next().ok_or(format!("{a} needs a value"));
        match a.as_str() {
            "--bin" => o.bin = PathBuf::from(value()?),
            "--root" => o.root = PathBuf::from(value()?),
            "--seed" => o.seed = value()?.parse().map_err(|_| "--seed: a number")?,
            "--seconds" => o.seconds = value()?.parse().map_err(|_| "--seconds: a number")?,
            "--out" => o.out = PathBuf::from(value()?),
            "--http" => o.http = true,
            "--help" | "-h" => {
                return Err("usage: jigsolve-fuzz [--bin JIGSOLVE] [--root REPO] [--seed N] [--seconds S] [--out DIR] [--http]".into())
            }
            other => return Err(format!("unknown option {other} (see --help)")),
        }
    }
    Ok(o)
}

fn main() {
    let o = match parse_options() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    if !o.bin.exists() {
        eprintln!(
            "{}: no jigsolve binary there (build it, or pass --bin)",
            o.bin.display()
        );
        std::process::exit(2);
    }
    // Some readers run in folders of their own: the binary by its full path.
    let o = Options {
        bin: o.bin.canonicalize().unwrap_or(o.bin),
        ..o
    };
    let work = std::env::temp_dir().join(format!("jigsolve-fuzz-{}", std::process::id()));
    std::fs::create_dir_all(&work).expect("a temporary directory");
    if o.http {
        let failures = http::run(&o);
        let _ = std::fs::remove_dir_all(&work);
        std::process::exit(if failures == 0 { 0 } else { 1 });
    }
    let seeds = collect_seeds(&o, &work);
    // Readers and families are drawn evenly, then a seed within: the
    // benchmark data holds far more edge-matching files than the rest.
    let mut groups: std::collections::BTreeMap<(Reader, &str), Vec<usize>> = Default::default();
    for (i, s) in seeds.iter().enumerate() {
        groups
            .entry((s.reader, family_of(&s.bytes)))
            .or_default()
            .push(i);
    }
    let groups: Vec<Vec<usize>> = groups.into_values().collect();
    let mut rng = Rng(o.seed);
    let started = Instant::now();
    let mut runs: std::collections::BTreeMap<Reader, u64> = Default::default();
    let mut failures = 0u64;
    let mut n = 0u64;
    while started.elapsed().as_secs_f64() < o.seconds {
        n += 1;
        let group = &groups[rng.below(groups.len())];
        let seed = &seeds[group[rng.below(group.len())]];
        let bytes = if rng.below(20) == 0 {
            (0..rng.below(2000)).map(|_| rng.next() as u8).collect()
        } else {
            mutate(&seed.bytes, &mut rng)
        };
        let file = work.join(format!("input-{n}"));
        let partner = match seed.reader {
            Reader::BestMerge => Reader::BestMerge,
            _ => Reader::Merge,
        };
        let other = seeds.iter().find(|s| s.reader == partner);
        let bytes = match seed.reader {
            Reader::Names => with_hostile_name(&bytes, &mut rng),
            _ => bytes,
        };
        std::fs::write(&file, &bytes).expect("write an input");
        let args = command(seed, &file, other.map(|s| &s.bytes), &work, &mut rng);
        *runs.entry(seed.reader).or_default() += 1;
        let limit = Duration::from_secs(10) + Duration::from_secs((bytes.len() >> 20) as u64);
        let outcome = match seed.reader {
            Reader::Names => run_named(&o.bin, &args, &work, limit),
            _ => run_one(&o.bin, &args, limit),
        };
        if let Some(why) = outcome {
            failures += 1;
            std::fs::create_dir_all(&o.out).expect("the failures directory");
            let kept = o.out.join(format!("seed{}-input{n}", o.seed));
            std::fs::write(&kept, &bytes).expect("keep the failing input");
            eprintln!(
                "FAIL {}: jigsolve {}: {why}",
                kept.display(),
                args.join(" ")
            );
        }
        let _ = std::fs::remove_file(&file);
    }
    let _ = std::fs::remove_dir_all(&work);
    let by_reader: Vec<String> = runs.iter().map(|(r, k)| format!("{r:?} {k}")).collect();
    println!(
        "jigsolve-fuzz: seed {}, {n} inputs in {:.0} s ({}), {failures} failing",
        o.seed,
        started.elapsed().as_secs_f64(),
        by_reader.join(", ")
    );
    std::process::exit(if failures == 0 { 0 } else { 1 });
}

/// The seeds: every small puzzle file in the repository, and solution and
/// shard files made by the binary itself.
fn collect_seeds(o: &Options, work: &Path) -> Vec<Seed> {
    let mut seeds = Vec::new();
    let mut stack = vec![o.root.join("puzzles"), o.root.join("data")];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "toml" || x == "txt")
                && e.metadata().is_ok_and(|m| m.len() < 64 << 10)
            {
                if let Ok(bytes) = std::fs::read(&p) {
                    seeds.push(Seed {
                        reader: Reader::Puzzle,
                        puzzle: None,
                        bytes,
                    });
                }
            }
        }
    }
    seeds.sort_by(|a, b| a.bytes.cmp(&b.bytes));
    // The small puzzle files again, for the readers that list, trace or
    // name files after them.
    let puzzles: Vec<Vec<u8>> = seeds
        .iter()
        .filter(|s| s.bytes.len() < 16 << 10)
        .map(|s| s.bytes.clone())
        .collect();
    for reader in [Reader::Listed, Reader::Tree, Reader::Names] {
        for bytes in &puzzles {
            seeds.push(Seed {
                reader,
                puzzle: None,
                bytes: bytes.clone(),
            });
        }
    }
    for (i, puzzle) in ["scramble", "impuzzable"].iter().enumerate() {
        let out = Command::new(&o.bin)
            .args(["best", puzzle, "--json", "--threads", "1", "--seed"])
            .arg((i + 1).to_string())
            .args(["--node-limit", "20000", "--shard", &format!("{i}/2")])
            .output()
            .expect("run jigsolve");
        seeds.push(Seed {
            reader: Reader::BestMerge,
            puzzle: Some((*puzzle).into()),
            bytes: out.stdout,
        });
    }
    for puzzle in [
        "impuzzable",
        "hunde-spiel",
        "soma",
        "pentomino-5x12",
        "tangram-square",
    ] {
        let out = Command::new(&o.bin)
            .args([
                "solve",
                puzzle,
                "--json",
                "--limit",
                "3",
                "--no-progress",
                "--threads",
                "1",
            ])
            .output()
            .expect("run jigsolve");
        for reader in [Reader::Verify, Reader::Render] {
            seeds.push(Seed {
                reader,
                puzzle: Some(puzzle.into()),
                bytes: out.stdout.clone(),
            });
        }
    }
    // A file `solve PUZZLE --count` writes with `options` naming it last.
    let written = |puzzle: &str, options: &[&str], file: &Path| {
        let _ = Command::new(&o.bin)
            .args([
                "solve",
                puzzle,
                "--count",
                "--no-progress",
                "--threads",
                "1",
            ])
            .args(options)
            .arg(file)
            .stdout(Stdio::null())
            .status();
        std::fs::read(file).ok()
    };
    for i in 0..2 {
        let file = work.join(format!("shard-{i}.json"));
        let shard = format!("{i}/2");
        if let Some(bytes) = written("hunde-spiel", &["--shard", &shard, "--output"], &file) {
            seeds.push(Seed {
                reader: Reader::Merge,
                puzzle: None,
                bytes,
            });
        }
    }
    // Checkpoints: one of a run stopped early, one of a finished run.
    for (puzzle, limit) in [("pentomino-5x12", "20000"), ("hunde-spiel", "1000000")] {
        let file = work.join(format!("{puzzle}.checkpoint"));
        if let Some(bytes) = written(puzzle, &["--node-limit", limit, "--checkpoint"], &file) {
            seeds.push(Seed {
                reader: Reader::Checkpoint,
                puzzle: Some(puzzle.into()),
                bytes,
            });
        }
    }
    assert!(
        !seeds.is_empty(),
        "no seed files under {}",
        o.root.display()
    );
    seeds
}

/// The family a seed file is of, as far as its text tells.
fn family_of(bytes: &[u8]) -> &'static str {
    let text = String::from_utf8_lossy(bytes);
    if text.contains("family = \"polygon\"") || text.contains("\"family\":\"polygon\"") {
        "polygon"
    } else if text.contains("family = \"grid\"") || text.contains("\"family\":\"grid\"") {
        "grid"
    } else {
        "edge"
    }
}

/// The command line that feeds `file` to the seed's reader.
fn command(
    seed: &Seed,
    file: &Path,
    shard: Option<&Vec<u8>>,
    work: &Path,
    rng: &mut Rng,
) -> Vec<String> {
    let f = file.display().to_string();
    let puzzle = seed.puzzle.clone().unwrap_or_else(|| "impuzzable".into());
    match seed.reader {
        Reader::Puzzle => [
            "solve",
            &f,
            "--count",
            "--no-progress",
            "--threads",
            "2",
            "--time-limit",
            "2",
        ]
        .map(String::from)
        .to_vec(),
        Reader::Verify => vec!["verify".into(), puzzle, f],
        Reader::Render => vec!["render".into(), puzzle, "--solution".into(), f],
        Reader::Checkpoint => [
            "solve",
            &puzzle,
            "--count",
            "--no-progress",
            "--threads",
            "2",
            "--time-limit",
            "2",
            "--checkpoint",
            &f,
        ]
        .map(String::from)
        .to_vec(),
        Reader::Merge | Reader::BestMerge => {
            let other = work.join("merge-partner.json");
            if let Some(bytes) = shard {
                let _ = std::fs::write(&other, bytes);
            }
            vec!["merge".into(), f, other.display().to_string()]
        }
        Reader::Listed => [
            "solve",
            &f,
            "--limit",
            "2",
            "--no-progress",
            "--threads",
            "2",
            "--time-limit",
            "2",
        ]
        .map(String::from)
        .to_vec(),
        Reader::Tree => {
            let nodes = [1usize, 10, 1000, 100_000][rng.below(4)].to_string();
            ["tree", &f, "--max-nodes", &nodes, "--time-limit", "2"]
                .map(String::from)
                .to_vec()
        }
        Reader::Names => {
            let shards = (1 + rng.below(3)).to_string();
            match rng.below(3) {
                0 => vec![
                    "solve".into(),
                    f,
                    "--count".into(),
                    "--no-progress".into(),
                    "--time-limit".into(),
                    "2".into(),
                    "--shard".into(),
                    format!("0/{shards}"),
                ],
                1 => ["hints", &f, "--time-limit", "2", "--no-progress"]
                    .map(String::from)
                    .to_vec(),
                _ => ["split", &f, "--shards", &shards]
                    .map(String::from)
                    .to_vec(),
            }
        }
    }
}

/// `bytes` with its `name` (or a new one) replaced by a hostile one.
fn with_hostile_name(bytes: &[u8], rng: &mut Rng) -> Vec<u8> {
    const NAMES: [&str; 10] = [
        "$(touch PWNED)",
        "`touch PWNED`",
        "a; touch PWNED",
        "x' ; touch PWNED ; '",
        "../../ESCAPED",
        "/tmp/ESCAPED",
        "-rf",
        "line\ntouch PWNED",
        "..",
        "",
    ];
    let name = NAMES[rng.below(NAMES.len())];
    let line = format!("name = \"{name}\"");
    let text = String::from_utf8_lossy(bytes);
    let mut out: Vec<String> = text.lines().map(String::from).collect();
    match out.iter().position(|l| l.starts_with("name =")) {
        Some(i) => out[i] = line,
        None => out.insert(0, line),
    }
    (out.join("\n") + "\n").into_bytes()
}

/// Runs a command of a hostile-named puzzle in a folder of its own (`split`'s
/// printed commands through `sh`, as the recipes of docs/distributed.md do): fails as
/// [`run_one`] does, or when a file appears outside that folder or a
/// command the name carries ran.
fn run_named(bin: &Path, args: &[String], work: &Path, limit: Duration) -> Option<String> {
    let jail = work.join("jail");
    let inside = jail.join("a").join("b");
    let _ = std::fs::remove_dir_all(&jail);
    std::fs::create_dir_all(&inside).expect("a folder for the run");
    let outcome = if args[0] == "split" {
        let out = Command::new(bin)
            .args(args)
            .current_dir(&inside)
            .stderr(Stdio::null())
            .output()
            .expect("run jigsolve");
        let printed = String::from_utf8_lossy(&out.stdout).into_owned();
        let path = format!(
            "{}:{}",
            bin.parent()
                .map_or(String::new(), |p| p.display().to_string()),
            std::env::var("PATH").unwrap_or_default()
        );
        let mut why = None;
        for line in printed.lines().filter(|l| !l.starts_with('#')).take(3) {
            // As printed, bounded in time (a shard of Bedlam runs for
            // minutes).
            let cmd = format!(
                "{} --time-limit 2 --no-progress",
                line.replacen("jigsolve ", &format!("'{}' ", bin.display()), 1)
            );
            let status = Command::new("sh")
                .args(["-c", &cmd])
                .current_dir(&inside)
                .env("PATH", &path)
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status();
            if let Ok(status) = status {
                if !matches!(status.code(), Some(0..=3)) {
                    why = Some(format!("a printed command failed ({status}): {line}"));
                }
            }
        }
        why
    } else {
        run_one_in(bin, args, limit, &inside)
    };
    if outcome.is_some() {
        return outcome;
    }
    let mut stray = Vec::new();
    let mut todo = vec![jail.clone()];
    while let Some(dir) = todo.pop() {
        for e in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                todo.push(p);
            } else if !p.starts_with(&inside) || p.file_name().is_some_and(|n| n == "PWNED") {
                stray.push(p.display().to_string());
            }
        }
    }
    for outside in ["/tmp/ESCAPED-hints.toml", "/tmp/ESCAPED.shard-0-of-1.json"] {
        if Path::new(outside).exists() {
            stray.push(outside.into());
        }
    }
    let _ = std::fs::remove_dir_all(&jail);
    (!stray.is_empty()).then(|| format!("wrote outside its folder or ran a command: {stray:?}"))
}

/// Runs jigsolve; says what went wrong, if anything did.
fn run_one(bin: &Path, args: &[String], limit: Duration) -> Option<String> {
    run_one_in(bin, args, limit, Path::new("."))
}

/// [`run_one`] in the folder `dir`.
fn run_one_in(bin: &Path, args: &[String], limit: Duration, dir: &Path) -> Option<String> {
    let mut child = Command::new(bin)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start jigsolve");
    let started = Instant::now();
    let stderr = child.stderr.take();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        if let Some(mut s) = stderr {
            let _ = std::io::Read::read_to_string(&mut s, &mut text);
        }
        text
    });
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if started.elapsed() > limit => {
                let _ = child.kill();
                let _ = child.wait();
                return Some(format!("still running after {} s", limit.as_secs()));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(e) => return Some(format!("cannot wait for it: {e}")),
        }
    };
    let stderr = reader.join().unwrap_or_default();
    if stderr.contains("panicked") || stderr.contains("overflowed its stack") {
        return Some(format!(
            "panicked: {}",
            stderr.lines().take(3).collect::<Vec<_>>().join(" | ")
        ));
    }
    match status.code() {
        Some(0..=3 | 130) => None,
        Some(code) => Some(format!(
            "exit code {code}: {}",
            stderr.lines().next().unwrap_or("")
        )),
        None => Some(format!("killed by a signal ({status})")),
    }
}

/// One seed changed the way files go wrong.
fn mutate(seed: &[u8], rng: &mut Rng) -> Vec<u8> {
    let text = String::from_utf8_lossy(seed).into_owned();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    if lines.is_empty() {
        lines.push(String::new());
    }
    const EDGES: [&str; 14] = [
        "0",
        "-1",
        "1",
        "4096",
        "4097",
        "65535",
        "65536",
        "99999999999999999999",
        "nan",
        "inf",
        "1e30",
        "-0",
        "1/0",
        "1/99999999999999999999",
    ];
    for _ in 0..1 + rng.below(4) {
        let i = rng.below(lines.len());
        match rng.below(8) {
            0 => {
                lines.remove(i);
                if lines.is_empty() {
                    lines.push(String::new());
                }
            }
            1 => {
                let l = lines[i].clone();
                lines.insert(i, l);
            }
            2 => {
                let j = rng.below(lines.len());
                lines.swap(i, j);
            }
            3 | 4 => {
                // A number on the line becomes an edge value.
                let l = &lines[i];
                let digits: Vec<usize> = l
                    .char_indices()
                    .filter(|(_, c)| c.is_ascii_digit())
                    .map(|(k, _)| k)
                    .collect();
                if !digits.is_empty() {
                    let at = digits[rng.below(digits.len())];
                    let mut end = at;
                    while end < l.len() && l.as_bytes()[end].is_ascii_digit() {
                        end += 1;
                    }
                    let edge = EDGES[rng.below(EDGES.len())];
                    lines[i] = format!("{}{edge}{}", &l[..at], &l[end..]);
                }
            }
            5 => {
                // A number nested deep in parentheses (or, without a
                // number on the line, parentheses anywhere).
                let deep = 1 + rng.below(20_000);
                let l = &lines[i];
                let digits: Vec<usize> = l
                    .char_indices()
                    .filter(|(k, c)| {
                        c.is_ascii_digit() && (*k == 0 || !l.as_bytes()[k - 1].is_ascii_digit())
                    })
                    .map(|(k, _)| k)
                    .collect();
                let at = match digits.get(rng.below(digits.len())) {
                    Some(&k) => k,
                    None => {
                        let k = rng.below(l.len() + 1);
                        (0..=k).rev().find(|&k| l.is_char_boundary(k)).unwrap_or(0)
                    }
                };
                let mut end = at;
                while end < l.len() && l.as_bytes()[end].is_ascii_digit() {
                    end += 1;
                }
                lines[i] = format!(
                    "{}{}{}{}{}",
                    &l[..at],
                    "(".repeat(deep),
                    if end > at { &l[at..end] } else { "1" },
                    ")".repeat(deep),
                    &l[end..]
                );
            }
            6 => {
                let l = &lines[i];
                let cut = rng.below(l.len() + 1);
                let cut = (0..=cut)
                    .rev()
                    .find(|&k| l.is_char_boundary(k))
                    .unwrap_or(0);
                lines[i].truncate(cut);
            }
            _ => {
                let copies = 1 + rng.below(50);
                let l = lines[i].clone();
                for _ in 0..copies {
                    lines.insert(i, l.clone());
                }
            }
        }
    }
    let mut bytes = lines.join("\n").into_bytes();
    bytes.push(b'\n');
    if rng.below(6) == 0 && !bytes.is_empty() {
        let i = rng.below(bytes.len());
        bytes[i] ^= 1 << rng.below(8);
    }
    if rng.below(10) == 0 {
        let keep = rng.below(bytes.len() + 1);
        bytes.truncate(keep);
    }
    bytes
}
