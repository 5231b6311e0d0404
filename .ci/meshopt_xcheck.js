// Cross-check of our meshopt vertex codec against meshoptimizer's (npm `meshoptimizer`).
// node .ci/meshopt_xcheck.js encode DIR  -> rawN.bin (data) and jsN.bin (meshoptimizer-encoded, codec version 0 as glTF requires)
// node .ci/meshopt_xcheck.js decode DIR  -> decodes rsN.bin (ours) and compares with rawN.bin
const fs = require('fs');
const path = require('path');
const { MeshoptEncoder, MeshoptDecoder } = require('meshoptimizer');
const [mode, dir] = process.argv.slice(2);
(async () => {
  await MeshoptEncoder.ready; await MeshoptDecoder.ready;
  let bad = 0;
  for (const stride of [4, 8, 12, 16, 32]) {
    const count = 1234;
    if (mode === 'encode') {
      const raw = new Uint8Array(count * stride);
      let s = 12345;
      for (let i = 0; i < raw.length; i++) {
        s = (s * 1103515245 + 12345) >>> 0;
        // smooth-ish data with noise, like quantised positions
        raw[i] = ((i / stride | 0) * (i % stride + 1) + ((s >>> 16) % 5)) & 255;
      }
      fs.writeFileSync(path.join(dir, `raw${stride}.bin`), raw);
      fs.writeFileSync(path.join(dir, `js${stride}.bin`), MeshoptEncoder.encodeGltfBuffer(raw, count, stride, "ATTRIBUTES", 0));
    } else {
      const raw = fs.readFileSync(path.join(dir, `raw${stride}.bin`));
      const ours = fs.readFileSync(path.join(dir, `rs${stride}.bin`));
      const js = fs.readFileSync(path.join(dir, `js${stride}.bin`));
      const out = new Uint8Array(count * stride);
      MeshoptDecoder.decodeVertexBuffer(out, count, stride, ours);
      const same = Buffer.compare(Buffer.from(out), raw) === 0;
      const sameBytes = Buffer.compare(ours, js) === 0;
      console.log(`stride ${stride}: decoded ${same ? 'exact' : 'DIFFERENT'}, encoded bytes ${sameBytes ? 'identical to' : 'differ from'} meshoptimizer's (${ours.length} vs ${js.length})`);
      if (!same) bad++;
    }
  }
  process.exit(bad ? 1 : 0);
})();
