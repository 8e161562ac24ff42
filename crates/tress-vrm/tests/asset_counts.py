#!/usr/bin/env python3
"""Independent reference for tests/assets.rs: reads each file's glTF JSON with
Python's json module (no Tress code) and prints the counts the test checks.

Run from the repository root:  python3 crates/tress-vrm/tests/asset_counts.py
"""
import json, os, struct, sys

ROOT = sys.argv[1] if len(sys.argv) > 1 else "../shared/assets"


def load(p):
    b = open(p, "rb").read()
    if b[:4] == b"glTF":
        n = struct.unpack("<I", b[12:16])[0]
        return json.loads(b[20 : 20 + n])
    return json.loads(b)


def counts(j):
    nodes = j.get("nodes", [])
    e = j.get("extensions", {})
    hum = springs = joints = 0
    shapes = {}
    if "VRMC_vrm" in e:
        hum = len(e["VRMC_vrm"]["humanoid"]["humanBones"])
    if "VRMC_vrm_animation" in e:
        hum = len(e["VRMC_vrm_animation"].get("humanoid", {}).get("humanBones", {}))
    if "VRM" in e:
        v = e["VRM"]
        hum = len({b["bone"] for b in v["humanoid"]["humanBones"]})
        sa = v.get("secondaryAnimation", {})
        for g in sa.get("boneGroups", []):
            for r in g["bones"]:
                # every descendant of a root is a joint; each extra child starts a chain
                stack = [r]
                springs += 1
                while stack:
                    n = stack.pop()
                    joints += 1
                    kids = nodes[n].get("children", [])
                    springs += max(0, len(kids) - 1)
                    stack.extend(kids)
        for g in sa.get("colliderGroups", []):
            shapes["sphere"] = shapes.get("sphere", 0) + len(g["colliders"])
    if "VRMC_springBone" in e:
        s = e["VRMC_springBone"]
        springs += len(s.get("springs", []))
        joints += sum(len(x["joints"]) for x in s.get("springs", []))
        for c in s.get("colliders", []):
            ext = c.get("extensions", {}).get("VRMC_springBone_extended_collider")
            sh = (ext or c)["shape"]
            k = next(iter(sh))
            if sh[k].get("inside"):
                k = "inside" + k[0].upper() + k[1:]
            shapes[k] = shapes.get(k, 0) + 1
    cons = sum(1 for n in nodes if "VRMC_node_constraint" in n.get("extensions", {}))
    return len(nodes), hum, springs, joints, shapes, cons, len(j.get("animations", []))


for d in sorted(os.listdir(ROOT)):
    p = os.path.join(ROOT, d)
    if not os.path.isdir(p):
        continue
    for f in sorted(os.listdir(p)):
        if f.rsplit(".", 1)[-1] in ("vrm", "glb", "gltf", "vrma"):
            print(f"{d}/{f}", *counts(load(os.path.join(p, f))))
