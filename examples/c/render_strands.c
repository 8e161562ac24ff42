/* Draws many hairs from few simulated ones through the Tress C API: loads
 * a groom (assets/tress_groom.tfx by default), simulates it, and makes four
 * render strands per simulated strand. Per frame the engine's share is one
 * float texture of the simulated strands (tress_strands_guide_texels); a
 * vertex shader places every render strand from it with the per-strand
 * guide index and offset read once (tress_strands_follow_copies).
 * tress_strands_follow_points places them on the CPU the same way; this
 * program uses it to check that every render segment keeps its guide's
 * length within 1 % (the documented bound) while the head turns, and exits
 * non-zero if not. Usage: render_strands [PATH.tfx]. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "tress.h"

#define PER_GUIDE 4
#define FRAMES 60

static int check(TressStatus s, const char *what) {
    if (s != TRESS_STATUS_OK) {
        fprintf(stderr, "%s: %s: %s\n", what, tress_status_name(s), tress_last_error());
        return 1;
    }
    return 0;
}

static unsigned char *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *buf = malloc(n > 0 ? (size_t)n : 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    *len = (size_t)n;
    return buf;
}

static float dist(TressVec3 a, TressVec3 b) {
    float x = a.x - b.x, y = a.y - b.y, z = a.z - b.z;
    return sqrtf(x * x + y * y + z * z);
}

int main(int argc, char **argv) {
    const char *path = argc > 1 ? argv[1] : "assets/tress_groom.tfx";
    size_t len = 0;
    unsigned char *bytes = read_file(path, &len);
    if (!bytes) {
        fprintf(stderr, "cannot read %s\n", path);
        return 1;
    }
    TressStrandOptions opts;
    TressStrands hair = {0};
    if (check(tress_strand_options_default(&opts), "options") ||
        check(tress_strands_load(path, bytes, len, &opts, &hair), "tress_strands_load"))
        return 1;
    free(bytes);

    uint32_t strands = 0, particles = 0, renders = 0, per = 0, guides = 0;
    if (check(tress_strands_counts(hair, &strands, &particles), "counts") ||
        check(tress_strands_follow(hair, PER_GUIDE, 1, &renders), "follow") ||
        check(tress_strands_guide_texture_size(hair, &per, &guides), "texture size"))
        return 1;

    /* Once: which guide each render strand copies, and its offset. */
    uint32_t *copy_guide = malloc(renders * sizeof *copy_guide);
    TressVec3 *offset = malloc(renders * sizeof *offset);
    /* Per frame: the texture, and (for this check) the placed points. */
    size_t texel_floats = (size_t)guides * per * 4;
    float *texels = malloc(texel_floats * sizeof *texels);
    TressVec3 *sim = malloc((size_t)strands * particles * sizeof *sim);
    TressVec3 *drawn = malloc((size_t)renders * particles * sizeof *drawn);
    if (!copy_guide || !offset || !texels || !sim || !drawn) return 1;
    if (check(tress_strands_follow_copies(hair, copy_guide, offset, renders, NULL), "copies"))
        return 1;

    float worst = 0.0f;
    for (int i = 1; i <= FRAMES; i++) {
        /* The head turns 60 degrees about +y over the second. */
        float half = 0.5f * 1.0471976f * (float)i / FRAMES;
        TressPose head = {{0.0f, 0.0f, 0.0f}, {0.0f, sinf(half), 0.0f, cosf(half)}};
        if (check(tress_strands_set_head_pose(hair, &head), "set_head_pose") ||
            check(tress_strands_advance(hair, 1.0f / 60.0f, NULL), "advance") ||
            check(tress_strands_guide_texels(hair, texels, texel_floats, NULL), "guide_texels") ||
            check(tress_strands_positions(hair, sim, (size_t)strands * particles, NULL),
                  "positions") ||
            check(tress_strands_follow_points(hair, drawn, (size_t)renders * particles, NULL),
                  "follow_points"))
            return 1;
        for (uint32_t r = 0; r < renders; r++) {
            const TressVec3 *c = drawn + (size_t)r * particles;
            const TressVec3 *g = sim + (size_t)copy_guide[r] * particles;
            for (uint32_t k = 1; k < particles; k++) {
                float e = fabsf(dist(c[k], c[k - 1]) / dist(g[k], g[k - 1]) - 1.0f);
                if (e > worst) worst = e;
            }
        }
    }
    printf("%u simulated strands of %u particles, %u render strands; texture %u x %u texels; "
           "worst render segment %.4f off its guide's\n",
           strands, particles, renders, per, guides, worst);
    tress_strands_destroy(hair);
    free(copy_guide);
    free(offset);
    free(texels);
    free(sim);
    free(drawn);
    return worst <= 0.0101f ? 0 : 1;
}
