//! Hair quality measurements on a standard head-motion run (issue #6).
//!
//! [`measure`] plays [`Motion`] (by default 4 s of head yaw ±60° at 0.5 Hz
//! with a 3 cm sway, then 8 s still) on an avatar's humanoid head, steps its
//! springs with a [`SpringRig`](tress_rig::spring_rig::SpringRig), writes the
//! joint rotations back into the node hierarchy and skins the hair and body
//! meshes at every delivered frame. It reports, per frame rate:
//!
//! - [`stretch`]: per-edge stretch of the hair triangles (p99, worst edge,
//!   histogram);
//! - root fixity: how far chain roots leave their place on the attachment;
//! - settling: the largest tip movement between samples in the last 2 s;
//! - [`penetration`]: hair vertices more than 1 mm inside the skinned body;
//!
//! and across frame rates, the largest joint position difference at shared
//! instants, both with poses delivered per frame (interpolated by the
//! solver, as an engine does) and with the motion evaluated per substep.
//!
//! The `tress measure` command and the tests use this one implementation;
//! [`tress_rig::skin::mesh`] documents which vertices count as hair and which as body.

pub mod motion;
pub mod penetration;
#[cfg(feature = "plot")]
pub mod plot;
pub mod report;
pub mod run;
pub mod stretch;

use glam::Vec3;
use serde::Serialize;
use tress_core::spring::Mode;

pub use motion::{ClipMotion, Motion};
pub use run::{Feed, RunReport, SPIN_FLIP_DEG, Spin, Swing};
pub use tress_rig::skin::MeshSet;

use tress_rig::spring_rig::{RigError, RigOptions};
use tress_vrm::model::Avatar;

/// Solver choice by its command-line name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Solver {
    /// `improved`: [`Mode::Improved`].
    Improved,
    /// `earlier`: [`Mode::Earlier`].
    Earlier,
    /// `vrm`: [`Mode::VrmCompatible`].
    Vrm,
}

impl Solver {
    /// The command-line name.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Improved => "improved",
            Self::Earlier => "earlier",
            Self::Vrm => "vrm",
        }
    }

    /// The solver mode.
    #[must_use]
    pub const fn mode(self) -> Mode {
        match self {
            Self::Improved => Mode::Improved,
            Self::Earlier => Mode::Earlier,
            Self::Vrm => Mode::VrmCompatible,
        }
    }
}

impl core::str::FromStr for Solver {
    type Err = MeasureError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "improved" => Ok(Self::Improved),
            "earlier" => Ok(Self::Earlier),
            "vrm" => Ok(Self::Vrm),
            other => Err(MeasureError::UnknownSolver(other.to_owned())),
        }
    }
}

/// What to measure.
#[derive(Debug, Clone, PartialEq)]
pub struct MeasureOptions {
    /// The solver.
    pub solver: Solver,
    /// Delivered frame rates, one run each.
    pub fps: Vec<u32>,
    /// Of those, the runs that also skin the mesh at every frame (stretch
    /// and penetration); `None`: all of them. The others track joints only,
    /// for root fixity, settling and frame-rate invariance.
    pub mesh_fps: Option<Vec<u32>>,
    /// The motion.
    pub motion: Motion,
    /// How poses reach the solver in the mesh runs.
    pub feed: Feed,
    /// Settling window at the end of the run, seconds.
    pub settle_window_s: f64,
    /// Chains that use tail-point contact ([`RigOptions::tail_chains`]);
    /// the others use whole-segment contact.
    pub tail_chains: u128,
    /// Meshes whose hair edges count for stretch (empty: every hair mesh),
    /// e.g. the "rebuilt ponytail plus bangs".
    pub stretch_meshes: Vec<String>,
    /// Flat-lock stiffness for the rig ([`RigOptions::flat_lock_stiffness`]).
    pub flat_lock_stiffness: f32,
    /// Drape over contact for the rig ([`RigOptions::drape`]).
    pub drape: bool,
    /// Hold the file's bands ([`RigOptions::bands`]); on by default.
    pub bands: bool,
    /// Twist flat locks' outputs ([`RigOptions::lock_twist`]); on by default.
    pub lock_twist: bool,
    /// Carry the hair rigidly: every spring joint keeps its rest local
    /// rotation, so the hair moves with its attachment as if glued (the
    /// solver still runs but is not written back; joints, tips and roots
    /// are read from the rigid skeleton). Stretch and penetration left in
    /// this mode are the avatar's own skinning under the motion, not the
    /// solver's.
    pub rigid_hair: bool,
    /// Wind on the hair for the whole run (calm by default); gusts follow
    /// simulated time, so every frame rate sees the same wind.
    pub wind: tress_core::spring::Wind,
    /// A retargeted body clip to play instead of [`MeasureOptions::motion`]
    /// (the head is then moved by the clip alone).
    pub clip: Option<ClipMotion>,
    /// Meshes whose hair vertices count for penetration (empty: every
    /// hair mesh), e.g. only the skirt when the arms of a dance pass
    /// through the head's locks.
    pub inside_meshes: Vec<String>,
}

impl Default for MeasureOptions {
    fn default() -> Self {
        Self {
            solver: Solver::Improved,
            fps: vec![30, 60, 120],
            mesh_fps: None,
            motion: Motion::default(),
            feed: Feed::Frames,
            settle_window_s: 2.0,
            tail_chains: 0,
            stretch_meshes: Vec::new(),
            flat_lock_stiffness: RigOptions::default().flat_lock_stiffness,
            drape: RigOptions::default().drape,
            bands: RigOptions::default().bands,
            lock_twist: RigOptions::default().lock_twist,
            rigid_hair: false,
            wind: tress_core::spring::Wind::default(),
            clip: None,
            inside_meshes: Vec::new(),
        }
    }
}

/// Why an avatar cannot be measured.
#[derive(Debug, Clone, PartialEq)]
pub enum MeasureError {
    /// `--solver` names no solver.
    UnknownSolver(String),
    /// `--fps` is not a list of positive integers.
    BadFps(String),
    /// No humanoid `head` bone to drive.
    NoHead,
    /// No spring chain to simulate.
    NoSprings,
    /// The rig could not be built.
    Rig(RigError),
}

impl core::fmt::Display for MeasureError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Self::UnknownSolver(s) => {
                write!(f, "unknown solver `{s}` (use improved, earlier or vrm)")
            }
            Self::BadFps(s) => write!(
                f,
                "bad frame rate list `{s}` (use positive integers separated by commas, e.g. 30,60,120)"
            ),
            Self::NoHead => write!(
                f,
                "the avatar has no humanoid `head` bone, so the standard head motion cannot be played"
            ),
            Self::NoSprings => write!(
                f,
                "the avatar has no spring chain to simulate (no VRMC_springBone springs or VRM 0.x bone groups)"
            ),
            Self::Rig(e) => write!(f, "{e}"),
        }
    }
}

impl core::error::Error for MeasureError {}

/// Parses `30,60,120`.
///
/// # Errors
/// [`MeasureError::BadFps`] on anything but positive integers.
pub fn parse_fps(s: &str) -> Result<Vec<u32>, MeasureError> {
    let list: Option<Vec<u32>> = s
        .split(',')
        .map(|p| p.trim().parse::<u32>().ok().filter(|&f| f > 0))
        .collect();
    list.filter(|l| !l.is_empty())
        .ok_or_else(|| MeasureError::BadFps(s.to_owned()))
}

/// Largest joint position difference between two runs at their shared instants.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct PairDiff {
    /// First run's frame rate.
    pub a_fps: u32,
    /// Second run's frame rate.
    pub b_fps: u32,
    /// Instants both runs sampled.
    pub shared_samples: usize,
    /// Largest joint position difference, metres.
    pub max_m: f32,
    /// Whether every shared sample was bit-identical.
    pub identical: bool,
}

/// Frame-rate invariance.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FrameRate {
    /// Poses delivered per frame and interpolated by the solver.
    pub frames: Vec<PairDiff>,
    /// The motion evaluated at every substep.
    pub substeps: Vec<PairDiff>,
}

/// The hair and body the mesh measurements use.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MeshSummary {
    /// Hair vertices (largest weight on a spring joint).
    pub hair_vertices: usize,
    /// Triangles with a hair vertex.
    pub hair_triangles: usize,
    /// Body triangles.
    pub body_triangles: usize,
    /// What was left out.
    pub notes: Vec<String>,
}

/// The body clip a measurement played ([`ClipMotion`]).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClipInfo {
    /// Its name.
    pub name: String,
    /// One pass, seconds.
    pub clip_s: f64,
    /// Passes played.
    pub passes: u32,
    /// Ease-in from the rest pose, seconds.
    pub ease_in_s: f64,
}

/// Everything [`measure`] found.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// Solver name.
    pub solver: &'static str,
    /// Whether the hair was carried rigidly ([`MeasureOptions::rigid_hair`]).
    pub rigid_hair: bool,
    /// The wind's mean acceleration, m/s² (0: calm; [`MeasureOptions::wind`]).
    pub wind_strength: f32,
    /// Where the wind blew to (unit, world space; zero when calm).
    pub wind_direction: [f32; 3],
    /// The motion played (unused when `clip` is set).
    pub motion: Motion,
    /// The body clip played instead, if any.
    pub clip: Option<ClipInfo>,
    /// Simulated chains.
    pub chains: usize,
    /// Simulated joints.
    pub joints: usize,
    /// Hair and body.
    pub mesh: MeshSummary,
    /// One run per frame rate.
    pub runs: Vec<RunReport>,
    /// Frame-rate invariance.
    pub frame_rate: FrameRate,
    /// Wall-clock time of the whole measurement, seconds.
    pub seconds: f64,
    /// Each chain's tip, per sample of the first mesh run (for plots).
    #[serde(skip)]
    pub tip_paths: Vec<Vec<Vec3>>,
}

impl Report {
    /// The run at `fps`, if measured.
    #[must_use]
    pub fn run(&self, fps: u32) -> Option<&RunReport> {
        self.runs.iter().find(|r| r.fps == fps)
    }
}

/// Greatest common divisor.
fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// Compares every pair of runs at their shared instants `k / gcd(a, b)`.
fn compare(runs: &[(u32, &[Vec<Vec3>])]) -> Vec<PairDiff> {
    let mut out = Vec::new();
    for (i, &(fa, ja)) in runs.iter().enumerate() {
        for &(fb, jb) in &runs[i + 1..] {
            let g = gcd(fa, fb);
            let (sa, sb) = ((fa / g) as usize, (fb / g) as usize);
            let mut max = 0.0f32;
            let mut identical = true;
            let mut shared = 0;
            for (a, b) in ja.iter().step_by(sa).zip(jb.iter().step_by(sb)) {
                shared += 1;
                for (p, q) in a.iter().zip(b) {
                    max = max.max(p.distance(*q));
                    identical &= p == q;
                }
            }
            out.push(PairDiff {
                a_fps: fa,
                b_fps: fb,
                shared_samples: shared,
                max_m: max,
                identical,
            });
        }
    }
    out
}

/// Measures `avatar` on the standard run.
///
/// # Errors
/// [`MeasureError::NoHead`], [`MeasureError::NoSprings`], or
/// [`MeasureError::Rig`] when the springs cannot be simulated.
pub fn measure(avatar: &Avatar, opts: &MeasureOptions) -> Result<Report, MeasureError> {
    measure_with_progress(avatar, opts, &mut |_, _, _| {})
}

/// [`measure`], calling `progress(done, total, what)` before each run (a
/// mesh run per frame rate, then a joint-only run per frame rate) and once
/// at the end.
///
/// # Errors
/// As [`measure`].
pub fn measure_with_progress(
    avatar: &Avatar,
    opts: &MeasureOptions,
    progress: &mut dyn FnMut(usize, usize, &str),
) -> Result<Report, MeasureError> {
    let started = std::time::Instant::now();
    let humanoid = avatar.humanoid.as_ref();
    let head = humanoid
        .and_then(|h| h.bone("head"))
        .filter(|&h| h < avatar.nodes.len())
        .ok_or(MeasureError::NoHead)?;
    let sway_node = humanoid
        .and_then(|h| h.bone("hips"))
        .filter(|&h| h < avatar.nodes.len())
        .unwrap_or(head);
    if avatar.springs.chains.iter().all(|c| c.simulated_len() == 0) {
        return Err(MeasureError::NoSprings);
    }
    let rig_opts = RigOptions {
        mode: opts.solver.mode(),
        tail_chains: opts.tail_chains,
        flat_lock_stiffness: opts.flat_lock_stiffness,
        drape: opts.drape,
        bands: opts.bands,
        lock_twist: opts.lock_twist,
        ..RigOptions::default()
    };
    let probe =
        tress_rig::spring_rig::SpringRig::build(avatar, &rig_opts).map_err(MeasureError::Rig)?;
    let mesh = MeshSet::new(avatar, &tress_rig::skin::spring_nodes(avatar));
    // Rest lengths and rest-pose body come from skinning with the file's
    // rest transforms, independent of the solver.
    let mut joint_matrices = Vec::new();
    mesh.joint_matrices_into(&avatar.rest_world(), &mut joint_matrices);
    let all: Vec<u32> = (0..u32::try_from(mesh.vertex_count()).unwrap_or(u32::MAX)).collect();
    let mut rest = Vec::new();
    mesh.skin(&joint_matrices, &all, &mut rest);

    let setup = run::Setup {
        avatar,
        rig: &rig_opts,
        motion: &opts.motion,
        head,
        sway_node,
        settle_window_s: opts.settle_window_s,
        stretch_meshes: &opts.stretch_meshes,
        rigid_hair: opts.rigid_hair,
        wind: opts.wind,
        clip: opts.clip.as_ref(),
        inside_meshes: &opts.inside_meshes,
    };
    let mut runs = Vec::new();
    let mut joints = Vec::new();
    let total = 2 * opts.fps.len();
    let mut done = 0;
    for &fps in &opts.fps {
        progress(done, total, &format!("mesh run at {fps} fps"));
        done += 1;
        let out =
            run::run(&setup, fps, opts.feed, Some((&mesh, &rest))).map_err(MeasureError::Rig)?;
        runs.push(out.report);
        joints.push((fps.max(1), out.joints));
    }
    let other_feed = match opts.feed {
        Feed::Frames => Feed::Substeps,
        Feed::Substeps => Feed::Frames,
    };
    let mut other = Vec::new();
    for &fps in &opts.fps {
        progress(done, total, &format!("joint run at {fps} fps"));
        done += 1;
        let out = run::run(&setup, fps, other_feed, None).map_err(MeasureError::Rig)?;
        other.push((fps.max(1), out.joints));
    }
    progress(done, total, "done");
    // Tips are the last `chains` entries of every sample.
    let chains = probe.chains.len();
    let tip_paths: Vec<Vec<Vec3>> = (0..chains)
        .map(|c| {
            joints.first().map_or_else(Vec::new, |(_, samples)| {
                samples
                    .iter()
                    .filter_map(|s| s.get(s.len().checked_sub(chains)? + c).copied())
                    .collect()
            })
        })
        .collect();
    let view = |v: &[(u32, Vec<Vec<Vec3>>)]| -> Vec<PairDiff> {
        let r: Vec<(u32, &[Vec<Vec3>])> = v.iter().map(|(f, j)| (*f, j.as_slice())).collect();
        compare(&r)
    };
    let (frames, substeps) = match opts.feed {
        Feed::Frames => (view(&joints), view(&other)),
        Feed::Substeps => (view(&other), view(&joints)),
    };
    Ok(Report {
        solver: opts.solver.name(),
        rigid_hair: opts.rigid_hair,
        wind_strength: opts.wind.sanitized().strength,
        wind_direction: opts.wind.sanitized().direction.to_array(),
        motion: opts.motion,
        clip: opts.clip.as_ref().map(|c| ClipInfo {
            name: c.name.clone(),
            clip_s: c.clip_s,
            passes: c.passes,
            ease_in_s: c.ease_in_s,
        }),
        chains: probe.chains.len(),
        joints: probe.joint_count(),
        mesh: MeshSummary {
            hair_vertices: mesh.hair.len(),
            hair_triangles: mesh.hair_tris.len(),
            body_triangles: mesh.body_tris.len(),
            notes: mesh.notes.clone(),
        },
        runs,
        frame_rate: FrameRate { frames, substeps },
        seconds: started.elapsed().as_secs_f64(),
        tip_paths,
    })
}
