//! Render strands for `TressStrandHair`: many drawn strands placed from the
//! simulated guides (`render_ratio` per guide), each a copy of its nearest
//! guide moved by its root offset (`tress_core::strand::follow_copy`).
//!
//! Per frame the CPU packs only the guides into a float texture; the hair
//! shader places every render particle from it in `vertex()`. With a
//! material whose shader lacks the guide uniforms the same placement runs
//! on the CPU and the ribbons are uploaded as for simulated strands.

use std::sync::{Mutex, PoisonError};

use godot::classes::image::Format;
use godot::classes::{Image, ImageTexture, Time};
use godot::obj::Singleton;
use godot::prelude::*;
use tress_core::math::{Real, Vec3};
use tress_core::strand::follow_build::rest_points;
use tress_core::strand::follow_copy::{self, copy_points};
use tress_core::strand::{FollowPlanBuf, Pose, StrandSim};

/// The scatter seed: fixed, so a groom gives the same render strands on
/// every load and machine.
const SEED: u64 = 0x7e55_f011;

/// Texels per row of the guide texture (4,096 is the smallest maximum
/// texture size GLES 3 devices report).
pub(crate) const TEXTURE_WIDTH: usize = 4096;

/// The plan, the packed guides and their texture.
pub(crate) struct FollowRender {
    plan: FollowPlanBuf,
    guide: Vec<u32>,
    offset: Vec<[Real; 3]>,
    /// Per guide segment (strand-major, 0 at the root), its groom length.
    groom_len: Vec<Real>,
    /// The guide texture's bytes (RGBA f32, little-endian).
    bytes: PackedByteArray,
    texture: Option<Gd<ImageTexture>>,
    /// The guides as floats, for the CPU placement.
    texels: Vec<Real>,
    /// The last frame's guides went into `bytes` (the shader path).
    in_bytes: bool,
    last_usec: u64,
}

impl FollowRender {
    /// `per_guide` render strands for each strand of `sim` (the guide's
    /// own first), or the reason there are none.
    pub(crate) fn new(sim: &StrandSim, per_guide: usize) -> Result<Self, String> {
        let plan = FollowPlanBuf::for_sim(sim, per_guide, SEED).map_err(|e| e.to_string())?;
        let (guide, offset) = plan.copies();
        let (guide, offset) = (guide.to_vec(), offset.to_vec());
        let m = plan.particles();
        let rest = rest_points(sim);
        let groom_len = (0..plan.guides() * m)
            .map(|j| {
                if j % m == 0 {
                    0.0
                } else {
                    (rest[j] - rest[j - 1]).length()
                }
            })
            .collect();
        let texels = plan.texels_len() / follow_copy::TEXEL_FLOATS;
        let mut bytes = PackedByteArray::new();
        bytes.resize(texels.div_ceil(TEXTURE_WIDTH).max(1) * TEXTURE_WIDTH * TEXEL_BYTES);
        let texels = vec![0.0; plan.texels_len()];
        Ok(Self {
            plan,
            guide,
            offset,
            groom_len,
            bytes,
            texture: None,
            texels,
            in_bytes: false,
            last_usec: 0,
        })
    }

    /// Render strands.
    pub(crate) fn renders(&self) -> usize {
        self.plan.renders()
    }

    /// Render strand `r`'s guide and its root offset `(a, b, c)` in the
    /// guide's root frame.
    pub(crate) fn copy_of(&self, r: usize) -> (u32, [Real; 3]) {
        (self.guide[r], self.offset[r])
    }

    /// Whether the guide texture fits every GLES 3 device (4,096 rows of
    /// 4,096 texels) and its texel indices are exact in the mesh's floats;
    /// a groom past that (over 240,000 guides of 64 particles) is placed on
    /// the CPU instead.
    pub(crate) fn fits_texture(&self) -> bool {
        self.plan.texels_len() / follow_copy::TEXEL_FLOATS <= TEXTURE_WIDTH * TEXTURE_WIDTH
    }

    /// First texel of guide `g` in the texture.
    pub(crate) fn guide_texel(&self, g: u32) -> usize {
        g as usize * follow_copy::texels_per_guide(self.plan.particles())
    }

    /// Packs the guides of `sim` (head at `pose`) into the texture, made on
    /// first use, and returns it for the shader (none, with an error
    /// printed, where the engine refuses the image). The packing splits
    /// over the sim's threads (a share of the guides each).
    pub(crate) fn write_texture(
        &mut self,
        sim: &mut StrandSim,
        pose: &Pose,
    ) -> Option<Gd<ImageTexture>> {
        let start = Time::singleton().get_ticks_usec();
        // Straight into the bytes the image is made from: no float copy.
        // The image is made each frame and dropped after the upload, so
        // next frame these bytes are not shared and are written in place.
        let guides = self.plan.guides();
        let per_guide = follow_copy::texels_per_guide(self.plan.particles());
        let share = guides.div_ceil(sim.threads().clamp(1, guides.max(1)));
        let parts: Vec<Mutex<&mut [u8]>> = self.bytes.as_mut_slice()
            [..guides * per_guide * TEXEL_BYTES]
            .chunks_mut(share * per_guide * TEXEL_BYTES)
            .map(Mutex::new)
            .collect();
        let plan = &self.plan;
        sim.run_split(&|part, _, layout, pos| {
            let Some(slot) = parts.get(part) else {
                return;
            };
            let mut dst = slot.lock().unwrap_or_else(PoisonError::into_inner);
            let first = part * share;
            let base = first * per_guide;
            let range = first..(first + share).min(guides);
            plan.for_each_guide_texel_in(layout, pos, pose, range, |k, v| {
                let mut texel = [0u8; TEXEL_BYTES];
                for (d, f) in texel.chunks_exact_mut(4).zip(v) {
                    d.copy_from_slice(&f.to_le_bytes());
                }
                let o = (k - base) * TEXEL_BYTES;
                if let Some(out) = dst.get_mut(o..o + TEXEL_BYTES) {
                    out.copy_from_slice(&texel);
                }
            });
        });
        drop(parts);
        let rows = self.bytes.len() / (TEXTURE_WIDTH * TEXEL_BYTES);
        let image = Image::create_from_data(
            TEXTURE_WIDTH as i32,
            rows as i32,
            false,
            Format::RGBAF,
            &self.bytes,
        );
        let texture = match (image, self.texture.as_mut()) {
            (Some(image), Some(texture)) => {
                texture.update(&image);
                Some(texture.clone())
            }
            (Some(image), None) => {
                self.texture = ImageTexture::create_from_image(&image);
                self.texture.clone()
            }
            (None, _) => None,
        };
        if texture.is_none() {
            godot_error!(
                "TressStrandHair: the engine refused the {TEXTURE_WIDTH} x {rows} guide texture"
            );
        }
        self.in_bytes = true;
        self.last_usec = Time::singleton().get_ticks_usec() - start;
        texture
    }

    /// Places the render strands on the CPU (for a material without the
    /// guide uniforms) and writes them strand-major into `out`.
    pub(crate) fn write_points(&mut self, sim: &StrandSim, pose: &Pose, out: &mut [Vec3]) {
        let start = Time::singleton().get_ticks_usec();
        self.plan.guide_texels(sim, pose, &mut self.texels);
        self.in_bytes = false;
        copy_points(
            &self.texels,
            self.plan.particles(),
            &self.guide,
            &self.offset,
            out,
        );
        self.last_usec = Time::singleton().get_ticks_usec() - start;
    }

    /// Microseconds the last frame's placement took: packing and the
    /// texture upload, or the CPU placement.
    pub(crate) fn last_usec(&self) -> u64 {
        self.last_usec
    }

    /// Largest relative segment length error of the render strands as the
    /// last frame placed them (the same formula as the shader, from the
    /// same texels) against their guides' groom lengths.
    pub(crate) fn max_length_error(&self) -> f32 {
        let m = self.plan.particles();
        let mut pts = vec![Vec3::ZERO; self.renders() * m];
        // The texels the last frame placed the strands from: the
        // texture's bytes on the shader path.
        let from_bytes: Vec<Real>;
        let texels = if self.in_bytes {
            from_bytes = self.bytes.as_slice()[..self.texels.len() * 4]
                .chunks_exact(4)
                .map(|b| Real::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect();
            &from_bytes
        } else {
            &self.texels
        };
        copy_points(texels, m, &self.guide, &self.offset, &mut pts);
        let mut worst: f32 = 0.0;
        for (r, &g) in self.guide.iter().enumerate() {
            for i in 1..m {
                let l0 = self.groom_len[g as usize * m + i];
                if l0 > 0.0 {
                    let l = (pts[r * m + i] - pts[r * m + i - 1]).length();
                    worst = worst.max((l - l0).abs() / l0);
                }
            }
        }
        worst
    }
}

/// Bytes per texel (four f32).
const TEXEL_BYTES: usize = 4 * follow_copy::TEXEL_FLOATS;
