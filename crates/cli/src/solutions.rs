//! The one reader of solution files, shared by `verify` and `render`: the
//! JSON Lines that `solve --json` prints (solution lines, then a summary
//! line), or a bare solution object. Each record keeps the line it came
//! from, so every message about it can name the file and line.

use crate::source::InputError;
use anyhow::{anyhow, Result};
use serde_json::Value;

/// One solution read from a file.
#[derive(Debug)]
pub struct Record {
    /// Its line in the file, from 1.
    pub line: usize,
    /// The `solution` object (what the family's verifier reads).
    pub solution: Value,
    /// The index it was listed with by `solve`, when the line says.
    pub index: Option<u64>,
    /// The weight it was listed with (how many raw, distinct and unique
    /// solutions it stands for), when the line says.
    pub weight: Option<Value>,
}

/// The solution records of `text` (read from `file`, named in messages),
/// in order, skipping blank lines and summaries; a line that is not JSON,
/// or a solution line without its object, is an error naming the line.
pub fn records<'a>(text: &'a str, file: &'a str) -> impl Iterator<Item = Result<Record>> + 'a {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .filter_map(move |(i, line)| {
            let line_no = i + 1;
            let value: Value = match serde_json::from_str(line) {
                Ok(v) => v,
                Err(e) => {
                    return Some(Err(anyhow!(InputError(format!(
                        "{file}:{line_no}: not JSON: {e}"
                    )))))
                }
            };
            let index = value.get("index").and_then(Value::as_u64);
            let weight = value.get("weight").cloned();
            let solution = match value.get("type").and_then(Value::as_str) {
                Some("summary") => return None,
                Some("solution") => match value.get("solution") {
                    Some(s) => s.clone(),
                    None => {
                        return Some(Err(anyhow!(InputError(format!(
                            "{file}:{line_no}: a solution line without a \"solution\" object"
                        )))))
                    }
                },
                _ => value.get("solution").cloned().unwrap_or(value),
            };
            Some(Ok(Record {
                line: line_no,
                solution,
                index,
                weight,
            }))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summaries_and_blank_lines_are_skipped_and_lines_are_kept() {
        let text = "{\"type\":\"solution\",\"index\":7,\"solution\":{\"a\":1}}\n\n{\"type\":\"summary\"}\n{\"b\":2}\n";
        let got: Vec<Record> = records(text, "f").map(|r| r.unwrap()).collect();
        assert_eq!(got.len(), 2);
        assert_eq!((got[0].line, got[0].index), (1, Some(7)));
        assert_eq!(got[0].solution["a"], 1);
        assert_eq!((got[1].line, got[1].index), (4, None));
        assert_eq!(got[1].solution["b"], 2);
    }

    #[test]
    fn a_line_that_is_not_json_is_named() {
        let err = records("{}\nnope\n", "sol.jsonl")
            .find_map(|r| r.err())
            .unwrap();
        assert!(
            err.to_string().starts_with("sol.jsonl:2: not JSON"),
            "{err}"
        );
    }
}
