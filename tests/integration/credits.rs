//! Every third-party work that a committed picture shows, or that a test or
//! the demo loads, is credited in `CREDITS.md`.
//!
//! The catalogue below is this test's own knowledge of the works (their
//! credit id as `CREDITS.md` writes it in backticks, and the names a caption
//! would use), so removing a credit line cannot also remove what asks for it.
//! Where `../shared/assets` is present, every folder in it must be in the
//! catalogue, so a new asset forces a decision about its credit.

use std::path::{Path, PathBuf};

use tress_tests::{repo_root, shared_assets};

/// (credit id, names a picture's alt text or caption may use for the work).
/// An id that is a `../shared/assets` folder name also counts as used when
/// any source file names that folder.
const WORKS: &[(&str, &[&str])] = &[
    ("godette-vrm0", &["Godette"]),
    (
        "quaternius-ual1",
        &["Universal Animation Library", "Quaternius"],
    ),
    ("three-vrm-springbone", &["three-vrm spring"]),
    ("three-vrm-vrma", &["idle_loop.vrma", "test.vrma"]),
    ("tressfx4-ratboy", &["Ratboy", "mohawk"]),
    ("tressfx3-ponytail", &["TressFX 3"]),
    ("vhair-obj-grooms", &["VHair"]),
    (
        "blender-vrm-addon",
        &["debug_robot", "VRM Add-on for Blender"],
    ),
    ("vrm-spec-samples", &["vrm_node_constraint_examples"]),
    ("vrm1-springbone", &["smoke_spring"]),
    ("dejavu-sans", &["--plot", "DejaVu"]),
    ("godot-engine", &["Godot", "render_"]),
    ("three-vrm-npm", &["parity with three-vrm"]),
];

/// Markdown files whose pictures are checked: the README and `docs/`, the
/// log included.
fn documents() -> Vec<PathBuf> {
    let root = repo_root();
    let mut out = vec![root.join("README.md")];
    let mut dirs = vec![root.join("docs")];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).expect("docs/ is readable").flatten() {
            let p = e.path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "md") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Each picture of a Markdown text with what describes it: its alt text and
/// the caption paragraph right after it (italic lines, up to a blank line).
fn pictures(text: &str) -> Vec<(String, String)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some(start) = line.find("![") else {
            continue;
        };
        let rest = &line[start + 2..];
        let Some(close) = rest.find("](") else {
            continue;
        };
        let alt = &rest[..close];
        let target = rest[close + 2..].split(')').next().unwrap_or_default();
        let mut caption = alt.to_owned();
        let mut j = i + 1;
        while j < lines.len() && lines[j].trim().is_empty() {
            j += 1;
        }
        if j < lines.len() && lines[j].trim_start().starts_with('*') {
            while j < lines.len() && !lines[j].trim().is_empty() {
                caption.push('\n');
                caption.push_str(lines[j]);
                j += 1;
            }
        }
        out.push((target.to_owned(), caption));
    }
    out
}

/// Whether `credits` credits `id` (the id in backticks).
fn credited(credits: &str, id: &str) -> bool {
    credits.contains(&format!("`{id}`"))
}

/// The credit ids a picture's description calls for.
fn works_named_in(caption: &str) -> Vec<&'static str> {
    WORKS
        .iter()
        .filter(|(_, names)| names.iter().any(|n| caption.contains(n)))
        .map(|(id, _)| *id)
        .collect()
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn every_work_a_picture_shows_is_credited() {
    let credits = read(&repo_root().join("CREDITS.md"));
    let mut missing = Vec::new();
    let mut seen = 0;
    for doc in documents() {
        for (target, caption) in pictures(&read(&doc)) {
            seen += 1;
            for id in works_named_in(&caption) {
                if !credited(&credits, id) {
                    missing.push(format!("{} shows {target}, naming `{id}`", doc.display()));
                }
            }
        }
    }
    assert!(seen >= 5, "found only {seen} pictures: the scan is broken");
    assert!(
        missing.is_empty(),
        "CREDITS.md lacks these works:\n{}",
        missing.join("\n")
    );
}

#[test]
fn every_asset_a_test_or_the_demo_loads_is_credited() {
    let credits = read(&repo_root().join("CREDITS.md"));
    let root = repo_root();
    let mut dirs = vec![
        root.join("crates"),
        root.join("tests"),
        root.join("benches"),
        root.join("godot-project"),
        root.join("tools"),
    ];
    let mut missing = Vec::new();
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or_default();
            if p.is_dir() {
                if !matches!(name, "node_modules" | ".godot" | "target" | "out") {
                    dirs.push(p);
                }
                continue;
            }
            let source = matches!(
                p.extension().and_then(|x| x.to_str()),
                Some("rs" | "gd" | "sh" | "mjs" | "tscn" | "py")
            );
            if !source || p.ends_with("tests/integration/credits.rs") {
                continue;
            }
            let text = std::fs::read_to_string(&p).unwrap_or_default();
            for (id, _) in WORKS {
                if text.contains(id) && !credited(&credits, id) {
                    missing.push(format!("{} loads `{id}`", p.display()));
                }
            }
        }
    }
    assert!(
        missing.is_empty(),
        "CREDITS.md lacks these works:\n{}",
        missing.join("\n")
    );
}

#[test]
fn every_shared_asset_folder_is_in_the_catalogue() {
    let Some(dir) = shared_assets() else {
        return;
    };
    let mut unknown = Vec::new();
    for e in std::fs::read_dir(&dir).expect("assets readable").flatten() {
        if e.path().is_dir() {
            let name = e.file_name().to_string_lossy().into_owned();
            if !WORKS.iter().any(|(id, _)| *id == name) {
                unknown.push(name);
            }
        }
    }
    assert!(
        unknown.is_empty(),
        "../shared/assets has folders this test does not know: {unknown:?}; add each to WORKS \
         and credit it in CREDITS.md"
    );
}

#[test]
fn the_caption_scan_reads_alt_text_and_the_italic_caption() {
    let text = "intro\n\n![A head turn](a.png)\n\n*Godette and the\nUniversal Animation Library.*\n\nnext paragraph names Ratboy\n";
    let pics = pictures(text);
    assert_eq!(pics.len(), 1);
    assert_eq!(pics[0].0, "a.png");
    assert_eq!(
        works_named_in(&pics[0].1),
        vec!["godette-vrm0", "quaternius-ual1"]
    );
    assert!(!credited("| Godette | `godette` |", "godette-vrm0"));
}
