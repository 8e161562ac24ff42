/* Loads the built-in avatar through the Tress C API, turns its head for
 * 4 s at 60 fps and prints every chain's tip position as float bits.
 * crates/tress-ffi/examples/hair_tips.rs does the same through the Rust
 * API; tools/ffi-check.sh compares the two outputs exactly.
 *
 * The motion uses only + and * (compile without FMA contraction:
 * -ffp-contract=off), written the same way in both programs:
 * yaw(i) = 60 deg * sin(pi i / 60) for frame i = 1..240, the sine a
 * degree-11 Taylor polynomial over (-pi, pi], the head's rotation
 * yaw * rest. Usage: hair_tips [PATH.vrm] (default assets/tress_avatar.vrm). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tress.h"

#define FRAMES 240
#define STEP 0.052359877f    /* pi / 60 */
#define AMPLITUDE 1.0471976f /* 60 degrees */

static float sin_poly(float x) {
    float x2 = x * x;
    return x * (1.0f +
                x2 * (-0.16666667f +
                      x2 * (0.008333333f +
                            x2 * (-0.0001984127f +
                                  x2 * (2.7557319e-6f + x2 * -2.5052108e-8f)))));
}

static float cos_poly(float x) {
    float x2 = x * x;
    return 1.0f + x2 * (-0.5f + x2 * (0.041666668f +
                                      x2 * (-0.0013888889f + x2 * 2.4801587e-5f)));
}

/* a * b, in the order the Rust program uses. */
static TressQuat mul(TressQuat a, TressQuat b) {
    TressQuat r;
    r.x = a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y;
    r.y = a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x;
    r.z = a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w;
    r.w = a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z;
    return r;
}

static uint32_t bits(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

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

int main(int argc, char **argv) {
    const char *path = argc > 1 ? argv[1] : "assets/tress_avatar.vrm";
    size_t len = 0;
    unsigned char *bytes = read_file(path, &len);
    if (!bytes) {
        fprintf(stderr, "cannot read %s\n", path);
        return 1;
    }
    TressAvatar avatar = {0};
    if (check(tress_avatar_load(bytes, len, NULL, &avatar), "tress_avatar_load")) return 1;
    free(bytes);

    uint32_t frames = 0, head = 0, chains = 0;
    if (check(tress_avatar_frame_count(avatar, &frames), "frame_count") ||
        check(tress_avatar_find_frame(avatar, "Head", &head), "find_frame Head") ||
        check(tress_avatar_chain_count(avatar, &chains), "chain_count"))
        return 1;
    TressPose rest[TRESS_MAX_FRAMES];
    for (uint32_t f = 0; f < frames; f++) {
        if (check(tress_avatar_rest_pose(avatar, f, &rest[f]), "rest_pose") ||
            check(tress_avatar_set_frame_pose(avatar, f, &rest[f]), "set_frame_pose"))
            return 1;
    }
    for (int i = 1; i <= FRAMES; i++) {
        int k = i % 120;
        if (k > 60) k -= 120;
        float yaw = AMPLITUDE * sin_poly((float)k * STEP);
        float half = yaw * 0.5f;
        TressQuat turn = {0.0f, sin_poly(half), 0.0f, cos_poly(half)};
        TressPose pose = rest[head];
        pose.rotation = mul(turn, rest[head].rotation); /* normalised by the library */
        if (check(tress_avatar_set_frame_pose(avatar, head, &pose), "set_frame_pose") ||
            check(tress_avatar_advance(avatar, 1.0f / 60.0f, NULL), "advance"))
            return 1;
    }

    printf("tips %u\n", chains);
    TressJointOutput out[TRESS_MAX_JOINTS];
    for (uint32_t c = 0; c < chains; c++) {
        size_t n = 0;
        if (check(tress_avatar_outputs(avatar, c, out, TRESS_MAX_JOINTS, &n), "outputs")) return 1;
        TressVec3 tip = out[n - 1].tail;
        printf("chain %u tip %08x %08x %08x\n", c, bits(tip.x), bits(tip.y), bits(tip.z));
    }
    return check(tress_avatar_destroy(avatar), "destroy");
}
