//! `tress validate-anim`: every clip of every animation file retargeted onto
//! every avatar, checked, and tabulated.

use core::fmt::Write as _;

use tress_rig::anim::checks::{self, Validity};
use tress_rig::anim::{RetargetOptions, Retargeter};
use tress_vrm::model::Avatar;

/// Clips whose motion is measured against the pass marks (feet within 3 cm
/// of the ground; hands outside the torso in the idle clips).
pub const IDLE_CLIPS: [&str; 1] = ["Idle_Loop"];
/// See [`IDLE_CLIPS`].
pub const WALK_CLIPS: [&str; 1] = ["Walk_Loop"];
/// Largest foot offset from the ground allowed in measured clips, metres.
pub const FOOT_LIMIT: f32 = 0.03;

/// One clip on one avatar.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// Animation file label.
    pub source: String,
    /// Clip name.
    pub clip: String,
    /// Avatar label.
    pub avatar: String,
    /// Frames written (with any loop blend).
    pub frames: usize,
    /// Bone tracks written.
    pub tracks: usize,
    /// `loop` when the clip already loops, `blend` when a blend was added.
    pub looping: &'static str,
    /// What the validation found.
    pub validity: Validity,
    /// Largest foot offset from the ground, metres.
    pub foot: Option<f32>,
    /// Smallest hand clearance from the torso, metres.
    pub hands: Option<f32>,
    /// Whether the foot/hand marks apply to this clip.
    pub measured: bool,
    /// Set when the pair could not be retargeted at all.
    pub error: Option<String>,
}

impl Row {
    /// Whether this row passes: valid, and within the marks when measured.
    #[must_use]
    pub fn passed(&self) -> bool {
        if self.error.is_some() || !self.validity.ok() {
            return false;
        }
        if !self.measured {
            return true;
        }
        let feet = self.foot.is_some_and(|f| f <= FOOT_LIMIT);
        let hands =
            !IDLE_CLIPS.contains(&self.clip.as_str()) || self.hands.is_some_and(|h| h > 0.0);
        feet && hands
    }

    fn problems(&self) -> String {
        if let Some(e) = &self.error {
            return e.clone();
        }
        let v = &self.validity;
        let mut p = Vec::new();
        if !v.missing_required.is_empty() {
            p.push(format!("missing {}", v.missing_required.join(",")));
        }
        if v.non_finite > 0 {
            p.push(format!("{} non-finite", v.non_finite));
        }
        if v.non_unit > 0 {
            p.push(format!("{} non-unit", v.non_unit));
        }
        if v.hair_tracks > 0 {
            p.push(format!("{} hair tracks", v.hair_tracks));
        }
        if self.measured && !self.passed() && p.is_empty() {
            p.push("outside the foot/hand marks".to_owned());
        }
        p.join("; ")
    }
}

/// Runs every clip of every source on every avatar. `progress(done, total,
/// what)` is called before each pair.
pub fn validate_all(
    avatars: &[(String, Avatar)],
    sources: &[(String, Avatar)],
    mut progress: impl FnMut(usize, usize, &str),
) -> Vec<Row> {
    let total: usize = avatars.len()
        * sources
            .iter()
            .map(|(_, s)| s.animations.len())
            .sum::<usize>();
    let mut rows = Vec::with_capacity(total);
    let opts = RetargetOptions::default();
    for (alabel, avatar) in avatars {
        let torso = checks::torso(avatar);
        for (slabel, source) in sources {
            let setup = Retargeter::detect(source, avatar).map_err(|e| e.to_string());
            for anim in &source.animations {
                progress(rows.len(), total, &format!("{} on {alabel}", anim.name));
                let mut row = Row {
                    source: slabel.clone(),
                    clip: anim.name.clone(),
                    avatar: alabel.clone(),
                    frames: 0,
                    tracks: 0,
                    looping: "",
                    validity: Validity::default(),
                    foot: None,
                    hands: None,
                    measured: IDLE_CLIPS.contains(&anim.name.as_str())
                        || WALK_CLIPS.contains(&anim.name.as_str()),
                    error: None,
                };
                match setup.as_ref().map(|r| r.retarget(anim, &opts)) {
                    Err(e) => row.error = Some(e.clone()),
                    Ok(Err(e)) => row.error = Some(e.to_string()),
                    Ok(Ok(clip)) => {
                        row.frames = clip.times.len();
                        row.tracks = clip.tracks.len();
                        row.looping = if clip.loop_blend_added {
                            "blend"
                        } else {
                            "loop"
                        };
                        row.validity = checks::validate(&clip, avatar);
                        let frames = checks::world_frames(&clip, avatar);
                        row.foot = checks::foot_contact(avatar, &frames).map(|f| f.worst);
                        row.hands = torso.and_then(|t| checks::hand_clearance(avatar, &t, &frames));
                    }
                }
                rows.push(row);
            }
        }
    }
    progress(rows.len(), total, "validated clip × avatar pairs");
    rows
}

fn cm(x: Option<f32>) -> String {
    x.map_or_else(|| "-".to_owned(), |v| format!("{:.1}", v * 100.0))
}

/// The table (Markdown) and a summary line.
#[must_use]
pub fn table(rows: &[Row]) -> String {
    let mut s = String::new();
    s.push_str("| avatar | file | clip | frames | tracks | loop | feet cm | hands cm | result |\n");
    s.push_str("|---|---|---|---:|---:|---|---:|---:|---|\n");
    for r in rows {
        let result = if r.passed() {
            if r.measured {
                "pass (measured)".to_owned()
            } else {
                "pass".to_owned()
            }
        } else {
            format!("FAIL: {}", r.problems())
        };
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            r.avatar,
            r.source,
            r.clip,
            r.frames,
            r.tracks,
            r.looping,
            cm(r.foot),
            cm(r.hands),
            result
        );
    }
    let _ = writeln!(s, "\n{}", summary(rows));
    s
}

/// One line: how many pairs passed.
#[must_use]
pub fn summary(rows: &[Row]) -> String {
    let passed = rows.iter().filter(|r| r.passed()).count();
    let measured = rows.iter().filter(|r| r.measured).count();
    let worst_foot = rows
        .iter()
        .filter(|r| r.measured)
        .filter_map(|r| r.foot)
        .fold(0.0f32, f32::max);
    let worst_hand = rows
        .iter()
        .filter(|r| r.measured && IDLE_CLIPS.contains(&r.clip.as_str()))
        .filter_map(|r| r.hands)
        .fold(f32::INFINITY, f32::min);
    format!(
        "{passed} of {} clip × avatar pairs pass; {measured} measured: worst foot offset {:.1} cm (limit {:.0}), smallest idle hand clearance {:.1} cm",
        rows.len(),
        worst_foot * 100.0,
        FOOT_LIMIT * 100.0,
        worst_hand * 100.0
    )
}
