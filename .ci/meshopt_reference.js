// Decodes every meshopt-compressed buffer view of a .glb with meshoptimizer's own decoder
// (npm `meshoptimizer`, the reference) and writes the file without the extension: one
// binary chunk holding every view's bytes, decoded where they were compressed. The
// importer's reading of the compressed file must equal its reading of this one.
//   NODE_PATH=target/npm/node_modules node .ci/meshopt_reference.js IN.glb OUT.glb
const fs = require('fs');
const { MeshoptDecoder } = require('meshoptimizer');

const [input, output] = process.argv.slice(2);
const glb = fs.readFileSync(input);
if (glb.toString('latin1', 0, 4) !== 'glTF') throw new Error(`${input}: not a .glb`);
const jsonLength = glb.readUInt32LE(12);
const json = JSON.parse(glb.toString('utf8', 20, 20 + jsonLength));
const binAt = 20 + jsonLength;
const bin = binAt + 8 <= glb.length ? glb.subarray(binAt + 8, binAt + 8 + glb.readUInt32LE(binAt)) : null;
(async () => {
await MeshoptDecoder.ready;
const names = ['EXT_meshopt_compression', 'KHR_meshopt_compression'];
const ext = (o) => names.map((n) => o.extensions?.[n]).find((e) => e);
const bufferBytes = (i) => {
  if (json.buffers[i].uri) throw new Error(`buffer ${i} is a side file`);
  return bin;
};
const parts = [];
let total = 0;
for (const view of json.bufferViews) {
  const e = ext(view);
  let bytes;
  if (e) {
    const src = bufferBytes(e.buffer).subarray(e.byteOffset ?? 0, (e.byteOffset ?? 0) + e.byteLength);
    const out = new Uint8Array(e.count * e.byteStride);
    MeshoptDecoder.decodeGltfBuffer(out, e.count, e.byteStride, src, e.mode, e.filter ?? 'NONE');
    bytes = Buffer.from(out);
    delete view.extensions;
  } else {
    bytes = bufferBytes(view.buffer).subarray(view.byteOffset ?? 0, (view.byteOffset ?? 0) + view.byteLength);
  }
  total = (total + 3) & ~3;
  view.buffer = 0;
  view.byteOffset = total;
  view.byteLength = bytes.length;
  parts.push([total, bytes]);
  total += bytes.length;
}
total = (total + 3) & ~3;
const blob = Buffer.alloc(total);
for (const [at, b] of parts) b.copy ? b.copy(blob, at) : blob.set(b, at);
json.buffers = [{ byteLength: total }];
for (const k of ['extensionsUsed', 'extensionsRequired']) {
  if (json[k]) json[k] = json[k].filter((n) => !names.includes(n));
  if (json[k] && json[k].length === 0) delete json[k];
}
let text = Buffer.from(JSON.stringify(json));
text = Buffer.concat([text, Buffer.alloc((4 - (text.length % 4)) % 4, 0x20)]);
const head = Buffer.alloc(12);
head.write('glTF', 0, 'latin1');
head.writeUInt32LE(2, 4);
head.writeUInt32LE(12 + 8 + text.length + 8 + blob.length, 8);
const chunk = (type, data) => {
  const h = Buffer.alloc(8);
  h.writeUInt32LE(data.length, 0);
  h.write(type, 4, 'latin1');
  return Buffer.concat([h, data]);
};
fs.writeFileSync(output, Buffer.concat([head, chunk('JSON', text), chunk('BIN\0', blob)]));
})();
