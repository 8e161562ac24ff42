// Runs the golden digests in WebAssembly: instantiates the tress-golden-wasm
// module, calls both exports and checks them against the committed constants.
//
//   node tools/golden-wasm/run.mjs [MODULE.wasm]
//
// Prints `spring: 0x…` and `strand: 0x…` (as the host golden test does) and
// `wasm32: N passed, M failed`; exits 1 unless both match.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const path = process.argv[2] ??
  join(here, "target/wasm32-unknown-unknown/release/tress_golden_wasm.wasm");

// The committed constants, from crates/tress-golden/src/lib.rs: the same
// on every platform.
const lib = readFileSync(join(here, "../../crates/tress-golden/src/lib.rs"), "utf8");
const constant = (name) => {
  const m = lib.match(new RegExp(`pub const ${name}: u64 = (0x[0-9a-f_]+);`));
  if (!m) throw new Error(`${name} not found in tress-golden`);
  return BigInt(m[1].replaceAll("_", ""));
};

const { instance } = await WebAssembly.instantiate(readFileSync(path), {});
const hex = (v) => "0x" + BigInt.asUintN(64, v).toString(16).padStart(16, "0");
let passed = 0;
for (const [name, want] of [["spring", "SPRING_DIGEST"], ["strand", "STRAND_DIGEST"]]) {
  const got = BigInt.asUintN(64, instance.exports[`tress_${name}_digest`]());
  const committed = constant(want);
  console.log(`${name}: ${hex(got)}`);
  if (got === committed) passed += 1;
  else console.error(`${name}: digest ${hex(got)}, committed ${hex(committed)}`);
}
console.log(`wasm32: ${passed} passed, ${2 - passed} failed`);
process.exit(passed === 2 ? 0 : 1);
