//! `tress`: the command-line front end of the Tress rigging tools.
//!
//! Subcommands:
//! - `inspect FILE`: humanoid, springs, colliders, meshes and warnings of a
//!   `.vrm`, `.glb`, `.gltf` or `.vrma`, as Tress reads them;
//! - `generate-assets [DIR]`: writes the built-in test avatars into DIR
//!   (default `assets/`); `--check` compares instead of writing and fails
//!   when the committed files differ from a fresh generation;
//! - `measure FILE [--solver improved|earlier|vrm] [--fps 30,60,120]
//!   [--json OUT.json]`: hair quality on the standard head-motion run
//!   (stretch, root fixity, settling, penetration, frame-rate invariance).

use std::path::PathBuf;
use std::process::ExitCode;

use tress_rig::avatar;

fn usage() -> ExitCode {
    eprintln!(
        "usage: tress inspect FILE\n       tress generate-assets [--check] [DIR]\n       {}",
        tress_rig::cli::measure::USAGE
    );
    ExitCode::from(2)
}

fn inspect(args: &[String]) -> ExitCode {
    let [file] = args else {
        return usage();
    };
    match tress_rig::load_path(file) {
        Ok(avatar) => {
            print!("{}", tress_rig::cli::inspect::report(&avatar));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {file}: {e}");
            ExitCode::FAILURE
        }
    }
}

fn measure(args: &[String]) -> ExitCode {
    let parsed = match tress_rig::cli::measure::parse_args(args) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("error: {e}\nusage: {}", tress_rig::cli::measure::USAGE);
            return ExitCode::from(2);
        }
    };
    let file = parsed.file.display().to_string();
    let avatar = match tress_rig::load_path(&parsed.file) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("error: {file}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let report = match tress_rig::measure::measure(&avatar, &parsed.options) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {file}: {e}");
            return ExitCode::FAILURE;
        }
    };
    println!("file: {file}");
    print!("{}", tress_rig::measure::report::summary(&report));
    if let Some(out) = &parsed.json {
        let doc = tress_rig::cli::measure::json(&file, &report);
        let text = serde_json::to_string_pretty(&doc).unwrap_or_default();
        if let Err(e) = std::fs::write(out, text + "\n") {
            eprintln!("error: writing {}: {e}", out.display());
            return ExitCode::FAILURE;
        }
        println!("wrote {}", out.display());
    }
    ExitCode::SUCCESS
}

fn generate_assets(args: &[String]) -> ExitCode {
    let check = args.iter().any(|a| a == "--check");
    let dir = args
        .iter()
        .find(|a| !a.starts_with("--"))
        .map_or_else(|| PathBuf::from("assets"), PathBuf::from);
    if check {
        let mut ok = true;
        for (name, fresh) in avatar::asset_files() {
            let path = dir.join(name);
            match std::fs::read(&path) {
                Ok(bytes) if bytes == fresh => println!("same: {}", path.display()),
                Ok(_) => {
                    eprintln!("differs: {} (run `tress generate-assets`)", path.display());
                    ok = false;
                }
                Err(e) => {
                    eprintln!("cannot read {}: {e}", path.display());
                    ok = false;
                }
            }
        }
        return if ok {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        };
    }
    match avatar::write_assets(&dir) {
        Ok(paths) => {
            for p in paths {
                println!("wrote {}", p.display());
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: writing assets into {}: {e}", dir.display());
            ExitCode::FAILURE
        }
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("generate-assets") => generate_assets(&args[1..]),
        Some("inspect") => inspect(&args[1..]),
        Some("measure") => measure(&args[1..]),
        _ => usage(),
    }
}
