//! The strand scene: 40 strands over a turning, nodding head, stepped by
//! hand through the no_std strand API on the shared fixed 120 Hz clock.

use heapless::Vec;
use tress_core::clock::{Schedule, StepClock};
use tress_core::collide::{Collider, WorldCollider};
use tress_core::math::{Mat3, Pose, Quat, Real, Vec3, ops, quat};
use tress_core::simd::Isa;
use tress_core::strand::{
    StepCoefs, StepFrame, StrandLayout, StrandParams, StrandRest, StrandState, WIDE_LANES,
    fill_rest, step_chunks_on,
};

use crate::Fnv;

/// Strands of the scene.
pub const STRANDS: usize = 40;

/// Particles per strand of the scene.
pub const PARTICLES: usize = 12;

/// Particles of the scene, strand-major.
pub const POINTS: usize = STRANDS * PARTICLES;

/// Buffer length of the scene's widest layout: whole chunks of
/// [`WIDE_LANES`] strands (the most lanes a layout has).
const MAX_LEN: usize = STRANDS.div_ceil(WIDE_LANES) * WIDE_LANES * PARTICLES;

/// 40 strands of 12 particles over the top of a 0.1 m head by the golden
/// angle, curling a little, in the head frame, strand-major.
#[must_use]
pub fn points() -> [Vec3; POINTS] {
    core::array::from_fn(|i| {
        let (s, p) = (i / PARTICLES, i % PARTICLES);
        let a = s as Real * 2.399_963;
        let h = 0.3 + 0.65 * (s as Real + 0.5) / STRANDS as Real;
        let ring = ops::sqrt(1.0 - h * h);
        let n = Vec3::new(ring * ops::cos(a), h, ring * ops::sin(a));
        let t = p as Real * 0.014;
        n * (0.1 + t) + Vec3::new(0.0, 0.0, 0.2 * t * ops::sin(p as Real))
    })
}

/// Head (sphere) and neck (capsule) colliders in the head frame.
#[must_use]
pub fn head_colliders() -> [Collider; 2] {
    [
        Collider::sphere(Vec3::ZERO, 0.1),
        Collider::capsule(Vec3::new(0.0, -0.2, 0.0), Vec3::new(0.0, -0.08, 0.0), 0.05),
    ]
}

/// Shoulders (capsule) and a wall behind (plane), world space.
#[must_use]
pub fn world_colliders() -> [WorldCollider; 2] {
    [
        Collider::capsule(
            Vec3::new(-0.18, -0.25, 0.0),
            Vec3::new(0.18, -0.25, 0.0),
            0.08,
        ),
        Collider::plane(Vec3::new(0.0, 0.0, -0.16), Vec3::Z),
    ]
    .map(|c| c.posed(Vec3::ZERO, Quat::IDENTITY, 1.0))
}

/// The head as a function of simulated time: a turn, a nod and a bob.
#[must_use]
pub fn pose(t: f64) -> Pose {
    let t = t as Real;
    Pose::new(
        Vec3::new(0.02 * ops::sin(2.0 * t), 0.03 * ops::sin(6.0 * t), 0.0),
        quat::mul(
            Quat::from_rotation_y(1.3 * ops::sin(3.0 * t)),
            Quat::from_rotation_x(0.4 * ops::sin(4.5 * t)),
        ),
    )
}

/// Frame times of the run: 1.5 s at 60 fps, then uneven frames with a
/// hitch (more than the clock's 8 steps).
pub fn frames() -> impl Iterator<Item = Real> {
    let uneven = [0.007f32, 0.031, 0.2, 0.0125, 0.0166, 0.0219, 0.004];
    core::iter::repeat_n(1.0 / 60.0, 90).chain((0..42).map(move |i| uneven[i % uneven.len()]))
}

/// Hashes the positions strand-major, so every chunk layout hashes alike.
pub fn hash(layout: &StrandLayout, x: &[Real], y: &[Real], z: &[Real], h: &mut Fnv) {
    for s in 0..layout.strands() {
        for p in 0..layout.particles() {
            let i = layout.index(s, p);
            h.vec3(Vec3::new(x[i], y[i], z[i]));
        }
    }
}

/// The scene's digest, stepped by hand through the no_std API: the shared
/// fixed 120 Hz clock, the head sampled at each step's time, the step
/// builds of `isa`, `lanes` strands per chunk.
///
/// # Panics
///
/// If `lanes` is not a layout's lane count, or a position went non-finite.
#[must_use]
pub fn digest(isa: Isa, lanes: usize) -> u64 {
    let pts = points();
    let layout = StrandLayout::with_lanes(STRANDS, PARTICLES, lanes).unwrap();
    let n = layout.len();
    assert!(n <= MAX_LEN, "{lanes} lanes: {n} particles in the layout");
    let mut rest = [[0.0; MAX_LEN]; 5];
    {
        let [x, y, z, len, inv] = &mut rest;
        let (x, y, z) = (&mut x[..n], &mut y[..n], &mut z[..n]);
        let (len, inv) = (&mut len[..n], &mut inv[..n]);
        fill_rest(&layout, |s, p| pts[s * PARTICLES + p], x, y, z, len, inv).unwrap();
    }
    let [rx, ry, rz, rl, ri] = &rest;
    let rest = StrandRest {
        x: &rx[..n],
        y: &ry[..n],
        z: &rz[..n],
        len: &rl[..n],
        inv_len: &ri[..n],
    };
    let mut state = [[0.0; MAX_LEN]; 6];
    let [x, y, z, px, py, pz] = &mut state;
    let mut st = StrandState {
        x: &mut x[..n],
        y: &mut y[..n],
        z: &mut z[..n],
        px: &mut px[..n],
        py: &mut py[..n],
        pz: &mut pz[..n],
    };
    let start = pose(0.0);
    st.reset_to_rest(&rest, Mat3::from_quat(start.rot), start.pos);
    let params = StrandParams::default();
    let (head, world) = (head_colliders(), world_colliders());
    let mut clock = StepClock::new(Schedule::FIXED_120);
    let mut h = Fnv::new();
    for dt in frames() {
        let plan = clock.advance(dt);
        // FIXED_120 runs 8 steps a frame at most.
        let steps: Vec<StepFrame, 8> = (0..plan.count)
            .map(|j| StepFrame::new(&pose(plan.time(j)), &head, &world))
            .collect();
        let k = StepCoefs::new(&params, plan.h, PARTICLES);
        step_chunks_on(isa, &layout, &k, &steps, &rest, 0, &mut st);
        hash(&layout, st.x, st.y, st.z, &mut h);
    }
    assert!(
        st.x.iter()
            .chain(&*st.y)
            .chain(&*st.z)
            .all(|v| v.is_finite())
    );
    h.0
}
