//! Every relative Markdown link in the repository points at a file that
//! exists and, where it names a heading (`#…`), at a heading that file has
//! (GitHub's anchors: lower case, punctuation dropped, spaces as hyphens,
//! repeats numbered). Links inside code are not links.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::Command;

fn repository() -> PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).canonicalize().unwrap()
}

/// The repository's tracked Markdown files (what a clone has).
fn markdown_files(root: &Path) -> Vec<PathBuf> {
    let out = Command::new("git").args(["ls-files", "-z", "*.md"]).current_dir(root).output().expect("git runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    out.stdout
        .split(|&b| b == 0)
        .filter(|p| !p.is_empty())
        .map(|p| root.join(String::from_utf8_lossy(p).as_ref()))
        .collect()
}

/// The text outside fenced code blocks and inline code, line by line.
fn prose(text: &str) -> Vec<String> {
    let mut fenced = false;
    let mut lines = Vec::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            lines.push(String::new());
            continue;
        }
        if fenced {
            lines.push(String::new());
            continue;
        }
        // Inline code spans: the text between pairs of backticks goes.
        let mut kept = String::new();
        for (i, part) in line.split('`').enumerate() {
            if i % 2 == 0 {
                kept.push_str(part);
            }
        }
        lines.push(kept);
    }
    lines
}

/// GitHub's anchor of a heading's text.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a Markdown file's headings.
fn anchors(text: &str) -> HashSet<String> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut anchors = HashSet::new();
    for line in prose(text) {
        let Some(heading) = line.strip_prefix('#') else { continue };
        let heading = heading.trim_start_matches('#');
        if !heading.starts_with(' ') {
            continue;
        }
        // Links in a heading keep only their text.
        let mut parts = heading.split("](");
        let mut text = parts.next().unwrap_or("").to_string();
        for part in parts {
            text.push_str(part.split_once(')').map_or(part, |(_, rest)| rest));
        }
        let base = anchor(&text.replace(['[', ']'], ""));
        let count = seen.entry(base.clone()).or_insert(0);
        anchors.insert(if *count == 0 { base.clone() } else { format!("{base}-{count}") });
        *count += 1;
    }
    anchors
}

/// The targets of the inline links `[text](target)` of a line.
fn targets(line: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = line;
    while let Some(at) = rest.find("](") {
        let after = &rest[at + 2..];
        let end = after.find(')').unwrap_or(after.len());
        let target = after[..end].split_whitespace().next().unwrap_or("").trim_matches(['<', '>']);
        found.push(target.to_string());
        rest = &after[end..];
    }
    found
}

#[test]
fn every_relative_markdown_link_points_at_a_file_and_heading_that_exist() {
    let root = repository();
    let files = markdown_files(&root);
    assert!(files.iter().any(|f| f.ends_with("README.md")), "{files:?}");
    let mut broken = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for (number, line) in prose(&text).iter().enumerate() {
            for target in targets(line) {
                if target.is_empty() || target.contains("://") || target.starts_with("mailto:") {
                    continue;
                }
                let (path, heading) = target.split_once('#').map_or((target.as_str(), None), |(p, h)| (p, Some(h)));
                let linked = if path.is_empty() { file.clone() } else { file.parent().unwrap().join(path) };
                let place = format!("{}:{}: {target}", file.strip_prefix(&root).unwrap().display(), number + 1);
                if !linked.exists() {
                    broken.push(format!("{place} (no such file)"));
                    continue;
                }
                let Some(heading) = heading else { continue };
                if linked.extension().is_some_and(|e| e == "md") {
                    let text = std::fs::read_to_string(&linked).unwrap();
                    if !anchors(&text).contains(heading) {
                        broken.push(format!("{place} (no such heading)"));
                    }
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn anchors_follow_githubs_rule() {
    let text =
        "# Two threads against one (2026-10-01)\n## The site's levels, rated\n```\n# not a heading\n```\n## A\n## A\n";
    let found = anchors(text);
    for expected in ["two-threads-against-one-2026-10-01", "the-sites-levels-rated", "a", "a-1"] {
        assert!(found.contains(expected), "{expected}: {found:?}");
    }
    assert_eq!(found.len(), 4, "{found:?}");
    assert_eq!(targets(&prose("see [a](b.md#c) and [d](<e f.md>) `[x](y)`")[0]), ["b.md#c", "e"]);
    assert_eq!(prose("see `[x](y)` [a](b)")[0], "see  [a](b)");
}

/// The README's two commands are the Makefile's targets, and `make test`
/// is what CI runs.
#[test]
fn the_readmes_two_commands_are_the_ones_ci_and_the_makefile_run() {
    let root = repository();
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let makefile = std::fs::read_to_string(root.join("Makefile")).unwrap();
    let ci = std::fs::read_to_string(root.join(".ci/run")).unwrap();
    for target in ["serve", "test"] {
        assert!(readme.lines().any(|l| l.starts_with(&format!("make {target} "))), "README: make {target}");
        assert!(makefile.lines().any(|l| l.starts_with(&format!("{target}:"))), "Makefile: {target}");
    }
    assert_eq!(ci.lines().rfind(|l| !l.trim().is_empty()), Some("make test"), "{ci}");
}
