// Loads tress-ffi's WebAssembly build in Node and steps a small spring
// world through the C ABI: memory from tress_alloc, structs filled by the
// library's own *_default functions and patched at their wasm32 offsets.
//
//   cargo build -p tress-ffi --target wasm32-unknown-unknown --release
//   node tools/ffi-wasm/run.mjs [path/to/tress_ffi.wasm]
//
// It proves the module loads, steps and reports errors. With `--tips
// FILE.vrm OUT.txt` it also runs examples/c/hair_tips.c's program (load
// the avatar, turn the head for 4 s, the same f32 operations in the same
// order) and writes the tips in that program's format, so
// tools/ffi-check.sh can compare wasm32's bits with the native build's
// (docs/ARCHITECTURE.md, "Determinism"). Printed: each status, the tip
// of the chain, a digest of every output byte. Exit status 1 on a failed
// check; the last line reads `ffi-wasm: N checks passed, M failed`.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const args = process.argv.slice(2);
let tipsArgs = null;
const at = args.indexOf("--tips");
if (at >= 0) tipsArgs = args.splice(at, 3).slice(1);
const path = args[0] ?? join(root, "target/wasm32-unknown-unknown/release/tress_ffi.wasm");
const module = new WebAssembly.Module(readFileSync(path));
// Whatever std imports on this target: none are expected to be called.
const imports = {};
for (const imp of WebAssembly.Module.imports(module)) {
  imports[imp.module] ??= {};
  imports[imp.module][imp.name] = () => {
    throw new Error(`unexpected import ${imp.module}.${imp.name}`);
  };
}
const { exports: t } = new WebAssembly.Instance(module, imports);

let passed = 0;
let failed = 0;
function check(name, ok, detail = "") {
  if (ok) passed++;
  else failed++;
  console.log(`${ok ? "PASS" : "FAIL"} ${name}${detail ? ": " + detail : ""}`);
}
const view = () => new DataView(t.memory.buffer);
const cString = (p) => {
  const bytes = new Uint8Array(t.memory.buffer, p);
  return new TextDecoder().decode(bytes.subarray(0, bytes.indexOf(0)));
};
const status = (s) => cString(t.tress_status_name(s));
const OK = 0;
function call(name, s) {
  check(name, s === OK, s === OK ? "Ok" : `${status(s)}: ${cString(t.tress_last_error())}`);
}

// wasm32 layouts (repr(C)): TressPose 28 bytes, TressCollider 44,
// TressJointDesc 80, TressChainDesc 40, TressJointOutput 56.
const buf = t.tress_alloc(4096);
const worldPtr = buf; // TressSpringWorld: one u64
const pose = buf + 16;
const collider = buf + 64;
const joints = buf + 128; // 6 × 80
const chain = buf + 608; // 8-aligned (collider_mask is a u64)
const outputs = buf + 656; // 6 × 56
const u32 = buf + 1024;
const setPose = (p, x, y, z, qy, qw) => {
  const v = view();
  [x, y, z, 0, qy, 0, qw].forEach((f, i) => v.setFloat32(p + 4 * i, f, true));
};

call("tress_spring_create", t.tress_spring_create(0, 0, worldPtr));
const world = view().getBigUint64(worldPtr, true);
setPose(pose, 0, 1.5, 0, 0, 1);
call("tress_spring_add_frame", t.tress_spring_add_frame(world, pose, u32));
{
  const v = view();
  v.setUint32(collider, 0, true); // TRESS_SHAPE_SPHERE
  for (let i = 4; i < 40; i += 4) v.setFloat32(collider + i, 0, true);
  v.setFloat32(collider + 8, -0.12, true); // offset.y
  v.setFloat32(collider + 32, 1, true); // normal.y
  v.setFloat32(collider + 40, 0.08, true); // radius
}
call("tress_spring_add_collider", t.tress_spring_add_collider(world, 0, collider, u32));
for (let j = 0; j < 6; j++) {
  const p = joints + 80 * j;
  call(`tress_joint_desc_default ${j}`, t.tress_joint_desc_default(p));
  view().setFloat32(p + 16, 0, true); // offset.x
  view().setFloat32(p + 20, -0.05, true); // offset.y
  view().setFloat32(p + 24, 0.05, true); // offset.z
}
call("tress_chain_desc_default", t.tress_chain_desc_default(chain));
view().setUint32(chain + 20, 1, true); // contact = TRESS_CONTACT_SEGMENT
call("tress_spring_add_chain", t.tress_spring_add_chain(world, chain, joints, 6, u32));

let substeps = 0;
let stepFailures = 0;
for (let i = 1; i <= 240; i++) {
  const half = 0.5 * (Math.PI / 3) * Math.sin((Math.PI * i) / 60);
  setPose(pose, 0, 1.5, 0, Math.sin(half), Math.cos(half));
  if (t.tress_spring_set_frame_pose(world, 0, pose) !== OK) stepFailures++;
  if (t.tress_spring_advance(world, 1 / 60, u32) !== OK) stepFailures++;
  substeps += view().getUint32(u32, true);
}
check("240 frames set and advanced", stepFailures === 0, `${stepFailures} failures`);
check("substeps at 120 Hz", substeps === 480, `${substeps}`);
call("tress_spring_outputs", t.tress_spring_outputs(world, 0, outputs, 6, u32));

const v = view();
const out = (j, k) => v.getFloat32(outputs + 56 * j + 4 * k, true);
const tip = [out(5, 3), out(5, 4), out(5, 5)];
console.log(`tip ${tip.map((f) => f.toFixed(6)).join(" ")}`);
check("outputs finite", [...Array(6 * 14).keys()].every((i) => Number.isFinite(out(0, i))));
let worst = 0;
for (let j = 0; j < 6; j++) {
  const len = Math.hypot(out(j, 3) - out(j, 0), out(j, 4) - out(j, 1), out(j, 5) - out(j, 2));
  worst = Math.max(worst, Math.abs(len - Math.hypot(0.05, 0.05)));
}
check("bone lengths kept", worst < 1e-4, `worst error ${worst.toExponential(2)} m`);
let hash = 0xcbf29ce484222325n;
for (const b of new Uint8Array(t.memory.buffer, outputs, 6 * 56)) {
  hash = BigInt.asUintN(64, (hash ^ BigInt(b)) * 0x100000001b3n);
}
console.log(`outputs digest fnv1a64 ${hash.toString(16).padStart(16, "0")}`);

const nul = t.tress_spring_advance(0n, 1 / 60, 0);
check("null handle is an error", status(nul) === "NullHandle" && cString(t.tress_last_error()) !== "",
  `${status(nul)}: ${cString(t.tress_last_error())}`);
call("tress_spring_destroy", t.tress_spring_destroy(world));
const stale = t.tress_spring_reset(world);
check("destroyed handle is stale", status(stale) === "StaleHandle", status(stale));
t.tress_free(buf);

if (tipsArgs) hairTips(...tipsArgs);

console.log(`ffi-wasm: ${passed} checks passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);

// examples/c/hair_tips.c in JavaScript. Every operation is one f32
// operation: `f` rounds each double result to f32, which for a single
// + or * of two f32 values is the correctly rounded f32 result.
function hairTips(vrmPath, outPath) {
  const f = Math.fround;
  const sinPoly = (x) => {
    const x2 = f(x * x);
    let p = f(x2 * f(-2.5052108e-8));
    p = f(x2 * f(f(2.7557319e-6) + p));
    p = f(x2 * f(f(-0.0001984127) + p));
    p = f(x2 * f(f(0.008333333) + p));
    p = f(x2 * f(f(-0.16666667) + p));
    return f(x * f(1 + p));
  };
  const cosPoly = (x) => {
    const x2 = f(x * x);
    let p = f(x2 * f(2.4801587e-5));
    p = f(x2 * f(f(-0.0013888889) + p));
    p = f(x2 * f(f(0.041666668) + p));
    p = f(x2 * f(-0.5 + p));
    return f(1 + p);
  };
  // a * b in hair_tips.c's order: ((t1 + t2) + t3) - t4 per component.
  const mul = (a, b) => [
    f(f(f(f(a[3] * b[0]) + f(a[0] * b[3])) + f(a[1] * b[2])) - f(a[2] * b[1])),
    f(f(f(f(a[3] * b[1]) - f(a[0] * b[2])) + f(a[1] * b[3])) + f(a[2] * b[0])),
    f(f(f(f(a[3] * b[2]) + f(a[0] * b[1])) - f(a[1] * b[0])) + f(a[2] * b[3])),
    f(f(f(f(a[3] * b[3]) - f(a[0] * b[0])) - f(a[1] * b[1])) - f(a[2] * b[2])),
  ];
  const bytes = readFileSync(vrmPath);
  const src = t.tress_alloc(bytes.length);
  new Uint8Array(t.memory.buffer, src, bytes.length).set(bytes);
  const scratch = t.tress_alloc(1024 + 56 * 1024);
  const handle = scratch; // TressAvatar: one u64
  const u32 = scratch + 8;
  const name = scratch + 16; // "Head\0"
  const pose = scratch + 32; // TressPose, 28 bytes
  const rest = scratch + 64; // 32 × 28
  const out = scratch + 1024; // TressJointOutput × 1024
  call("tress_avatar_load", t.tress_avatar_load(src, bytes.length, 0, handle));
  t.tress_free(src);
  const avatar = view().getBigUint64(handle, true);
  new Uint8Array(t.memory.buffer, name, 5).set([72, 101, 97, 100, 0]);
  call("tress_avatar_find_frame Head", t.tress_avatar_find_frame(avatar, name, u32));
  const head = view().getUint32(u32, true);
  call("tress_avatar_frame_count", t.tress_avatar_frame_count(avatar, u32));
  const frames = view().getUint32(u32, true);
  let bad = 0;
  for (let i = 0; i < frames; i++) {
    if (t.tress_avatar_rest_pose(avatar, i, rest + 28 * i) !== OK) bad++;
    if (t.tress_avatar_set_frame_pose(avatar, i, rest + 28 * i) !== OK) bad++;
  }
  const headRest = [0, 1, 2, 3, 4, 5, 6].map((k) => view().getFloat32(rest + 28 * head + 4 * k, true));
  const STEP = f(0.052359877);
  const AMPLITUDE = f(1.0471976);
  for (let i = 1; i <= 240; i++) {
    let k = i % 120;
    if (k > 60) k -= 120;
    const yaw = f(AMPLITUDE * sinPoly(f(f(k) * STEP)));
    const half = f(yaw * 0.5);
    const turn = [0, sinPoly(half), 0, cosPoly(half)];
    const q = mul(turn, headRest.slice(3));
    const v = view();
    [...headRest.slice(0, 3), ...q].forEach((x, j) => v.setFloat32(pose + 4 * j, x, true));
    if (t.tress_avatar_set_frame_pose(avatar, head, pose) !== OK) bad++;
    if (t.tress_avatar_advance(avatar, f(1 / 60), 0) !== OK) bad++;
  }
  check("hair tips: 240 frames set and advanced", bad === 0, `${bad} failures`);
  call("tress_avatar_chain_count", t.tress_avatar_chain_count(avatar, u32));
  const chains = view().getUint32(u32, true);
  const lines = [`tips ${chains}`];
  const hex = (p) => view().getUint32(p, true).toString(16).padStart(8, "0");
  for (let c = 0; c < chains; c++) {
    if (t.tress_avatar_outputs(avatar, c, out, 1024, u32) !== OK) bad++;
    const n = view().getUint32(u32, true);
    const tail = out + 56 * (n - 1) + 12;
    lines.push(`chain ${c} tip ${hex(tail)} ${hex(tail + 4)} ${hex(tail + 8)}`);
  }
  call("tress_avatar_destroy", t.tress_avatar_destroy(avatar));
  t.tress_free(scratch);
  writeFileSync(outPath, lines.join("\n") + "\n");
  check("hair tips written", bad === 0, `${chains} tips to ${outPath}`);
}
