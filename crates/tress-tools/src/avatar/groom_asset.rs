//! The built-in avatar's strand groom, written as a TressFX 4 `.tfx` file so
//! the same reader serves our groom and third-party ones.

use tress_rig::groom::Groom;
use tress_rig::groom::procedural::ProceduralGroom;

use super::skeleton::{HEAD_CENTRE, HEAD_RADIUS};

/// File name under `assets/`.
pub const GROOM_FILE: &str = "tress_groom.tfx";

/// The groom's parameters: 6,000 strands of 16 particles on the built-in
/// head, rooted just above the hair cap.
#[must_use]
pub fn groom_params() -> ProceduralGroom {
    ProceduralGroom {
        strands: 6000,
        particles: 16,
        head_centre: HEAD_CENTRE,
        head_radius: HEAD_RADIUS + 0.008,
        ..ProceduralGroom::default()
    }
}

/// Serialises a groom whose strands all have the same number of points as
/// TressFX 4: a 160-byte header, then `float4` positions with `w` the
/// inverse mass (0 pins the root).
///
/// # Panics
/// When strands differ in length or counts exceed `u32`.
#[must_use]
pub fn write_tfx(groom: &Groom) -> Vec<u8> {
    let per = groom
        .uniform_count()
        .expect("every strand has the same number of points");
    let strands = groom.strand_count();
    let header = 160u32;
    let mut out = Vec::with_capacity(header as usize + strands * per * 16);
    out.extend_from_slice(&4.0f32.to_le_bytes());
    for v in [
        u32::try_from(strands).expect("strand count fits u32"),
        u32::try_from(per).expect("points per strand fit u32"),
        header, // offsetVertexPosition
        0,      // offsetStrandUV
        0,      // offsetVertexUV
        0,      // offsetStrandThickness
        0,      // offsetVertexColor
    ] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out.resize(header as usize, 0);
    for strand in groom.strands() {
        for (i, p) in strand.iter().enumerate() {
            let w = if i == 0 { 0.0f32 } else { 1.0 };
            for c in [p.x, p.y, p.z, w] {
                out.extend_from_slice(&c.to_le_bytes());
            }
        }
    }
    out
}

/// The groom file's bytes.
#[must_use]
pub fn build_groom() -> Vec<u8> {
    write_tfx(&groom_params().generate())
}

#[cfg(test)]
mod tests {
    use super::*;
    use tress_rig::groom::tfx::read_tfx;

    #[test]
    fn groom_round_trips_through_our_tfx_reader() {
        let groom = groom_params().generate();
        let back = read_tfx(&write_tfx(&groom)).expect("reads back");
        assert_eq!(back.version, 4);
        assert_eq!(back.groom.strand_count(), 6000);
        assert_eq!(back.groom.uniform_count(), Some(16));
        assert_eq!(back.groom.points(), groom.points());
    }
}
