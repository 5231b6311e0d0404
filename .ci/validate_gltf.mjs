// Runs Khronos' glTF validator on every .glb and .gltf file under a folder and fails
// (exit 1) on any error or warning. Infos and hints are counted but allowed.
//
// Usage: node .ci/validate_gltf.mjs FOLDER   (gltf-validator installed under NODE_PATH)
import { createRequire } from "module";
import fs from "fs";
import path from "path";

const require = createRequire(path.resolve(process.env.NODE_PATH || process.cwd(), "x.js"));
const validator = require("gltf-validator");

const root = process.argv[2];
const files = [];
(function walk(d) {
  for (const e of fs.readdirSync(d, { withFileTypes: true })) {
    const p = path.join(d, e.name);
    if (e.isDirectory()) walk(p);
    else if (/\.(glb|gltf)$/i.test(e.name)) files.push(p);
  }
})(root);
files.sort();

let bad = 0, errors = 0, warnings = 0, infos = 0;
for (const f of files) {
  const report = await validator.validateBytes(new Uint8Array(fs.readFileSync(f)), {
    uri: f,
    maxIssues: 0,
    externalResourceFunction: (uri) =>
      new Promise((resolve, reject) => {
        try {
          resolve(new Uint8Array(fs.readFileSync(path.join(path.dirname(f), decodeURIComponent(uri)))));
        } catch (e) {
          reject(e.toString());
        }
      }),
  });
  const i = report.issues;
  errors += i.numErrors;
  warnings += i.numWarnings;
  infos += i.numInfos;
  if (i.numErrors + i.numWarnings > 0) {
    bad++;
    console.log(`${f}: ${i.numErrors} errors, ${i.numWarnings} warnings`);
    for (const m of i.messages.filter((m) => m.severity <= 1).slice(0, 10)) {
      console.log(`  ${m.severity === 0 ? "error" : "warning"} ${m.code} ${m.pointer || ""}: ${m.message}`);
    }
  }
}
console.log(
  `gltf-validator: ${files.length} files, ${bad} with errors or warnings (${errors} errors, ${warnings} warnings, ${infos} infos)`
);
process.exit(bad > 0 || files.length === 0 ? 1 : 0);
