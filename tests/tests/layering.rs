//! The crates' modules import one another in layers: no circle of
//! `crate::` imports inside a crate, and the trainer's shared runner
//! (`train/runner/`) imports no learner. A module that imports its own
//! ancestor or descendant is not a circle (a folder's `mod.rs` re-exports
//! its children).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The repository's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

/// Every `.rs` file under `dir`, by module path (`search::scalar::search`;
/// `mod.rs`, `lib.rs` and `main.rs` name their folder).
fn modules(dir: &Path) -> BTreeMap<String, PathBuf> {
    let mut found = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let rel = path.strip_prefix(dir).unwrap().with_extension("");
                let mut parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().into_owned()).collect();
                if matches!(parts.last().map(String::as_str), Some("mod" | "lib" | "main")) {
                    parts.pop();
                }
                found.insert(parts.join("::"), path);
            }
        }
    }
    found
}

/// The source without its comments (line comments; doc comments are line
/// comments too), so that a path in prose is not an import.
fn code(source: &str) -> String {
    source.lines().map(|line| line.split("//").next().unwrap()).collect::<Vec<_>>().join("\n")
}

/// Every path after `crate::` in `code`, groups expanded:
/// `crate::{a::b, c::{d, e}}` gives `a::b`, `c::d` and `c::e`.
fn crate_paths(code: &str) -> Vec<String> {
    let mut paths = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("crate::") {
        let before = rest[..at].chars().next_back();
        rest = &rest[at + "crate::".len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue; // `deepchess_crate::`, not ours
        }
        let used = expand("", rest, &mut paths);
        rest = &rest[used..];
    }
    paths
}

/// Reads one path or group of `text` with `prefix` before it into `out`;
/// returns the bytes read.
fn expand(prefix: &str, text: &str, out: &mut Vec<String>) -> usize {
    let name_len = text.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':')).unwrap_or(text.len());
    let name = text[..name_len].trim_end_matches("::");
    let path = if prefix.is_empty() { name.to_string() } else { format!("{prefix}::{name}") };
    if text[name_len..].starts_with('{') {
        let mut at = name_len + 1;
        loop {
            at += text[at..].len() - text[at..].trim_start().len();
            if text[at..].starts_with('}') {
                return at + 1;
            }
            at += expand(&path, &text[at..], out);
            at += text[at..].len() - text[at..].trim_start().len();
            if text[at..].starts_with(',') {
                at += 1;
            } else if text[at..].starts_with(" as ") || text[at..].starts_with("as ") {
                let skip = text[at..].find([',', '}']).unwrap_or(text.len() - at);
                at += skip;
            } else if !text[at..].starts_with('}') {
                return at; // not a group we can read: stop here
            }
        }
    }
    if !path.is_empty() {
        out.push(path);
    }
    name_len
}

/// What `module`'s `pub use` lines re-export: name → the path it stands
/// for, from the crate's root.
fn reexports(module: &str, code: &str) -> BTreeMap<String, String> {
    let mut names = BTreeMap::new();
    for statement in code.split("pub use ").skip(1) {
        let statement = &statement[..statement.find(';').unwrap_or(statement.len())];
        let parent = module.rsplit_once("::").map_or("", |(parent, _)| parent);
        let (prefix, text) = if let Some(text) = statement.strip_prefix("crate::") {
            ("", text)
        } else if let Some(text) = statement.strip_prefix("super::") {
            (parent, text)
        } else {
            (module, statement.strip_prefix("self::").unwrap_or(statement))
        };
        let mut paths = Vec::new();
        expand(prefix, text, &mut paths);
        for path in paths {
            let name = path.rsplit("::").next().unwrap().to_string();
            names.insert(name, path);
        }
    }
    names
}

/// The module that defines what `path` names: its longest module prefix,
/// followed through the re-exports of that module (`crate::uci::UciEngine`
/// is `uci::engine`'s).
fn defining_module(
    path: &str,
    mods: &BTreeMap<String, PathBuf>,
    exports: &BTreeMap<String, BTreeMap<String, String>>,
) -> Option<String> {
    let mut path = path.to_string();
    for _ in 0..16 {
        let parts: Vec<&str> = path.split("::").collect();
        let k = (1..=parts.len()).rev().find(|&k| mods.contains_key(&parts[..k].join("::")))?;
        let module = parts[..k].join("::");
        let Some(target) = parts.get(k).and_then(|name| exports.get(&module)?.get(*name)) else {
            return Some(module);
        };
        let rest: Vec<&str> = parts[k + 1..].to_vec();
        let next = if rest.is_empty() { target.clone() } else { format!("{target}::{}", rest.join("::")) };
        if next == path {
            return Some(module);
        }
        path = next;
    }
    None
}

/// The import graph of one crate's modules: module → the modules that
/// define what it imports, less its ancestors and descendants.
fn graph(dir: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mods = modules(dir);
    let sources: BTreeMap<&String, String> =
        mods.iter().map(|(module, path)| (module, code(&std::fs::read_to_string(path).unwrap()))).collect();
    let exports: BTreeMap<String, BTreeMap<String, String>> =
        sources.iter().map(|(module, code)| (module.to_string(), reexports(module, code))).collect();
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (module, code) in &sources {
        for used in crate_paths(code) {
            let Some(target) = defining_module(&used, &mods, &exports) else { continue };
            let related = |a: &str, b: &str| a.is_empty() || b.starts_with(&format!("{a}::"));
            if target == **module || related(module, &target) || related(&target, module) {
                continue;
            }
            edges.entry(module.to_string()).or_default().insert(target);
        }
    }
    edges
}

/// The circles of `edges` (strongly connected components of more than one
/// module), by Tarjan's algorithm.
fn circles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct Walk<'a> {
        edges: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        found: Vec<Vec<String>>,
    }
    impl<'a> Walk<'a> {
        fn visit(&mut self, node: &'a str) {
            let i = self.index.len();
            self.index.insert(node, i);
            self.low.insert(node, i);
            self.stack.push(node);
            for next in self.edges.get(node).into_iter().flatten() {
                if !self.index.contains_key(next.as_str()) {
                    self.visit(next);
                    let low = self.low[node].min(self.low[next.as_str()]);
                    self.low.insert(node, low);
                } else if self.stack.contains(&next.as_str()) {
                    let low = self.low[node].min(self.index[next.as_str()]);
                    self.low.insert(node, low);
                }
            }
            if self.low[node] == self.index[node] {
                let at = self.stack.iter().rposition(|n| *n == node).unwrap();
                let component: Vec<String> = self.stack.drain(at..).map(String::from).collect();
                if component.len() > 1 {
                    self.found.push(component);
                }
            }
        }
    }
    let mut walk = Walk { edges, index: BTreeMap::new(), low: BTreeMap::new(), stack: Vec::new(), found: Vec::new() };
    for node in edges.keys() {
        if !walk.index.contains_key(node.as_str()) {
            walk.visit(node);
        }
    }
    walk.found
}

#[test]
fn the_paths_reader_expands_groups() {
    let paths = crate_paths(&code(
        "use crate::a::b;\nuse crate::{c::{d, e as f}, g};\n// crate::h::i\nlet x = crate::j::k(1); deepchess_crate::l;",
    ));
    assert_eq!(paths, ["a::b", "c::d", "c::e", "g", "j::k"]);
}

#[test]
fn circles_are_found() {
    let edges: BTreeMap<String, BTreeSet<String>> =
        [("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")].into_iter().fold(BTreeMap::new(), |mut m, (from, to)| {
            m.entry(from.to_string()).or_default().insert(to.to_string());
            m
        });
    let found = circles(&edges);
    assert_eq!(found.len(), 1);
    let mut circle = found[0].clone();
    circle.sort();
    assert_eq!(circle, ["a", "b", "c"]);
}

#[test]
fn no_crate_has_an_import_circle() {
    for dir in ["core/src", "native-trainer/src", "wasm/src", "tests/src"] {
        let edges = graph(&root().join(dir));
        assert!(!edges.is_empty(), "{dir}: no imports read");
        assert_eq!(circles(&edges), Vec::<Vec<String>>::new(), "{dir}: modules that import each other in a circle");
    }
}

#[test]
fn the_trainers_runner_imports_no_learner() {
    let edges = graph(&root().join("native-trainer/src"));
    let learners = ["train::deepchess", "train::learned", "train::alphazero"];
    let upward: Vec<(&String, &String)> = edges
        .iter()
        .filter(|(from, _)| from.starts_with("train::runner"))
        .flat_map(|(from, to)| to.iter().map(move |t| (from, t)))
        .filter(|(_, to)| learners.iter().any(|l| *to == l || to.starts_with(&format!("{l}::"))))
        .collect();
    assert!(edges.keys().any(|m| m.starts_with("train::runner")), "the runner's modules were read");
    assert_eq!(upward, Vec::<(&String, &String)>::new(), "the runner imports a learner");
}
