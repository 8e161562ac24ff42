//! The command line: one clap subcommand per tool, each option with its
//! help text.
//!
//! Values are checked as they are parsed, by the tools' own rules where the
//! tools have them (`--solver` by [`Solver`]'s `FromStr`, `--fps` by
//! [`parse_fps`]), so a bad value stops with clap's message and exit code 2
//! before any file is read. Defaults come from the tools' option types
//! ([`MeasureOptions`], [`FitOptions`]), so the help shows what a run uses.
//! The numeric options take values that start with `-` (`--root
//! -0.05,1.5,0`; `--joints -2` is then rejected as a value, not taken for
//! an unknown option).

use core::fmt;
use core::str::FromStr;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};
use tress_tools::fit::FitOptions;
use tress_tools::measure::{MeasureError, MeasureOptions, Solver, parse_fps};

/// Avatars `validate-anim` checks when no `--avatar` is given.
const DEFAULT_AVATARS: [&str; 3] = [
    "assets/tress_avatar.vrm",
    "assets/tress_avatar_layered.vrm",
    "../shared/assets/godette-vrm0/Godette_vrm_v4.vrm",
];

/// Animation files `validate-anim` checks when no `--clips` is given.
const DEFAULT_CLIPS: [&str; 3] = [
    "../shared/assets/quaternius-ual1/AnimationLibrary_Godot_Standard.gltf",
    "../shared/assets/three-vrm-vrma/idle_loop.vrma",
    "../shared/assets/three-vrm-vrma/test.vrma",
];

/// Inspect, measure, fit and export VRM avatars with Tress.
#[derive(Debug, Parser)]
#[command(name = "tress", version, arg_required_else_help = true)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print what a .vrm, .glb, .gltf or .vrma file holds, as Tress reads it
    ///
    /// Humanoid bones, spring chains, colliders, meshes, skins, node
    /// constraints, animations and the loader's warnings.
    Inspect(InspectArgs),
    /// Retarget every clip onto every avatar and check the result
    ///
    /// Prints a table of the checks per clip and avatar (and the time
    /// taken); fails when a pair fails. Run from the repository root with
    /// ../shared beside it for the defaults.
    ValidateAnim(ValidateAnimArgs),
    /// Write an avatar's skeleton with an animation file's clips retargeted onto it
    Retarget(RetargetArgs),
    /// Write an avatar file with one clip retargeted onto it as a glTF animation
    ///
    /// With --bake, its spring hair is simulated over the clip and recorded
    /// as tracks too, so any glTF player shows the hair moving.
    Export(ExportArgs),
    /// Write one body clip as BVH motion capture
    ///
    /// The source's humanoid body (no fingers) in its rest positions, each
    /// joint's rotation change from rest as Euler angles in the given
    /// order, centimetres; CMU-style joint names unless --source-names.
    Bvh(BvhArgs),
    /// Write the built-in test avatars, or check the committed ones
    GenerateAssets(GenerateAssetsArgs),
    /// Measure hair quality on the standard head-motion run
    ///
    /// Stretch, root fixity, settling, penetration and frame-rate
    /// invariance, one run per frame rate (a mesh run skinning every
    /// frame, then a joint-only run).
    Measure(MeasureArgs),
    /// Fit colliders to the body and print the fit
    ///
    /// Colliders grown to cover the body, a trunk capsule added where none
    /// covers it, the colliders linked to each chain, and each chain's
    /// contact (whole-segment or tail point).
    FitColliders(FitCollidersArgs),
    /// Rig an unrigged (or badly rigged) hair mesh as one spring chain under the head
    ///
    /// Writes the file with the chain, skin and weights added, and a record
    /// of the fit that `tress unfit` takes back out.
    Fit(FitArgs),
    /// Take the last `tress fit` back out of a fitted file, from the record the fit left in it
    Unfit(UnfitArgs),
    /// Read and measure strand grooms (.tfx, OBJ polylines, .tfxproj, procedural)
    #[command(subcommand)]
    Groom(GroomCommand),
}

/// `tress groom` subcommands.
#[derive(Debug, Subcommand)]
pub enum GroomCommand {
    /// Print a groom's strands, particles, bounds, units, lengths, parts and settings
    ///
    /// FILE is a .tfx, an OBJ polyline file, a TressFX project (.tfxproj,
    /// every part with its .tfxsim) or `procedural` (the built-in groom).
    /// A `NAME.tfxsim` beside NAME.tfx, or a .tfxproj in the same folder
    /// naming it, gives its settings and collision spheres.
    Inspect(GroomInspectArgs),
    /// Simulate a groom and print the strand quality report
    ///
    /// Segment length error, free particles more than 2 mm inside the
    /// groom's colliders, tip swing past the follow position after each head
    /// reversal (--head-turn), settling, and where the tips end against the
    /// groomed shape. Exits 1 when a limit is missed (length error 1 % mean
    /// and 3 % max, none inside; with --head-turn also a swing at every
    /// reversal and settling within 3 s).
    Measure(GroomMeasureArgs),
}

/// The arguments of `tress groom inspect`.
#[derive(Debug, Args)]
pub struct GroomInspectArgs {
    /// The groom: .tfx, .obj, .tfxproj or `procedural`
    #[arg(value_name = "FILE")]
    pub file: String,
    /// Metres per file unit [default: detected from the groom's size]
    #[arg(long, value_name = "M")]
    pub scale: Option<f32>,
    /// A TressFX .tfxbone to summarise [default: NAME.tfxbone beside a .tfx]
    #[arg(long, value_name = "FILE")]
    pub bones: Option<std::path::PathBuf>,
}

/// The arguments of `tress groom measure`.
#[derive(Debug, Args)]
pub struct GroomMeasureArgs {
    /// The groom: .tfx, .obj, .tfxproj or `procedural`
    #[arg(value_name = "FILE")]
    pub file: String,
    /// Metres per file unit [default: detected from the groom's size]
    #[arg(long, value_name = "M")]
    pub scale: Option<f32>,
    /// Turn the head (yaw +/-60 deg, 2 s period, for 4 s) instead of holding it still
    #[arg(long)]
    pub head_turn: bool,
    /// Seconds simulated
    #[arg(long, value_name = "S", default_value_t = 10.0)]
    pub seconds: f64,
    /// Resample every strand to this many particles (4..=64) [default: the groom's own]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(4..=64))]
    pub particles: Option<u8>,
    /// Fraction of the strands simulated, 0.01..=1
    #[arg(long, value_name = "F", default_value_t = 1.0)]
    pub fraction: f32,
    /// Override every part's global shape stiffness (fraction per 1/60 s)
    #[arg(long, value_name = "S")]
    pub global_stiffness: Option<f32>,
    /// Override every part's global shape range (fraction of the strand)
    #[arg(long, value_name = "R")]
    pub global_range: Option<f32>,
    /// Override every part's local shape stiffness (fraction per 1/60 s)
    #[arg(long, value_name = "S")]
    pub local_stiffness: Option<f32>,
    /// Write every number to this file as JSON
    #[arg(long, value_name = "OUT.json")]
    pub json: Option<PathBuf>,
    /// Draw tip swing and tip distance from the groom over time to this file (PNG)
    #[arg(long, value_name = "OUT.png")]
    pub plot: Option<PathBuf>,
}

/// The arguments of `tress inspect` (its help is on [`Command`]).
#[derive(Debug, Args)]
pub struct InspectArgs {
    /// The file to inspect (.vrm, .glb, .gltf or .vrma)
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
}

/// The arguments of `tress validate-anim` (its help is on [`Command`]).
#[derive(Debug, Args)]
pub struct ValidateAnimArgs {
    /// An avatar to retarget onto; repeat for several
    #[arg(long = "avatar", value_name = "FILE", default_values = DEFAULT_AVATARS)]
    pub avatars: Vec<PathBuf>,
    /// An animation file whose clips are all checked; repeat for several
    #[arg(long = "clips", value_name = "FILE", default_values = DEFAULT_CLIPS)]
    pub clips: Vec<PathBuf>,
    /// Also write the results table (Markdown) to this file
    #[arg(long, value_name = "OUT.md")]
    pub table: Option<PathBuf>,
}

/// A plain glTF humanoid's bone map and spring chains, given on the command
/// line (`measure`, `export`, `retarget`, `fit-colliders`).
#[derive(Debug, Args, Clone, Default)]
pub struct PlainRigArgs {
    /// A JSON bone map, VRM bone → node name (`{"hips": "pelvis", ...}`), over the map read from node names
    #[arg(long, value_name = "FILE.json")]
    pub bone_map: Option<PathBuf>,
    /// A spring chain from ROOT to END bone, optionally with joint values (defaults: stiffness=1,drag=0.4,gravity=0,radius=0.02); repeat for several
    #[arg(long = "chain", value_name = "ROOT:END[:stiffness=..,drag=..,gravity=..,radius=..]", value_parser = parse_chain)]
    pub chains: Vec<tress_rig::plain_rig::ChainSpec>,
    /// Add every dangling chain under the humanoid head (bones below it that no humanoid bone lies under)
    #[arg(long)]
    pub chains_under_head: bool,
}

fn parse_chain(s: &str) -> Result<tress_rig::plain_rig::ChainSpec, String> {
    tress_rig::plain_rig::ChainSpec::parse(s)
}

/// The arguments of `tress retarget` (its help is on [`Command`]).
#[derive(Debug, Args)]
pub struct RetargetArgs {
    /// The avatar whose skeleton receives the clips (.vrm or .glb)
    #[arg(value_name = "AVATAR")]
    pub avatar: PathBuf,
    /// The file holding the clips (.vrma, .glb, .gltf or .bvh)
    #[arg(value_name = "ANIMATION")]
    pub animation: PathBuf,
    /// A clip to retarget, by name; repeat for several [default: every clip in ANIMATION]
    #[arg(long = "clip", value_name = "NAME")]
    pub clips: Vec<String>,
    /// Keep the hips' net travel over the clip [default: removed, the clip plays in place]
    #[arg(long)]
    pub keep_travel: bool,
    /// Leave the clips one-shot [default: where a clip does not end where it starts, a 0.3 s blend back to its first pose is appended so it loops]
    #[arg(long)]
    pub no_loop: bool,
    #[command(flatten)]
    pub plain: PlainRigArgs,
    /// Where to write the skeleton and its clips (.glb)
    #[arg(short = 'o', value_name = "OUT.glb")]
    pub out: PathBuf,
}

/// The arguments of `tress bvh` (its help is on [`Command`]).
#[derive(Debug, Args)]
pub struct BvhArgs {
    /// The file holding the clip (.gltf, .glb, .vrma or .bvh)
    #[arg(value_name = "ANIMATION")]
    pub animation: PathBuf,
    /// The clip to write, by name
    #[arg(long, value_name = "NAME")]
    pub clip: String,
    /// Rotation channel order, three distinct letters of X, Y, Z
    #[arg(long, default_value = "ZXY", value_parser = parse_order)]
    pub order: RotationOrder,
    /// Keep the source's node names [default: CMU-style names: Hips, LeftUpLeg, Spine1, …]
    #[arg(long)]
    pub source_names: bool,
    /// Where to write the BVH
    #[arg(short = 'o', value_name = "OUT.bvh")]
    pub out: PathBuf,
}

/// A rotation channel order (`ZXY`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RotationOrder(pub [tress_rig::anim::bvh::euler::Axis; 3]);

fn parse_order(s: &str) -> Result<RotationOrder, String> {
    use tress_rig::anim::bvh::euler::Axis;
    let axes: Vec<Axis> = s
        .chars()
        .map(|c| match c.to_ascii_uppercase() {
            'X' => Ok(Axis::X),
            'Y' => Ok(Axis::Y),
            'Z' => Ok(Axis::Z),
            other => Err(format!("`{other}` is not an axis (X, Y or Z)")),
        })
        .collect::<Result<_, _>>()?;
    match axes.as_slice() {
        [a, b, c] if a != b && b != c && a != c => Ok(RotationOrder([*a, *b, *c])),
        _ => Err(format!("`{s}` is not three distinct axes (e.g. ZXY)")),
    }
}

/// The arguments of `tress export` (its help is on [`Command`]).
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// The avatar file the animation is added to (.vrm or .glb)
    #[arg(value_name = "AVATAR")]
    pub avatar: PathBuf,
    /// The file holding the clip (.vrma, .glb, .gltf or .bvh)
    #[arg(long, value_name = "FILE")]
    pub anim: PathBuf,
    /// The clip to export, by name
    #[arg(long, value_name = "NAME")]
    pub clip: String,
    /// Also simulate the spring hair over the clip and record it as tracks
    #[arg(long)]
    pub bake: bool,
    /// Make the clip loop: append a 0.3 s blend back to the first pose, and bake the hair as a loop [default: one-shot]
    #[arg(long = "loop")]
    pub looped: bool,
    /// Keep the hips' net travel over the clip [default: removed, the clip plays in place]
    #[arg(long)]
    pub keep_travel: bool,
    #[command(flatten)]
    pub plain: PlainRigArgs,
    /// Where to write the avatar with the animation added (.glb)
    #[arg(short = 'o', value_name = "OUT.glb")]
    pub out: PathBuf,
}

/// The arguments of `tress generate-assets` (its help is on [`Command`]).
#[derive(Debug, Args)]
pub struct GenerateAssetsArgs {
    /// Compare the files in DIR with a fresh generation instead of writing; fail when they differ
    #[arg(long)]
    pub check: bool,
    /// The folder the avatars are written into (or checked in)
    #[arg(value_name = "DIR", default_value = "assets")]
    pub dir: PathBuf,
}

/// The arguments of `tress measure` (its help is on [`Command`]).
#[derive(Debug, Args)]
pub struct MeasureArgs {
    /// The avatar to measure (.vrm or .glb)
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// The spring solver: improved, earlier or vrm (three-vrm compatible)
    #[arg(long, value_name = "SOLVER", default_value = MeasureOptions::default().solver.name())]
    pub solver: Solver,
    /// Delivered frame rates, frames per second, comma-separated: one run each
    #[arg(
        long,
        value_name = "FPS,FPS",
        allow_hyphen_values = true,
        default_value_t = FrameRates(MeasureOptions::default().fps),
    )]
    pub fps: FrameRates,
    /// Count stretch only over these meshes' hair, comma-separated names [default: every hair mesh]
    #[arg(long, value_name = "NAME,NAME")]
    pub meshes: Option<MeshNames>,
    /// How fast a flat lock's bend across its width relaxes, 1/s; 0 is off (the lock twist keeps the lock shapes)
    #[arg(
        long,
        value_name = "1/s",
        allow_hyphen_values = true,
        value_parser = flat_lock_stiffness,
        default_value_t = MeasureOptions::default().flat_lock_stiffness,
    )]
    pub flat_lock_stiffness: f32,
    /// Drape the hair over contact (improved solver; the default)
    #[arg(long, overrides_with = "no_drape")]
    pub drape: bool,
    /// Leave drape over contact out
    #[arg(long, overrides_with = "drape")]
    pub no_drape: bool,
    /// Leave the file's bands (TRESS_springBone_band) out: every chain alone
    #[arg(long)]
    pub no_bands: bool,
    /// Twist flat locks' bones so their bends go through the face (improved solver; the default)
    #[arg(long, overrides_with = "no_lock_twist")]
    pub lock_twist: bool,
    /// Leave the lock twist out
    #[arg(long, overrides_with = "lock_twist")]
    pub no_lock_twist: bool,
    /// Measure again with fitted colliders and per-chain contact, and compare penetration
    #[arg(long)]
    pub fit_colliders: bool,
    /// Carry the hair rigidly with the head (spring joints kept at rest): what stretch remains is the avatar's own skinning
    #[arg(long)]
    pub rigid_hair: bool,
    /// Wind on the hair, m/s² (0: calm; gusts and flutter as the Godot node's defaults)
    #[arg(
        long,
        value_name = "M/S²",
        allow_hyphen_values = true,
        value_parser = wind_strength,
        default_value_t = 0.0
    )]
    pub wind: f32,
    /// Where the wind blows to, world space
    #[arg(
        long,
        value_name = "X,Y,Z",
        allow_hyphen_values = true,
        value_parser = wind_direction,
        default_value = "1,0,0"
    )]
    pub wind_direction: glam::Vec3,
    /// Count penetration only over these meshes' hair, comma-separated names [default: every hair mesh]
    #[arg(long, value_name = "NAME,NAME")]
    pub inside_meshes: Option<MeshNames>,
    /// Play a body clip from this file (.gltf, .glb, .vrma or .bvh) instead of the standard head run; needs --clip
    #[arg(long, value_name = "FILE", requires = "clip")]
    pub anim: Option<PathBuf>,
    /// The clip to play, by name (retargeted onto the avatar)
    #[arg(long, value_name = "NAME", requires = "anim")]
    pub clip: Option<String>,
    /// How many times the clip plays, after a 1 s ease-in from the rest pose
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=100))]
    pub passes: u32,
    /// Write every number to this file as JSON
    #[arg(long, value_name = "OUT.json")]
    pub json: Option<PathBuf>,
    /// Draw the stretch distribution and tip paths to this file (PNG)
    #[arg(long, value_name = "OUT.png")]
    pub plot: Option<PathBuf>,
    #[command(flatten)]
    pub plain: PlainRigArgs,
}

impl MeasureArgs {
    /// What to measure.
    #[must_use]
    pub fn options(&self) -> MeasureOptions {
        MeasureOptions {
            solver: self.solver,
            fps: self.fps.0.clone(),
            stretch_meshes: self.meshes.clone().map(|m| m.0).unwrap_or_default(),
            inside_meshes: self.inside_meshes.clone().map(|m| m.0).unwrap_or_default(),
            flat_lock_stiffness: self.flat_lock_stiffness,
            // The last of a --x / --no-x pair wins (clap keeps only it);
            // neither: the rig's default.
            drape: on_or_default(self.drape, self.no_drape, MeasureOptions::default().drape),
            bands: !self.no_bands,
            lock_twist: on_or_default(
                self.lock_twist,
                self.no_lock_twist,
                MeasureOptions::default().lock_twist,
            ),
            rigid_hair: self.rigid_hair,
            wind: tress_core::spring::Wind {
                direction: self.wind_direction,
                strength: self.wind,
                ..tress_core::spring::Wind::default()
            },
            ..MeasureOptions::default()
        }
    }
}

/// The arguments of `tress fit-colliders` (its help is on [`Command`]).
#[derive(Debug, Args)]
pub struct FitCollidersArgs {
    /// The avatar (.vrm or .glb)
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Write the fit to this file as JSON
    #[arg(long, value_name = "OUT.json")]
    pub json: Option<PathBuf>,
    #[command(flatten)]
    pub plain: PlainRigArgs,
}

/// The arguments of `tress fit` (its help is on [`Command`]).
#[derive(Debug, Args)]
pub struct FitArgs {
    /// The avatar holding the hair mesh (.vrm or .glb)
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// The hair mesh to rig, by name
    #[arg(long, value_name = "NAME")]
    pub mesh: String,
    /// Bones in the chain (a tail node is added after the last) [default: from the lock's length and bend: bones up to 7.5 cm and 25°, 3 to 16]
    #[arg(long, value_name = "N", allow_hyphen_values = true, value_parser = positive_count)]
    pub joints: Option<usize>,
    /// Model-space point the lock grows from, metres [default: where the mesh is nearest the scalp]
    #[arg(long, value_name = "X,Y,Z", allow_hyphen_values = true, value_parser = model_point)]
    pub root: Option<glam::Vec3>,
    /// Where to write the fitted file
    #[arg(short = 'o', value_name = "OUT.vrm")]
    pub out: PathBuf,
}

impl FitArgs {
    /// The fitter's options.
    #[must_use]
    pub fn options(&self) -> FitOptions {
        FitOptions {
            joints: self.joints,
            root_point: self.root,
            ..FitOptions::default()
        }
    }
}

/// The arguments of `tress unfit` (its help is on [`Command`]).
#[derive(Debug, Args)]
pub struct UnfitArgs {
    /// A file written by `tress fit`
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Where to write the file without its last fit
    #[arg(short = 'o', value_name = "OUT")]
    pub out: PathBuf,
}

/// `--fps`: frame rates parsed by [`parse_fps`] (positive integers,
/// comma-separated).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FrameRates(pub Vec<u32>);

impl FromStr for FrameRates {
    type Err = MeasureError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        parse_fps(s).map(Self)
    }
}

impl fmt::Display for FrameRates {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, fps) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{fps}")?;
        }
        Ok(())
    }
}

/// `--meshes`: comma-separated mesh names, trimmed, empty ones dropped (an
/// empty list means every hair mesh).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MeshNames(pub Vec<String>);

impl FromStr for MeshNames {
    type Err = core::convert::Infallible;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(Self(
            s.split(',')
                .map(|n| n.trim().to_owned())
                .filter(|n| !n.is_empty())
                .collect(),
        ))
    }
}

/// A switch given as `--x` / `--no-x`: whichever was given, else `default`.
fn on_or_default(on: bool, off: bool, default: bool) -> bool {
    if on {
        true
    } else if off {
        false
    } else {
        default
    }
}

/// `--flat-lock-stiffness`: a finite number ≥ 0.
fn flat_lock_stiffness(s: &str) -> Result<f32, String> {
    s.parse::<f32>()
        .ok()
        .filter(|x| x.is_finite() && *x >= 0.0)
        .ok_or_else(|| "not a number ≥ 0 (1/s; 0: off)".to_owned())
}

/// `--wind`: a finite acceleration ≥ 0.
fn wind_strength(s: &str) -> Result<f32, String> {
    s.parse::<f32>()
        .ok()
        .filter(|x| x.is_finite() && *x >= 0.0)
        .ok_or_else(|| "not a number ≥ 0 (m/s²; 0: calm)".to_owned())
}

/// `--wind-direction`: `X,Y,Z`, three finite numbers, not all zero.
fn wind_direction(s: &str) -> Result<glam::Vec3, String> {
    model_point(s)
        .ok()
        .filter(|v| *v != glam::Vec3::ZERO)
        .ok_or_else(|| "not X,Y,Z (three numbers, not all zero)".to_owned())
}

/// `--joints`: an integer ≥ 1.
fn positive_count(s: &str) -> Result<usize, String> {
    s.parse::<usize>()
        .ok()
        .filter(|&n| n > 0)
        .ok_or_else(|| "not a positive integer".to_owned())
}

/// `--root`: `X,Y,Z`, three finite numbers (metres, model space).
fn model_point(s: &str) -> Result<glam::Vec3, String> {
    let v: Option<Vec<f32>> = s
        .split(',')
        .map(|p| p.trim().parse::<f32>().ok().filter(|x| x.is_finite()))
        .collect();
    match v.as_deref() {
        Some(&[x, y, z]) => Ok(glam::Vec3::new(x, y, z)),
        _ => Err("not X,Y,Z (three numbers, metres, model space)".to_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory as _;
    use clap::error::ErrorKind;

    fn parse(args: &[&str]) -> Result<Command, clap::Error> {
        Cli::try_parse_from(core::iter::once("tress").chain(args.iter().copied()))
            .map(|c| c.command)
    }

    /// The message of a rejected command line, with its kind.
    fn rejected(args: &[&str]) -> (ErrorKind, String) {
        match parse(args) {
            Ok(c) => panic!("{args:?} parsed: {c:?}"),
            Err(e) => (e.kind(), e.to_string()),
        }
    }

    #[test]
    fn the_command_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn measure_parses_options_and_rejects_mistakes() {
        let Ok(Command::Measure(a)) = parse(&[
            "measure", "a.vrm", "--solver", "earlier", "--fps", "30,120", "--json", "o.json",
        ]) else {
            panic!("does not parse");
        };
        assert_eq!(a.file, PathBuf::from("a.vrm"));
        assert_eq!(a.options().solver, Solver::Earlier);
        assert_eq!(a.options().fps, vec![30, 120]);
        assert_eq!(a.json, Some(PathBuf::from("o.json")));
        assert!(!a.fit_colliders);
        let Ok(Command::Measure(a)) = parse(&["measure", "a.vrm", "--fit-colliders"]) else {
            panic!("does not parse");
        };
        assert!(a.fit_colliders);
        let Ok(Command::Measure(a)) = parse(&[
            "measure",
            "a.vrm",
            "--anim",
            "lib.gltf",
            "--clip",
            "Dance_Loop",
            "--passes",
            "3",
            "--inside-meshes",
            "Skirt",
        ]) else {
            panic!("does not parse");
        };
        assert_eq!(a.clip.as_deref(), Some("Dance_Loop"));
        assert_eq!(a.passes, 3);
        assert_eq!(a.options().inside_meshes, vec!["Skirt".to_owned()]);
        // A clip file without a clip name (or the other way) is refused.
        let (kind, _) = rejected(&["measure", "a.vrm", "--anim", "lib.gltf"]);
        assert_eq!(kind, ErrorKind::MissingRequiredArgument);
        let (kind, _) = rejected(&[
            "measure", "a.vrm", "--passes", "0", "--anim", "l", "--clip", "c",
        ]);
        assert_eq!(kind, ErrorKind::ValueValidation);

        let (kind, e) = rejected(&["measure", "a.vrm", "--solver", "fast"]);
        assert_eq!(kind, ErrorKind::ValueValidation);
        assert!(e.contains("unknown solver `fast`"), "{e}");
        let (kind, e) = rejected(&["measure", "a.vrm", "--fps", "30,0"]);
        assert_eq!(kind, ErrorKind::ValueValidation);
        assert!(e.contains("bad frame rate"), "{e}");
        let (kind, e) = rejected(&["measure", "a.vrm", "--fps", "-30"]);
        assert_eq!(kind, ErrorKind::ValueValidation);
        assert!(e.contains("bad frame rate"), "{e}");
        let (kind, e) = rejected(&["measure", "a.vrm", "--fps", "0"]);
        assert_eq!(kind, ErrorKind::ValueValidation);
        assert!(e.contains("bad frame rate list `0`"), "{e}");
        let Ok(Command::Measure(a)) = parse(&[
            "measure",
            "a.vrm",
            "--wind",
            "6.5",
            "--wind-direction",
            "0,0,-2",
        ]) else {
            panic!("does not parse");
        };
        assert_eq!(a.options().wind.strength, 6.5);
        assert_eq!(a.options().wind.direction, glam::Vec3::new(0.0, 0.0, -2.0));
        assert_eq!(
            parse(&["measure", "a.vrm"])
                .map(|c| match c {
                    Command::Measure(a) => a.options().wind.strength,
                    _ => -1.0,
                })
                .ok(),
            Some(0.0),
            "calm by default"
        );
        let (kind, e) = rejected(&["measure", "a.vrm", "--wind", "-1"]);
        assert_eq!(kind, ErrorKind::ValueValidation);
        assert!(e.contains("m/s²"), "{e}");
        let (kind, e) = rejected(&["measure", "a.vrm", "--wind-direction", "0,0,0"]);
        assert_eq!(kind, ErrorKind::ValueValidation);
        assert!(e.contains("not all zero"), "{e}");
        let (kind, e) = rejected(&["measure"]);
        assert_eq!(kind, ErrorKind::MissingRequiredArgument);
        assert!(e.contains("<FILE>"), "{e}");
        let (kind, e) = rejected(&["measure", "a.vrm", "--json"]);
        assert_eq!(kind, ErrorKind::InvalidValue);
        assert!(e.contains("--json"), "{e}");
        let (kind, e) = rejected(&["measure", "a.vrm", "--flat-lock-stiffness", "-1"]);
        assert_eq!(kind, ErrorKind::ValueValidation);
        assert!(e.contains("number ≥ 0"), "{e}");
    }

    #[test]
    fn measure_defaults_are_the_tools_defaults() {
        let Ok(Command::Measure(a)) = parse(&["measure", "a.vrm"]) else {
            panic!("does not parse");
        };
        assert_eq!(a.options(), MeasureOptions::default());
        assert_eq!(a.json, None);
        assert_eq!(a.plot, None);
        let Ok(Command::Measure(a)) = parse(&[
            "measure",
            "a.vrm",
            "--meshes",
            " Ponytail, ,HairBangL1",
            "--flat-lock-stiffness",
            "83",
            "--drape",
            "--plot",
            "p.png",
        ]) else {
            panic!("does not parse");
        };
        let o = a.options();
        assert_eq!(o.stretch_meshes, ["Ponytail", "HairBangL1"]);
        assert!((o.flat_lock_stiffness - 83.0).abs() < f32::EPSILON);
        assert!(o.drape);
        assert_eq!(a.plot, Some(PathBuf::from("p.png")));
        // The last of --x / --no-x wins; neither: on (the rig's default).
        let drape = |o: &MeasureOptions| o.drape;
        let twist = |o: &MeasureOptions| o.lock_twist;
        for (on_flag, off_flag, get) in [
            (
                "--drape",
                "--no-drape",
                &drape as &dyn Fn(&MeasureOptions) -> bool,
            ),
            ("--lock-twist", "--no-lock-twist", &twist),
        ] {
            for (args, on) in [
                (&[][..], true),
                (&[off_flag][..], false),
                (&[off_flag, on_flag][..], true),
                (&[on_flag, off_flag][..], false),
            ] {
                let Ok(Command::Measure(a)) = parse(&[&["measure", "a.vrm"][..], args].concat())
                else {
                    panic!("does not parse");
                };
                assert_eq!(get(&a.options()), on, "{args:?}");
            }
        }
    }

    #[test]
    fn fit_colliders_parses_file_and_json_and_rejects_mistakes() {
        let Ok(Command::FitColliders(a)) = parse(&["fit-colliders", "a.vrm", "--json", "o.json"])
        else {
            panic!("does not parse");
        };
        assert_eq!(a.file, PathBuf::from("a.vrm"));
        assert_eq!(a.json, Some(PathBuf::from("o.json")));
        let (kind, _) = rejected(&["fit-colliders"]);
        assert_eq!(kind, ErrorKind::MissingRequiredArgument);
        let (kind, _) = rejected(&["fit-colliders", "a.vrm", "--json"]);
        assert_eq!(kind, ErrorKind::InvalidValue);
        let (kind, e) = rejected(&["fit-colliders", "a.vrm", "--x"]);
        assert_eq!(kind, ErrorKind::UnknownArgument);
        assert!(e.contains("--x"), "{e}");
        let (kind, e) = rejected(&["fit-colliders", "a.vrm", "b.vrm"]);
        assert_eq!(kind, ErrorKind::UnknownArgument);
        assert!(e.contains("b.vrm"), "{e}");
    }

    #[test]
    fn fit_parses_joints_and_root_and_rejects_mistakes() {
        let Ok(Command::Fit(a)) = parse(&["fit", "a.vrm", "--mesh", "Hair", "-o", "o.vrm"]) else {
            panic!("does not parse");
        };
        assert_eq!(a.options(), FitOptions::default());
        assert_eq!(a.mesh, "Hair");
        assert_eq!(a.out, PathBuf::from("o.vrm"));
        let Ok(Command::Fit(a)) = parse(&[
            "fit",
            "a.vrm",
            "--mesh",
            "Hair",
            "--joints",
            "8",
            "--root",
            "-0.05, 1.5,-0.1",
            "-o",
            "o.vrm",
        ]) else {
            panic!("does not parse");
        };
        assert_eq!(a.options().joints, Some(8));
        // Without --joints the fitter picks the count.
        let Ok(Command::Fit(auto)) = parse(&["fit", "a.vrm", "--mesh", "Hair", "-o", "o.vrm"])
        else {
            panic!("does not parse");
        };
        assert_eq!(auto.options().joints, None);
        assert_eq!(
            a.options().root_point,
            Some(glam::Vec3::new(-0.05, 1.5, -0.1))
        );
        for bad in [
            ["--joints", "0"],
            ["--joints", "-2"],
            ["--root", "1,2"],
            ["--root", "1,2,inf"],
        ] {
            let mut args = vec!["fit", "a.vrm", "--mesh", "Hair", "-o", "o.vrm"];
            args.extend(bad);
            let (kind, e) = rejected(&args);
            assert_eq!(kind, ErrorKind::ValueValidation, "{bad:?}: {e}");
            assert!(e.contains(bad[0]), "{e}");
        }
        let (kind, _) = rejected(&["fit", "a.vrm", "--mesh", "Hair"]);
        assert_eq!(kind, ErrorKind::MissingRequiredArgument);
    }

    #[test]
    fn the_other_subcommands_take_their_positionals_and_flags() {
        let Ok(Command::Retarget(a)) = parse(&[
            "retarget",
            "a.vrm",
            "clips.vrma",
            "--clip",
            "Walk",
            "--clip",
            "Run",
            "--no-loop",
            "-o",
            "o.glb",
        ]) else {
            panic!("does not parse");
        };
        assert_eq!(
            (a.avatar, a.animation, a.out),
            ("a.vrm".into(), "clips.vrma".into(), "o.glb".into())
        );
        assert_eq!(a.clips, ["Walk", "Run"]);
        assert!(a.no_loop && !a.keep_travel);
        let Ok(Command::Export(a)) = parse(&[
            "export", "a.vrm", "--anim", "c.vrma", "--clip", "Idle", "--bake", "--loop", "-o",
            "o.glb",
        ]) else {
            panic!("does not parse");
        };
        assert!(a.bake && a.looped && !a.keep_travel);
        assert_eq!(a.clip, "Idle");
        let (kind, _) = rejected(&["export", "a.vrm", "--anim", "c.vrma", "-o", "o.glb"]);
        assert_eq!(kind, ErrorKind::MissingRequiredArgument);
        let Ok(Command::ValidateAnim(a)) = parse(&["validate-anim"]) else {
            panic!("does not parse");
        };
        assert_eq!(a.avatars, DEFAULT_AVATARS.map(PathBuf::from));
        assert_eq!(a.clips, DEFAULT_CLIPS.map(PathBuf::from));
        let Ok(Command::ValidateAnim(a)) =
            parse(&["validate-anim", "--avatar", "a.vrm", "--avatar", "b.vrm"])
        else {
            panic!("does not parse");
        };
        assert_eq!(a.avatars, [PathBuf::from("a.vrm"), PathBuf::from("b.vrm")]);
        assert_eq!(a.clips, DEFAULT_CLIPS.map(PathBuf::from));
        let Ok(Command::GenerateAssets(a)) = parse(&["generate-assets"]) else {
            panic!("does not parse");
        };
        assert_eq!((a.check, a.dir), (false, PathBuf::from("assets")));
        let Ok(Command::GenerateAssets(a)) = parse(&["generate-assets", "--check", "out"]) else {
            panic!("does not parse");
        };
        assert_eq!((a.check, a.dir), (true, PathBuf::from("out")));
        let (kind, _) = rejected(&["inspect"]);
        assert_eq!(kind, ErrorKind::MissingRequiredArgument);
    }

    #[test]
    fn a_misspelt_subcommand_gets_a_suggestion() {
        let (kind, e) = rejected(&["mesure", "a.vrm"]);
        assert_eq!(kind, ErrorKind::InvalidSubcommand);
        assert!(e.contains("'measure'"), "{e}");
    }
}
