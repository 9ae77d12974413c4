//! Every `tool` block of docs/language.md (and of README.md) is a complete file that
//! `toolidl check` accepts as pasted. A block whose first line is `// file: NAME.tool` is
//! written under that name, so that other blocks can import it.

use std::path::Path;
use std::process::Command;

/// The `tool` blocks of a Markdown text, in order, without their fences and indentation.
fn tool_blocks(markdown: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut current: Option<(usize, String)> = None;
    for line in markdown.lines() {
        let trimmed = line.trim_start();
        match &mut current {
            None if trimmed == "```tool" => {
                current = Some((line.len() - trimmed.len(), String::new()));
            }
            Some((_, text)) if trimmed.starts_with("```") => {
                blocks.push(std::mem::take(text));
                current = None;
            }
            Some((indent, text)) => {
                text.push_str(line.get(*indent..).unwrap_or(""));
                text.push('\n');
            }
            None => {}
        }
    }
    blocks
}

fn check_blocks(document: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(document);
    let markdown = std::fs::read_to_string(&path).unwrap();
    let blocks = tool_blocks(&markdown);
    assert!(!blocks.is_empty(), "no tool blocks in {document}");
    let dir = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    for (i, block) in blocks.iter().enumerate() {
        let name = block
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("// file: "))
            .map_or_else(|| format!("block-{}.tool", i + 1), str::to_owned);
        std::fs::write(dir.path().join(&name), block).unwrap();
        files.push((name, block));
    }
    let mut failures = Vec::new();
    for (name, block) in &files {
        let out = Command::new(env!("CARGO_BIN_EXE_toolidl"))
            .args(["check", name.as_str()])
            .current_dir(dir.path())
            .output()
            .unwrap();
        if !out.status.success() {
            failures.push(format!(
                "{document}, {name}:\n{block}\n{}",
                String::from_utf8_lossy(&out.stderr)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_example_of_the_language_guide_checks_clean() {
    check_blocks("docs/language.md");
}

#[test]
fn the_readme_s_examples_check_clean() {
    check_blocks("README.md");
}
