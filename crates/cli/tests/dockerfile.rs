//! The `Dockerfile` of the Kubernetes recipe, checked without a Docker
//! engine (the machines jigsolve is tested on have none): its build stage
//! runs the README's build command and its slim stage gets the binary that
//! command makes; the binary needs no shared library that a slim Debian
//! image lacks; and it starts as the image's entry point would start it.

use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn the_dockerfile_builds_with_the_readmes_command_and_ships_only_the_binary() {
    let docker = std::fs::read_to_string(root().join("Dockerfile")).unwrap();
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let froms: Vec<&str> = docker.lines().filter(|l| l.starts_with("FROM ")).collect();
    assert_eq!(froms.len(), 2, "two stages: {froms:?}");
    assert!(froms[0].contains("AS build"), "{froms:?}");
    // Both stages are the same Debian release, so the glibc matches.
    let release = |from: &str| {
        from.split(['-', ':', ' '])
            .find(|w| *w == "bookworm")
            .is_some()
    };
    assert!(froms.iter().all(|f| release(f)), "{froms:?}");
    assert!(
        docker.contains("cargo build --release --locked"),
        "the build stage runs the release build"
    );
    assert!(readme.contains("cargo run --release -- solve impuzzable"));
    assert!(docker.contains("target/release/jigsolve"));
    assert!(docker.contains("COPY --from=build /usr/local/bin/jigsolve /usr/local/bin/jigsolve"));
    assert!(docker.contains("ENTRYPOINT [\"jigsolve\"]"));
    let ignored = std::fs::read_to_string(root().join(".dockerignore")).unwrap();
    assert!(ignored.lines().any(|l| l.trim() == "target"), "{ignored}");

    // The binary links only what every Debian image has.
    let bin = assert_cmd::cargo::cargo_bin("jigsolve");
    let ldd = std::process::Command::new("ldd").arg(&bin).output();
    if let Ok(out) = ldd {
        let text = String::from_utf8_lossy(&out.stdout);
        for line in text.lines() {
            let lib = line.split_whitespace().next().unwrap_or("");
            assert!(
                [
                    "linux-vdso",
                    "libc.so",
                    "libm.so",
                    "libgcc_s.so",
                    "ld-linux",
                    "/lib64/ld-linux"
                ]
                .iter()
                .any(|known| lib.starts_with(known)),
                "the binary needs {lib}, which debian:bookworm-slim may not have"
            );
        }
    }
    // And starts as the entry point does, with the CMD's --help.
    let out = std::process::Command::new(&bin)
        .arg("--help")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("solve"));
}
