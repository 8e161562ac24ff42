//! `tress`: the command-line front end of the Tress rigging tools.
//!
//! - [`cli`]: the command line (clap), one subcommand per tool with its
//!   options, defaults and help (`tress --help`, `tress SUBCOMMAND --help`);
//! - [`progress`]: the progress bar of the long commands;
//! - [`report`]: what the commands print, built as strings and JSON;
//! - here: each subcommand, run from its parsed arguments. A command that
//!   fails says what and where on stderr and exits 1; clap rejects a bad
//!   command line with exit code 2.
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
//! - `bvh ANIMATION --clip NAME [--order ZXY] [--source-names] -o OUT.bvh`:
//!   one body clip written as BVH motion capture (centimetres);
//! - `generate-assets [DIR]`: writes the built-in test avatars into DIR
//!   (default `assets/`); `--check` compares instead of writing and fails
//!   when the committed files differ from a fresh generation;
//! - `measure FILE [--solver improved|earlier|vrm] [--fps 30,60,120]
//!   [--meshes NAME,NAME] [--flat-lock-stiffness 1/s] [--no-drape] [--no-lock-twist] [--no-bands]
//!   [--fit-colliders] [--json OUT.json] [--plot OUT.png]`: hair quality on
//!   the standard head-motion run (stretch, root fixity, settling,
//!   penetration, frame-rate invariance); `--fit-colliders` measures again
//!   with fitted colliders and per-chain contact and compares penetration;
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
//!
//! `measure`, `export`, `retarget` and `fit-colliders` also take a plain glTF
//! humanoid's rig: `--bone-map FILE.json`, `--chain ROOT:END[:k=v,..]`,
//! `--chains-under-head` (see [`cli::PlainRigArgs`]).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Parser as _;
use tress_tools::avatar;

use crate::cli::{
    BvhArgs, Cli, Command, ExportArgs, FitArgs, FitCollidersArgs, GenerateAssetsArgs, GroomCommand,
    GroomInspectArgs, GroomMeasureArgs, InspectArgs, MeasureArgs, RetargetArgs, UnfitArgs,
    ValidateAnimArgs,
};
use crate::progress::Progress;

mod cli;
mod progress;
mod report;

/// The bytes of `file`, or `None` after saying why not.
fn read_or_report(file: &Path) -> Option<Vec<u8>> {
    std::fs::read(file)
        .map_err(|e| eprintln!("error: cannot read {}: {e}", file.display()))
        .ok()
}

/// Writes `bytes` to `out`; `false` after saying why not.
fn write_or_report(out: impl AsRef<Path>, bytes: impl AsRef<[u8]>) -> bool {
    let out = out.as_ref();
    std::fs::write(out, bytes)
        .map_err(|e| eprintln!("error: writing {}: {e}", out.display()))
        .is_ok()
}

/// Writes `doc` as pretty JSON to `out` and says so; `false` after saying why not.
fn write_json_or_report(out: &std::path::Path, doc: &serde_json::Value) -> bool {
    let text = serde_json::to_string_pretty(doc).unwrap_or_default();
    let written = write_or_report(out, text + "\n");
    if written {
        println!("wrote {}", out.display());
    }
    written
}

/// Says where a plot went (and that it has no labels when no font was
/// found); false, with the error printed, when it could not be drawn.
fn plot_drawn(drawn: Result<bool, String>, png: &Path) -> bool {
    match drawn {
        Ok(true) => println!("plot: {}", png.display()),
        Ok(false) => println!(
            "plot: {} (no TrueType font found for labels: drawn without text)",
            png.display()
        ),
        Err(e) => {
            eprintln!("error: drawing {}: {e}", png.display());
            return false;
        }
    }
    true
}

fn label(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

fn load_all(paths: &[PathBuf]) -> Result<Vec<(String, tress_vrm::Avatar)>, String> {
    paths
        .iter()
        .map(|p| {
            tress_vrm::load_path(p)
                .map(|a| (label(p), a))
                .map_err(|e| format!("{}: {e}", p.display()))
        })
        .collect()
}

/// Animation sources: glTF / VRM / VRMA, or BVH (its notes on stderr).
fn load_clip_files(paths: &[PathBuf]) -> Result<Vec<(String, tress_vrm::Avatar)>, String> {
    paths
        .iter()
        .map(|p| {
            load_clip_file(p)
                .map(|a| (label(p), a))
                .map_err(|e| format!("{}: {e}", p.display()))
        })
        .collect()
}

/// One animation source; a BVH's notes (units, how its bones were mapped)
/// go to stderr.
fn load_clip_file(path: &Path) -> Result<tress_vrm::Avatar, String> {
    let a = tress_rig::anim::source::load_path(path)?;
    // A BVH's first warning says its units; glTF warnings stay with `inspect`.
    if a.warnings
        .first()
        .is_some_and(|w| w.message.starts_with("BVH offsets"))
    {
        for w in &a.warnings {
            eprintln!("note: {}: {w}", path.display());
        }
    }
    Ok(a)
}

/// An animation source, or says why not on stderr.
fn load_clips_or_report(path: &Path) -> Option<tress_vrm::Avatar> {
    load_clip_file(path)
        .map_err(|e| eprintln!("error: {}: {e}", path.display()))
        .ok()
}

fn validate_anim(args: &ValidateAnimArgs) -> ExitCode {
    let started = std::time::Instant::now();
    let missing: Vec<&PathBuf> = args
        .avatars
        .iter()
        .chain(&args.clips)
        .filter(|p| !p.is_file())
        .collect();
    if !missing.is_empty() {
        for m in missing {
            eprintln!(
                "error: {} not found (run from the repository root with ../shared beside it, or pass --avatar / --clips)",
                m.display()
            );
        }
        return ExitCode::FAILURE;
    }
    let (avatars, sources) = match (load_all(&args.avatars), load_clip_files(&args.clips)) {
        (Ok(a), Ok(s)) => (a, s),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut bar = Progress::new();
    let rows = tress_tools::validate::validate_all(&avatars, &sources, |done, total, what| {
        bar.update(done, total, what);
    });
    let table = tress_tools::validate::table(&rows);
    print!("{table}");
    println!(
        "elapsed: {:.2} s (loading included)",
        started.elapsed().as_secs_f64()
    );
    if let Some(out) = &args.table
        && !write_or_report(out, &table)
    {
        return ExitCode::FAILURE;
    }
    if rows.iter().all(tress_tools::validate::Row::passed) {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Loads a file, or says why not on stderr.
fn load_or_report(path: impl AsRef<Path>) -> Option<tress_vrm::Avatar> {
    let path = path.as_ref();
    tress_vrm::load_path(path)
        .map_err(|e| eprintln!("error: {}: {e}", path.display()))
        .ok()
}

/// The animation file's skeleton mapped onto the avatar (its notes on
/// stderr), or the reason on stderr, naming the file at fault: the avatar
/// for a target without a humanoid, else the clip file.
fn retargeter_or_report<'a>(
    source: &'a tress_vrm::Avatar,
    target: &'a tress_vrm::Avatar,
    anim_path: &Path,
    avatar_path: &Path,
) -> Option<tress_rig::anim::Retargeter<'a>> {
    use tress_rig::anim::RetargetError;
    match tress_rig::anim::Retargeter::detect(source, target) {
        Ok(r) => {
            for n in &r.notes {
                eprintln!("note: {n}");
            }
            Some(r)
        }
        Err(e) => {
            let at_fault = match &e {
                RetargetError::NoTargetHumanoid
                | RetargetError::MissingBones {
                    side: "target avatar",
                    ..
                } => avatar_path,
                _ => anim_path,
            };
            eprintln!("error: {}: {e}", at_fault.display());
            None
        }
    }
}

/// Gives a plain avatar (no VRM humanoid) a humanoid from its node names and
/// the map file, and adds the chains asked for; the loader-style notes go to
/// stderr. `false` after saying why not.
fn plain_rig_or_report(
    avatar: &mut tress_vrm::Avatar,
    args: &crate::cli::PlainRigArgs,
    path: &Path,
) -> bool {
    use tress_rig::plain_rig::{PlainRigOptions, apply};
    let bone_map = match &args.bone_map {
        Some(p) => match std::fs::read_to_string(p) {
            Ok(t) => Some(t),
            Err(e) => {
                eprintln!("error: cannot read {}: {e}", p.display());
                return false;
            }
        },
        None => None,
    };
    let opts = PlainRigOptions {
        bone_map,
        chains: args.chains.clone(),
        chains_under_head: args.chains_under_head,
    };
    let has_humanoid = avatar
        .humanoid
        .as_ref()
        .is_some_and(|h| !h.bones.is_empty());
    if opts.is_empty() && has_humanoid {
        return true;
    }
    let before = avatar.warnings.len();
    if let Err(e) = apply(avatar, &opts) {
        let what = args
            .bone_map
            .as_ref()
            .filter(|_| {
                matches!(e, tress_rig::plain_rig::PlainRigError::Map(_)) && opts.bone_map.is_some()
            })
            .map_or_else(
                || path.display().to_string(),
                |m| format!("{} with {}", path.display(), m.display()),
            );
        eprintln!("error: {what}: {e}");
        return false;
    }
    for w in &avatar.warnings[before..] {
        eprintln!("note: {}: {w}", path.display());
    }
    true
}

fn export(args: &ExportArgs) -> ExitCode {
    use tress_rig::anim::RetargetOptions;
    let started = std::time::Instant::now();
    let avatar_path = args.avatar.display();
    let bytes = match std::fs::read(&args.avatar) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("error: {avatar_path}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut target = match tress_vrm::load_bytes(&bytes, args.avatar.parent()) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: {avatar_path}: {e}");
            return ExitCode::FAILURE;
        }
    };
    if !plain_rig_or_report(&mut target, &args.plain, &args.avatar) {
        return ExitCode::FAILURE;
    }
    let Some(source) = load_clips_or_report(&args.anim) else {
        return ExitCode::FAILURE;
    };
    let Some(r) = retargeter_or_report(&source, &target, &args.anim, &args.avatar) else {
        return ExitCode::FAILURE;
    };
    let looped = args.looped;
    let opts = RetargetOptions {
        remove_travel: !args.keep_travel,
        loop_blend: looped.then_some(0.3),
        ..RetargetOptions::default()
    };
    let clip = match r.retarget_named(&args.clip, &opts) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {}: {e}", args.anim.display());
            return ExitCode::FAILURE;
        }
    };
    let mut anim = if args.bake {
        let bake_opts = tress_tools::bake::BakeOptions {
            looped,
            ..tress_tools::bake::BakeOptions::default()
        };
        match tress_tools::bake::bake(&target, &clip, &bake_opts) {
            Ok(a) => a,
            Err(e) => {
                eprintln!("error: cannot simulate the hair: {e}");
                return ExitCode::FAILURE;
            }
        }
    } else {
        clip.to_animation()
    };
    if args.bake {
        anim.name = format!("{} (baked hair)", args.clip);
    }
    let written = match tress_vrm::gltf_out::append_animation(&bytes, &anim) {
        Ok(w) => w,
        Err(e) => {
            eprintln!("error: cannot write into {avatar_path}'s document: {e}");
            return ExitCode::FAILURE;
        }
    };
    if !write_or_report(&args.out, written) {
        return ExitCode::FAILURE;
    }
    println!(
        "wrote {}: animation `{}`, {} frames over {:.2} s, {} tracks ({} {}) in {:.1} ms",
        args.out.display(),
        anim.name,
        clip.times.len(),
        clip.duration(),
        anim.channels.len(),
        if looped { "looping" } else { "one-shot" },
        if args.bake {
            "with baked hair"
        } else {
            "body only"
        },
        started.elapsed().as_secs_f64() * 1000.0
    );
    ExitCode::SUCCESS
}

fn write_bvh(args: &BvhArgs) -> ExitCode {
    use tress_tools::bvh_out::{BvhOptions, JointNames};
    let Some(source) = load_clips_or_report(&args.animation) else {
        return ExitCode::FAILURE;
    };
    let Some(map) = tress_rig::anim::BoneMap::detect(&source) else {
        eprintln!(
            "error: {}: {}",
            args.animation.display(),
            tress_rig::anim::RetargetError::NoSourceMap
        );
        return ExitCode::FAILURE;
    };
    let Some(clip) = source.animations.iter().find(|a| a.name == args.clip) else {
        let available = source.animations.iter().map(|a| a.name.clone()).collect();
        eprintln!(
            "error: {}: {}",
            args.animation.display(),
            tress_rig::anim::RetargetError::NoSuchClip {
                name: args.clip.clone(),
                available
            }
        );
        return ExitCode::FAILURE;
    };
    let opts = BvhOptions {
        order: args.order.0,
        names: if args.source_names {
            JointNames::Source
        } else {
            JointNames::Cmu
        },
        units_per_metre: 100.0,
    };
    let text = tress_tools::bvh_out::write_bvh(&source, &map, clip, &opts);
    if !write_or_report(&args.out, &text) {
        return ExitCode::FAILURE;
    }
    println!(
        "wrote {}: `{}`, {} bytes",
        args.out.display(),
        args.clip,
        text.len()
    );
    ExitCode::SUCCESS
}

fn retarget(args: &RetargetArgs) -> ExitCode {
    use tress_rig::anim::{RetargetOptions, clip_glb};
    let (Some(mut target), Some(source)) = (
        load_or_report(&args.avatar),
        load_clips_or_report(&args.animation),
    ) else {
        return ExitCode::FAILURE;
    };
    if !plain_rig_or_report(&mut target, &args.plain, &args.avatar) {
        return ExitCode::FAILURE;
    }
    let Some(r) = retargeter_or_report(&source, &target, &args.animation, &args.avatar) else {
        return ExitCode::FAILURE;
    };
    let opts = RetargetOptions {
        remove_travel: !args.keep_travel,
        loop_blend: (!args.no_loop).then_some(0.3),
        ..RetargetOptions::default()
    };
    let mut clips = Vec::new();
    if args.clips.is_empty() {
        for a in &source.animations {
            match r.retarget(a, &opts) {
                Ok(c) => clips.push(c),
                Err(e) => {
                    eprintln!("error: {}: {e}", args.animation.display());
                    return ExitCode::FAILURE;
                }
            }
        }
    } else {
        for n in &args.clips {
            match r.retarget_named(n, &opts) {
                Ok(c) => clips.push(c),
                Err(e) => {
                    eprintln!("error: {}: {e}", args.animation.display());
                    return ExitCode::FAILURE;
                }
            }
        }
    }
    let glb = clip_glb(&target, &clips);
    if !write_or_report(&args.out, glb) {
        return ExitCode::FAILURE;
    }
    println!(
        "wrote {}: {} clip(s) on {} tracks",
        args.out.display(),
        clips.len(),
        clips.first().map_or(0, |c| c.tracks.len() + 1)
    );
    ExitCode::SUCCESS
}

fn inspect(args: &InspectArgs) -> ExitCode {
    let Some(avatar) = load_or_report(&args.file) else {
        return ExitCode::FAILURE;
    };
    print!("{}", crate::report::inspect::report(&avatar));
    ExitCode::SUCCESS
}

fn measure(args: &MeasureArgs) -> ExitCode {
    let file = args.file.display().to_string();
    let mut options = args.options();
    let Some(mut avatar) = load_or_report(&args.file) else {
        return ExitCode::FAILURE;
    };
    if !plain_rig_or_report(&mut avatar, &args.plain, &args.file) {
        return ExitCode::FAILURE;
    }
    if let (Some(anim), Some(name)) = (&args.anim, &args.clip) {
        let Some(source) = load_clips_or_report(anim) else {
            return ExitCode::FAILURE;
        };
        let Some(r) = retargeter_or_report(&source, &avatar, anim, &args.file) else {
            return ExitCode::FAILURE;
        };
        // The default options close a clip's loop, so the passes join up.
        match r.retarget_named(name, &tress_rig::anim::RetargetOptions::default()) {
            Ok(c) => {
                options.clip = Some(tress_tools::measure::ClipMotion::new(&c, args.passes));
            }
            Err(e) => {
                eprintln!("error: {}: {e}", anim.display());
                return ExitCode::FAILURE;
            }
        }
    }
    let mut bar = Progress::new();
    let mut progress = |done: usize, total: usize, what: &str| bar.update(done, total, what);
    let report = match tress_tools::measure::measure_with_progress(&avatar, &options, &mut progress)
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {file}: {e}");
            return ExitCode::FAILURE;
        }
    };
    println!("file: {file}");
    print!("{}", tress_tools::measure::report::summary(&report));
    if let Some(png) = &args.plot {
        let title = format!("{file}: {} solver", report.solver);
        if !plot_drawn(
            tress_tools::measure::plot::plot_png(&report, &title, png),
            png,
        ) {
            return ExitCode::FAILURE;
        }
    }
    let mut doc = crate::report::measure::json(&file, &report);
    if args.fit_colliders {
        use tress_rig::fit_colliders;
        let (fitted_avatar, fit) =
            fit_colliders::fitted(&avatar, &fit_colliders::ColliderFitOptions::default());
        println!("\ncollider fit:");
        print!("{}", fit_colliders::report::summary(&fit, &avatar));
        let opts = tress_tools::measure::MeasureOptions {
            tail_chains: fit.tail_chains(),
            ..options
        };
        let fitted =
            match tress_tools::measure::measure_with_progress(&fitted_avatar, &opts, &mut progress)
            {
                Ok(r) => r,
                Err(e) => {
                    eprintln!("error: {file} with fitted colliders: {e}");
                    return ExitCode::FAILURE;
                }
            };
        println!("\nwith fitted colliders:");
        print!("{}", tress_tools::measure::report::summary(&fitted));
        print!(
            "\n{}",
            crate::report::fit_colliders::compare(&report, &fitted)
        );
        doc = serde_json::json!({
            "authored": doc,
            "fit": fit_colliders::report::json(&fit, &avatar),
            "fitted": crate::report::measure::json(&file, &fitted),
        });
    }
    if let Some(out) = &args.json
        && !write_json_or_report(out, &doc)
    {
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

fn fit_colliders(args: &FitCollidersArgs) -> ExitCode {
    use tress_rig::fit_colliders;
    let file = args.file.display().to_string();
    let Some(mut avatar) = load_or_report(&args.file) else {
        return ExitCode::FAILURE;
    };
    if !plain_rig_or_report(&mut avatar, &args.plain, &args.file) {
        return ExitCode::FAILURE;
    }
    let fit = fit_colliders::fit_colliders(&avatar, &fit_colliders::ColliderFitOptions::default());
    println!("file: {file}");
    print!("{}", fit_colliders::report::summary(&fit, &avatar));
    if let Some(out) = &args.json {
        let mut doc = fit_colliders::report::json(&fit, &avatar);
        if let serde_json::Value::Object(map) = &mut doc {
            map.insert("file".to_owned(), serde_json::Value::from(file));
        }
        if !write_json_or_report(out, &doc) {
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}

fn fit(args: &FitArgs) -> ExitCode {
    use tress_tools::fit;
    let file = args.file.display();
    let out = args.out.display();
    let mesh_name = args.mesh.as_str();
    let opts = args.options();
    let Some(bytes) = read_or_report(&args.file) else {
        return ExitCode::FAILURE;
    };
    let t0 = std::time::Instant::now();
    let avatar = match tress_vrm::load_bytes(&bytes, args.file.parent()) {
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
    if !write_or_report(&args.out, &written) {
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

fn unfit(args: &UnfitArgs) -> ExitCode {
    use tress_tools::fit::glb;
    let file = args.file.display();
    let out = args.out.display();
    let Some(bytes) = read_or_report(&args.file) else {
        return ExitCode::FAILURE;
    };
    let written = match glb::undo_fit(&bytes) {
        Ok(w) => w,
        Err(e) => {
            eprintln!("error: {file}: {e}");
            return ExitCode::FAILURE;
        }
    };
    if !write_or_report(&args.out, &written) {
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

fn generate_assets(args: &GenerateAssetsArgs) -> ExitCode {
    let dir = &args.dir;
    if args.check {
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
    match avatar::write_assets(dir) {
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

fn groom_inspect(args: &GroomInspectArgs) -> ExitCode {
    match tress_tools::groom::load(&args.file, args.scale) {
        Ok(mut g) => {
            // The one beside a .tfx is in the notes already.
            let beside = std::path::Path::new(&args.file).with_extension("tfxbone");
            if let Some(b) = args.bones.as_ref().filter(|b| **b != beside) {
                g.notes.extend(tress_tools::groom::tfxbone_notes(b));
            }
            print!("{}", tress_tools::groom::inspect::report(&g));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn groom_measure(args: &GroomMeasureArgs) -> ExitCode {
    if !(args.seconds.is_finite() && args.seconds > 0.0 && args.seconds <= 600.0) {
        eprintln!(
            "error: --seconds {}: must be above 0 and at most 600",
            args.seconds
        );
        return ExitCode::FAILURE;
    }
    if !(0.01..=1.0).contains(&args.fraction) {
        eprintln!(
            "error: --fraction {}: must be within 0.01..=1",
            args.fraction
        );
        return ExitCode::FAILURE;
    }
    let mut groom = match tress_tools::groom::load(&args.file, args.scale) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    for (name, v) in [
        ("--global-stiffness", args.global_stiffness),
        ("--global-range", args.global_range),
        ("--local-stiffness", args.local_stiffness),
    ] {
        if v.is_some_and(|v| !(0.0..=1.0).contains(&v)) {
            eprintln!("error: {name} {}: must be within 0..=1", v.unwrap_or(0.0));
            return ExitCode::FAILURE;
        }
    }
    for p in &mut groom.parts {
        p.params.global_stiffness = args.global_stiffness.unwrap_or(p.params.global_stiffness);
        p.params.global_range = args.global_range.unwrap_or(p.params.global_range);
        p.params.local_stiffness = args.local_stiffness.unwrap_or(p.params.local_stiffness);
    }
    let options = tress_tools::groom::quality::QualityOptions {
        seconds: args.seconds,
        head_turn: args.head_turn,
        particles: args.particles.map(usize::from),
        fraction: args.fraction,
        ..Default::default()
    };
    let report = match tress_tools::groom::quality::measure(&groom, &options) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {}: {e}", args.file);
            return ExitCode::FAILURE;
        }
    };
    println!("groom: {} ({}, {})", groom.file, groom.format, groom.units);
    print!(
        "{}",
        tress_tools::groom::quality::summary(&report, &options)
    );
    if let Some(png) = &args.plot {
        let title = format!(
            "{}: {} strands x {}",
            groom.file, report.strands, report.particles
        );
        if !plot_drawn(
            tress_tools::groom::plot::plot_png(&report, &title, png),
            png,
        ) {
            return ExitCode::FAILURE;
        }
    }
    if let Some(out) = &args.json {
        let doc = serde_json::json!({ "file": groom.file, "units": groom.units, "report": report });
        if !write_json_or_report(out, &doc) {
            return ExitCode::FAILURE;
        }
    }
    let pass = if args.head_turn {
        report.passes()
    } else {
        report.worst_mean_length <= 0.01
            && report.worst_max_length <= 0.03
            && report.worst_inside == 0
    };
    println!("{}", if pass { "PASS" } else { "FAIL" });
    if pass {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

fn main() -> ExitCode {
    match &Cli::parse().command {
        Command::Inspect(a) => inspect(a),
        Command::ValidateAnim(a) => validate_anim(a),
        Command::Retarget(a) => retarget(a),
        Command::Bvh(a) => write_bvh(a),
        Command::Export(a) => export(a),
        Command::GenerateAssets(a) => generate_assets(a),
        Command::Measure(a) => measure(a),
        Command::FitColliders(a) => fit_colliders(a),
        Command::Fit(a) => fit(a),
        Command::Unfit(a) => unfit(a),
        Command::Groom(GroomCommand::Inspect(a)) => groom_inspect(a),
        Command::Groom(GroomCommand::Measure(a)) => groom_measure(a),
    }
}
