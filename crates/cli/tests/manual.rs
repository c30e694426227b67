//! `jigsolve completions SHELL` and `jigsolve man`, made from the same
//! argument definitions as the command line: every subcommand that
//! `--help` lists is in each shell's script and has its manual page.

mod common;
use common::*;

/// The subcommands `jigsolve --help` lists.
fn subcommands() -> Vec<String> {
    let out = succeeds(jigsolve().arg("--help"));
    let help = String::from_utf8_lossy(&out.stdout).to_string();
    let listed: Vec<String> = help
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .filter(|name| name != "help")
        .collect();
    assert!(listed.len() >= 15, "{help}");
    listed
}

#[test]
fn every_shell_completes_every_subcommand() {
    let names = subcommands();
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let out = succeeds(jigsolve().args(["completions", shell]));
        let script = String::from_utf8_lossy(&out.stdout);
        for name in &names {
            assert!(script.contains(name.as_str()), "{shell}: {name}");
        }
        // Options of a subcommand too.
        assert!(script.contains("by-open"), "{shell}");
    }
    let out = jigsolve().args(["completions", "tcsh"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("possible values"));
}

#[test]
fn the_manual_has_a_page_for_every_subcommand() {
    let out = succeeds(jigsolve().arg("man"));
    let roff = String::from_utf8_lossy(&out.stdout);
    assert!(roff.contains(".TH jigsolve 1"), "{roff:.200}");
    for name in subcommands() {
        assert!(
            roff.contains(&format!(".TH jigsolve-{name} 1")),
            "no page for {name}"
        );
        assert!(
            roff.contains(&format!("jigsolve {name}")),
            "{name}'s synopsis"
        );
    }
    // Options are documented with their help text.
    assert!(roff.contains("heat\\-map"), "solve's --heat-map");
}
