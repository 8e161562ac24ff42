//! `TressStrandHair`: TressFX-style strand hair drawn as camera-facing ribbons.

use godot::classes::mesh::{ArrayCustomFormat, ArrayFormat, ArrayType, PrimitiveType};
use godot::classes::node::InternalMode;
use godot::classes::rendering_server::ArrayFormat as RsArrayFormat;
use godot::classes::{
    ArrayMesh, CapsuleShape3D, CollisionShape3D, Engine, INode3D, Material, MeshInstance3D, Node3D,
    RenderingServer, ShaderMaterial, Skeleton3D, SphereShape3D, Time,
};
use godot::obj::EngineBitfield;
use godot::prelude::*;
use tress_core::collide::{Collider, WorldCollider};
use tress_core::math::Vec3;
use tress_core::strand::{PassCounts, Pose, Schedule, StrandParams, StrandSim, VolumeParams};

use crate::convert::{pose_and_scale, vec3, vector3};
use crate::strand_follow::{self, FollowRender};
use crate::strand_lod::{self, LEVELS, View};
use crate::strand_shading::{self, HairVolume};
use crate::strand_skin::StrandSkin;

/// Strand hair: thousands of particle strands with momentum, shape and
/// length constraints and collisions, drawn as camera-facing ribbons.
///
/// The groom (`.tfx` or OBJ polylines) is authored in model space;
/// `groom_origin` is the groom point that sits at the attachment's origin.
/// Roots follow `attach_to` (default: the parent node), or, with a
/// TressFX `.tfxbone` beside the groom (or `bones_path`) and a
/// `Skeleton3D` to read (`skeleton_path`, else the attachment or parent
/// when it is one), each root follows its own bones' current poses. Every
/// `CollisionShape3D` child with a sphere or capsule shape is a collider.
/// It runs in the editor too (`simulate_in_editor`); the ribbon mesh is an
/// internal child that is never saved into the scene.
///
/// Level of detail: while the node is hidden or its hair is outside the
/// current camera's view (`pause_when_hidden`), nothing is simulated or
/// uploaded; when it is seen again the strands are carried rigidly with
/// the attachment's motion since the pause, so they resume where the head
/// took them, with the velocity they had, without a pop. On screen
/// (`lod_enabled`), hair whose bounds cover less than `lod_half_coverage`
/// of the view's height steps at 60 Hz and draws half its strands (or half
/// its render strands per guide), below `lod_quarter_coverage` at 30 Hz
/// with a quarter. Steps stay on the 120 Hz clock's grid, so each level is
/// frame-rate invariant.
#[derive(GodotClass)]
#[class(tool, base = Node3D, init)]
pub struct TressStrandHair {
    /// Groom file: TressFX `.tfx` or OBJ polylines. Changing it (or
    /// `particles`, `strand_fraction`) reloads the groom.
    #[export(file = "*.tfx,*.obj")]
    #[var(set = set_groom_path)]
    groom_path: GString,
    /// In the editor: simulate the strands, so they follow the attachment
    /// moved there. Off: the strands stay at their groomed pose.
    #[export]
    #[var(set = set_simulate_in_editor)]
    #[init(val = true)]
    simulate_in_editor: bool,
    /// A setting the groom is built from changed: reload at the next frame.
    reload_pending: bool,
    /// The groom point that coincides with the attachment's origin, in the
    /// groom file's own units.
    #[export]
    groom_origin: Vector3,
    /// Metres per groom file unit; 0 detects it from the groom's size
    /// (largest extent 5..500 units is centimetres, more millimetres,
    /// less metres). Changing it reloads the groom.
    #[export(range = (0.0, 10.0, or_greater))]
    #[var(set = set_unit_scale)]
    unit_scale: f32,
    /// The groom's TressFX settings (`.tfxsim`); empty takes `NAME.tfxsim`
    /// beside the groom file when there is one. Its values replace
    /// `damping`, `global_stiffness`, `global_range` and `local_stiffness`
    /// when the groom loads.
    #[export(file = "*.tfxsim")]
    #[var(set = set_settings_path)]
    settings_path: GString,
    /// Read the groom's `.tfxsim` when it loads (off: the node's own values).
    #[export]
    #[init(val = true)]
    use_groom_settings: bool,
    /// TressFX `localShapeMatchingIterations` the `.tfxsim` local stiffness
    /// is quoted for; 0 (default) takes the `.tfxproj` beside the groom
    /// that names it (the ponytail's 3), else TressFX's default 1.
    #[export(range = (0.0, 16.0))]
    settings_local_iterations: i32,
    /// Raise the shape stiffness for segments shorter than the 12 mm the
    /// defaults are tuned on, so short fur stands (not with a `.tfxsim`).
    #[export]
    #[init(val = true)]
    stiffen_short_strands: bool,
    /// What the last load used: the settings file, or empty.
    applied_settings: GString,
    /// Metres per unit the last load used.
    applied_scale: f32,
    /// Stiffness factor for short segments from the last load (1 = none).
    short_segment_factor: f32,
    /// Node3D the roots are carried by; empty means the parent.
    #[export]
    attach_to: NodePath,
    /// The groom's TressFX skinning (`.tfxbone`: bone names and per-strand
    /// root weights); empty takes `NAME.tfxbone` beside the groom file when
    /// there is one. Changing it reloads the groom.
    #[export(file = "*.tfxbone")]
    #[var(set = set_bones_path)]
    bones_path: GString,
    /// The `Skeleton3D` whose bone poses skin the roots; empty takes the
    /// attachment (or the parent) when it is a Skeleton3D. The groom is
    /// read as authored in the skeleton's model space. Changing it reloads
    /// the groom.
    #[export]
    #[var(set = set_skeleton_path)]
    skeleton_path: NodePath,
    /// Skin the roots from the skeleton when the groom has a `.tfxbone`
    /// (off: roots follow the attachment rigidly).
    #[export]
    #[var(set = set_use_skinning)]
    #[init(val = true)]
    use_skinning: bool,
    /// The groom's skinning and the skeleton it is bound to.
    skin: Option<StrandSkin>,
    /// Particles per strand: 0 keeps the groom's own point count (clamped
    /// to 4..64), 4..64 resamples every strand by arc length.
    #[export(range = (0.0, 64.0))]
    #[var(set = set_particles)]
    particles: i32,
    /// Fraction of the groom's strands simulated and drawn (level of detail).
    #[export(range = (0.01, 1.0))]
    #[var(set = set_strand_fraction)]
    #[init(val = 1.0)]
    strand_fraction: f32,
    /// Strands drawn per simulated strand: 1 draws the simulated strands
    /// themselves; more adds `render_ratio − 1` strands scattered around
    /// each one, each a copy of its nearest simulated strand moved to its
    /// own root, placed by the hair shader every frame (the demo: 6,000
    /// simulated, ratio 10, 60,000 drawn). 0 (default) takes the groom's
    /// own: one more than the follow hairs per guide a TressFX `.tfxproj`
    /// beside the groom gives its file (the TressFX 3 ponytail: 4, so 5),
    /// else 1 (`get_applied_render_ratio()`). Changing it reloads the groom.
    #[export(range = (0.0, 32.0))]
    #[var(set = set_render_ratio)]
    render_ratio: i32,
    /// Strands drawn per simulated one by the last load (`render_ratio`,
    /// or the groom's own for 0).
    applied_ratio: usize,
    /// Keep the strands apart: after every second step, particles of
    /// different strands closer than 0.6 of the groom's strand spacing are
    /// pushed apart without gaining velocity (the volume pass). Off by
    /// default: it costs about eight times the step (docs/STRANDS.md
    /// "Volume").
    #[export]
    #[var(set = set_keep_volume)]
    keep_volume: bool,
    /// Pause the simulation while the node is hidden or its hair is off
    /// screen, and carry the strands with the attachment when it is seen
    /// again.
    #[export]
    #[init(val = true)]
    pause_when_hidden: bool,
    /// Lower the step rate and the strands drawn as the hair covers less of
    /// the view (off: full detail at any distance).
    #[export]
    #[init(val = true)]
    lod_enabled: bool,
    /// Below this share of the view's height (the hair's bounding diameter),
    /// half detail: 60 Hz steps, half the strands drawn.
    #[export(range = (0.0, 1.0))]
    #[init(val = 0.2)]
    lod_half_coverage: f32,
    /// Below this share, quarter detail: 30 Hz steps, a quarter drawn.
    #[export(range = (0.0, 1.0))]
    #[init(val = 0.06)]
    lod_quarter_coverage: f32,
    /// The detail level now (0 full, 1 half, 2 quarter).
    lod_level: u32,
    /// The share of the view's height the hair covered last frame.
    coverage: f32,
    /// The attachment pose when the pause began, while paused.
    paused_from: Option<Pose>,
    /// Render strands built per level (the active one is in `follow`).
    follow_levels: Vec<Option<FollowRender>>,
    /// Simulated strands drawn: every `draw_stride`-th one (without
    /// render strands).
    draw_stride: usize,
    /// Simulation steps run since the groom loaded.
    steps_run: u64,
    /// Global and local shape constraints on (off = "gravity and length only").
    #[export]
    #[init(val = true)]
    shape_constraints: bool,
    /// Collisions with the CollisionShape3D children on.
    #[export]
    #[init(val = true)]
    collisions: bool,
    /// Fraction of the distance to the groomed position removed per 1/60 s.
    #[export(range = (0.0, 1.0))]
    #[init(val = 0.1)]
    global_stiffness: f32,
    /// Fraction of the strand, from the root, under global shape.
    #[export(range = (0.0, 1.0))]
    #[init(val = 0.35)]
    global_range: f32,
    /// Fraction of each segment's shape error removed per 1/60 s.
    #[export(range = (0.0, 1.0))]
    #[init(val = 0.6)]
    local_stiffness: f32,
    /// Length (Follow-The-Leader) iterations per step.
    #[export(range = (1.0, 4.0))]
    #[init(val = 2)]
    length_iterations: i32,
    /// Velocity decay rate, 1/s.
    #[export]
    #[init(val = 1.5)]
    damping: f32,
    /// Gravity, m/s².
    #[export]
    #[init(val = Vector3::new(0.0, -9.81, 0.0))]
    gravity: Vector3,
    /// Worker threads (1 = the main thread only); a change applies from the
    /// next frame.
    #[export(range = (1.0, 16.0))]
    #[init(val = 2)]
    threads: i32,
    /// Hair colour at the root, for the built-in hair material.
    #[export]
    #[var(set = set_root_color)]
    #[init(val = strand_shading::ROOT_COLOR)]
    root_color: Color,
    /// Hair colour at the tip, for the built-in hair material.
    #[export]
    #[var(set = set_tip_color)]
    #[init(val = strand_shading::TIP_COLOR)]
    tip_color: Color,
    /// The strands' material. Empty: the built-in hair shader (Kajiya-Kay
    /// diffuse, two shifted specular lobes, self-shadowing) with
    /// `root_color` and `tip_color`; its other settings are the shader's
    /// uniforms. A ShaderMaterial of your own gets the hair volume each
    /// frame (`volume_center`, `volume_radius`) but not the two colours.
    /// The built-in shader places the drawn strands itself from a texture
    /// of the simulated ones; a shader of
    /// your own that keeps its `guide_points` block does too, drawn from
    /// this node's copy of the material (`get_active_material`), and one
    /// without it gets the render strands placed on the CPU (slower).
    #[export]
    #[var(set = set_material)]
    material: Option<Gd<Material>>,
    /// The built-in material, made when `material` is empty.
    default_material: Option<Gd<ShaderMaterial>>,
    /// This node's copy of `material` when its shader places render strands
    /// from the guide texture (the texture is per node; the copy keeps
    /// nodes that share the material apart).
    material_copy: Option<Gd<ShaderMaterial>>,
    /// The ribbon mesh is laid out for the shader to place render strands
    /// (offsets and texel indices, never uploaded again), not for positions
    /// written each frame.
    from_guides: bool,
    volume: Option<HairVolume>,
    sim: Option<StrandSim>,
    /// The drawn strands placed from the guides (at a lower detail level
    /// with one per guide, none: every second or fourth simulated strand
    /// is drawn).
    follow: Option<FollowRender>,
    mesh: Option<Gd<ArrayMesh>>,
    instance: Option<Gd<MeshInstance3D>>,
    vertex_bytes: PackedByteArray,
    attr_bytes: PackedByteArray,
    layout: BufferLayout,
    points: Vec<Vec3>,
    colliders: Vec<WorldCollider>,
    head_colliders: Vec<Collider>,
    last_pose: Option<Pose>,
    last_update_usec: u64,
    base: Base<Node3D>,
}

/// Where each value goes in Godot's vertex and attribute buffers.
#[derive(Default, Clone, Copy)]
struct BufferLayout {
    vertex_stride: usize,
    attr_stride: usize,
    custom0: usize,
}

#[godot_api]
impl INode3D for TressStrandHair {
    fn ready(&mut self) {
        self.reload_pending = false;
        if !self.groom_path.is_empty() && self.sim.is_none() {
            let path = self.groom_path.clone();
            self.load_groom(path);
        }
    }

    fn process(&mut self, delta: f64) {
        if self.reload_pending {
            self.reload_pending = false;
            if !self.groom_path.is_empty() {
                let path = self.groom_path.clone();
                self.load_groom(path);
            }
        }
        if Engine::singleton().is_editor_hint() && !self.simulate_in_editor {
            return;
        }
        self.advance_frame(delta);
    }
}

#[godot_api]
impl TressStrandHair {
    /// Loads a groom and builds the simulation and ribbons. Returns false
    /// (with the reason in the log) when the file cannot be used.
    #[func]
    pub fn load_groom(&mut self, path: GString) -> bool {
        self.reload_pending = false;
        let file = path.to_string();
        let loaded = crate::files::read(&file).and_then(|b| {
            tress_rig::groom::read_any_with_warnings(&file, b.as_slice()).map_err(|e| e.to_string())
        });
        let (groom, skipped) = match loaded {
            Ok((g, skipped)) => {
                for w in &skipped {
                    godot_warn!("TressStrandHair: '{path}': {w}");
                }
                (g, skipped)
            }
            Err(e) => {
                godot_error!("TressStrandHair: cannot load groom '{path}': {e}");
                return false;
            }
        };
        let own = groom.own_particles().unwrap_or(16);
        let m = if self.particles <= 0 {
            own
        } else {
            self.particles.clamp(4, 64) as usize
        };
        let scale = if self.unit_scale > 0.0 && self.unit_scale.is_finite() {
            self.unit_scale
        } else {
            groom.guess_units().scale()
        };
        let origin = vec3(self.groom_origin);
        let groom = groom.transformed(1.0, tress_core::math::Quat::IDENTITY, -origin);
        let groom = groom.transformed(scale, tress_core::math::Quat::IDENTITY, Vec3::ZERO);
        self.applied_scale = scale;
        let project = groom_project(&file);
        self.apply_groom_settings(&file, project.as_ref());
        self.short_segment_factor = groom.short_segment_factor(m);
        // Neighbours on the scalp become neighbours in the solver's chunks
        // (faster collision culling); the level-of-detail subset below still
        // spreads evenly along that order.
        let file_strands = groom.strand_count() + skipped.len();
        let groom = match groom.resampled(m) {
            Ok(g) => g,
            Err(e) => {
                godot_error!("TressStrandHair: cannot resample '{path}' to {m} particles: {e}");
                return false;
            }
        };
        // Which kept strand each simulated one is, for per-strand skinning
        // weights: the root order, then the level-of-detail share of it.
        let by_root = groom.root_order();
        let order: Vec<usize> =
            tress_rig::groom::subset_indices(by_root.len(), self.strand_fraction)
                .into_iter()
                .map(|i| by_root[i])
                .collect();
        let groom = groom.picked(&order);
        let keep = groom.strand_count();
        let pts: Vec<Vec3> = groom.points().to_vec();
        let pose = self.attachment_pose().unwrap_or(Pose::IDENTITY);
        let sim = match StrandSim::from_points(m, &pts, self.params(), Schedule::FIXED_120, pose) {
            Ok(mut s) => {
                s.set_threads(self.threads.max(1) as usize);
                apply_volume(&mut s, self.keep_volume);
                s
            }
            Err(e) => {
                godot_error!("TressStrandHair: '{path}' gives no usable strands: {e:?}");
                return false;
            }
        };
        // Ratio 1 too: each drawn strand is then its own guide, and the
        // shader places it from the guide texture (no ribbon upload).
        self.applied_ratio = if self.render_ratio > 0 {
            self.render_ratio.min(32) as usize
        } else {
            project
                .as_ref()
                .map_or(1, |(_, part)| (part.follow as usize + 1).min(32))
        };
        self.follow = match FollowRender::new(&sim, self.applied_ratio) {
            Ok(f) => Some(f),
            Err(e) => {
                godot_error!(
                    "TressStrandHair: '{path}': no render strands ({e}); drawing the simulated ones"
                );
                None
            }
        };
        let keep = self.follow.as_ref().map_or(keep, FollowRender::renders);
        self.lod_level = 0;
        self.follow_levels = (0..LEVELS).map(|_| None).collect();
        self.draw_stride = 1;
        self.steps_run = 0;
        self.paused_from = None;
        self.volume = HairVolume::of_points(&pts);
        self.points = vec![Vec3::ZERO; keep * m];
        self.sim = Some(sim);
        self.last_pose = Some(pose);
        self.skin = if self.use_skinning {
            StrandSkin::load(
                &self.bones_path.to_string(),
                &file,
                file_strands,
                &skipped,
                &order,
            )
        } else {
            None
        };
        self.bind_skin();
        self.groom_path = path;
        self.build_mesh(keep, m);
        self.upload();
        self.update_volume(&pose);
        true
    }

    /// Sets the groom file (reloaded at the next frame).
    #[func]
    pub fn set_groom_path(&mut self, path: GString) {
        self.groom_path = path;
        self.reload_pending = true;
    }

    /// Sets the metres per groom unit, 0 to detect (the groom reloads at
    /// the next frame).
    #[func]
    pub fn set_unit_scale(&mut self, scale: f32) {
        self.unit_scale = scale;
        self.reload_pending = self.sim.is_some();
    }

    /// Sets the `.tfxsim` file (read when the groom reloads, at the next frame).
    #[func]
    pub fn set_settings_path(&mut self, path: GString) {
        self.settings_path = path;
        self.reload_pending = self.sim.is_some();
    }

    /// Metres per groom unit the loaded groom uses (detected or set).
    #[func]
    pub fn get_applied_unit_scale(&self) -> f32 {
        self.applied_scale
    }

    /// The `.tfxsim` the loaded groom's settings came from, or empty.
    #[func]
    pub fn get_applied_settings(&self) -> GString {
        self.applied_settings.clone()
    }

    /// Particles per strand simulated now (0 before a groom loads).
    #[func]
    pub fn get_particles_per_strand(&self) -> i32 {
        self.sim
            .as_ref()
            .map_or(0, |s| s.layout().particles() as i32)
    }

    /// Sets the particles per strand (the groom reloads at the next frame).
    #[func]
    pub fn set_particles(&mut self, particles: i32) {
        self.particles = particles;
        self.reload_pending = self.sim.is_some();
    }

    /// Sets the fraction of strands kept (the groom reloads at the next
    /// frame).
    #[func]
    pub fn set_strand_fraction(&mut self, fraction: f32) {
        self.strand_fraction = fraction;
        self.reload_pending = self.sim.is_some();
    }

    /// Sets the render strands per simulated strand (the groom reloads at
    /// the next frame).
    #[func]
    pub fn set_render_ratio(&mut self, ratio: i32) {
        self.render_ratio = ratio;
        self.reload_pending = self.sim.is_some();
    }

    /// Strands drawn per simulated strand by the loaded groom: `render_ratio`,
    /// or for 0 the groom's own (1 + its `.tfxproj` follow hairs, else 1).
    #[func]
    pub fn get_applied_render_ratio(&self) -> i32 {
        self.applied_ratio as i32
    }

    /// Strands drawn now: the applied render ratio per simulated strand,
    /// fewer at a lower detail level.
    #[func]
    pub fn get_render_strand_count(&self) -> i32 {
        self.sim.as_ref().map_or(0, |s| {
            drawn_strands(self.follow.as_ref(), self.draw_stride, s) as i32
        })
    }

    /// Turns the volume pass on or off (at once, without a reload; the
    /// strands keep their state).
    #[func]
    pub fn set_keep_volume(&mut self, on: bool) {
        self.keep_volume = on;
        if let Some(sim) = self.sim.as_mut() {
            apply_volume(sim, on);
        }
    }

    /// What the last volume pass did: `pairs` (particle pairs of different
    /// strands closer than the kept spacing before it) and `moved`
    /// (particles it pushed); zeros while `keep_volume` is off.
    #[func]
    pub fn get_volume_stats(&self) -> VarDictionary {
        let s = self
            .sim
            .as_ref()
            .map(StrandSim::volume_stats)
            .unwrap_or_default();
        let mut d = VarDictionary::new();
        d.set("pairs", s.pairs as i64);
        d.set("moved", s.moved as i64);
        d
    }

    /// The detail level now: 0 full, 1 half (60 Hz, half the strands
    /// drawn), 2 quarter (30 Hz, a quarter drawn).
    #[func]
    pub fn get_lod_level(&self) -> i32 {
        self.lod_level as i32
    }

    /// The share of the view's height the hair's bounds covered last frame
    /// (1 with no camera; 0 while hidden or off screen).
    #[func]
    pub fn get_screen_coverage(&self) -> f32 {
        self.coverage
    }

    /// Whether the simulation is paused (hidden or off screen, with
    /// `pause_when_hidden`).
    #[func]
    pub fn is_paused(&self) -> bool {
        self.paused_from.is_some()
    }

    /// Clock steps per simulation step now (1 at full detail, 2 at half,
    /// 4 at quarter).
    #[func]
    pub fn get_rate_divisor(&self) -> i32 {
        self.sim.as_ref().map_or(1, |s| s.rate_divisor() as i32)
    }

    /// Simulation steps run since the groom loaded (a paused hair runs
    /// none; a quarter-detail one one in four of the 120 Hz clock's).
    #[func]
    pub fn get_steps_run(&self) -> i64 {
        self.steps_run as i64
    }

    /// Microseconds the last frame spent handing the drawn strands over:
    /// packing the guide texture and its upload when the shader places
    /// them, else placing them on the CPU (part of `get_last_update_usec`;
    /// the ribbon upload of the CPU path is not counted).
    #[func]
    pub fn get_last_interpolation_usec(&self) -> i64 {
        self.follow.as_ref().map_or(0, |f| f.last_usec() as i64)
    }

    /// Largest relative segment length error of the drawn strands as the
    /// last frame placed them, against their guides' groom lengths (0
    /// while every other simulated strand is drawn at a lower detail).
    #[func]
    pub fn render_max_length_error(&self) -> f32 {
        self.follow
            .as_ref()
            .map_or(0.0, FollowRender::max_length_error)
    }

    /// Sets the root colour of the built-in hair material.
    #[func]
    pub fn set_root_color(&mut self, color: Color) {
        self.root_color = color;
        self.apply_colors();
    }

    /// Sets the tip colour of the built-in hair material.
    #[func]
    pub fn set_tip_color(&mut self, color: Color) {
        self.tip_color = color;
        self.apply_colors();
    }

    /// Sets the strands' material (empty: the built-in hair material).
    #[func]
    pub fn set_material(&mut self, material: Option<Gd<Material>>) {
        if let Some(m) = material.as_ref().filter(|m| !m.is_class("ShaderMaterial")) {
            // Both vertices of a particle sit at the same point: only a
            // shader that opens the ribbon (as hair_ribbon.gdshader does)
            // draws anything.
            godot_warn!(
                "TressStrandHair '{}': material is a {}, not a ShaderMaterial; the ribbons \
                 have no width without a ribbon shader (see hair_ribbon.gdshader)",
                self.base().get_name(),
                m.get_class()
            );
        }
        self.material = material;
        self.material_copy = None;
        let sim_shape = self.sim.as_ref().map(|s| s.layout().particles());
        match (self.follow.as_ref(), sim_shape) {
            // The mesh layout depends on whether the shader places the
            // render strands: build it again for the new material.
            (Some(f), Some(m)) => {
                let renders = f.renders();
                self.build_mesh(renders, m);
                self.upload();
            }
            _ => self.apply_material(),
        }
    }

    /// The material the strands are drawn with now: `material` (this node's
    /// copy of it while its shader places the render strands), or the
    /// built-in one (null before a groom has loaded).
    #[func]
    pub fn get_active_material(&self) -> Option<Gd<Material>> {
        self.drawn_material()
    }

    /// Whether the render strands are placed by the hair shader from the
    /// guide texture (with the built-in material, or one whose shader has
    /// its `guide_points` uniform); false when they are placed on the CPU
    /// and uploaded.
    #[func]
    pub fn places_strands_in_shader(&self) -> bool {
        self.from_guides
    }

    /// Turns the simulation in the editor on or off; off puts the strands
    /// back at their groomed pose (no effect in a running game).
    #[func]
    pub fn set_simulate_in_editor(&mut self, on: bool) {
        self.simulate_in_editor = on;
        if !on && Engine::singleton().is_editor_hint() {
            self.reset();
            self.upload();
        }
    }

    /// Puts every strand back at its groomed pose (carried by the
    /// skeleton's current pose when skinned).
    #[func]
    pub fn reset(&mut self) {
        let pose = self.attachment_pose().unwrap_or(Pose::IDENTITY);
        if let Some(sim) = self.sim.as_mut() {
            sim.reset(pose);
            sim.set_rate_divisor(1u32 << self.lod_level);
            if let Some(bones) = self.skin.as_mut().and_then(|k| k.current_poses(sim))
                && let Err(e) = sim.reset_skinned(bones)
            {
                godot_error!("TressStrandHair: skinning: {e}");
            }
        }
        self.last_pose = Some(pose);
        // Paused, the strands now wait at this pose.
        self.paused_from = self.paused_from.map(|_| pose);
    }

    /// Advances the hair by one frame of `delta` seconds as `_process`
    /// does, for a node whose processing is off and that its owner steps
    /// (from `_physics_process`, or a test that wants exact frame times).
    #[func]
    pub fn step_frame(&mut self, delta: f64) {
        self.advance_frame(delta);
    }

    /// Sets the `.tfxbone` file (the groom reloads at the next frame).
    #[func]
    pub fn set_bones_path(&mut self, path: GString) {
        self.bones_path = path;
        self.reload_pending = self.sim.is_some();
    }

    /// Sets the skeleton that skins the roots (the groom reloads at the
    /// next frame).
    #[func]
    pub fn set_skeleton_path(&mut self, path: NodePath) {
        self.skeleton_path = path;
        self.reload_pending = self.sim.is_some();
    }

    /// Turns skinning on or off (the groom reloads at the next frame).
    #[func]
    pub fn set_use_skinning(&mut self, on: bool) {
        self.use_skinning = on;
        self.reload_pending = self.sim.is_some();
    }

    /// Whether a skeleton skins the roots now.
    #[func]
    pub fn is_skinned(&self) -> bool {
        self.skin.as_ref().is_some_and(StrandSkin::is_bound)
            && self.sim.as_ref().is_some_and(StrandSim::is_skinned)
    }

    /// Where strand `strand`'s root was skinned to for the last step
    /// (`Σ wᵢ Mᵢ p`), or the zero vector when not skinned.
    #[func]
    pub fn get_skinned_root(&self, strand: i32) -> Vector3 {
        let at = usize::try_from(strand).ok();
        at.and_then(|s| self.sim.as_ref()?.skinned_root(s))
            .map_or(Vector3::ZERO, vector3)
    }

    /// Strand `strand`'s root weights from the `.tfxbone` (bone name →
    /// weight, normalised), in the simulated strands' order; empty without
    /// skinning data.
    #[func]
    pub fn get_root_weights(&self, strand: i32) -> VarDictionary {
        let mut out = VarDictionary::new();
        let weights = usize::try_from(strand)
            .ok()
            .and_then(|s| self.skin.as_ref()?.root_weights(s));
        // A bone listed twice for one strand counts with both weights.
        for (name, w) in weights.unwrap_or_default() {
            let before = out
                .get(name)
                .and_then(|v| v.try_to::<f32>().ok())
                .unwrap_or(0.0);
            out.set(name, before + w);
        }
        out
    }

    /// The bone names of the loaded `.tfxbone` (empty without one).
    #[func]
    pub fn get_skin_bone_names(&self) -> PackedStringArray {
        let mut out = PackedStringArray::new();
        for n in self.skin.as_ref().map_or(&[][..], |k| k.bone_names()) {
            out.push(n.as_str());
        }
        out
    }

    /// The bone names of a `.tfxbone` file, in file order (empty, with an
    /// error naming the file, when it cannot be read): for building a
    /// skeleton for a groom that ships without one.
    #[func]
    pub fn read_tfxbone_names(path: GString) -> PackedStringArray {
        let file = path.to_string();
        let read = crate::files::read(&file).and_then(|b| {
            tress_rig::groom::tfxbone::read_tfxbone(b.as_slice()).map_err(|e| e.to_string())
        });
        let mut out = PackedStringArray::new();
        match read {
            Ok(t) => {
                for n in &t.bones {
                    out.push(n.as_str());
                }
            }
            Err(e) => godot_error!("TressStrandHair: cannot read '{file}': {e}"),
        }
        out
    }

    /// The body a TressFX groom was made on (a `.tfxmesh`, e.g.
    /// `Ratboy_body.tfxmesh` beside `Ratboy_mohawk.tfx`) as a
    /// `MeshInstance3D`, placed as the groom is (`groom_origin`, the unit
    /// scale the loaded groom uses) and, when the roots are skinned, with
    /// a `Skin` binding the file's bones by name to the same skeleton: add
    /// it under that `Skeleton3D` (its skeleton path is `..`) and it moves
    /// with the bones the hair follows. Unskinned, add it beside the hair.
    /// Null, with an error naming the file and why, when the file cannot be
    /// read or a bone its vertices weigh is not in the skeleton.
    #[func]
    pub fn load_body_mesh(&self, path: GString) -> Option<Gd<MeshInstance3D>> {
        let file = path.to_string();
        let mesh = crate::files::read(&file)
            .and_then(|b| String::from_utf8(b.to_vec()).map_err(|_| "not UTF-8 text".to_owned()))
            .and_then(|text| {
                tress_rig::groom::tfxmesh::read_tfxmesh(&text).map_err(|e| e.to_string())
            });
        let mesh = match mesh {
            Ok(m) => m,
            Err(e) => {
                godot_error!("TressStrandHair: cannot read body mesh '{file}': {e}");
                return None;
            }
        };
        let scale = [self.applied_scale, self.unit_scale]
            .into_iter()
            .find(|s| *s > 0.0 && s.is_finite())
            .unwrap_or(1.0);
        let a = crate::body_mesh::body_arrays(&mesh, vec3(self.groom_origin), scale);
        // The skeleton the roots are bound to (none when they are not).
        let skeleton = self.skin.as_ref().and_then(StrandSkin::skeleton);
        let mut arrays = VarArray::new();
        arrays.resize(ArrayType::MAX.ord() as usize, &Variant::nil());
        let verts: PackedVector3Array = a.positions.iter().map(|&p| vector3(p)).collect();
        let normals: PackedVector3Array = a.normals.iter().map(|&n| vector3(n)).collect();
        arrays.set(ArrayType::VERTEX.ord() as usize, &verts.to_variant());
        arrays.set(ArrayType::NORMAL.ord() as usize, &normals.to_variant());
        arrays.set(
            ArrayType::INDEX.ord() as usize,
            &PackedInt32Array::from(a.indices.as_slice()).to_variant(),
        );
        let mut skin = None;
        if let Some(skel) = &skeleton {
            // Binds in the file's bone order, each the inverse of its
            // skeleton bone's rest: no motion at the rest pose, as for the
            // roots (strand_skin.rs).
            let mut binds = godot::classes::Skin::new_gd();
            let mut missing = Vec::new();
            for (i, name) in mesh.bones.iter().enumerate() {
                let bone = skel.find_bone(name.as_str());
                if bone >= 0 {
                    binds.add_named_bind(
                        name.as_str(),
                        skel.get_bone_global_rest(bone).affine_inverse(),
                    );
                } else {
                    // No vertex may weigh it; an unused bind stays valid.
                    let mut weighs = a.bones.iter().zip(&a.weights);
                    if weighs.any(|(b, w)| *b as usize == i && *w > 0.0) {
                        missing.push(name.as_str());
                    }
                    binds.add_bind(0, Transform3D::IDENTITY);
                }
            }
            if !missing.is_empty() {
                godot_error!(
                    "TressStrandHair: body mesh '{file}': the skeleton has no bone {} (weighted in the mesh)",
                    missing.join(", ")
                );
                return None;
            }
            arrays.set(
                ArrayType::BONES.ord() as usize,
                &PackedInt32Array::from(a.bones.as_slice()).to_variant(),
            );
            arrays.set(
                ArrayType::WEIGHTS.ord() as usize,
                &PackedFloat32Array::from(a.weights.as_slice()).to_variant(),
            );
            skin = Some(binds);
        }
        let mut surface = ArrayMesh::new_gd();
        surface.add_surface_from_arrays(PrimitiveType::TRIANGLES, &arrays);
        let mut node = MeshInstance3D::new_alloc();
        node.set_name(file.rsplit(['/', '\\']).next().unwrap_or("body"));
        node.set_mesh(&surface);
        if let Some(s) = skin {
            node.set_skin(&s);
        }
        Some(node)
    }

    /// The skeleton that skins the roots: `skeleton_path`, else the
    /// attachment when it is a Skeleton3D.
    fn skinning_skeleton(&self) -> Option<Gd<Skeleton3D>> {
        if self.skeleton_path.is_empty() {
            self.attachment_node()?.try_cast::<Skeleton3D>().ok()
        } else {
            let s = self
                .base()
                .try_get_node_as::<Skeleton3D>(&self.skeleton_path);
            if s.is_none() {
                godot_error!(
                    "TressStrandHair '{}': skeleton_path '{}' is not a Skeleton3D",
                    self.base().get_name(),
                    self.skeleton_path
                );
            }
            s
        }
    }

    /// Binds the loaded skinning to the skeleton, when both are there. A
    /// `.tfxbone` found beside the groom with no skeleton to read is
    /// normal (the groom used as a rigid hat); one set in `bones_path` is
    /// a warning.
    fn bind_skin(&mut self) {
        if self.skin.is_none() {
            return;
        }
        let skeleton = self.skinning_skeleton();
        let name = self.base().get_name();
        let explicit = !self.bones_path.is_empty();
        let (Some(skin), Some(sim)) = (self.skin.as_mut(), self.sim.as_mut()) else {
            return;
        };
        match skeleton {
            Some(skel) => {
                skin.bind(skel, sim);
            }
            None if explicit => godot_warn!(
                "TressStrandHair '{name}': '{}' has skinning but no Skeleton3D to read (set \
                 skeleton_path or put the node under one); roots follow the attachment rigidly",
                skin.path
            ),
            None => {}
        }
    }

    /// Simulated strands.
    #[func]
    pub fn strand_count(&self) -> i32 {
        self.sim.as_ref().map_or(0, |s| s.layout().strands() as i32)
    }

    /// Free particles (all but roots) more than `depth` metres inside any
    /// collider of the last step.
    #[func]
    pub fn count_penetrations(&mut self, depth: f32) -> i32 {
        self.sim
            .as_mut()
            .map_or(0, |s| s.penetrations(depth) as i32)
    }

    /// Particles (free ones) more than `depth` inside a sphere, whatever the
    /// node's own collider settings: lets a test check the baseline too.
    #[func]
    pub fn count_inside_sphere(&self, centre: Vector3, radius: f32, depth: f32) -> i32 {
        let Some(sim) = self.sim.as_ref() else {
            return 0;
        };
        let (c, m) = (vec3(centre), sim.layout().particles());
        let mut n = 0;
        for s in 0..sim.layout().strands() {
            for p in 1..m {
                if (sim.point(s, p) - c).length() < radius - depth {
                    n += 1;
                }
            }
        }
        n
    }

    /// Largest relative segment length error now.
    #[func]
    pub fn max_length_error(&mut self) -> f32 {
        self.sim.as_mut().map_or(0.0, |s| s.length_error().max)
    }

    /// Microseconds the last update (simulation and upload) took.
    #[func]
    pub fn get_last_update_usec(&self) -> i64 {
        self.last_update_usec as i64
    }

    /// Current position of one particle.
    #[func]
    pub fn get_particle(&self, strand: i32, particle: i32) -> Vector3 {
        match self.sim.as_ref() {
            Some(s)
                if strand >= 0
                    && particle >= 0
                    && (strand as usize) < s.layout().strands()
                    && (particle as usize) < s.layout().particles() =>
            {
                vector3(s.point(strand as usize, particle as usize))
            }
            _ => Vector3::ZERO,
        }
    }

    /// Reads the groom's `.tfxsim` (the set one, else `NAME.tfxsim` beside
    /// `groom_file`) into the node's shape and damping values. A missing
    /// file beside the groom is normal; a set file that cannot be read or
    /// parsed is an error naming it, and the node's own values stay.
    fn apply_groom_settings(&mut self, groom_file: &str, project: Option<&GroomProject>) {
        self.applied_settings = GString::new();
        if !self.use_groom_settings {
            return;
        }
        let (path, explicit) = if self.settings_path.is_empty() {
            (tress_rig::groom::tfxsim::sibling_tfxsim(groom_file), false)
        } else {
            (self.settings_path.to_string(), true)
        };
        if !explicit && !crate::files::exists(&path) {
            return;
        }
        let sim = crate::files::read(&path).and_then(|b| {
            tress_rig::groom::tfxsim::read_tfxsim(b.as_slice()).map_err(|e| e.to_string())
        });
        let sim = match sim {
            Ok(s) => s,
            Err(e) => {
                godot_error!(
                    "TressStrandHair: cannot use settings '{path}': {e}; keeping the node's values"
                );
                return;
            }
        };
        for (line, key) in &sim.ignored {
            godot_warn!("TressStrandHair: '{path}' line {line}: `{key}` is not used");
        }
        let iterations = if self.settings_local_iterations > 0 {
            self.settings_local_iterations.min(16) as u32
        } else {
            project
                .and_then(|(p, _)| p.local_iterations)
                .map_or(1, |n| n.min(16))
        };
        let p = sim.apply(
            StrandParams {
                damping: self.damping,
                global_stiffness: self.global_stiffness,
                global_range: self.global_range,
                local_stiffness: self.local_stiffness,
                ..StrandParams::default()
            },
            iterations,
        );
        self.damping = p.damping;
        self.global_stiffness = p.global_stiffness;
        self.global_range = p.global_range;
        self.local_stiffness = p.local_stiffness;
        self.applied_settings = GString::from(path.as_str());
    }

    fn params(&self) -> StrandParams {
        let mut p = if self.shape_constraints {
            StrandParams::default()
        } else {
            StrandParams::baseline()
        };
        if self.shape_constraints {
            // A groom's own settings are taken as they are; our defaults
            // are stiffened for short segments.
            let k = if self.stiffen_short_strands && self.applied_settings.is_empty() {
                self.short_segment_factor.max(1.0)
            } else {
                1.0
            };
            p.global_stiffness = (self.global_stiffness * k).clamp(0.0, 1.0);
            p.local_stiffness = (self.local_stiffness * k).clamp(0.0, 1.0);
            p.global_range = self.global_range.clamp(0.0, 1.0);
        }
        p.damping = self.damping.max(0.0);
        p.gravity = vec3(self.gravity);
        let length = self.length_iterations.clamp(1, 4) as u8;
        p.passes = PassCounts {
            length,
            collision: if self.collisions {
                p.passes.collision.max(1)
            } else {
                0
            },
            ..p.passes
        };
        if !self.collisions {
            p.collide_in_length = false;
        }
        p
    }

    fn attachment_node(&self) -> Option<Gd<Node3D>> {
        if self.attach_to.is_empty() {
            self.base().get_parent()?.try_cast::<Node3D>().ok()
        } else {
            self.base().try_get_node_as::<Node3D>(&self.attach_to)
        }
    }

    fn attachment_pose(&self) -> Option<Pose> {
        let (pose, _) = pose_and_scale(&self.attachment_node()?.get_global_transform());
        Some(pose)
    }

    /// Reads the `CollisionShape3D` children. Those under the attachment
    /// move with the head and are given in its frame, so they follow it at
    /// every substep; the others are posed once per frame in world space.
    fn collect_colliders(&mut self) {
        self.colliders.clear();
        self.head_colliders.clear();
        if !self.collisions {
            return;
        }
        let attachment = self.attachment_node();
        let att_inv = attachment
            .as_ref()
            .map(|n| n.get_global_transform().affine_inverse());
        for child in self.base().get_children().iter_shared() {
            let Ok(cs) = child.try_cast::<CollisionShape3D>() else {
                continue;
            };
            if cs.is_disabled() {
                continue;
            }
            let shape = cs.get_shape();
            // (axis start, axis end, radius) in the shape's own frame.
            let (a, b, r) = if let Some(s) = shape
                .clone()
                .and_then(|s| s.try_cast::<SphereShape3D>().ok())
            {
                (Vector3::ZERO, Vector3::ZERO, s.get_radius())
            } else if let Some(c) = shape.and_then(|s| s.try_cast::<CapsuleShape3D>().ok()) {
                // Godot capsules run along local Y; height includes the caps.
                let half = (c.get_height() * 0.5 - c.get_radius()).max(0.0);
                (
                    Vector3::new(0.0, -half, 0.0),
                    Vector3::new(0.0, half, 0.0),
                    c.get_radius(),
                )
            } else {
                continue;
            };
            let shape_xf = cs.get_global_transform();
            let under_head = attachment.as_ref().is_some_and(|n| n.is_ancestor_of(&cs));
            let (xf, list_len) = match (under_head, att_inv) {
                (true, Some(inv)) => (inv * shape_xf, self.head_colliders.len()),
                _ => (shape_xf, self.colliders.len()),
            };
            if list_len + 1 > tress_core::strand::MAX_COLLIDERS {
                continue;
            }
            let (_, scale) = pose_and_scale(&xf);
            let collider = if a == b {
                Collider::sphere(vec3(xf * a), r * scale)
            } else {
                Collider::capsule(vec3(xf * a), vec3(xf * b), r * scale)
            };
            if under_head && att_inv.is_some() {
                self.head_colliders.push(collider);
            } else {
                self.colliders.push(collider.posed(
                    Vec3::ZERO,
                    tress_core::math::Quat::IDENTITY,
                    1.0,
                ));
            }
        }
    }

    /// Builds the ribbon mesh: two vertices per particle, two triangles per
    /// segment; UV.x the side, UV.y the position along the strand, UV2.x the
    /// strand's random number (for the shader's strand-to-strand variation).
    fn build_mesh(&mut self, strands: usize, m: usize) {
        self.from_guides = self.follow.as_ref().is_some_and(FollowRender::fits_texture)
            && self.shader_places_strands();
        let n = strands * m * 2;
        let mut verts = PackedVector3Array::new();
        let mut uvs = PackedVector2Array::new();
        let mut uv2s = PackedVector2Array::new();
        let mut custom = PackedFloat32Array::new();
        let mut indices = PackedInt32Array::new();
        let guides = self.follow.as_ref().filter(|_| self.from_guides);
        for s in 0..strands {
            // On the GPU path the vertex holds the strand's offset in its
            // guide's root frame and CUSTOM0 where the guide's texels are.
            let copy = guides.map(|f| {
                let (g, o) = f.copy_of(s);
                (Vector3::new(o[0], o[1], o[2]), f.guide_texel(g) as f32)
            });
            for p in 0..m {
                let along = p as f32 / (m - 1) as f32;
                let (at, extra) = match copy {
                    Some((offset, texel)) => (offset, [texel, p as f32, m as f32]),
                    None => (
                        vector3(self.points.get(s * m + p).copied().unwrap_or_default()),
                        [0.0, 1.0, 0.0],
                    ),
                };
                for side in [-1.0f32, 1.0] {
                    verts.push(at);
                    uvs.push(Vector2::new(side, along));
                    uv2s.push(Vector2::new(strand_shading::strand_random(s), 0.0));
                    custom.extend(extra);
                }
                if p + 1 < m {
                    let a = ((s * m + p) * 2) as i32;
                    indices.extend([a, a + 1, a + 2, a + 1, a + 3, a + 2]);
                }
            }
        }
        let mut arrays = VarArray::new();
        arrays.resize(ArrayType::MAX.ord() as usize, &Variant::nil());
        arrays.set(ArrayType::VERTEX.ord() as usize, &verts.to_variant());
        arrays.set(ArrayType::TEX_UV.ord() as usize, &uvs.to_variant());
        arrays.set(ArrayType::TEX_UV2.ord() as usize, &uv2s.to_variant());
        arrays.set(ArrayType::CUSTOM0.ord() as usize, &custom.to_variant());
        arrays.set(ArrayType::INDEX.ord() as usize, &indices.to_variant());
        let custom_fmt =
            (ArrayCustomFormat::RGB_FLOAT.ord() as u64) << ArrayFormat::CUSTOM0_SHIFT.ord();
        let flags = ArrayFormat::from_ord(ArrayFormat::FLAG_USE_DYNAMIC_UPDATE.ord() | custom_fmt);
        let mut mesh = ArrayMesh::new_gd();
        mesh.add_surface_from_arrays_ex(PrimitiveType::TRIANGLES, &arrays)
            .flags(flags)
            .done();
        let fmt = RsArrayFormat::from_ord(mesh.surface_get_format(0).ord());
        let rs = RenderingServer::singleton();
        let vc = n as i32;
        self.layout = BufferLayout {
            vertex_stride: rs.mesh_surface_get_format_vertex_stride(fmt, vc) as usize,
            attr_stride: rs.mesh_surface_get_format_attribute_stride(fmt, vc) as usize,
            custom0: rs.mesh_surface_get_format_offset(fmt, vc, ArrayType::CUSTOM0.ord()) as usize,
        };
        let uv_off = rs.mesh_surface_get_format_offset(fmt, vc, ArrayType::TEX_UV.ord()) as usize;
        let uv2_off = rs.mesh_surface_get_format_offset(fmt, vc, ArrayType::TEX_UV2.ord()) as usize;
        self.vertex_bytes.resize(n * self.layout.vertex_stride);
        self.attr_bytes.resize(n * self.layout.attr_stride);
        // UVs never change: write them once into the attribute buffer copy.
        let a = self.attr_bytes.as_mut_slice();
        for i in 0..n {
            let side: f32 = if i % 2 == 0 { -1.0 } else { 1.0 };
            let along = ((i / 2) % m) as f32 / (m - 1) as f32;
            let o = i * self.layout.attr_stride + uv_off;
            a[o..o + 4].copy_from_slice(&side.to_le_bytes());
            a[o + 4..o + 8].copy_from_slice(&along.to_le_bytes());
            let o = i * self.layout.attr_stride + uv2_off;
            let r = strand_shading::strand_random(i / (2 * m));
            a[o..o + 4].copy_from_slice(&r.to_le_bytes());
            a[o + 4..o + 8].copy_from_slice(&0.0f32.to_le_bytes());
        }
        // A ribbon node freed from outside is made again (and never
        // called: release builds skip gdext's liveness checks).
        let mut instance = match self
            .instance
            .as_ref()
            .filter(|i| i.is_instance_valid())
            .cloned()
        {
            Some(i) => i,
            None => {
                let mut i = MeshInstance3D::new_alloc();
                // Vertices are in world space: ignore the parent transforms.
                i.set_as_top_level(true);
                i.set_global_transform(Transform3D::IDENTITY);
                // Internal and ownerless: the editor neither lists nor saves
                // it, and get_children() (the collider scan) skips it.
                self.base_mut()
                    .add_child_ex(&i)
                    .internal(InternalMode::FRONT)
                    .done();
                self.instance = Some(i.clone());
                i
            }
        };
        instance.set_mesh(&mesh);
        instance.set_custom_aabb(Aabb::new(Vector3::splat(-50.0), Vector3::splat(100.0)));
        self.apply_material();
        self.mesh = Some(mesh);
    }

    /// Writes positions and tangents into the GPU buffers (no allocation).
    fn upload(&mut self) {
        if self.from_guides {
            let mat = self.drawn_shader_material();
            if let (Some(f), Some(pose), Some(mut mat), Some(sim)) =
                (self.follow.as_mut(), self.last_pose, mat, self.sim.as_mut())
                && let Some(texture) = f.write_texture(sim, &pose)
            {
                strand_shading::set_guides(&mut mat, &texture, strand_follow::TEXTURE_WIDTH);
            }
            return;
        }
        let (Some(sim), Some(mesh)) = (self.sim.as_ref(), self.mesh.as_ref()) else {
            return;
        };
        match (self.follow.as_mut(), self.last_pose) {
            (Some(f), Some(pose)) => f.write_points(sim, &pose, &mut self.points),
            _ => write_strided(sim, self.draw_stride, &mut self.points),
        }
        let m = sim.layout().particles();
        let lay = self.layout;
        let v = self.vertex_bytes.as_mut_slice();
        let a = self.attr_bytes.as_mut_slice();
        for (j, p) in self.points.iter().enumerate() {
            let k = j % m;
            let prev = if k > 0 { self.points[j - 1] } else { *p };
            let next = if k + 1 < m { self.points[j + 1] } else { *p };
            let t = (next - prev).normalize_or(Vec3::Y);
            for side in 0..2 {
                let i = j * 2 + side;
                let o = i * lay.vertex_stride;
                write3(&mut v[o..o + 12], *p);
                let o = i * lay.attr_stride + lay.custom0;
                write3(&mut a[o..o + 12], t);
            }
        }
        let mut rs = RenderingServer::singleton();
        let rid = mesh.get_rid();
        rs.mesh_surface_update_vertex_region(rid, 0, 0, &self.vertex_bytes);
        rs.mesh_surface_update_attribute_region(rid, 0, 0, &self.attr_bytes);
    }
}

impl TressStrandHair {
    /// One frame: colliders read, the strands stepped (skinned or carried
    /// by the attachment), the ribbons uploaded.
    fn advance_frame(&mut self, delta: f64) {
        let start = Time::singleton().get_ticks_usec();
        let Some(pose) = self.attachment_pose() else {
            return;
        };
        if self.sim.is_none() {
            return;
        }
        let view = self.view(&pose);
        if self.pause_when_hidden && !matches!(view, View::OnScreen(_)) {
            if self.paused_from.is_none() {
                self.paused_from = Some(self.last_pose.unwrap_or(pose));
            }
            self.coverage = 0.0;
            self.last_update_usec = Time::singleton().get_ticks_usec() - start;
            return;
        }
        if let Some(from) = self.paused_from.take() {
            self.resume(from, pose);
        }
        self.coverage = match view {
            View::OnScreen(c) => c,
            View::Hidden | View::OffScreen => 0.0,
        };
        let level = if self.lod_enabled {
            strand_lod::level_for(
                self.coverage,
                self.lod_level,
                self.lod_half_coverage,
                self.lod_quarter_coverage,
            )
        } else {
            0
        };
        self.set_lod_level(level);
        self.collect_colliders();
        let params = self.params();
        let prev = self.last_pose.unwrap_or(pose);
        let Some(sim) = self.sim.as_mut() else {
            return;
        };
        sim.set_params(params);
        // `threads` may change between frames (the inspector, the bench).
        let threads = self.threads.max(1) as usize;
        if sim.threads() != threads {
            sim.set_threads(threads);
        }
        sim.set_world_colliders(&self.colliders);
        sim.set_head_colliders(&self.head_colliders);
        let skinned = self.skin.as_mut().and_then(|k| k.current_poses(sim));
        match skinned {
            Some(bones) => match sim.advance_skinned(delta as f32, pose, bones) {
                Ok(n) => self.steps_run += u64::from(n),
                Err(e) => godot_error!("TressStrandHair: skinning: {e}"),
            },
            None => {
                let n = sim.advance(delta as f32, |_, t| prev.interpolate(&pose, t));
                self.steps_run += u64::from(n);
            }
        }
        self.last_pose = Some(pose);
        self.upload();
        self.update_volume(&pose);
        self.last_update_usec = Time::singleton().get_ticks_usec() - start;
    }
}

/// Shading: which material the ribbons use and what it is told each frame.
impl TressStrandHair {
    /// Puts `material` (or the built-in hair material, made on first use)
    /// on the ribbons.
    fn apply_material(&mut self) {
        let Some(mut instance) = self.instance.clone().filter(|i| i.is_instance_valid()) else {
            return;
        };
        if self.material.is_none() && self.default_material.is_none() {
            let (root, tip) = (self.root_color, self.tip_color);
            self.default_material = Some(strand_shading::default_material(root, tip));
        }
        let Some(mat) = self.drawn_material() else {
            return;
        };
        instance.set_material_override(&mat);
        if !self.from_guides
            && let Ok(mut sm) = mat.try_cast::<ShaderMaterial>()
        {
            strand_shading::clear_guides(&mut sm);
        }
        if let Some(pose) = self.last_pose {
            self.update_volume(&pose);
        }
    }

    fn apply_colors(&mut self) {
        if let Some(mat) = self.default_material.as_mut() {
            strand_shading::set_colors(mat, self.root_color, self.tip_color);
        }
    }

    /// Tells the material where the hair volume is (for self-shadowing).
    fn update_volume(&mut self, pose: &Pose) {
        let Some(volume) = self.volume else {
            return;
        };
        if let Some(mut mat) = self.drawn_shader_material() {
            volume.apply(pose, &mut mat);
        }
    }

    /// The material the ribbons are drawn with: `material` (this node's
    /// copy of it while its shader places the strands), else the built-in
    /// one once made.
    fn drawn_material(&self) -> Option<Gd<Material>> {
        match self.material.clone() {
            Some(m) => Some(match self.material_copy.clone() {
                Some(copy) if self.from_guides => copy.upcast(),
                _ => m,
            }),
            None => self.default_material.clone().map(Gd::upcast),
        }
    }

    /// [`Self::drawn_material`] when it is a shader material.
    fn drawn_shader_material(&self) -> Option<Gd<ShaderMaterial>> {
        self.drawn_material()
            .and_then(|m| m.try_cast::<ShaderMaterial>().ok())
    }

    /// Whether the material's shader places render strands from the guide
    /// texture (the built-in one does); for a material of the user's that
    /// does, this node keeps its own copy of it.
    fn shader_places_strands(&mut self) -> bool {
        match self.material.clone() {
            None => true,
            Some(m) => match m.try_cast::<ShaderMaterial>() {
                Ok(sm) if strand_shading::places_from_guides(&sm) => {
                    if self.material_copy.is_none() {
                        self.material_copy = Some(sm.duplicate_resource());
                    }
                    true
                }
                _ => false,
            },
        }
    }
}

/// Level of detail: what is seen, pausing and resuming, the level's
/// step rate and drawn strands.
impl TressStrandHair {
    /// How the camera sees the hair with the attachment at `pose`. The
    /// bounds are the hair volume grown by half: it holds 90 % of the
    /// groom at rest, and swinging hair reaches past it.
    fn view(&self, pose: &Pose) -> View {
        let node = self.base().clone().upcast::<Node3D>();
        match self.volume {
            Some(v) => strand_lod::view_of(
                &node,
                vector3(pose.transform_point(v.centre)),
                v.radius * 1.5,
            ),
            None if node.is_visible_in_tree() => View::OnScreen(1.0),
            None => View::Hidden,
        }
    }

    /// Carries the strands from where the pause left them (`from`) to the
    /// attachment's pose now, and takes that as the last pose, so the
    /// frame's steps do not sweep the roots across the gap.
    fn resume(&mut self, from: Pose, to: Pose) {
        let Some(sim) = self.sim.as_mut() else {
            return;
        };
        match self.skin.as_mut().and_then(|k| k.current_poses(sim)) {
            Some(bones) => {
                if let Err(e) = sim.carry_skinned(from, to, bones) {
                    godot_error!("TressStrandHair: skinning: {e}");
                }
            }
            None => sim.carry(from, to),
        }
        self.last_pose = Some(to);
    }

    /// Moves to detail `level`: its step rate, and its share of strands
    /// drawn (render strands per guide halved per level, else every
    /// second or fourth simulated strand); the ribbon mesh is rebuilt for
    /// the new count. Render strand plans are kept per level once built.
    fn set_lod_level(&mut self, level: u32) {
        let level = level.min(LEVELS - 1);
        if level == self.lod_level {
            return;
        }
        let Some(sim) = self.sim.as_mut() else {
            return;
        };
        sim.set_rate_divisor(1 << level);
        if self.follow_levels.len() < LEVELS as usize {
            self.follow_levels.resize_with(LEVELS as usize, || None);
        }
        self.follow_levels[self.lod_level as usize] = self.follow.take();
        let full = self.applied_ratio.clamp(1, 32);
        let ratio = full >> level;
        self.follow = match self.follow_levels[level as usize].take() {
            Some(f) => Some(f),
            None if ratio >= 1 => match FollowRender::new(sim, ratio) {
                Ok(f) => Some(f),
                Err(e) => {
                    godot_error!("TressStrandHair: no render strands at detail {level} ({e})");
                    None
                }
            },
            None => None,
        };
        self.draw_stride = if self.follow.is_some() {
            1
        } else {
            ((1usize << level) / full).max(1)
        };
        let m = sim.layout().particles();
        let drawn = drawn_strands(self.follow.as_ref(), self.draw_stride, sim);
        self.lod_level = level;
        self.points = vec![Vec3::ZERO; drawn * m];
        self.build_mesh(drawn, m);
    }
}

/// Strands drawn from `sim`: the render strands of `follow`, or every
/// `stride`-th simulated one.
fn drawn_strands(follow: Option<&FollowRender>, stride: usize, sim: &StrandSim) -> usize {
    match follow {
        Some(f) => f.renders(),
        None => sim.layout().strands().div_ceil(stride.max(1)),
    }
}

/// Writes every `stride`-th strand of `sim` strand-major into `out`.
fn write_strided(sim: &StrandSim, stride: usize, out: &mut [Vec3]) {
    if stride <= 1 {
        sim.write_positions(out);
        return;
    }
    let m = sim.layout().particles();
    let strands = sim.layout().strands();
    for (i, strand) in (0..strands).step_by(stride).enumerate() {
        for p in 0..m {
            if let Some(o) = out.get_mut(i * m + p) {
                *o = sim.point(strand, p);
            }
        }
    }
}

fn write3(out: &mut [u8], v: Vec3) {
    out[0..4].copy_from_slice(&v.x.to_le_bytes());
    out[4..8].copy_from_slice(&v.y.to_le_bytes());
    out[8..12].copy_from_slice(&v.z.to_le_bytes());
}

/// The volume pass on `sim` at the defaults for its groom's strand spacing,
/// or off.
fn apply_volume(sim: &mut StrandSim, on: bool) {
    let params = on.then(|| VolumeParams::for_spacing(sim.root_spacing()));
    sim.set_volume(params);
}

/// A groom's TressFX project and the part of it that names the groom.
type GroomProject = (
    tress_rig::groom::tfxsim::TfxProject,
    tress_rig::groom::tfxsim::TfxPart,
);

/// The first `.tfxproj` beside `groom` (sorted by name) whose parts name
/// that file, with the part: its follow hairs and the project's shape
/// iterations are the groom's own settings. A project that cannot be read
/// is passed over with a warning naming it.
fn groom_project(groom: &str) -> Option<GroomProject> {
    let name = groom.rsplit(['/', '\\']).next().unwrap_or(groom);
    crate::files::beside_with_ext(groom, "tfxproj")
        .into_iter()
        .find_map(|proj| {
            let read = crate::files::read(&proj).and_then(|b| {
                tress_rig::groom::tfxsim::read_tfxproj(b.as_slice()).map_err(|e| e.to_string())
            });
            match read {
                Ok(p) => {
                    let part = p.part(name)?.clone();
                    Some((p, part))
                }
                Err(e) => {
                    godot_warn!("TressStrandHair: passing over project '{proj}': {e}");
                    None
                }
            }
        })
}
