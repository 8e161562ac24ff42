/* Checks from C that misuse gives the right TressStatus and a non-empty
 * tress_last_error(), never a crash: null handle, destroyed (stale)
 * handle, too-small buffer, NaN pose, bad VRM bytes and more. Prints one
 * line per check and exits non-zero when any fails. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tress.h"

static int passed, failed;

static void expect(const char *name, TressStatus got, TressStatus want, const char *needle) {
    const char *msg = tress_last_error();
    int ok = got == want && msg && msg[0] != '\0' && (!needle || strstr(msg, needle));
    if (ok) {
        passed++;
        printf("ok   %-24s %s: %s\n", name, tress_status_name(got), msg);
    } else {
        failed++;
        printf("FAIL %-24s got %s, want %s; message: \"%s\"%s%s\n", name,
               tress_status_name(got), tress_status_name(want), msg ? msg : "(null)",
               needle ? " should contain " : "", needle ? needle : "");
    }
}

static void expect_ok(const char *name, TressStatus got) {
    if (got == TRESS_STATUS_OK) {
        passed++;
        printf("ok   %-24s Ok\n", name);
    } else {
        failed++;
        printf("FAIL %-24s got %s: %s\n", name, tress_status_name(got), tress_last_error());
    }
}

int main(void) {
    /* A small world: one frame, a sphere, one chain of three joints. */
    TressSpringCapacity caps = {16, 2, 2, 1};
    TressSpringWorld world = {0};
    expect_ok("create", tress_spring_create(&caps, NULL, &world));
    TressPose pose = {{0.0f, 1.5f, 0.0f}, {0.0f, 0.0f, 0.0f, 1.0f}};
    uint32_t frame = 0, chain = 0;
    expect_ok("add_frame", tress_spring_add_frame(world, &pose, &frame));
    TressCollider sphere = {TRESS_SHAPE_SPHERE, {0.0f, 0.0f, 0.0f}, {0.0f, 0.0f, 0.0f},
                            {0.0f, 1.0f, 0.0f}, 0.1f};
    expect_ok("add_collider", tress_spring_add_collider(world, frame, &sphere, NULL));
    TressJointDesc joints[3];
    for (int j = 0; j < 3; j++) tress_joint_desc_default(&joints[j]);
    TressChainDesc desc;
    tress_chain_desc_default(&desc);
    expect_ok("add_chain", tress_spring_add_chain(world, &desc, joints, 3, &chain));
    expect_ok("advance", tress_spring_advance(world, 1.0f / 60.0f, NULL));

    TressSpringWorld null_world = {0};
    expect("null handle", tress_spring_advance(null_world, 1.0f / 60.0f, NULL),
           TRESS_STATUS_NULL_HANDLE, "null");
    TressAvatar null_avatar = {0};
    expect("null avatar", tress_avatar_advance(null_avatar, 1.0f / 60.0f, NULL),
           TRESS_STATUS_NULL_HANDLE, "tress_avatar_advance");

    TressJointOutput out[3];
    size_t n = 0;
    expect("too-small buffer", tress_spring_outputs(world, chain, out, 2, &n),
           TRESS_STATUS_BUFFER_TOO_SMALL, "3");
    expect_ok("outputs", tress_spring_outputs(world, chain, out, 3, &n));

    TressPose nan_pose = pose;
    nan_pose.position.x = NAN;
    expect("NaN pose", tress_spring_set_frame_pose(world, frame, &nan_pose),
           TRESS_STATUS_INVALID_ARGUMENT, "not finite");
    expect("NaN frame time", tress_spring_advance(world, NAN, NULL),
           TRESS_STATUS_INVALID_ARGUMENT, "frame time");
    TressPose zero_rot = pose;
    zero_rot.rotation.w = 0.0f;
    expect("zero rotation", tress_spring_set_frame_pose(world, frame, &zero_rot),
           TRESS_STATUS_INVALID_ARGUMENT, "quaternion");
    expect("bad mode", tress_spring_set_chain_mode(world, chain, 7, TRESS_CONTACT_TAIL),
           TRESS_STATUS_INVALID_ARGUMENT, "TressMode");
    expect("bad frame index", tress_spring_set_frame_pose(world, 5, &pose),
           TRESS_STATUS_BAD_INDEX, "frame 5");
    expect("null pointer", tress_spring_add_frame(world, NULL, NULL),
           TRESS_STATUS_NULL_POINTER, "pose");
    expect("capacity", tress_spring_add_frame(world, &pose, NULL),
           TRESS_STATUS_CAPACITY_EXCEEDED, "frames");

    TressWind wind;
    expect_ok("wind default", tress_wind_default(&wind));
    wind.direction.x = 1.0f;
    wind.strength = NAN;
    expect("NaN wind", tress_spring_set_wind(world, &wind), TRESS_STATUS_INVALID_ARGUMENT,
           "strength");
    wind.strength = 4.0f;
    expect_ok("wind", tress_spring_set_wind(world, &wind));
    TressJointLimit cone = {TRESS_LIMIT_SHAPE_CONE, 0.2f, 0.0f, 0.0f, {0.0f, 0.0f, 0.0f, 1.0f}};
    expect_ok("cone limit", tress_spring_set_chain_limit(world, chain, &cone));
    TressJointLimit odd = cone;
    odd.shape = 9;
    expect("bad limit shape", tress_spring_set_joint_limit(world, chain, 0, &odd),
           TRESS_STATUS_INVALID_ARGUMENT, "TressLimitShape");
    expect("bad joint index", tress_spring_set_joint_limit(world, chain, 3, &cone),
           TRESS_STATUS_BAD_INDEX, "joint 3");
    expect("bad teleport mode", tress_spring_set_teleport_policy(world, 1.0f, 4),
           TRESS_STATUS_INVALID_ARGUMENT, "TressTeleportMode");
    expect_ok("teleport policy",
              tress_spring_set_teleport_policy(world, 1.0f, TRESS_TELEPORT_MODE_RESET));
    expect("bad anchor", tress_spring_set_anchor(world, 3), TRESS_STATUS_BAD_INDEX, "frame 3");
    expect_ok("no anchor", tress_spring_set_anchor(world, TRESS_NO_ANCHOR));
    expect_ok("resume", tress_spring_resume(world));
    expect_ok("advance with wind and a limit", tress_spring_advance(world, 1.0f / 60.0f, NULL));

    TressAvatar wrong_kind = {world.bits};
    expect("wrong kind of handle", tress_avatar_reset(wrong_kind),
           TRESS_STATUS_STALE_HANDLE, "not a handle");

    expect_ok("destroy", tress_spring_destroy(world));
    expect("destroyed handle", tress_spring_advance(world, 1.0f / 60.0f, NULL),
           TRESS_STATUS_STALE_HANDLE, "destroyed");
    expect("destroy twice", tress_spring_destroy(world), TRESS_STATUS_STALE_HANDLE, "destroyed");
    TressSpringWorld reuse = {0};
    expect_ok("create again", tress_spring_create(NULL, NULL, &reuse));
    expect("old handle, slot reused", tress_spring_reset(world), TRESS_STATUS_STALE_HANDLE,
           "destroyed");
    expect_ok("new handle works", tress_spring_reset(reuse));
    tress_spring_destroy(reuse);

    const unsigned char junk[] = "this is not a VRM file";
    TressAvatar avatar = {0};
    expect("bad VRM bytes", tress_avatar_load(junk, sizeof junk - 1, NULL, &avatar),
           TRESS_STATUS_LOAD_FAILED, "cannot load");
    const char *bad_spring =
        "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"name\":\"a\"}],"
        "\"scenes\":[{\"nodes\":[0]}],\"extensionsUsed\":[\"VRMC_springBone\"],"
        "\"extensions\":{\"VRMC_springBone\":{\"specVersion\":\"1.0\","
        "\"springs\":[{\"joints\":[{\"node\":0},{\"node\":7}]}]}}}";
    expect("VRM error has JSON path",
           tress_avatar_load((const uint8_t *)bad_spring, strlen(bad_spring), NULL, &avatar),
           TRESS_STATUS_LOAD_FAILED, "springs[0]");
    expect("null out pointer", tress_strands_load("hair.tfx", junk, sizeof junk - 1, NULL, NULL),
           TRESS_STATUS_NULL_POINTER, "out");
    TressStrands strands = {0};
    expect("bad groom bytes", tress_strands_load("hair.tfx", junk, sizeof junk - 1, NULL, &strands),
           TRESS_STATUS_LOAD_FAILED, "groom");

    char small[8];
    size_t full = tress_last_error_copy(small, sizeof small);
    if (full > sizeof small && small[sizeof small - 1] == '\0' && strlen(small) == sizeof small - 1) {
        passed++;
        printf("ok   %-24s %zu bytes cut to %zu\n", "last_error_copy", full, strlen(small));
    } else {
        failed++;
        printf("FAIL %-24s %zu, \"%s\"\n", "last_error_copy", full, small);
    }

    printf("errors: %d checks passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
