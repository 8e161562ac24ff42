//! Grooms as `tress groom` reads them: a `.tfx`, OBJ polylines, a TressFX
//! project (`.tfxproj`, every part with its `.tfxsim`) or the procedural
//! groom, brought to metres with the settings and colliders found beside
//! it; then inspected ([`inspect`]) or simulated and measured ([`quality`]).

pub mod inspect;
#[cfg(feature = "plot")]
pub mod plot;
pub mod quality;

use std::path::{Path, PathBuf};

use glam::{Quat, Vec3};
use tress_core::collide::{Collider, WorldCollider};
use tress_core::strand::StrandParams;
use tress_rig::groom::tfxsim::{self, DEFAULT_LOCAL_ITERATIONS, TfxProject};
use tress_rig::groom::{Groom, ProceduralGroom, load_any_with_warnings, tfx};

/// The name that stands for the built-in procedural groom.
pub const PROCEDURAL: &str = "procedural";
/// The built-in short fur: the procedural groom's scalp with 4-point
/// strands 1.5 cm long growing straight out (no droop), the case where
/// long-hair defaults flatten fur.
pub const PROCEDURAL_FUR: &str = "procedural-fur";

/// The procedural grooms by name.
#[must_use]
pub fn procedural(spec: &str) -> Option<ProceduralGroom> {
    match spec {
        PROCEDURAL => Some(ProceduralGroom::default()),
        PROCEDURAL_FUR => Some(ProceduralGroom {
            particles: 4,
            length: 0.015,
            droop: 0.0,
            ..ProceduralGroom::default()
        }),
        _ => None,
    }
}

/// One simulated part: its strands in metres and its parameters.
#[derive(Debug, Clone)]
pub struct Part {
    /// The part's name (its file, or `procedural`).
    pub name: String,
    /// Strands, metres, the file's axes.
    pub groom: Groom,
    /// Solver parameters: ours, with the part's `.tfxsim` mapped over them.
    pub params: StrandParams,
    /// Where the parameters came from (`tail.tfxsim (local iterations 3,
    /// from ponytail.tfxproj)`, or `defaults`).
    pub settings: String,
    /// Strands the reader skipped as degenerate.
    pub skipped: usize,
    /// The parameters came from the groom's `.tfxsim` (else they are our
    /// defaults, stiffened for short segments when simulated).
    pub from_file: bool,
    /// Vertices per strand in the file (TressFX), else `None`.
    pub file_vertices: Option<usize>,
    /// Follow hairs per guide a `.tfxproj` gives the part (0: none, or no
    /// project): TressFX draws this many more strands around each one.
    pub follow: u32,
}

/// A groom ready to inspect or simulate.
#[derive(Debug, Clone)]
pub struct LoadedGroom {
    /// What was asked for.
    pub file: String,
    /// The format (`TressFX 4`, `TressFX 3`, `OBJ`, `TressFX project`, `procedural`).
    pub format: String,
    /// Metres per file unit.
    pub scale: f32,
    /// How the scale was chosen (`detected: centimetres`, `--scale`).
    pub units: String,
    /// The parts (one for a single file).
    pub parts: Vec<Part>,
    /// Head colliders in metres, in the groom's frame (project spheres, the
    /// procedural head); empty when the groom brings none.
    pub colliders: Vec<Collider>,
    /// Colliders that stay still in the world (the procedural scene's neck
    /// and shoulders), metres.
    pub world: Vec<WorldCollider>,
    /// The head the motion turns about: the colliders' first sphere or the
    /// procedural head, else the roots' centroid.
    pub pivot: Vec3,
    /// What was found and used or passed over, for the report.
    pub notes: Vec<String>,
}

impl LoadedGroom {
    /// Every part's strands together.
    #[must_use]
    pub fn combined(&self) -> Groom {
        let mut all = Groom::new();
        for p in &self.parts {
            for s in p.groom.strands() {
                all.push_strand(s);
            }
        }
        all
    }
}

fn read(path: &Path) -> Result<Vec<u8>, String> {
    std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))
}

fn has_ext(path: &Path, ext: &str) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case(ext))
}

/// The first `.tfxproj` in `dir` whose parts name `file`.
fn project_listing(dir: &Path, file: &str) -> Option<(PathBuf, TfxProject)> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| has_ext(p, "tfxproj"))
        .collect();
    entries.sort();
    entries.into_iter().find_map(|p| {
        let proj = tfxsim::read_tfxproj(&std::fs::read(&p).ok()?).ok()?;
        proj.part(file).is_some().then_some((p, proj))
    })
}

/// Reads one groom file with the settings named for it (by a project, else
/// `NAME.tfxsim` beside it).
fn read_part(
    path: &Path,
    sim_name: Option<&str>,
    project: Option<(&Path, &TfxProject)>,
    notes: &mut Vec<String>,
) -> Result<Part, String> {
    let bytes = read(path)?;
    let name = path.display().to_string();
    let (groom, warnings) = load_any_with_warnings(path).map_err(|e| format!("{name}: {e}"))?;
    let file_vertices = if has_ext(path, "obj") {
        None
    } else {
        tfx::read_tfx(&bytes).ok().map(|t| t.vertices_per_strand)
    };
    let dir = path.parent().unwrap_or(Path::new("."));
    let sim_path = match sim_name {
        Some(s) => Some(dir.join(s)),
        None => Some(PathBuf::from(tfxsim::sibling_tfxsim(&name))).filter(|p| p.exists()),
    };
    let iterations = project
        .and_then(|(_, p)| p.local_iterations)
        .unwrap_or(DEFAULT_LOCAL_ITERATIONS);
    let follow = project
        .and_then(|(_, p)| p.part(&file_name(path)))
        .map_or(0, |q| q.follow);
    let from_file = sim_path.is_some();
    let (params, settings) = match sim_path {
        Some(sp) => {
            let sim = tfxsim::load_tfxsim(&sp).map_err(|e| format!("{}: {e}", sp.display()))?;
            for (line, key) in &sim.ignored {
                notes.push(format!("{}: line {line}: `{key}` not used", sp.display()));
            }
            let from = project.map_or_else(
                || "TressFX default".to_owned(),
                |(pp, _)| format!("from {}", file_name(pp)),
            );
            (
                sim.apply(StrandParams::default(), iterations),
                format!("{} (local iterations {iterations}, {from})", file_name(&sp)),
            )
        }
        None => (StrandParams::default(), "defaults (no .tfxsim)".to_owned()),
    };
    Ok(Part {
        name: file_name(path),
        groom,
        params,
        settings,
        skipped: warnings.len(),
        from_file,
        file_vertices,
        follow,
    })
}

/// What a TressFX groom's companions beside it hold: `NAME.tfxbone` root
/// weights (summarised by [`tfxbone_notes`]) and `.tfxmesh` collision
/// meshes (read and summarised, not used as colliders).
fn skin_notes(path: &Path, notes: &mut Vec<String>) {
    let bone = path.with_extension("tfxbone");
    if bone.exists() {
        notes.extend(tfxbone_notes(&bone));
    }
    for m in tress_rig::groom::tfxmesh::tfxmesh_beside(path) {
        notes.push(tfxmesh_note(&m));
    }
}

/// A `.tfxbone`'s summary: bones, strands weighted, the most used bones,
/// influences per strand; or the error reading it.
#[must_use]
pub fn tfxbone_notes(bone: &Path) -> Vec<String> {
    let t = match tress_rig::groom::tfxbone::load_tfxbone(bone) {
        Ok(t) => t,
        Err(e) => return vec![format!("{}: {e}", file_name(bone))],
    };
    let used = t.used_bones();
    let top: Vec<String> = used
        .iter()
        .take(5)
        .map(|&(b, n)| format!("{} {n}", t.bones[b]))
        .collect();
    let influences: Vec<usize> = t
        .weights
        .iter()
        .map(|w| w.iter().filter(|p| p.1 > 0.0).count())
        .collect();
    let mean = influences.iter().sum::<usize>() as f64 / influences.len().max(1) as f64;
    let single = influences.iter().filter(|&&n| n == 1).count();
    vec![
        format!(
            "{}: {} bones, root weights for {} strands (TressStrandHair skins the roots from \
             a Skeleton3D with these bone names; no skeleton ships with the groom)",
            file_name(bone),
            t.bones.len(),
            t.weights.len()
        ),
        format!(
            "  {} bones weighted; most used (strands): {}",
            used.len(),
            top.join(", ")
        ),
        format!(
            "  bones per strand: mean {mean:.2}, max {}; {single} strands on one bone",
            influences.iter().max().copied().unwrap_or(0)
        ),
    ]
}

/// A `.tfxmesh`'s summary, or the error reading it.
fn tfxmesh_note(path: &Path) -> String {
    match tress_rig::groom::tfxmesh::load_tfxmesh(path) {
        Ok(m) => {
            let (lo, hi) = m.bounds().unwrap_or_default();
            format!(
                "{}: TressFX collision mesh, {} bones, {} vertices, {} triangles, bounds \
                 ({:.3}, {:.3}, {:.3})..({:.3}, {:.3}, {:.3}) file units (read; not a collider: \
                 the solver collides with spheres, capsules and planes)",
                file_name(path),
                m.bones.len(),
                m.vertices.len(),
                m.triangles.len(),
                lo.x,
                lo.y,
                lo.z,
                hi.x,
                hi.y,
                hi.z
            )
        }
        Err(e) => format!("{}: {e}", file_name(path)),
    }
}

/// Clearance kept between a shrunk sphere and the nearest groomed point (2 mm,
/// the solver's default collision margin).
const CLEARANCE: f32 = 0.002;

/// The TressFX 3 ponytail's project spheres hold a third of its roots and
/// reach 9.5 cm into its groomed strands: a collider the rest pose is
/// inside cannot be honoured (the solver would push the strands out on the
/// first step and stretch the segments from roots left inside). Each
/// sphere is shrunk until the groomed points are `CLEARANCE` outside it
/// (said in a note), and dropped when less than 1 cm is left.
fn clear_of_the_groom(
    colliders: Vec<Collider>,
    parts: &[Part],
    notes: &mut Vec<String>,
) -> Vec<Collider> {
    let mut out = Vec::new();
    for (i, c) in colliders.into_iter().enumerate() {
        let nearest = parts
            .iter()
            .flat_map(|p| p.groom.points())
            .map(|q| (*q - c.offset).length())
            .fold(f32::INFINITY, f32::min);
        if nearest >= c.radius + CLEARANCE {
            out.push(c);
            continue;
        }
        let r = nearest - CLEARANCE;
        if r < 0.01 {
            notes.push(format!(
                "collision sphere {} (radius {:.4} m) dropped: the groomed strands pass {:.4} m from its centre",
                i + 1,
                c.radius,
                nearest
            ));
        } else {
            notes.push(format!(
                "collision sphere {} shrunk from radius {:.4} m to {r:.4} m: the groomed strands reach {:.4} m inside it",
                i + 1,
                c.radius,
                c.radius - nearest
            ));
            out.push(Collider { radius: r, ..c });
        }
    }
    out
}

fn file_name(p: &Path) -> String {
    p.file_name().map_or_else(
        || p.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// Loads `spec`: a groom file, a `.tfxproj`, or [`PROCEDURAL`]. `scale`
/// (metres per unit) overrides the detected units.
///
/// # Errors
/// A message naming the file and what is wrong with it.
pub fn load(spec: &str, scale: Option<f32>) -> Result<LoadedGroom, String> {
    if let Some(s) = scale
        && !(s.is_finite() && s > 0.0)
    {
        return Err(format!(
            "--scale {s}: must be a positive number (metres per unit)"
        ));
    }
    let mut notes = Vec::new();
    let mut world = Vec::new();
    let (format, mut parts, project) = if let Some(g) = procedural(spec) {
        let part = Part {
            name: spec.into(),
            groom: g.generate(),
            params: StrandParams::default(),
            settings: "defaults".into(),
            skipped: 0,
            from_file: false,
            file_vertices: None,
            follow: 0,
        };
        let head = vec![Collider::sphere(g.head_centre, g.head_radius)];
        world = tress_rig::groom::scene::body_colliders(g.head_centre, g.head_radius).to_vec();
        (String::from("procedural"), vec![part], Some((None, head)))
    } else {
        let path = Path::new(spec);
        let dir = path.parent().unwrap_or(Path::new("."));
        if has_ext(path, "tfxproj") {
            let proj = tfxsim::read_tfxproj(&read(path)?).map_err(|e| format!("{spec}: {e}"))?;
            if proj.parts.is_empty() {
                return Err(format!("{spec}: the project names no .tfx part"));
            }
            let mut parts = Vec::new();
            for q in &proj.parts {
                parts.push(read_part(
                    &dir.join(&q.file),
                    q.sim.as_deref(),
                    Some((path, &proj)),
                    &mut notes,
                )?);
            }
            (
                String::from("TressFX project"),
                parts,
                Some((Some(proj), Vec::new())),
            )
        } else {
            let listing = project_listing(dir, &file_name(path));
            let sim = listing
                .as_ref()
                .and_then(|(_, p)| p.part(&file_name(path))?.sim.clone());
            let part = read_part(
                path,
                sim.as_deref(),
                listing.as_ref().map(|(pp, p)| (pp.as_path(), p)),
                &mut notes,
            )?;
            let format = match (
                has_ext(path, "obj"),
                read(path).ok().and_then(|b| tfx::read_tfx(&b).ok()),
            ) {
                (false, Some(t)) => format!("TressFX {}", t.version),
                _ => String::from("OBJ"),
            };
            if let Some((pp, _)) = &listing {
                notes.push(format!("project: {}", file_name(pp)));
            }
            skin_notes(path, &mut notes);
            (
                format,
                vec![part],
                listing.map(|(_, p)| (Some(p), Vec::new())),
            )
        }
    };
    let mut all = Groom::new();
    for p in &parts {
        for s in p.groom.strands() {
            all.push_strand(s);
        }
    }
    let guess = all.guess_units();
    let (scale, units) = match scale {
        Some(s) => (s, format!("{s} m per unit (--scale)")),
        None if procedural(spec).is_some() => (1.0, "metres (built in)".to_owned()),
        None => (
            guess.scale(),
            format!(
                "{} (detected: largest extent {:.3} units; --scale overrides)",
                guess.name(),
                all.bounds().map_or(0.0, |(lo, hi)| (hi - lo).max_element())
            ),
        ),
    };
    for p in &mut parts {
        p.groom = p.groom.transformed(scale, Quat::IDENTITY, Vec3::ZERO);
    }
    let mut colliders: Vec<Collider> = match project {
        Some((Some(proj), _)) => proj
            .spheres
            .iter()
            .map(|[x, y, z, r]| Collider::sphere(Vec3::new(*x, *y, *z) * scale, r * scale))
            .collect(),
        Some((None, head)) => head,
        None => Vec::new(),
    };
    if procedural(spec).is_none() {
        colliders = clear_of_the_groom(colliders, &parts, &mut notes);
    }
    let pivot = match colliders.first() {
        Some(c) => c.offset,
        None => {
            let roots: Vec<Vec3> = parts
                .iter()
                .flat_map(|p| p.groom.strands().map(|s| s[0]))
                .collect();
            roots.iter().copied().sum::<Vec3>() / roots.len().max(1) as f32
        }
    };
    Ok(LoadedGroom {
        file: spec.to_owned(),
        format,
        scale,
        units,
        parts,
        colliders,
        world,
        pivot,
        notes,
    })
}
