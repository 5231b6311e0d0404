// Issue 16: three.js's GLTFLoader reads a quantised GLB (KHR_mesh_quantization, sparse
// morph targets, dequantisation in the node transform) with the poses of the float one.
// Loads both (textures dropped: node has no image decoder) and compares every morph pose's
// world positions; fails when they differ by more than TOLERANCE or the pose counts differ.
// meshopt-compressed files (issue 43) load through meshoptimizer's MeshoptDecoder; as
// `--compress` welds and reorders vertices, meshes are compared by their `_SOURCE_VERTEX`
// when both files have it (the file vertex each glTF vertex came from: every
// glTF vertex of one file vertex must be where the other file puts that file vertex).
//
// Usage: node .ci/three_compare.mjs FLOAT.glb QUANTISED.glb TOLERANCE   (three under NODE_PATH)
import fs from "fs";
import path from "path";
const modules = process.env.NODE_PATH || "node_modules";
const THREE = await import(path.resolve(modules, "three/build/three.module.js"));
const { GLTFLoader } = await import(path.resolve(modules, "three/examples/jsm/loaders/GLTFLoader.js"));
function strip(buf) {
  const jl = buf.readUInt32LE(12);
  const j = JSON.parse(buf.slice(20, 20 + jl).toString());
  delete j.images; delete j.textures; delete j.samplers; delete j.materials;
  for (const m of j.meshes || []) for (const p of m.primitives) { delete p.material; delete p.extensions; }
  if (j.extensionsUsed) j.extensionsUsed = j.extensionsUsed.filter((e) => e !== "KHR_materials_variants");
  delete j.extensions;
  let js = Buffer.from(JSON.stringify(j)); while (js.length % 4) js = Buffer.concat([js, Buffer.from(" ")]);
  const rest = buf.slice(20 + jl);
  const head = Buffer.alloc(20); head.write("glTF", 0); head.writeUInt32LE(2, 4); head.writeUInt32LE(20 + js.length + rest.length, 8); head.writeUInt32LE(js.length, 12); head.write("JSON", 16);
  const out = Buffer.concat([head, js, rest]);
  return out.buffer.slice(out.byteOffset, out.byteOffset + out.byteLength);
}
let decoder = null;
try {
  decoder = (await import(path.resolve(modules, "meshoptimizer/meshopt_decoder.mjs"))).MeshoptDecoder;
} catch (e) {
  // Without meshoptimizer only uncompressed files load.
}
function load(path) {
  const loader = new GLTFLoader();
  if (decoder) loader.setMeshoptDecoder(decoder);
  return new Promise((res, rej) => loader.parse(strip(fs.readFileSync(path)), "", res, rej));
}
function poses(gltf) {
  gltf.scene.updateMatrixWorld(true);
  const out = [];
  gltf.scene.traverse((o) => {
    if (!o.isMesh) return;
    const g = o.geometry, p = g.attributes.position, t = g.morphAttributes.position || [];
    const source = g.attributes._source_vertex;
    const rel = g.morphTargetsRelative;
    const v = new THREE.Vector3(), d = new THREE.Vector3();
    for (let k = -1; k < t.length; k++) {
      const pose = [];
      for (let i = 0; i < p.count; i++) {
        v.fromBufferAttribute(p, i);
        if (k >= 0) { d.fromBufferAttribute(t[k], i); if (rel) v.add(d); else v.copy(d); }
        v.applyMatrix4(o.matrixWorld); pose.push(v.toArray());
      }
      pose.source = source ? Array.from({ length: p.count }, (_, i) => source.getX(i)) : null;
      out.push(pose);
    }
  });
  return out;
}
const [a, b] = await Promise.all([load(process.argv[2]), load(process.argv[3])]);
const pa = poses(a), pb = poses(b);
let worst = pa.length === pb.length ? 0 : Infinity;
for (let k = 0; k < Math.min(pa.length, pb.length); k++) {
  if (pa[k].source && pb[k].source) {
    // Welded: where the first file puts each file vertex, against every vertex of the second.
    const at = new Map();
    pa[k].forEach((q, i) => at.set(pa[k].source[i], q));
    pb[k].forEach((q, i) => {
      const r = at.get(pb[k].source[i]);
      if (!r) worst = Infinity;
      else for (let c = 0; c < 3; c++) worst = Math.max(worst, Math.abs(q[c] - r[c]));
    });
    continue;
  }
  if (pa[k].length !== pb[k].length) worst = Infinity;
  for (let i = 0; i < Math.min(pa[k].length, pb[k].length); i++)
    for (let c = 0; c < 3; c++) worst = Math.max(worst, Math.abs(pa[k][i][c] - pb[k][i][c]));
}
const tolerance = Number(process.argv[4]);
console.log(
  `three.js r${THREE.REVISION}: ${process.argv[3]}: ${pb.length} poses, at most ${worst} from ${process.argv[2]}'s ${pa.length} (tolerance ${tolerance})`
);
process.exit(pa.length === pb.length && pa.length > 0 && worst <= tolerance ? 0 : 1);
