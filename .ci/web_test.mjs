// Browser tests of the web app in Debian's headless Chromium, driven by playwright-core.
//
//   node .ci/web_test.mjs BASE_URL CORPUS OUT_DIR [--webgpu] [--bench]
//
// BASE_URL is `retromodel web` serving the built app (web/build.sh) with no PATH. For each
// case the files are given to the page's file input (as a user picks them); then:
// - the canvas shows the model: share of pixels unlike the background, and the colour spread
//   of those pixels (a skin, not the flat grey of an untextured draw) from a screenshot;
// - while the clip plays, two screenshots 0.5 s apart differ; paused, they are equal;
// - the info panel has plain-words rows (no Rust debug formatting);
// - the .glb export downloads into OUT_DIR (the Khronos validator checks it afterwards).
// Then a truncated file shows the library's error and the page stays usable (the next file
// loads and draws); a file that panics the module (PANIC_PK3) shows an error naming it, and
// the next file loads, draws and plays on a fresh instance of the module. --webgpu runs
// Chromium with WebGPU on SwiftShader's Vulkan instead of WebGL2. With SERVED_URL set
// (`retromodel web MODEL` serving, its printed URL), the served mode is checked too; --bench
// then prints time to first frame and frames per second.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

// playwright-core from NODE_PATH (target/npm/node_modules), where .ci/run installs it.
const require = createRequire(path.resolve(process.env.NODE_PATH || 'target/npm/node_modules') + '/');
const { chromium } = require('playwright-core');

const args = process.argv.slice(2);
const [base, corpus, outDir] = args.filter((a) => !a.startsWith('--'));
const webgpu = args.includes('--webgpu');
const bench = args.includes('--bench');
fs.mkdirSync(outDir, { recursive: true });

const chromeArgs = webgpu
  ? ['--enable-unsafe-webgpu', '--enable-features=Vulkan', '--use-vulkan=swiftshader', '--use-angle=swiftshader', '--ignore-gpu-blocklist']
  : ['--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist'];
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', ...chromeArgs],
});
const page = await browser.newPage({ viewport: { width: 900, height: 640 }, acceptDownloads: true });
const consoleErrors = [];
page.on('console', (m) => {
  if (m.type() === 'error') consoleErrors.push(m.text());
});
page.on('pageerror', (e) => consoleErrors.push(String(e)));

let failures = 0;
function check(ok, what) {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures += 1;
}

const url = base + (webgpu ? '' : '?backend=webgl');
const t0 = Date.now();
await page.goto(url);
await page.waitForFunction(() => ['ready', 'failed'].includes(document.body.dataset.state), null, { timeout: 60000 });
const state = await page.evaluate(() => document.body.dataset.state);
const adapter = await page.evaluate(() => (window.retromodel.viewer ? window.retromodel.viewer.adapter() : document.getElementById('message').textContent));
console.log(`page ready in ${Date.now() - t0} ms: ${adapter}`);
check(state === 'ready', `the viewer starts (${adapter})`);
if (state !== 'ready') {
  await browser.close();
  process.exit(1);
}
if (webgpu) check(adapter.startsWith('WebGPU'), 'WebGPU adapter');
else check(adapter.startsWith('WebGL2'), 'WebGL2 adapter');

// Coverage and colour statistics of a PNG screenshot, decoded in the page.
async function stats(png) {
  return page.evaluate(async (b64) => {
    const img = new Image();
    img.src = 'data:image/png;base64,' + b64;
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.width;
    c.height = img.height;
    const g = c.getContext('2d');
    g.drawImage(img, 0, 0);
    const d = g.getImageData(0, 0, c.width, c.height).data;
    // The background: 0.16, 0.17, 0.19 of 255.
    const bg = [41, 43, 48];
    let covered = 0;
    let coloured = 0;
    const sum = [0, 0, 0];
    const sq = [0, 0, 0];
    for (let i = 0; i < d.length; i += 4) {
      if (Math.abs(d[i] - bg[0]) + Math.abs(d[i + 1] - bg[1]) + Math.abs(d[i + 2] - bg[2]) > 12) {
        covered += 1;
        if (Math.max(d[i], d[i + 1], d[i + 2]) - Math.min(d[i], d[i + 1], d[i + 2]) > 12) coloured += 1;
        for (let k = 0; k < 3; k++) {
          sum[k] += d[i + k];
          sq[k] += d[i + k] * d[i + k];
        }
      }
    }
    const n = Math.max(covered, 1);
    const mean = sum.map((s) => s / n);
    const spread = Math.sqrt(sq.reduce((a, s, k) => a + s / n - mean[k] * mean[k], 0) / 3);
    // The untextured draw is grey: no pixel has colour.
    return { coverage: covered / (d.length / 4), mean, spread, coloured: coloured / n };
  }, png.toString('base64'));
}

const shot = () => page.locator('#view').screenshot();
const loads = () => page.evaluate(() => Number(document.body.dataset.loads || 0));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const waitLoad = (before) =>
  page.waitForFunction((n) => Number(document.body.dataset.loads || 0) > n, before, { timeout: 120000 });

// Gives `files` to the file input (or the folder `dir` to the folder input), waits for the
// open; then opens `open` from the model list when given.
async function give(files, dir, open) {
  let before = await loads();
  if (dir) await page.setInputFiles('#folder-input', dir);
  else await page.setInputFiles('#file-input', files);
  await waitLoad(before);
  if (open) {
    before = await loads();
    await page.click(`#model-list li[data-path="${open}"]`);
    await waitLoad(before);
  }
  return page.evaluate(() => ({
    state: document.body.dataset.state,
    message: document.getElementById('message').textContent,
    error: document.getElementById('message').className === 'error',
  }));
}

async function setPlaying(yes) {
  const label = await page.textContent('#play');
  if ((label === 'Pause') !== yes) await page.click('#play');
}

const c = (p) => path.join(corpus, p);
const cases = [
  {
    name: 'Quake MDL (LibreQuake ogre)',
    files: [c('quake_mdl/github-pnahratow-LibreQuake/lq1/progs/ogre.mdl')],
    ext: 'mdl',
  },
  {
    name: 'MD2 with its two JPEG skins (UFO:AI civilian)',
    files: ['body03.md2', 'body03a.jpg', 'body03b.jpg'].map((f) =>
      c('md2/debian-ufoai-data/ufoai/base/0models.pk3/models/civilians/female/' + f),
    ),
    ext: 'md2',
    skins: 2,
  },
  {
    // A folder, as "Open folder" gives it: the .cfg in hwep/ names the skin.
    name: 'MD5 mesh with its animations, from its folder (Red Eclipse zapper)',
    dir: c('md5/debian-redeclipse-data/redeclipse/data/weapons/zapper'),
    open: 'zapper/mesh.md5mesh',
    ext: 'md5mesh',
    clip: 'shoot',
  },
  {
    name: '3D GameStudio MDL4 (libgamestudio golem)',
    files: [c('3dgs_mdl/github-ikskuh-libgamestudio/data/mdl/mdl4-golem.mdl')],
    ext: 'mdl',
  },
  {
    name: 'MD3 with its .skin and texture (OpenArena sarge legs)',
    files: [
      'models/players/sarge/lower.md3',
      'models/players/sarge/lower_default.skin',
      'models/players/grism/enkiskin.tga',
    ].map((f) => c('md3/debian-openarena-data/openarena/baseoa/pak0.pk3/' + f)),
    ext: 'md3',
  },
  {
    // Issue 41: a GoldSrc model with its textures in manT.mdl, given together; the walk
    // sequence plays; exported to MD3 (the skeleton baked into frames).
    name: 'Half-Life MDL with its texture file (Assimp man.mdl + manT.mdl)',
    files: ['man.mdl', 'manT.mdl'].map((f) => c('assimp/test/models/MDL/MDL (HL1)/' + f)),
    clip: 'walk',
    ext: 'md3',
  },
];
// glTF and OBJ files that .ci/web.sh converted from the ogre with the CLI (INTERCHANGE_DIR):
// opened through the registry like any model. An OBJ is one pose: it does not play.
const inter = process.env.INTERCHANGE_DIR;
if (inter) {
  cases.push(
    { name: 'glTF binary written by the CLI (ogre.glb)', files: [path.join(inter, 'ogre.glb')], ext: 'glb' },
    // Issue 43: another tool's meshopt-compressed file, decoded by the module.
    { name: "gltfpack -cc's EXT_meshopt_compression file of it (ogre.cc.glb)", files: [path.join(inter, 'ogre.cc.glb')], ext: 'md2' },
    {
      name: 'OBJ with its .mtl and PNG skin written by the CLI (ogre.obj)',
      files: ['ogre.obj', 'ogre.mtl', 'ogre_skin0.png'].map((f) => path.join(inter, f)),
      ext: 'obj',
      still: true,
    },
  );
}

for (const t of cases) {
  console.log(`\n== ${t.name}`);
  const r = await give(t.files, t.dir, t.open);
  check(r.state === 'loaded', `opens (${r.state}: ${r.message.split('\n')[0]})`);
  if (r.state !== 'loaded') continue;
  if (t.clip) {
    const idx = await page.evaluate((name) => window.retromodel.info.clips.findIndex((c) => c.name === name), t.clip);
    await page.selectOption('#clip', String(Math.max(idx, 0)));
  }
  await setPlaying(true);
  await sleep(400);
  const a = await shot();
  const s = await stats(a);
  console.log(
    `   coverage ${(s.coverage * 100).toFixed(2)} %, mean ${s.mean.map((x) => x.toFixed(1)).join('/')}, spread ${s.spread.toFixed(1)}, coloured ${(s.coloured * 100).toFixed(1)} %`,
  );
  check(s.coverage > 0.02, 'the canvas shows the model (over 2 % of the pixels)');
  check(s.spread > 8 && s.coloured > 0.05, 'the model shows its skin (colour spread over 8, over 5 % of its pixels not grey)');
  await sleep(500);
  const b = await shot();
  if (!t.still) check(!a.equals(b), 'playing: two screenshots 0.5 s apart differ');
  await setPlaying(false);
  await sleep(200);
  const p1 = await shot();
  await sleep(500);
  const p2 = await shot();
  check(p1.equals(p2), 'paused: two screenshots 0.5 s apart are equal');
  if (t.skins) {
    const options = await page.$$eval('#skin option', (o) => o.length);
    check(options === t.skins + 1, `skin list: ${options - 1} skins`);
    await page.selectOption('#skin', '1');
    await sleep(300);
    const other = await shot();
    check(!other.equals(p2), 'another skin changes the picture');
    await page.selectOption('#skin', '-1');
  }
  await page.check('#wireframe');
  await sleep(300);
  const wire = await shot();
  check(!wire.equals(p2), 'wireframe changes the picture');
  await page.uncheck('#wireframe');
  await setPlaying(true);
  const rows = await page.$$eval('#info tr', (trs) => trs.map((tr) => tr.textContent));
  // Warnings are the library's messages (they quote names); everything else is words.
  const debugLike = rows.filter((x) => !x.startsWith('Warning') && /Some\(|\bNone\b|\[|\{|"/.test(x));
  check(rows.length >= 4 && debugLike.length === 0, `info panel in plain words (${rows.length} rows${debugLike.length ? ': ' + debugLike[0] : ''})`);
  await page.selectOption('#export-format', 'glb');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export')]);
  const name = `${cases.indexOf(t)}_${download.suggestedFilename()}`;
  await download.saveAs(path.join(outDir, name));
  const size = fs.statSync(path.join(outDir, name)).size;
  check(size > 1000, `exported ${name} (${size} bytes)`);
  if (t.ext) {
    await page.selectOption('#export-format', t.ext === 'md5mesh' ? 'md5mesh' : t.ext === 'mdl' ? 'mdl:quake' : t.ext);
    const [d2] = await Promise.all([page.waitForEvent('download'), page.click('#export')]);
    check(/\.(mdl|md2|md3|md5mesh|glb|zip)$/.test(d2.suggestedFilename()), `exported as ${d2.suggestedFilename()}`);
  }
}

// Issue 43, criterion 3: gltfpack's -cc file opens with the counts of gltfpack's
// uncompressed file of the same model (the info panel's size, animation, clip, skeleton and
// skin rows).
if (inter) {
  console.log("\n== gltfpack -cc (meshopt) against gltfpack's uncompressed file");
  const counted = async (file) => {
    const r = await give([path.join(inter, file)]);
    check(r.state === 'loaded', `${file} opens (${r.state}: ${r.message.split('\n')[0]})`);
    const rows = await page.evaluate(() => window.retromodel.info.rows);
    return rows.filter(([k]) => /^(Size|Animation|Clip|Skeleton|Skins)$/.test(k)).map((r) => r.join(': '));
  };
  const plain = await counted('ogre.plain.glb');
  const packed = await counted('ogre.cc.glb');
  console.log(`   ${packed.join(' | ')}`);
  check(plain.length >= 3 && JSON.stringify(plain) === JSON.stringify(packed), `the same counts (${packed.length} rows)`);
}

// Issue 39: the page writes what the command line writes. A glTF file in metres (made by the
// CLI from the ogre at 1/40 scale, METRES_GLB) exported to Quake MDL equals the CLI's
// conversion of it (METRES_MDL): both scale metres to game units.
const metres = process.env.METRES_GLB;
if (metres) {
  console.log('\n== a glTF file in metres exported to Quake MDL, as the CLI converts it');
  const r = await give([metres]);
  check(r.state === 'loaded', `opens (${r.state})`);
  await page.selectOption('#export-format', 'mdl:quake');
  const [d] = await Promise.all([page.waitForEvent('download'), page.click('#export')]);
  const saved = path.join(outDir, 'metres_' + d.suggestedFilename());
  await d.saveAs(saved);
  const ours = fs.readFileSync(saved);
  const cli = fs.readFileSync(process.env.METRES_MDL);
  check(ours.equals(cli), `the page's ${d.suggestedFilename()} equals the CLI's (${ours.length} and ${cli.length} bytes)`);
}
// The page lists every format the registry reads (READ_EXTS: `retromodel formats --json`).
const readExts = (process.env.READ_EXTS || '').split(',').filter(Boolean);
if (readExts.length) {
  const text = await page.$eval('#formats', (e) => e.textContent);
  const missing = readExts.filter((e) => !text.includes('.' + e));
  check(missing.length === 0, `the page lists every readable format (${readExts.length} extensions${missing.length ? '; missing: ' + missing.join(' ') : ''})`);
}

console.log('\n== a truncated file, then the next file');
{
  const bytes = fs.readFileSync(cases[1].files[0]);
  const before = await loads();
  await page.setInputFiles('#file-input', [{ name: 'truncated.md2', mimeType: 'application/octet-stream', buffer: bytes.subarray(0, 5000) }]);
  await page.waitForFunction((n) => Number(document.body.dataset.loads || 0) > n, before, { timeout: 60000 });
  const r = await page.evaluate(() => ({
    state: document.body.dataset.state,
    cls: document.getElementById('message').className,
    text: document.getElementById('message').textContent,
  }));
  console.log(`   message: ${r.text}`);
  check(r.state === 'error' && r.cls === 'error', 'the page shows an error');
  check(/truncated\.md2: md2: .*(offset|byte)/i.test(r.text), 'the error is the library\'s text: file, format, offset');
  const next = await give(cases[0].files);
  check(next.state === 'loaded', 'the next file loads');
  await sleep(300);
  const s = await stats(await shot());
  check(s.coverage > 0.02, 'and draws');
}

// Issue 44: a panic in the module (it aborts: the instance traps) is an error for that file,
// and the page goes on. PANIC_PK3 (.ci/web.sh) holds an MD2 (PANIC_MODEL) whose skin is a
// JPEG that zune-jpeg panics on; opened from the list, the page names the file, makes a fresh
// module instance, and the next file opens and draws.
const panicPk3 = process.env.PANIC_PK3;
if (panicPk3) {
  console.log('\n== a file that panics the module, then the next file');
  const errorsBefore = consoleErrors.length;
  const model = process.env.PANIC_MODEL;
  const r = await give([panicPk3], undefined, model);
  console.log(`   message: ${r.message}`);
  check(r.state === 'error' && r.error, `the page shows an error (${r.state})`);
  check(r.message.includes(path.basename(panicPk3)) && r.message.includes(model), 'the error names the file and the model in it');
  check(/panicked at/.test(r.message), 'the error gives the panic');
  const restarts = await page.evaluate(() => Number(document.body.dataset.restarts || 0));
  check(restarts === 1, `the module was made again (${restarts} restart)`);
  const crashed = await page.$$eval('#model-list li.crashed', (li) => li.map((x) => x.dataset.path));
  check(crashed.length === 1 && crashed[0] === model, `the model is marked in the list (${crashed.join(', ')})`);
  // The panic's own console message is expected; anything else stays an error.
  const panics = consoleErrors.splice(errorsBefore).filter((m) => {
    if (/panicked at/.test(m)) return true;
    consoleErrors.push(m);
    return false;
  });
  check(panics.length === 1, `the panic went to the console (${panics.length} message)`);
  const next = await give(cases[0].files);
  check(next.state === 'loaded', `the next file loads (${next.state}: ${next.message.split('\n')[0]})`);
  await setPlaying(true);
  await sleep(400);
  const a = await shot();
  const s = await stats(a);
  console.log(`   coverage ${(s.coverage * 100).toFixed(2)} %, spread ${s.spread.toFixed(1)}, coloured ${(s.coloured * 100).toFixed(1)} %`);
  check(s.coverage > 0.02 && s.spread > 8 && s.coloured > 0.05, 'and draws with its skin');
  await sleep(500);
  check(!a.equals(await shot()), 'and plays');
}

const servedUrl = process.env.SERVED_URL;
if (servedUrl) {
  // `retromodel web PATH` (PATH a model file: its folder is listed, the model opened through
  // `?open=`): the page lists the folder's models and opens the model with the side files
  // the server bundles. Timed from navigation: the first frame of the model; then frames
  // per second while its clip plays.
  console.log(`\n== served by retromodel web: ${servedUrl}`);
  const p = await browser.newPage({ viewport: { width: 900, height: 640 } });
  p.on('pageerror', (e) => consoleErrors.push(String(e)));
  const start = Date.now();
  await p.goto(servedUrl + (webgpu ? '' : '&backend=webgl'));
  await p.waitForFunction(() => window.retromodel && window.retromodel.firstFrameAt !== null, null, { timeout: 120000 });
  const wall = Date.now() - start;
  const first = await p.evaluate(() => window.retromodel.firstFrameAt);
  const listed = await p.$$eval('#model-list li', (li) => li.length);
  check(listed > 1, `the served folder's models are listed (${listed})`);
  check((await p.evaluate(() => document.body.dataset.state)) === 'loaded', 'the model given with ?open= opens');
  const s = await p.evaluate(async () => {
    const r = await fetch('pkg/retromodel_web_bg.wasm');
    return { type: r.headers.get('content-type'), size: (await r.arrayBuffer()).byteLength };
  });
  check(s.type === 'application/wasm' && s.size > 100000, `the module is served as ${s.type} (${s.size} bytes)`);
  await sleep(1000);
  const f0 = await p.evaluate(() => JSON.parse(window.retromodel.viewer.status()).frames);
  await sleep(5000);
  const f1 = await p.evaluate(() => JSON.parse(window.retromodel.viewer.status()).frames);
  if (bench) console.log(JSON.stringify({ url: servedUrl, first_frame_ms: Math.round(first), wall_ms: wall, fps: (f1 - f0) / 5 }));
}

check(consoleErrors.length === 0, `no console errors${consoleErrors.length ? ': ' + consoleErrors.slice(0, 3).join(' | ') : ''}`);
await browser.close();
console.log(failures ? `\n${failures} checks failed` : '\nall browser checks passed');
process.exit(failures ? 1 : 0);
