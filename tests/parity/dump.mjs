// Reference spring-bone trajectories from pixiv three-vrm (pinned in
// package-lock.json), headless in Node.
//
//   node dump.mjs <model path> <case> <out.json>
//
// case: "head"  — humanoid head (raw bone) yaw 60°·sin(πt) on top of its rest rotation
//       "move"  — scene root translated by x = sin(πt) metres
//       "still" — nothing driven
// 4 s at dt = 1/120 (480 steps). Textures are stripped before parsing: the
// reference needs no images. For every spring joint (three-vrm's joint list,
// in load order) the output gives its glTF node index and, per step, the
// world position of its tail (the child node, or the virtual tail of a
// childless VRM 0.x end) after springBoneManager.update(dt).
import fs from 'node:fs';
import path from 'node:path';
import * as THREE from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { VRMLoaderPlugin } from '@pixiv/three-vrm';
import { VRMSpringBoneLoaderPlugin } from '@pixiv/three-vrm-springbone';

// three's FileLoader (used for data: URIs) reports progress with a DOM event class.
globalThis.ProgressEvent ??= class ProgressEvent extends Event {
  constructor(type, init = {}) {
    super(type);
    Object.assign(this, init);
  }
};

const [, , modelPath, kase, outPath] = process.argv;
if (!modelPath || !['head', 'move', 'still'].includes(kase) || !outPath) {
  console.error('usage: node dump.mjs <model> <head|move|still> <out.json>');
  process.exit(2);
}

// --- read the file and strip what a headless reference does not need ----
const raw = fs.readFileSync(modelPath);
let json;
let bin = null;
if (raw.readUInt32LE(0) === 0x46546c67) {
  const jlen = raw.readUInt32LE(12);
  json = JSON.parse(raw.subarray(20, 20 + jlen).toString('utf8'));
  const off = 20 + jlen;
  if (off + 8 <= raw.length) {
    const blen = raw.readUInt32LE(off);
    bin = raw.subarray(off + 8, off + 8 + blen);
  }
} else {
  json = JSON.parse(raw.toString('utf8'));
  // External buffers become data URIs (no fetch of file:// in Node).
  for (const b of json.buffers ?? []) {
    if (b.uri && !b.uri.startsWith('data:')) {
      const data = fs.readFileSync(path.join(path.dirname(modelPath), decodeURIComponent(b.uri)));
      b.uri = 'data:application/octet-stream;base64,' + data.toString('base64');
    }
  }
}
delete json.images;
delete json.textures;
delete json.samplers;
json.materials = (json.materials ?? []).map((m) => ({ name: m.name ?? '' }));
const dropExt = new Set(['VRMC_materials_mtoon', 'KHR_materials_unlit', 'KHR_texture_transform', 'KHR_materials_emissive_strength', 'VRMC_materials_hdr_emissiveMultiplier']);
json.extensionsUsed = (json.extensionsUsed ?? []).filter((e) => !dropExt.has(e));
json.extensionsRequired = (json.extensionsRequired ?? []).filter((e) => !dropExt.has(e));
if (json.extensions?.VRM) {
  // VRM 0.x material properties reference textures; not needed.
  json.extensions.VRM.materialProperties = [];
  if (json.extensions.VRM.meta) delete json.extensions.VRM.meta.texture;
}
if (json.extensions?.VRMC_vrm?.meta) delete json.extensions.VRMC_vrm.meta.thumbnailImage;

let buffer;
if (bin) {
  let jtxt = Buffer.from(JSON.stringify(json), 'utf8');
  const pad = (4 - (jtxt.length % 4)) % 4;
  jtxt = Buffer.concat([jtxt, Buffer.alloc(pad, 0x20)]);
  const bpad = (4 - (bin.length % 4)) % 4;
  const binp = Buffer.concat([bin, Buffer.alloc(bpad)]);
  const total = 12 + 8 + jtxt.length + 8 + binp.length;
  const h = Buffer.alloc(20);
  h.writeUInt32LE(0x46546c67, 0); h.writeUInt32LE(2, 4); h.writeUInt32LE(total, 8);
  h.writeUInt32LE(jtxt.length, 12); h.writeUInt32LE(0x4e4f534a, 16);
  const bh = Buffer.alloc(8);
  bh.writeUInt32LE(binp.length, 0); bh.writeUInt32LE(0x004e4942, 4);
  const glb = Buffer.concat([h, jtxt, bh, binp]);
  buffer = glb.buffer.slice(glb.byteOffset, glb.byteOffset + glb.byteLength);
} else {
  buffer = JSON.stringify(json);
}

// --- load ----------------------------------------------------------------
const isVrm = Boolean(json.extensions?.VRM || json.extensions?.VRMC_vrm);
const loader = new GLTFLoader();
if (isVrm) loader.register((parser) => new VRMLoaderPlugin(parser));
else loader.register((parser) => new VRMSpringBoneLoaderPlugin(parser));
const gltf = await new Promise((resolve, reject) => loader.parse(buffer, '', resolve, reject));
const vrm = gltf.userData.vrm;
const manager = isVrm ? vrm.springBoneManager : gltf.userData.vrmSpringBoneManager;
if (!manager) throw new Error('no spring bones in ' + modelPath);
const scene = gltf.scene;

const nodeIndex = new Map();
for (const [obj, assoc] of gltf.parser.associations) {
  if (assoc && assoc.nodes !== undefined && obj.isObject3D) nodeIndex.set(obj, assoc.nodes);
}
const joints = [...manager.joints];
let head = null;
let headRest = null;
if (kase === 'head') {
  head = vrm?.humanoid?.getRawBoneNode('head');
  if (!head) throw new Error('case "head" needs a humanoid head');
  headRest = head.quaternion.clone();
}

const dt = 1 / 120;
const steps = 480;
const frames = [];
const tail = new THREE.Vector3();
const yawQ = new THREE.Quaternion();
scene.updateMatrixWorld(true);
manager.setInitState();
for (let k = 1; k <= steps; k++) {
  const t = k * dt;
  if (kase === 'head') {
    yawQ.setFromAxisAngle(new THREE.Vector3(0, 1, 0), (Math.PI / 3) * Math.sin(Math.PI * t));
    head.quaternion.copy(headRest).multiply(yawQ);
  } else if (kase === 'move') {
    scene.position.x = Math.sin(Math.PI * t);
  }
  // As an app's frame does: update the springs, then render (which
  // refreshes every world matrix). The springs therefore see the child
  // bones' world matrices of the previous frame, a three-vrm quirk that
  // tress-core reproduces with `vrm_length_quirk`.
  manager.update(dt);
  scene.updateMatrixWorld(true);
  const row = [];
  for (const j of joints) {
    if (j.child) j.child.getWorldPosition(tail);
    else tail.copy(j.initialLocalChildPosition).applyMatrix4(j.bone.matrixWorld);
    row.push(+tail.x.toFixed(6), +tail.y.toFixed(6), +tail.z.toFixed(6));
  }
  frames.push(row);
}

const out = {
  reference: 'pixiv three-vrm 3.5.5 + three 0.180.0 (tests/parity/package-lock.json)',
  model: path.basename(modelPath),
  case: kase,
  dt,
  steps,
  joints: joints.map((j) => ({
    node: nodeIndex.get(j.bone) ?? -1,
    name: j.bone.name,
    tail_node: j.child ? (nodeIndex.get(j.child) ?? -1) : null,
  })),
  tails: frames,
};
fs.mkdirSync(path.dirname(outPath), { recursive: true });
fs.writeFileSync(outPath, JSON.stringify(out));
console.log(`${path.basename(modelPath)} ${kase}: ${joints.length} joints × ${steps} steps → ${outPath}`);

// TIME_UPDATES=N: after the dump, N more steps of the same motion, timing
// only `manager.update` (the spring update a Tress step corresponds to),
// in batches of 1,000; prints the median batch in µs per update.
const timed = Number(process.env.TIME_UPDATES ?? 0);
if (timed > 0) {
  const batches = [];
  let k = steps;
  for (let b = 0; b < Math.ceil(timed / 1000); b++) {
    let ns = 0n;
    for (let i = 0; i < 1000; i++, k++) {
      const t = k * dt;
      if (kase === 'head') {
        yawQ.setFromAxisAngle(new THREE.Vector3(0, 1, 0), (Math.PI / 3) * Math.sin(Math.PI * t));
        head.quaternion.copy(headRest).multiply(yawQ);
      } else if (kase === 'move') {
        scene.position.x = Math.sin(Math.PI * t);
      }
      const t0 = process.hrtime.bigint();
      manager.update(dt);
      ns += process.hrtime.bigint() - t0;
      scene.updateMatrixWorld(true);
    }
    batches.push(Number(ns) / 1000 / 1000);
  }
  batches.sort((a, b) => a - b);
  const med = batches[Math.floor(batches.length / 2)];
  console.log(`${path.basename(modelPath)} ${kase}: three-vrm manager.update median ${med.toFixed(2)} µs per update (${batches.length} batches of 1000; min ${batches[0].toFixed(2)}, max ${batches[batches.length - 1].toFixed(2)})`);
}
