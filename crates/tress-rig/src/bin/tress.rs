//! `tress`: the command-line front end of the Tress rigging tools.
//!
//! Subcommands:
//! - `inspect FILE`: humanoid, springs, colliders, meshes and warnings of a
//!   `.vrm`, `.glb`, `.gltf` or `.vrma`, as Tress reads them;
//! - `validate-anim [--avatar FILE]... [--clips FILE]... [--table OUT.md]`:
//!   retargets every clip onto every avatar and checks the result (defaults:
//!   the built-in avatars and Godette × the Universal Animation Library and
//!   three-vrm's two `.vrma` clips, from `assets/` and `../shared/assets/`);
//! - `retarget AVATAR ANIMATION [--clip NAME]... [--keep-travel] [--no-loop]
//!   -o OUT.glb`: the avatar's skeleton with the clips retargeted onto it;
//! - `generate-assets [DIR]`: writes the built-in test avatars into DIR
//!   (default `assets/`); `--check` compares instead of writing and fails
//!   when the committed files differ from a fresh generation;
//! - `measure FILE [--solver improved|earlier|vrm] [--fps 30,60,120]
//!   [--fit-colliders] [--json OUT.json]`: hair quality on the standard
//!   head-motion run (stretch, root fixity, settling, penetration,
//!   frame-rate invariance); `--fit-colliders` measures again with fitted
//!   colliders and per-chain contact and compares penetration;
//! - `fit-colliders FILE [--json OUT.json]`: the collider fit (grown and
//!   added colliders, colliders linked to chains, contact per chain).
//! - `export AVATAR --anim FILE --clip NAME [--bake] [--loop] [--keep-travel]
//!   -o OUT.glb`: the avatar file with the clip retargeted onto it as a glTF
//!   animation and, with `--bake`, its spring hair simulated and recorded as
//!   tracks too (looping or one-shot);
//! - `fit FILE --mesh NAME [--joints 6] [--root X,Y,Z] -o OUT.vrm`: rigs an
//!   unrigged (or badly rigged) hair mesh as one spring chain under the head
//!   and writes the file with the chain, skin and weights added;
//! - `unfit FILE -o OUT`: takes the last `fit` back out of a fitted file,
//!   from the record the fit left in it.

use std::path::PathBuf;
use std::process::ExitCode;

use tress_rig::avatar;

fn usage() -> ExitCode {
    eprintln!(
        "usage: tress inspect FILE\n       \
         tress validate-anim [--avatar FILE]... [--clips FILE]... [--table OUT.md]\n       \
         tress retarget AVATAR ANIMATION [--clip NAME]... [--keep-travel] [--no-loop] -o OUT.glb\n       \
         tress generate-assets [--check] [DIR]\n       \
         tress fit FILE --mesh NAME [--joints 6] [--root X,Y,Z] -o OUT.vrm\n       \
         tress unfit FILE -o OUT.vrm\n       \
         tress export AVATAR --anim FILE --clip NAME [--bake] [--loop] [--keep-travel] -o OUT.glb\n       {}\n       {}",
        tress_rig::cli::measure::USAGE,
        tress_rig::cli::fit_colliders::USAGE
    );
    ExitCode::from(2)
}

const DEFAULT_AVATARS: [&str; 3] = [
    "assets/tress_avatar.vrm",
    "assets/tress_avatar_layered.vrm",
    "../shared/assets/godette-vrm0/Godette_vrm_v4.vrm",
];
const DEFAULT_CLIPS: [&str; 3] = [
    "../shared/assets/quaternius-ual1/AnimationLibrary_Godot_Standard.gltf",
    "../shared/assets/three-vrm-vrma/idle_loop.vrma",
    "../shared/assets/three-vrm-vrma/test.vrma",
];

/// Values following each occurrence of `flag`.
fn flag_values<'a>(args: &'a [String], flag: &str) -> Vec<&'a str> {
    args.windows(2)
        .filter(|w| w[0] == flag)
        .map(|w| w[1].as_str())
        .collect()
}

/// Arguments that are neither flags nor the value of one of `takes_value`.
fn positional<'a>(args: &'a [String], takes_value: &[&str]) -> Vec<&'a String> {
    args.iter()
        .enumerate()
        .filter(|(i, a)| {
            !(a.starts_with('-') || *i > 0 && takes_value.contains(&args[i - 1].as_str()))
        })
        .map(|(_, a)| a)
        .collect()
}

/// The bytes of `file`, or `None` after saying why not.
fn read_or_report(file: &str) -> Option<Vec<u8>> {
    std::fs::read(file)
        .map_err(|e| eprintln!("error: cannot read {file}: {e}"))
        .ok()
}

/// Writes `bytes` to `out`; `false` after saying why not.
fn write_or_report(out: impl AsRef<std::path::Path>, bytes: impl AsRef<[u8]>) -> bool {
    let out = out.as_ref();
    std::fs::write(out, bytes)
        .map_err(|e| eprintln!("error: writing {}: {e}", out.display()))
        .is_ok()
}

fn label(path: &str) -> String {
    std::path::Path::new(path)
        .file_name()
        .map_or_else(|| path.to_owned(), |n| n.to_string_lossy().into_owned())
}

fn load_all(paths: &[&str]) -> Result<Vec<(String, tress_rig::Avatar)>, String> {
    paths
        .iter()
        .map(|p| {
            tress_rig::load_path(p)
                .map(|a| (label(p), a))
                .map_err(|e| format!("{p}: {e}"))
        })
        .collect()
}

/// A one-line progress bar on stderr, redrawn in place on a terminal (a log
/// gets one line at the end instead of hundreds of carriage returns).
fn progress(done: usize, total: usize, what: &str) {
    use std::io::IsTerminal as _;
    if !std::io::stderr().is_terminal() {
        if done == total {
            eprintln!("{what} ({total} of {total})");
        }
        return;
    }
    let width = 30;
    let filled = (done * width).checked_div(total).unwrap_or(width);
    eprint!(
        "\r[{}{}] {done}/{total} {:<48}",
        "#".repeat(filled),
        ".".repeat(width - filled),
        what.chars().take(48).collect::<String>()
    );
    if done == total {
        eprintln!();
    }
}

fn validate_anim(args: &[String]) -> ExitCode {
    let started = std::time::Instant::now();
    let avatars = flag_values(args, "--avatar");
    let clips = flag_values(args, "--clips");
    let avatars: Vec<&str> = if avatars.is_empty() {
        DEFAULT_AVATARS.to_vec()
    } else {
        avatars
    };
    let clips: Vec<&str> = if clips.is_empty() {
        DEFAULT_CLIPS.to_vec()
    } else {
        clips
    };
    let missing: Vec<&&str> = avatars
        .iter()
        .chain(&clips)
        .filter(|p| !std::path::Path::new(p).is_file())
        .collect();
    if !missing.is_empty() {
        for m in missing {
            eprintln!(
                "error: {m} not found (run from the repository root with ../shared beside it, or pass --avatar / --clips)"
            );
        }
        return ExitCode::FAILURE;
    }
    let (avatars, sources) = match (load_all(&avatars), load_all(&clips)) {
        (Ok(a), Ok(s)) => (a, s),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let rows = tress_rig::cli::animations::validate_all(&avatars, &sources, progress);
    let table = tress_rig::cli::animations::table(&rows);
    print!("{table}");
    println!(
        "elapsed: {:.2} s (loading included)",
        started.elapsed().as_secs_f64()
    );
    if let Some(out) = flag_values(args, "--table").first()
        && !write_or_report(out, &table)
    {
        return ExitCode::FAILURE;
    }
    if rows.iter().all(tress_rig::cli::animations::Row::passed) {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Loads a file, or says why not on stderr.
fn load_or_report(path: impl AsRef<std::path::Path>) -> Option<tress_rig::Avatar> {
    let path = path.as_ref();
    tress_rig::load_path(path)
        .map_err(|e| eprintln!("error: {}: {e}", path.display()))
        .ok()
}

/// The animation file's skeleton mapped onto the avatar (its notes on
/// stderr), or the reason on stderr.
fn retargeter_or_report<'a>(
    source: &'a tress_rig::Avatar,
    target: &'a tress_rig::Avatar,
    anim_path: &str,
) -> Option<tress_rig::anim::Retargeter<'a>> {
    match tress_rig::anim::Retargeter::detect(source, target) {
        Ok(r) => {
            for n in &r.notes {
                eprintln!("note: {n}");
            }
            Some(r)
        }
        Err(e) => {
            eprintln!("error: {anim_path}: {e}");
            None
        }
    }
}

fn export(args: &[String]) -> ExitCode {
    use tress_rig::anim::RetargetOptions;
    let started = std::time::Instant::now();
    let flag = |f: &str| args.iter().any(|a| a == f);
    let value = |f: &str| flag_values(args, f).first().map(|s| (*s).to_owned());
    let avatar_path = args
        .iter()
        .enumerate()
        .find(|(i, a)| {
            !a.starts_with('-')
                && (*i == 0 || !matches!(args[i - 1].as_str(), "--anim" | "--clip" | "-o"))
        })
        .map(|(_, a)| a.clone());
    let (Some(avatar_path), Some(anim_path), Some(clip_name), Some(out)) =
        (avatar_path, value("--anim"), value("--clip"), value("-o"))
    else {
        return usage();
    };
    let bytes = match std::fs::read(&avatar_path) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("error: {avatar_path}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let target = match tress_rig::load_bytes(&bytes, std::path::Path::new(&avatar_path).parent()) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: {avatar_path}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let Some(source) = load_or_report(&anim_path) else {
        return ExitCode::FAILURE;
    };
    let Some(r) = retargeter_or_report(&source, &target, &anim_path) else {
        return ExitCode::FAILURE;
    };
    let looped = flag("--loop");
    let opts = RetargetOptions {
        remove_travel: !flag("--keep-travel"),
        loop_blend: looped.then_some(0.3),
        ..RetargetOptions::default()
    };
    let clip = match r.retarget_named(&clip_name, &opts) {
        Ok(c) => c,
        Err(e) => {
            let known: Vec<&str> = source.animations.iter().map(|a| a.name.as_str()).collect();
            eprintln!("error: {e}; the file has: {}", known.join(", "));
            return ExitCode::FAILURE;
        }
    };
    let mut anim = if flag("--bake") {
        let bake_opts = tress_rig::bake::BakeOptions {
            looped,
            ..tress_rig::bake::BakeOptions::default()
        };
        match tress_rig::bake::bake(&target, &clip, &bake_opts) {
            Ok(a) => a,
            Err(e) => {
                eprintln!("error: cannot simulate the hair: {e}");
                return ExitCode::FAILURE;
            }
        }
    } else {
        clip.to_animation()
    };
    if flag("--bake") {
        anim.name = format!("{clip_name} (baked hair)");
    }
    let written = match tress_rig::glb_edit::append_animation(&bytes, &anim) {
        Ok(w) => w,
        Err(e) => {
            eprintln!("error: cannot write into {avatar_path}'s document: {e}");
            return ExitCode::FAILURE;
        }
    };
    if !write_or_report(&out, written) {
        return ExitCode::FAILURE;
    }
    println!(
        "wrote {out}: animation `{}`, {} frames over {:.2} s, {} tracks ({} {}) in {:.1} ms",
        anim.name,
        clip.times.len(),
        clip.duration(),
        anim.channels.len(),
        if looped { "looping" } else { "one-shot" },
        if flag("--bake") {
            "with baked hair"
        } else {
            "body only"
        },
        started.elapsed().as_secs_f64() * 1000.0
    );
    ExitCode::SUCCESS
}

fn retarget(args: &[String]) -> ExitCode {
    use tress_rig::anim::{RetargetOptions, clip_glb};
    let positional: Vec<&String> = args
        .iter()
        .enumerate()
        .filter(|(i, a)| {
            !a.starts_with("--")
                && *a != "-o"
                && !(*i > 0 && (args[i - 1] == "--clip" || args[i - 1] == "-o"))
        })
        .map(|(_, a)| a)
        .collect();
    let ([avatar_path, anim_path], Some(out)) = (
        positional.as_slice(),
        flag_values(args, "-o").first().copied(),
    ) else {
        return usage();
    };
    let (Some(target), Some(source)) = (load_or_report(avatar_path), load_or_report(anim_path))
    else {
        return ExitCode::FAILURE;
    };
    let Some(r) = retargeter_or_report(&source, &target, anim_path) else {
        return ExitCode::FAILURE;
    };
    let opts = RetargetOptions {
        remove_travel: !args.iter().any(|a| a == "--keep-travel"),
        loop_blend: (!args.iter().any(|a| a == "--no-loop")).then_some(0.3),
        ..RetargetOptions::default()
    };
    let names = flag_values(args, "--clip");
    let mut clips = Vec::new();
    if names.is_empty() {
        clips.extend(source.animations.iter().map(|a| r.retarget(a, &opts)));
    } else {
        for n in names {
            match r.retarget_named(n, &opts) {
                Ok(c) => clips.push(c),
                Err(e) => {
                    let known: Vec<&str> =
                        source.animations.iter().map(|a| a.name.as_str()).collect();
                    eprintln!("error: {e}; the file has: {}", known.join(", "));
                    return ExitCode::FAILURE;
                }
            }
        }
    }
    let glb = clip_glb(&target, &clips);
    if !write_or_report(out, glb) {
        return ExitCode::FAILURE;
    }
    println!(
        "wrote {out}: {} clip(s) on {} tracks",
        clips.len(),
        clips.first().map_or(0, |c| c.tracks.len() + 1)
    );
    ExitCode::SUCCESS
}

fn inspect(args: &[String]) -> ExitCode {
    let [file] = args else {
        return usage();
    };
    let Some(avatar) = load_or_report(file) else {
        return ExitCode::FAILURE;
    };
    print!("{}", tress_rig::cli::inspect::report(&avatar));
    ExitCode::SUCCESS
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
    let Some(avatar) = load_or_report(&parsed.file) else {
        return ExitCode::FAILURE;
    };
    let report =
        match tress_rig::measure::measure_with_progress(&avatar, &parsed.options, &mut progress) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("error: {file}: {e}");
                return ExitCode::FAILURE;
            }
        };
    println!("file: {file}");
    print!("{}", tress_rig::measure::report::summary(&report));
    if let Some(png) = &parsed.plot {
        let title = format!("{file}: {} solver", report.solver);
        match tress_rig::measure::plot::plot_png(&report, &title, png) {
            Ok(true) => println!("plot: {}", png.display()),
            Ok(false) => println!(
                "plot: {} (no TrueType font found for labels: drawn without text)",
                png.display()
            ),
            Err(e) => {
                eprintln!("error: drawing {}: {e}", png.display());
                return ExitCode::FAILURE;
            }
        }
    }
    let mut doc = tress_rig::cli::measure::json(&file, &report);
    if parsed.fit_colliders {
        use tress_rig::fit_colliders;
        let (fitted_avatar, fit) =
            fit_colliders::fitted(&avatar, &fit_colliders::ColliderFitOptions::default());
        println!("\ncollider fit:");
        print!("{}", fit_colliders::report::summary(&fit, &avatar));
        let opts = tress_rig::measure::MeasureOptions {
            tail_chains: fit.tail_chains(),
            ..parsed.options.clone()
        };
        let fitted =
            match tress_rig::measure::measure_with_progress(&fitted_avatar, &opts, &mut progress) {
                Ok(r) => r,
                Err(e) => {
                    eprintln!("error: {file} with fitted colliders: {e}");
                    return ExitCode::FAILURE;
                }
            };
        println!("\nwith fitted colliders:");
        print!("{}", tress_rig::measure::report::summary(&fitted));
        print!(
            "\n{}",
            tress_rig::cli::fit_colliders::compare(&report, &fitted)
        );
        doc = serde_json::json!({
            "authored": doc,
            "fit": fit_colliders::report::json(&fit, &avatar),
            "fitted": tress_rig::cli::measure::json(&file, &fitted),
        });
    }
    if let Some(out) = &parsed.json {
        let text = serde_json::to_string_pretty(&doc).unwrap_or_default();
        if !write_or_report(out, text + "\n") {
            return ExitCode::FAILURE;
        }
        println!("wrote {}", out.display());
    }
    ExitCode::SUCCESS
}

fn fit_colliders(args: &[String]) -> ExitCode {
    use tress_rig::fit_colliders;
    let parsed = match tress_rig::cli::fit_colliders::parse_args(args) {
        Ok(a) => a,
        Err(e) => {
            eprintln!(
                "error: {e}\nusage: {}",
                tress_rig::cli::fit_colliders::USAGE
            );
            return ExitCode::from(2);
        }
    };
    let file = parsed.file.display().to_string();
    let Some(avatar) = load_or_report(&parsed.file) else {
        return ExitCode::FAILURE;
    };
    let fit = fit_colliders::fit_colliders(&avatar, &fit_colliders::ColliderFitOptions::default());
    println!("file: {file}");
    print!("{}", fit_colliders::report::summary(&fit, &avatar));
    if let Some(out) = &parsed.json {
        let mut doc = fit_colliders::report::json(&fit, &avatar);
        if let serde_json::Value::Object(map) = &mut doc {
            map.insert("file".to_owned(), serde_json::Value::from(file));
        }
        let text = serde_json::to_string_pretty(&doc).unwrap_or_default();
        if !write_or_report(out, text + "\n") {
            return ExitCode::FAILURE;
        }
        println!("wrote {}", out.display());
    }
    ExitCode::SUCCESS
}

/// Parses `X,Y,Z` (metres, model space).
fn parse_point(s: &str) -> Option<glam::Vec3> {
    let v: Vec<f32> = s
        .split(',')
        .map(|p| p.trim().parse::<f32>().ok().filter(|x| x.is_finite()))
        .collect::<Option<_>>()?;
    match v.as_slice() {
        &[x, y, z] => Some(glam::Vec3::new(x, y, z)),
        _ => None,
    }
}

fn fit(args: &[String]) -> ExitCode {
    use tress_rig::fit;
    let positional = positional(args, &["--mesh", "--joints", "--root", "-o"]);
    let (Some(file), Some(mesh_name), Some(out)) = (
        positional.first(),
        flag_values(args, "--mesh").first().copied(),
        flag_values(args, "-o").first().copied(),
    ) else {
        return usage();
    };
    let mut opts = fit::FitOptions::default();
    if let Some(j) = flag_values(args, "--joints").first() {
        match j.parse::<usize>() {
            Ok(n) if n > 0 => opts.joints = n,
            _ => {
                eprintln!("error: --joints `{j}` is not a positive integer");
                return ExitCode::from(2);
            }
        }
    }
    if let Some(r) = flag_values(args, "--root").first() {
        let Some(p) = parse_point(r) else {
            eprintln!("error: --root `{r}` is not X,Y,Z (metres, model space)");
            return ExitCode::from(2);
        };
        opts.root_point = Some(p);
    }
    let Some(bytes) = read_or_report(file) else {
        return ExitCode::FAILURE;
    };
    let t0 = std::time::Instant::now();
    let avatar = match tress_rig::load_bytes(&bytes, std::path::Path::new(file.as_str()).parent()) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("error: {file}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let t_load = t0.elapsed();
    let Some(mesh) = fit::mesh_by_name(&avatar, mesh_name) else {
        let names: Vec<String> = avatar
            .meshes
            .iter()
            .enumerate()
            .map(|(i, m)| {
                if m.name.is_empty() {
                    format!("(unnamed mesh {i})")
                } else {
                    m.name.clone()
                }
            })
            .collect();
        eprintln!(
            "error: {file} has no mesh named `{mesh_name}`; its meshes: {}",
            names.join(", ")
        );
        return ExitCode::FAILURE;
    };
    let t1 = std::time::Instant::now();
    let result = match fit::fit_hair(&avatar, mesh, &opts) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {file}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let t_fit = t1.elapsed();
    let t2 = std::time::Instant::now();
    let written = match fit::glb::write_fit(&bytes, &avatar, &result) {
        Ok(w) => w,
        Err(e) => {
            eprintln!("error: {file}: {e}");
            return ExitCode::FAILURE;
        }
    };
    if !write_or_report(out, &written) {
        return ExitCode::FAILURE;
    }
    let t_write = t2.elapsed();
    println!(
        "fitted `{}`: {} vertices ({} after welding), root band {} vertices, centre line {:.3} m, {} pinned to `{}`",
        result.mesh_name,
        result.vertices,
        result.welded_vertices,
        result.root_band,
        result.length,
        result.pinned_vertices,
        avatar.nodes[result.attachment].name
    );
    println!(
        "joint                      arc m   position (model space, m)      hit radius m  stiffness"
    );
    for j in result.joints.iter().chain(core::iter::once(&result.tail)) {
        println!(
            "{:<24} {:>6.3}   ({:>7.3}, {:>7.3}, {:>7.3})   {:>10.4}  {:>9.2}",
            j.name,
            j.arc,
            j.position.x,
            j.position.y,
            j.position.z,
            j.spring.hit_radius,
            j.spring.stiffness
        );
    }
    for n in &result.notes {
        println!("note: {n}");
    }
    println!(
        "time: load {:.2} ms, fit {:.2} ms, write {:.2} ms",
        t_load.as_secs_f64() * 1e3,
        t_fit.as_secs_f64() * 1e3,
        t_write.as_secs_f64() * 1e3
    );
    println!("wrote {out} (`tress unfit {out} -o OUT.vrm` takes this fit back out)");
    ExitCode::SUCCESS
}

fn unfit(args: &[String]) -> ExitCode {
    use tress_rig::fit::glb;
    let positional = positional(args, &["-o"]);
    let (Some(file), Some(out)) = (positional.first(), flag_values(args, "-o").first().copied())
    else {
        return usage();
    };
    let Some(bytes) = read_or_report(file) else {
        return ExitCode::FAILURE;
    };
    let written = match glb::undo_fit(&bytes) {
        Ok(w) => w,
        Err(e) => {
            eprintln!("error: {file}: {e}");
            return ExitCode::FAILURE;
        }
    };
    if !write_or_report(out, &written) {
        return ExitCode::FAILURE;
    }
    // The output was just written by the undo, so it reads back.
    let left = match glb::recorded_fits(&written).unwrap_or(0) {
        0 => "no fit recorded in it any more".to_owned(),
        1 => "1 earlier fit still recorded".to_owned(),
        n => format!("{n} earlier fits still recorded"),
    };
    println!("wrote {out}: {file} with its last fit taken out ({left})");
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
        Some("validate-anim") => validate_anim(&args[1..]),
        Some("retarget") => retarget(&args[1..]),
        Some("export") => export(&args[1..]),
        Some("measure") => measure(&args[1..]),
        Some("fit-colliders") => fit_colliders(&args[1..]),
        Some("fit") => fit(&args[1..]),
        Some("unfit") => unfit(&args[1..]),
        _ => usage(),
    }
}
