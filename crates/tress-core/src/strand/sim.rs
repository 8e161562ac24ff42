//! Owned strand buffers and the multi-threaded driver (feature `std`).
//!
//! [`StrandSim`] is what an engine node holds: it owns the arrays, the step
//! clock and the colliders, and splits each frame's steps over threads by
//! chunk. Strands never interact, so every thread runs all of the frame's
//! steps on its own chunks, and the result is bit-identical to the
//! single-threaded step. The helper threads are started once
//! ([`StrandSim::set_threads`]) and parked between frames.

// The crate links `std` (not a separate `alloc`) under this feature.
#![allow(clippy::std_instead_of_alloc)]

use std::{vec, vec::Vec};

use super::body::{BodyPart, BodyStats, MAX_BODY_PARTS, PartFrame, body_pass};
use super::buffers::{StrandRest, StrandState, fill_rest};
use super::frame::StepFrame;
use super::layout::{LayoutError, StrandLayout};
use super::line_buf::LineBuf;
use super::metrics::{LengthError, length_error, penetrations};
use super::params::{StepCoefs, StrandParams};
use super::pool::Pool;
use super::skin::{BoneWeights, SkinError, check_weights, skin_rest};
use super::volume::{self, BUCKETS, GridEntry, VolumeParams, VolumeScratch, VolumeStats};
use super::{lanes_for, step_chunks_on};
use crate::clock::{Schedule, StepClock};
use crate::collide::SdfGrid;
use crate::collide::{Collider, WorldCollider};
use crate::math::{Pose, Real, Vec3, ops};
use crate::simd::Isa;

mod lod;
pub use lod::MAX_RATE_DIVISOR;

/// Fewest chunks one claim of the threaded step takes: each claim sets up
/// the kernel's scratch rows, so the batches shrink only this far.
const MIN_CLAIM: usize = 4;

/// A groom's strands with their owned buffers, parameters and clock.
#[derive(Debug)]
pub struct StrandSim {
    layout: StrandLayout,
    rest: [LineBuf; 5],
    state: [LineBuf; 6],
    params: StrandParams,
    clock: StepClock,
    head_colliders: Vec<Collider>,
    world_colliders: Vec<WorldCollider>,
    /// Helper threads; `None` runs on the caller's thread only.
    pool: Option<Pool>,
    /// The vector instructions this CPU runs, detected when the sim is made.
    isa: Isa,
    last_pose: Pose,
    frames: Vec<StepFrame>,
    /// Skinned roots; `None` carries every root by the head pose.
    skin: Option<SimSkin>,
    /// Every `rate`-th step of the clock runs, `rate` steps long (level
    /// of detail, [`Self::set_rate_divisor`]).
    rate: u32,
    /// Body parts collided with by distance field ([`Self::set_body`]).
    body: Vec<BodyField>,
    /// The head pose of each step of the frame being run.
    step_poses: Vec<Pose>,
    /// Whether the volume pass follows each step of the frame being run.
    step_volume: Vec<bool>,
    last_body: BodyStats,
    /// The volume pass after every step, with its grid ([`Self::set_volume`]).
    volume: Option<SimVolume>,
}

/// Volume parameters and the grid they run on.
#[derive(Debug)]
struct SimVolume {
    params: VolumeParams,
    grid: VolumeBuffers,
    last: VolumeStats,
}

/// The hashed grid and moves of the volume pass, sized to the layout.
#[derive(Debug)]
struct VolumeBuffers {
    start: Vec<u32>,
    entries: Vec<GridEntry>,
    bucket_of: Vec<u32>,
    moves: Vec<Vec3>,
    touched: Vec<bool>,
}

impl VolumeBuffers {
    fn new(layout: &StrandLayout) -> Self {
        let n = layout.len();
        Self {
            start: vec![0; BUCKETS + 1],
            entries: vec![GridEntry::default(); n],
            bucket_of: vec![0; n],
            moves: vec![Vec3::ZERO; n],
            touched: vec![false; layout.strands()],
        }
    }

    fn view(&mut self) -> VolumeScratch<'_> {
        VolumeScratch {
            start: &mut self.start,
            entries: &mut self.entries,
            bucket_of: &mut self.bucket_of,
            moves: &mut self.moves,
            touched: &mut self.touched,
        }
    }
}

/// A body part's distance field, owned: a grid of signed distances (see
/// [`SdfGrid`]) in the head's frame or the world's.
#[derive(Debug, Clone)]
pub struct BodyField {
    /// Signed distance per node, negative inside, x fastest.
    pub values: Vec<Real>,
    /// Position of node (0, 0, 0) in the part's frame.
    pub origin: Vec3,
    /// Node spacing.
    pub cell: Real,
    /// Nodes per axis.
    pub dims: [usize; 3],
    /// The frame the field is in.
    pub frame: PartFrame,
    /// A sphere (centre, radius) in that frame holding the part's surface.
    pub bound: (Vec3, Real),
}

impl BodyField {
    fn part(&self) -> BodyPart<'_> {
        BodyPart {
            field: SdfGrid {
                origin: self.origin,
                cell: self.cell,
                dims: self.dims,
                values: &self.values,
            },
            frame: self.frame,
            bound: self.bound,
        }
    }
}

/// A sim's skinning: weights, the bones of the last frame, and the groom
/// carried by them (rest x, y, z) for the step being run.
#[derive(Debug)]
struct SimSkin {
    weights: Vec<BoneWeights>,
    last_bones: Vec<Pose>,
    step_bones: Vec<Pose>,
    carried: [LineBuf; 3],
}

impl SimSkin {
    /// Takes `bones` (as long as at setup) as the last frame's, each broken
    /// one replaced by the one it would have replaced (`Pose::or_sanitized`).
    fn take_bones(&mut self, bones: &[Pose]) {
        for (last, b) in self.last_bones.iter_mut().zip(bones) {
            *last = b.or_sanitized(last);
        }
    }

    /// Carries the groom by `bones` into `carried`.
    fn carry(&mut self, layout: &StrandLayout, rest: &[LineBuf; 5], bones: &[Pose]) {
        let [x, y, z] = &mut self.carried;
        // The buffers are sized to the layout when skinning is set up.
        let _ = skin_rest(layout, &self.weights, bones, &rest_view(rest), x, y, z);
    }

    /// The rest view a skinned step reads: carried positions, the groom's
    /// own lengths (the carry is rigid per strand).
    fn rest<'a>(&'a self, rest: &'a [LineBuf; 5]) -> StrandRest<'a> {
        StrandRest {
            x: &self.carried[0],
            y: &self.carried[1],
            z: &self.carried[2],
            len: &rest[3],
            inv_len: &rest[4],
        }
    }
}

fn rest_view<'a>(r: &'a [LineBuf; 5]) -> StrandRest<'a> {
    StrandRest {
        x: &r[0],
        y: &r[1],
        z: &r[2],
        len: &r[3],
        inv_len: &r[4],
    }
}

/// The rest view a step reads: the groom carried by the bones when
/// skinned, else the groom itself.
fn rest_now<'a>(skin: Option<&'a SimSkin>, rest: &'a [LineBuf; 5]) -> StrandRest<'a> {
    match skin {
        Some(skin) => skin.rest(rest),
        None => rest_view(rest),
    }
}

fn state_view<'a>(s: &'a mut [LineBuf; 6]) -> StrandState<'a> {
    let [x, y, z, px, py, pz] = s;
    StrandState {
        x,
        y,
        z,
        px,
        py,
        pz,
    }
}

impl StrandSim {
    /// Strands from a flat, strand-major list of groomed positions in the
    /// head frame (`particles` per strand), placed at rest at `pose`.
    ///
    /// # Errors
    /// [`LayoutError`] when the counts are out of range or `points` is not a
    /// whole number of strands.
    pub fn from_points(
        particles: usize,
        points: &[Vec3],
        params: StrandParams,
        schedule: Schedule,
        pose: Pose,
    ) -> Result<Self, LayoutError> {
        let lanes = lanes_for(Isa::detect());
        Self::from_points_with_lanes(particles, points, params, schedule, pose, lanes)
    }

    /// [`Self::from_points`] with a chosen lane count ([`LANES`](super::LANES)
    /// or [`WIDE_LANES`](super::WIDE_LANES); `from_points` picks the faster one for this CPU). Every
    /// strand moves the same, bit for bit, with either.
    ///
    /// # Errors
    /// As [`Self::from_points`], and [`LayoutError::Lanes`].
    pub fn from_points_with_lanes(
        particles: usize,
        points: &[Vec3],
        params: StrandParams,
        schedule: Schedule,
        pose: Pose,
        lanes: usize,
    ) -> Result<Self, LayoutError> {
        if particles == 0 || points.is_empty() || !points.len().is_multiple_of(particles) {
            return Err(if points.is_empty() {
                LayoutError::NoStrands
            } else {
                LayoutError::ParticlesOutOfRange(particles)
            });
        }
        let layout = StrandLayout::with_lanes(points.len() / particles, particles, lanes)?;
        let n = layout.len();
        let mut rest: [LineBuf; 5] = core::array::from_fn(|_| LineBuf::zeroed(n));
        {
            let [x, y, z, len, inv] = &mut rest;
            fill_rest(&layout, |s, p| points[s * particles + p], x, y, z, len, inv)
                .map_err(|_| LayoutError::TooLarge)?;
        }
        let mut sim = Self {
            layout,
            rest,
            state: core::array::from_fn(|_| LineBuf::zeroed(n)),
            params,
            clock: StepClock::new(schedule),
            head_colliders: Vec::new(),
            world_colliders: Vec::new(),
            pool: None,
            isa: Isa::detect(),
            // `reset` below takes `pose`, or this where `pose` is broken.
            last_pose: Pose::IDENTITY,
            frames: Vec::with_capacity(16),
            skin: None,
            rate: 1,
            body: Vec::new(),
            step_poses: Vec::with_capacity(16),
            step_volume: Vec::with_capacity(16),
            last_body: BodyStats::default(),
            volume: None,
        };
        sim.reset(pose);
        Ok(sim)
    }

    /// Puts every strand back at its groomed pose carried by `pose`, at rest,
    /// and restarts the clock. A skinned sim ([`Self::set_skin`]) is put on
    /// its groom carried by the last frame's bones instead (`pose` then
    /// only carries the head colliders).
    pub fn reset(&mut self, pose: Pose) {
        let pose = pose.or_sanitized(&self.last_pose);
        self.last_pose = pose;
        if let Some(skin) = self.skin.as_mut() {
            let bones = core::mem::take(&mut skin.last_bones);
            skin.carry(&self.layout, &self.rest, &bones);
            skin.last_bones = bones;
            let rest = skin.rest(&self.rest);
            let mut st = state_view(&mut self.state);
            st.reset_to_rest(&rest, crate::math::Mat3::IDENTITY, Vec3::ZERO);
        } else {
            let rest = rest_view(&self.rest);
            let mut st = state_view(&mut self.state);
            st.reset_to_rest(&rest, crate::math::Mat3::from_quat(pose.rot), pose.pos);
        }
        self.clock = StepClock::new(self.clock.schedule());
    }

    /// Buffer layout (for [`StrandLayout::index`]).
    #[must_use]
    pub fn layout(&self) -> &StrandLayout {
        &self.layout
    }

    /// Parameters.
    #[must_use]
    pub fn params(&self) -> &StrandParams {
        &self.params
    }

    /// Replaces the parameters; takes effect at the next step.
    pub fn set_params(&mut self, params: StrandParams) {
        self.params = params;
    }

    /// Colliders authored in the head frame (posed with the head every step).
    pub fn set_head_colliders(&mut self, colliders: &[Collider]) {
        self.head_colliders.clear();
        self.head_colliders.extend_from_slice(colliders);
    }

    /// Colliders already in world space (body parts the caller poses).
    pub fn set_world_colliders(&mut self, colliders: &[WorldCollider]) {
        self.world_colliders.clear();
        self.world_colliders.extend_from_slice(colliders);
    }

    /// Threads to split strands over (1 = run on the caller's thread): the
    /// caller's plus `threads - 1` helpers, started here and parked between
    /// frames. A helper the system refuses to start is left out.
    pub fn set_threads(&mut self, threads: usize) {
        let helpers = threads.max(1) - 1;
        if self.pool.as_ref().map_or(0, Pool::helpers) == helpers {
            return;
        }
        self.pool = None;
        if helpers > 0 {
            self.pool = Some(Pool::new(helpers));
        }
    }

    /// The vector instruction set the step's builds are chosen for
    /// (detected when the sim was made).
    #[must_use]
    pub fn isa(&self) -> Isa {
        self.isa
    }

    /// Chooses the step's builds, e.g. [`Isa::Portable`] or
    /// `isa().at_most(…)` (an [`Isa`] beyond portable exists only where
    /// detection found it). Every choice gives the same bits. For tests and
    /// benchmarks.
    #[doc(hidden)]
    pub fn set_isa(&mut self, isa: Isa) {
        self.isa = isa;
    }

    /// Threads a step runs on, the caller's included.
    #[must_use]
    pub fn threads(&self) -> usize {
        1 + self.pool.as_ref().map_or(0, Pool::helpers)
    }

    /// The step clock.
    #[must_use]
    pub fn clock(&self) -> &StepClock {
        &self.clock
    }

    /// Advances by a frame of `dt` seconds; `pose_at(time, fraction)` gives
    /// the head pose at the end of each step (`time` is simulated seconds
    /// since reset, `fraction` where that falls inside this frame). Returns
    /// the number of steps run.
    pub fn advance(&mut self, dt: Real, mut pose_at: impl FnMut(f64, Real) -> Pose) -> u32 {
        let plan = self.clock.advance(dt);
        let mut frames = core::mem::take(&mut self.frames);
        frames.clear();
        self.step_poses.clear();
        self.step_volume.clear();
        for j in 0..plan.count {
            if !self.runs(plan.index(j)) {
                continue;
            }
            let pose = pose_at(plan.time(j), plan.fraction(j)).or_sanitized(&self.last_pose);
            self.step_poses.push(pose);
            self.step_volume.push(self.volume_runs(plan.index(j)));
            frames.push(StepFrame::new(
                &pose,
                &self.head_colliders,
                &self.world_colliders,
            ));
            self.last_pose = pose;
        }
        let k = StepCoefs::new(&self.params, self.step_h(plan.h), self.layout.particles());
        self.run(&k, &frames);
        let ran = frames.len() as u32;
        self.frames = frames;
        ran
    }

    /// Whether the clock's step `index` runs at the rate divisor.
    fn runs(&self, index: u64) -> bool {
        index.is_multiple_of(u64::from(self.rate))
    }

    /// Whether the volume pass follows the clock's step `index`: every
    /// `every`-th step that runs, chosen by index (so by simulated time,
    /// whatever the frame rate).
    fn volume_runs(&self, index: u64) -> bool {
        self.volume.as_ref().is_some_and(|v| {
            index.is_multiple_of(u64::from(self.rate) * u64::from(v.params.period()))
        })
    }

    /// The length of a step that runs, for clock steps of `h`.
    fn step_h(&self, h: Real) -> Real {
        h * self.rate as Real
    }

    /// Advances by a frame that ends with the head at `pose`, interpolating
    /// from the previous frame's pose for intermediate steps.
    pub fn advance_to(&mut self, dt: Real, pose: Pose) -> u32 {
        let from = self.last_pose;
        self.advance(dt, |_, t| from.interpolate(&pose, t))
    }

    /// One step of `h` seconds with the head at `pose`, outside the clock.
    pub fn step_once(&mut self, h: Real, pose: Pose) {
        let pose = pose.or_sanitized(&self.last_pose);
        let mut frames = core::mem::take(&mut self.frames);
        frames.clear();
        self.step_poses.clear();
        self.step_poses.push(pose);
        self.step_volume.clear();
        self.step_volume.push(self.volume.is_some());
        frames.push(StepFrame::new(
            &pose,
            &self.head_colliders,
            &self.world_colliders,
        ));
        self.last_pose = pose;
        let k = StepCoefs::new(&self.params, h, self.layout.particles());
        self.run(&k, &frames);
        self.frames = frames;
    }

    fn run(&mut self, k: &StepCoefs, frames: &[StepFrame]) {
        if self.body.is_empty() && self.volume.is_none() {
            self.run_steps(k, frames);
            return;
        }
        // The body and volume passes see every strand after each step.
        for (j, f) in frames.chunks(1).enumerate() {
            self.run_steps(k, f);
            if !self.body.is_empty() {
                let head = self.step_poses.get(j).copied().unwrap_or(self.last_pose);
                self.run_body(&head, k.margin);
            }
            if self.step_volume.get(j).copied().unwrap_or(false) {
                let period = self.volume.as_ref().map_or(1, |v| v.params.period());
                self.run_volume(k.h * period as Real);
            }
        }
    }

    /// The volume pass over every strand, after a step of `h` seconds; its
    /// pushes split over the step's threads.
    fn run_volume(&mut self, h: Real) {
        let threads = self.threads();
        let Some(v) = self.volume.as_mut() else {
            return;
        };
        let rest = rest_now(self.skin.as_ref(), &self.rest);
        let mut st = state_view(&mut self.state);
        let spacing = v.params.spacing;
        let pool = self.pool.as_mut();
        let sums = |start: &[u32], entries: &[GridEntry], out: &mut [Vec3]| match pool {
            Some(pool) if threads > 1 => {
                // Contiguous shares of the sorted particles, one per
                // thread: each sum is the same whoever computes it.
                let share = out.len().div_ceil(threads);
                let parts: Vec<std::sync::Mutex<(usize, &mut [Vec3])>> = out
                    .chunks_mut(share)
                    .enumerate()
                    .map(|(k, c)| std::sync::Mutex::new((k * share, c)))
                    .collect();
                let pairs = core::sync::atomic::AtomicUsize::new(0);
                pool.run(&|who| {
                    if let Some(part) = parts.get(who) {
                        let mut part = part
                            .lock()
                            .unwrap_or_else(std::sync::PoisonError::into_inner);
                        let (from, out) = &mut *part;
                        let n = volume::moves(start, entries, *from, spacing, out);
                        pairs.fetch_add(n, core::sync::atomic::Ordering::Relaxed);
                    }
                });
                pairs.into_inner()
            }
            _ => volume::moves(start, entries, 0, spacing, out),
        };
        v.last = volume::volume_pass_with(
            &self.layout,
            &rest,
            &mut st,
            &v.params,
            h,
            &mut v.grid.view(),
            sums,
        );
    }

    /// The body pass over every strand, with the head at `head`.
    fn run_body(&mut self, head: &Pose, margin: Real) {
        let threads = self.threads().min(self.layout.chunks());
        let rest = rest_now(self.skin.as_ref(), &self.rest);
        let mut parts: heapless::Vec<BodyPart<'_>, MAX_BODY_PARTS> = heapless::Vec::new();
        for f in &self.body {
            let _ = parts.push(f.part());
        }
        // Strands are independent here too: the pass splits over the
        // threads like the step, and the bits do not depend on who ran what.
        let layout = self.layout;
        let pushes = core::sync::atomic::AtomicUsize::new(0);
        let parts = &parts[..];
        for_each_claim(
            layout,
            threads,
            self.pool.as_mut(),
            state_view(&mut self.state),
            |mut mine, first| {
                let s = body_pass(&layout, &rest, &mut mine, first, parts, head, margin);
                pushes.fetch_add(s.pushes, core::sync::atomic::Ordering::Relaxed);
            },
        );
        self.last_body = BodyStats {
            pushes: pushes.into_inner(),
        };
    }

    fn run_steps(&mut self, k: &StepCoefs, frames: &[StepFrame]) {
        let threads = self.threads().min(self.layout.chunks());
        let rest = rest_now(self.skin.as_ref(), &self.rest);
        run_on(
            self.layout,
            self.isa,
            threads,
            self.pool.as_mut(),
            &rest,
            state_view(&mut self.state),
            k,
            frames,
        );
    }

    /// Collides the strands with these body parts after every step, beside
    /// the analytic colliders (at most [`MAX_BODY_PARTS`]; more are
    /// refused). Each field is a grid of signed distances in the head's
    /// frame or the world's, e.g. from `collide::build_sdf` over a part of
    /// the body mesh. An empty list turns the pass off.
    ///
    /// # Errors
    /// [`BodyError`] for too many parts or a field whose values do not
    /// fill its grid; the sim keeps what it had.
    pub fn set_body(&mut self, fields: Vec<BodyField>) -> Result<(), BodyError> {
        if fields.len() > MAX_BODY_PARTS {
            return Err(BodyError::TooManyParts(fields.len()));
        }
        for (i, f) in fields.iter().enumerate() {
            let nodes = f.dims.iter().product::<usize>();
            if f.dims.iter().any(|&d| d < 2)
                || f.values.len() != nodes
                || f.cell.is_nan()
                || f.cell <= 0.0
            {
                return Err(BodyError::BadField(i));
            }
        }
        self.body = fields;
        Ok(())
    }

    /// The body parts collided with.
    #[must_use]
    pub fn body(&self) -> &[BodyField] {
        &self.body
    }

    /// What the last body pass did.
    #[must_use]
    pub fn body_stats(&self) -> BodyStats {
        self.last_body
    }

    /// Turns the volume pass on (`Some`) or off: after every step, free
    /// particles closer than `params.spacing` to other strands' are pushed
    /// apart without gaining velocity ([`super::volume`]). Allocates its
    /// grid once; steps do not allocate. The steps of a frame then end on
    /// every strand before the pass, so threads still give the same bits.
    pub fn set_volume(&mut self, params: Option<VolumeParams>) {
        self.volume = params.map(|params| match self.volume.take() {
            Some(v) => SimVolume { params, ..v },
            None => SimVolume {
                params,
                grid: VolumeBuffers::new(&self.layout),
                last: VolumeStats::default(),
            },
        });
    }

    /// The volume parameters, when the pass is on.
    #[must_use]
    pub fn volume(&self) -> Option<VolumeParams> {
        self.volume.as_ref().map(|v| v.params)
    }

    /// What the last volume pass did (default when off).
    #[must_use]
    pub fn volume_stats(&self) -> VolumeStats {
        self.volume
            .as_ref()
            .map_or(VolumeStats::default(), |v| v.last)
    }

    /// Mean distance from each strand's root to the nearest other root, in
    /// the groom's rest pose (0 with one strand): the strand spacing that
    /// [`VolumeParams::for_spacing`] takes. Looks at every pair of roots
    /// once (for a groom as it loads: 18 million pairs for 6,000 strands).
    #[must_use]
    pub fn root_spacing(&self) -> Real {
        let n = self.layout.strands();
        if n < 2 {
            return 0.0;
        }
        let roots: Vec<Vec3> = (0..n)
            .map(|s| {
                let i = self.layout.index(s, 0);
                Vec3::new(self.rest[0][i], self.rest[1][i], self.rest[2][i])
            })
            .collect();
        let mut nearest = vec![Real::INFINITY; n];
        for (i, r) in roots.iter().enumerate() {
            for (j, q) in roots.iter().enumerate().skip(i + 1) {
                let d = (*r - *q).length_squared();
                nearest[i] = nearest[i].min(d);
                nearest[j] = nearest[j].min(d);
            }
        }
        let sum: f64 = nearest.iter().map(|d| f64::from(ops::sqrt(*d))).sum();
        (sum / n as f64) as Real
    }

    /// Pairs of free particles on different strands closer than `radius`
    /// now ([`super::volume::close_pairs`]; allocates its hash).
    #[must_use]
    pub fn close_pairs(&mut self, radius: Real) -> u64 {
        let layout = self.layout;
        let mut grid = VolumeBuffers::new(&layout);
        let st = state_view(&mut self.state);
        super::volume::close_pairs(&layout, &st, radius, &mut grid.view())
    }

    /// Carries each strand's root by its bones from now on (linear blend
    /// skinning, [`super::skin`]) instead of the head pose: `weights` has
    /// one entry per strand, `bones` the skinning transforms now (each
    /// bone's pose times its inverse bind pose, in world space). Strands
    /// are put at rest on their skinned pose and the clock restarts.
    /// Allocates the carried groom once; steps do not allocate.
    ///
    /// # Errors
    /// [`SkinError`] when `weights` does not fit the strands or `bones`;
    /// the sim then keeps what it had.
    pub fn set_skin(&mut self, weights: &[BoneWeights], bones: &[Pose]) -> Result<(), SkinError> {
        check_weights(weights, self.layout.strands(), bones.len())?;
        let n = self.layout.len();
        self.skin = Some(SimSkin {
            weights: weights.to_vec(),
            last_bones: bones
                .iter()
                .map(|b| b.or_sanitized(&Pose::IDENTITY))
                .collect(),
            step_bones: bones.to_vec(),
            carried: core::array::from_fn(|_| LineBuf::zeroed(n)),
        });
        self.reset_skinned(bones)
    }

    /// Goes back to carrying every root by the head pose (from the next
    /// step; the strands are not moved).
    pub fn clear_skin(&mut self) {
        self.skin = None;
    }

    /// Whether roots are skinned ([`Self::set_skin`]).
    #[must_use]
    pub fn is_skinned(&self) -> bool {
        self.skin.is_some()
    }

    /// Puts every strand at rest on its groom carried by `bones` and
    /// restarts the clock (a skinned sim's [`Self::reset`]).
    ///
    /// # Errors
    /// [`SkinError::BoneCount`] when `bones` is not as long as at setup;
    /// nothing moves then. Without skinning this is `reset(last pose)`.
    pub fn reset_skinned(&mut self, bones: &[Pose]) -> Result<(), SkinError> {
        if let Some(skin) = self.skin.as_mut() {
            check_bone_count(skin, bones)?;
            skin.take_bones(bones);
        }
        self.reset(self.last_pose);
        Ok(())
    }

    /// Advances a skinned sim by a frame of `dt` seconds that ends with
    /// the bones at `bones` and the head (which carries the head
    /// colliders) at `head`; intermediate steps interpolate both from the
    /// previous frame. Each step carries the groom by its own bones, so
    /// the steps of a frame run one after another over all chunks. Without
    /// skinning this is [`Self::advance_to`]`(dt, head)`.
    ///
    /// # Errors
    /// [`SkinError::BoneCount`] when `bones` is not as long as at setup;
    /// no step runs then.
    pub fn advance_skinned(
        &mut self,
        dt: Real,
        head: Pose,
        bones: &[Pose],
    ) -> Result<u32, SkinError> {
        let Some(skin) = self.skin.as_ref() else {
            return Ok(self.advance_to(dt, head));
        };
        check_bone_count(skin, bones)?;
        let plan = self.clock.advance(dt);
        let k = StepCoefs::new(&self.params, self.step_h(plan.h), self.layout.particles());
        let from = self.last_pose;
        let head = head.or_sanitized(&from);
        let mut frames = core::mem::take(&mut self.frames);
        let mut ran = 0;
        for j in 0..plan.count {
            if !self.runs(plan.index(j)) {
                continue;
            }
            ran += 1;
            let t = plan.fraction(j);
            let head_j = from.interpolate(&head, t);
            let mut frame = StepFrame::new(&head_j, &self.head_colliders, &self.world_colliders);
            // The carried groom is already in world space.
            frame.rot = crate::math::Mat3::IDENTITY;
            frame.trans = Vec3::ZERO;
            frames.clear();
            frames.push(frame);
            self.step_poses.clear();
            self.step_poses.push(head_j);
            self.step_volume.clear();
            self.step_volume.push(self.volume_runs(plan.index(j)));
            if let Some(skin) = self.skin.as_mut() {
                let SimSkin {
                    last_bones,
                    step_bones,
                    ..
                } = skin;
                for ((out, a), b) in step_bones.iter_mut().zip(last_bones.iter()).zip(bones) {
                    *out = a.interpolate(&b.or_sanitized(a), t);
                }
                let step_bones = core::mem::take(&mut skin.step_bones);
                skin.carry(&self.layout, &self.rest, &step_bones);
                skin.step_bones = step_bones;
            }
            self.run(&k, &frames);
        }
        self.frames = frames;
        self.last_pose = head;
        if let Some(skin) = self.skin.as_mut() {
            skin.take_bones(bones);
        }
        Ok(ran)
    }

    /// Where strand `strand`'s root was carried for the last step (its
    /// skinned position), or `None` without skinning or past the strands.
    #[must_use]
    pub fn skinned_root(&self, strand: usize) -> Option<Vec3> {
        let skin = self.skin.as_ref()?;
        if strand >= self.layout.strands() {
            return None;
        }
        let i = self.layout.index(strand, 0);
        Some(Vec3::new(
            skin.carried[0][i],
            skin.carried[1][i],
            skin.carried[2][i],
        ))
    }

    /// Rest (groom) arrays.
    #[must_use]
    pub fn rest(&self) -> StrandRest<'_> {
        rest_view(&self.rest)
    }

    /// Live arrays, for callers that read or edit them in place.
    pub fn state_mut(&mut self) -> StrandState<'_> {
        state_view(&mut self.state)
    }

    /// Current position of particle `particle` of strand `strand`.
    #[must_use]
    pub fn point(&self, strand: usize, particle: usize) -> Vec3 {
        let i = self.layout.index(strand, particle);
        Vec3::new(self.state[0][i], self.state[1][i], self.state[2][i])
    }

    /// Runs `job(part, parts, layout, positions)` once on each of the sim's
    /// threads (`part` 0 on the caller's), with `parts` the thread count and
    /// the current positions as [`Self::positions`] gives them, and returns
    /// when every part has finished: for work on the sim's result that
    /// splits into independent parts, such as packing render data.
    ///
    /// # Panics
    /// When `job` panicked on any thread.
    #[allow(clippy::type_complexity)]
    pub fn run_split(
        &mut self,
        job: &(dyn Fn(usize, usize, &StrandLayout, (&[Real], &[Real], &[Real])) + Sync),
    ) {
        let parts = self.threads();
        let layout = &self.layout;
        let pos = (&self.state[0][..], &self.state[1][..], &self.state[2][..]);
        match self.pool.as_mut() {
            Some(pool) if parts > 1 => pool.run(&|who| job(who, parts, layout, pos)),
            _ => job(0, 1, layout, pos),
        }
    }

    /// Current x, y, z arrays in the chunked layout (see [`StrandLayout::index`]).
    #[must_use]
    pub fn positions(&self) -> (&[Real], &[Real], &[Real]) {
        (&self.state[0], &self.state[1], &self.state[2])
    }

    /// Writes current positions strand-major (`strands × particles`, real
    /// strands only) into `out`, for building render buffers. Writes as many
    /// as fit.
    pub fn write_positions(&self, out: &mut [Vec3]) {
        let m = self.layout.particles();
        for (j, o) in out.iter_mut().take(self.layout.strands() * m).enumerate() {
            *o = self.point(j / m, j % m);
        }
    }

    /// Segment length error now.
    #[must_use]
    pub fn length_error(&mut self) -> LengthError {
        let layout = self.layout;
        let rest = rest_view(&self.rest);
        let st = state_view(&mut self.state);
        length_error(&layout, &rest, &st)
    }

    /// Free particles more than `depth` inside any of `colliders` (shapes
    /// the sim need not collide with: e.g. the body a distance field
    /// stands for).
    #[must_use]
    pub fn inside(&mut self, colliders: &[WorldCollider], depth: Real) -> usize {
        let layout = self.layout;
        let st = state_view(&mut self.state);
        penetrations(&layout, &st, colliders, depth)
    }

    /// Free particles more than `depth` inside the colliders of the last step.
    #[must_use]
    pub fn penetrations(&mut self, depth: Real) -> usize {
        let layout = self.layout;
        let colliders: Vec<WorldCollider> = self
            .frames
            .last()
            .map(|f| f.colliders.iter().copied().collect())
            .unwrap_or_default();
        let st = state_view(&mut self.state);
        penetrations(&layout, &st, &colliders, depth)
    }
}

/// Why [`StrandSim::set_body`] refused its parts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BodyError {
    /// More than [`MAX_BODY_PARTS`] parts (how many).
    TooManyParts(usize),
    /// Part `n`'s grid is degenerate or its values do not fill it.
    BadField(usize),
}

impl core::fmt::Display for BodyError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Self::TooManyParts(n) => write!(f, "{n} body parts, at most {MAX_BODY_PARTS}"),
            Self::BadField(i) => {
                write!(f, "body part {i}: the field's values do not fill its grid")
            }
        }
    }
}

impl core::error::Error for BodyError {}

fn check_bone_count(skin: &SimSkin, bones: &[Pose]) -> Result<(), SkinError> {
    if bones.len() == skin.last_bones.len() {
        Ok(())
    } else {
        Err(SkinError::BoneCount {
            expected: skin.last_bones.len(),
            found: bones.len(),
        })
    }
}

/// Runs `frames` on every chunk of `state`, split over `pool`'s threads
/// when there are `threads > 1`.
#[allow(clippy::too_many_arguments)]
fn run_on(
    layout: StrandLayout,
    isa: Isa,
    threads: usize,
    pool: Option<&mut Pool>,
    rest: &StrandRest<'_>,
    state: StrandState<'_>,
    k: &StepCoefs,
    frames: &[StepFrame],
) {
    for_each_claim(layout, threads, pool, state, |mut mine, first| {
        step_chunks_on(isa, &layout, k, frames, rest, first, &mut mine);
    });
}

/// Calls `f(part, first_chunk)` on parts of `state` that together cover
/// every chunk once, split over `pool`'s threads when there are
/// `threads > 1` (all of it at once on the caller's thread otherwise).
fn for_each_claim(
    layout: StrandLayout,
    threads: usize,
    pool: Option<&mut Pool>,
    state: StrandState<'_>,
    f: impl Fn(StrandState<'_>, usize) + Sync,
) {
    let pool = match pool {
        Some(pool) if threads > 1 => pool,
        _ => {
            f(state, 0);
            return;
        }
    };
    // Chunks are handed out in shrinking batches from one queue rather
    // than split in fixed halves: the halves differ in collider work and
    // the second vCPU may run slower or start late (a parked helper
    // takes ~8 µs to wake here), and a fixed split waits for the slower
    // half. The caller takes from the front and the helpers from the
    // back, so each thread meets mostly the same chunks frame after frame
    // and finds them in its own core's cache: `strand-bench` puts the
    // two-thread speed-up at 93-114 % of what two independent sims get
    // from the host this way, 90-94 % with one end (docs/PERFORMANCE.md).
    // Which thread steps a chunk does not change its bits.
    let queue = std::sync::Mutex::new((Some(state), 0usize, layout.chunks()));
    let claim = |front: bool| {
        let mut q = queue
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let (left_state, next, end) = &mut *q;
        let st = left_state.take()?;
        let left = *end - *next;
        if left == 0 {
            return None;
        }
        let take = (left / (2 * threads)).max(MIN_CLAIM).min(left);
        if take == left {
            let first = *next;
            *next = *end;
            return Some((st, first));
        }
        if front {
            let first = *next;
            *next += take;
            let (mine, rest_of) = st.split_at_chunk(&layout, take);
            *left_state = Some(rest_of);
            Some((mine, first))
        } else {
            *end -= take;
            let (rest_of, mine) = st.split_at_chunk(&layout, left - take);
            *left_state = Some(rest_of);
            Some((mine, *end))
        }
    };
    let work = |who: usize| {
        while let Some((mine, first)) = claim(who == 0) {
            f(mine, first);
        }
    };
    // The caller's thread works the queue too instead of waiting.
    pool.run(&work);
}
