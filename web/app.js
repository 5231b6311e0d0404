// The retromodel web app: the page around the WebAssembly viewer (crates/retromodel-web).
// Files stay in the browser: they are read with the File API and handed to the module, which
// parses, converts, renders (WebGPU or WebGL2) and writes exports; downloads are blobs.
//
// Served by `retromodel web [PATH]`, the page also lists PATH's models (api/models) and fetches
// a model with the side files it needs (api/bundle) when one is picked.
//
// A panic in the module (a hostile file the library does not refuse cleanly) aborts: the
// WebAssembly instance traps (`RuntimeError: unreachable`) and is unusable afterwards (stable
// Rust cannot unwind on wasm32-unknown-unknown). The page then makes a fresh instance on a
// fresh canvas, adds again every file kept here (`app.files`) but the culprit, opens again the
// model that was on screen, and shows an error naming the file (`recover`).
//
// URL parameters: backend=webgl (skip WebGPU), open=PATH (open a served model at once).
// body[data-state]: starting, ready, loaded, error, failed; body[data-loads] counts finished
// open attempts (the browser tests wait on it); body[data-restarts] counts the module
// instances made after a trap.

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const app = {
  viewer: null,
  // The glue module (wasm-bindgen's JavaScript) of the live instance, and how many were made.
  glue: null,
  instances: 0,
  restarts: 0,
  // Every file added to the module, path -> bytes, to add again to a fresh instance.
  files: new Map(),
  // Models that trapped the module, path -> the error shown (marked in the list).
  crashed: new Map(),
  preferMd5: params.get('prefer') === 'md5',
  info: null,
  current: null,
  served: false,
  servedList: [],
  playing: true,
  loads: 0,
  // performance.now() of the first frame drawn after a model opened, and of the open call.
  openedAt: null,
  firstFrameAt: null,
  fps: 0,
};
window.retromodel = app;

function setState(state) {
  document.body.dataset.state = state;
}

function message(text, kind = '') {
  const m = $('message');
  m.textContent = text;
  m.className = kind;
}

function finishedLoad(state) {
  app.loads += 1;
  document.body.dataset.loads = String(app.loads);
  setState(state);
}

function sizeCanvas() {
  const c = $('view');
  const dpr = window.devicePixelRatio || 1;
  const w = Math.max(1, Math.round(c.clientWidth * dpr));
  const h = Math.max(1, Math.round(c.clientHeight * dpr));
  if (c.width !== w || c.height !== h) {
    c.width = w;
    c.height = h;
    app.viewer?.resize(w, h);
  }
}

function fmtSize(n) {
  if (n >= 1 << 20) return (n / (1 << 20)).toFixed(1) + ' MB';
  if (n >= 1024) return (n / 1024).toFixed(1) + ' KB';
  return n + ' bytes';
}

// --- the model list ---------------------------------------------------------------------

function renderModelList(models) {
  const ul = $('model-list');
  ul.textContent = '';
  for (const m of models) {
    const li = document.createElement('li');
    li.textContent = `${m.path} (${fmtSize(m.size)})`;
    li.dataset.path = m.path;
    if (m.source) li.dataset.source = m.source;
    if (app.crashed.has(m.path)) {
      li.textContent += ' (crashed the viewer)';
      li.title = app.crashed.get(m.path);
    }
    li.className = liClass(m.path);
    li.addEventListener('click', () => (app.served && m.served ? openServed(m.path) : openModel(m.path)));
    ul.appendChild(li);
  }
  $('model-count').textContent = `(${models.length})`;
  $('models-section').hidden = models.length === 0;
}

function liClass(path) {
  return [path === app.current ? 'current' : '', app.crashed.has(path) ? 'crashed' : ''].join(' ').trim();
}

function markCurrent() {
  for (const li of $('model-list').children) li.className = liClass(li.dataset.path);
}

// The model list after a change of files: the module's models, then the served models not
// fetched yet.
function listModels() {
  const models = JSON.parse(app.viewer.models());
  const have = new Set(models.map((m) => m.path.toLowerCase()));
  renderModelList([...models, ...app.servedList.filter((m) => !have.has(m.path.toLowerCase()))]);
  return models;
}

// --- opening ----------------------------------------------------------------------------

// Opens `path` in the module and shows it: its info, or throws (the library's error, or a
// trap).
function show(path) {
  const info = JSON.parse(app.viewer.open(path));
  app.info = info;
  app.current = path;
  showModel(info);
  app.openedAt = performance.now();
  app.firstFrameAt = null;
  markCurrent();
  return info;
}

// Opens `path` as the user's action: the message and the finished load. `added` are the
// files of the action (named when the module traps).
async function openModel(path, added = []) {
  let info;
  try {
    info = show(path);
  } catch (e) {
    if (isTrap(e)) {
      await recover(e, { doing: 'opening it', model: path, added });
      return false;
    }
    message(String(e), 'error');
    finishedLoad('error');
    return false;
  }
  app.crashed.delete(path);
  message(info.warnings.length ? 'Warnings:\n' + info.warnings.join('\n') : `Opened ${path}`, 'note');
  finishedLoad('loaded');
  return true;
}

function showModel(info) {
  $('controls').hidden = false;
  $('model-name').textContent = info.path;
  const clip = $('clip');
  clip.textContent = '';
  info.clips.forEach((c, i) => clip.add(new Option(`${c.name} (${c.duration.toFixed(2)} s)`, String(i))));
  const skin = $('skin');
  skin.textContent = '';
  skin.add(new Option('each mesh its own', '-1'));
  for (let i = 0; i < info.skins; i++) skin.add(new Option(`skin ${i}`, String(i)));
  skin.disabled = info.skins === 0;
  const table = $('info');
  table.textContent = '';
  for (const [label, text] of info.rows) {
    const tr = table.insertRow();
    const th = document.createElement('th');
    th.textContent = label;
    tr.appendChild(th);
    tr.insertCell().textContent = text;
  }
  app.viewer.set_skin(-1);
  app.viewer.set_clip(0);
  app.viewer.set_playing(app.playing);
  app.viewer.set_interpolate($('interpolate').checked);
  app.viewer.set_wireframe($('wireframe').checked);
  app.viewer.set_speed(Number($('speed').value));
}

function isModel(path, models) {
  const p = path.replace(/\\/g, '/').replace(/^\.?\//, '').toLowerCase();
  return models.find((m) => m.path.toLowerCase() === p);
}

// Adds files ([{path, file}]) to the workspace, then opens the first model among them, or
// opens the current model again (new skins or animations), or the first model there is.
async function addFiles(entries) {
  if (!entries.length || !app.viewer) return;
  setState('reading');
  const errors = [];
  const added = [];
  let models;
  for (const { path, file } of entries) {
    const bytes = new Uint8Array(await file.arrayBuffer());
    try {
      addFile(path, bytes);
      added.push(path);
    } catch (e) {
      if (isTrap(e)) {
        await recover(e, { doing: 'reading it', file: path, added });
        return;
      }
      errors.push(String(e));
    }
  }
  try {
    models = listModels();
  } catch (e) {
    if (!isTrap(e)) throw e;
    await recover(e, { doing: 'listing the models', added });
    return;
  }
  const first = added.map((p) => isModel(p, models)).find(Boolean);
  const target = first ? first.path : app.current && isModel(app.current, models) ? app.current : models[0]?.path;
  if (target) {
    const ok = await openModel(target, added);
    if (ok && errors.length) message(errors.join('\n') + '\n' + $('message').textContent, 'error');
  } else {
    message(errors.length ? errors.join('\n') : 'No model among the files: open a model file (or add its skins after it).', errors.length ? 'error' : '');
    finishedLoad(errors.length ? 'error' : 'ready');
  }
}

function fromFileList(list) {
  return Array.from(list, (file) => ({ path: file.webkitRelativePath || file.name, file }));
}

// Files and folders dropped on the page, folders walked.
async function fromDrop(dt) {
  const out = [];
  const walk = async (entry) => {
    if (entry.isFile) {
      const file = await new Promise((ok, fail) => entry.file(ok, fail));
      out.push({ path: entry.fullPath.replace(/^\//, ''), file });
    } else if (entry.isDirectory) {
      const reader = entry.createReader();
      for (;;) {
        const batch = await new Promise((ok, fail) => reader.readEntries(ok, fail));
        if (!batch.length) break;
        for (const e of batch) await walk(e);
      }
    }
  };
  const entries = Array.from(dt.items || [], (i) => (i.webkitGetAsEntry ? i.webkitGetAsEntry() : null));
  if (entries.some(Boolean)) {
    for (const e of entries) if (e) await walk(e);
  } else {
    out.push(...fromFileList(dt.files));
  }
  return out;
}

// --- served mode (retromodel web PATH) --------------------------------------------------

const encodePath = (p) => p.split('/').map(encodeURIComponent).join('/');

async function tryServed() {
  let list;
  try {
    const r = await fetch('api/models');
    if (r.status !== 200) return;
    list = await r.json();
  } catch {
    return;
  }
  app.served = true;
  try {
    // `retromodel web --prefer md5`: open MD2/MDL models through their re-release MD5.
    const o = await (await fetch('api/options')).json();
    if (o.prefer === 'md5') {
      app.preferMd5 = true;
      app.viewer.set_prefer_md5(true);
    }
  } catch {
    // An older server without api/options.
  }
  app.servedList = list.map((m) => ({ ...m, served: true }));
  renderModelList(app.servedList);
  message(`${list.length} models served from ${location.host}: pick one.`, 'note');
  const open = params.get('open');
  if (open) await openServed(open);
}

async function openServed(path) {
  if (!app.viewer) return;
  setState('reading');
  const added = [];
  try {
    const r = await fetch('api/bundle?model=' + encodeURIComponent(path));
    if (!r.ok) throw new Error(await r.text());
    const files = await r.json();
    for (const p of files) {
      const f = await fetch('files/' + encodePath(p));
      if (!f.ok) throw new Error(`${p}: ${f.status} ${await f.text()}`);
      try {
        addFile(p, new Uint8Array(await f.arrayBuffer()));
      } catch (e) {
        if (isTrap(e)) {
          await recover(e, { doing: 'reading it', file: p, added });
          return;
        }
        throw e;
      }
      added.push(p);
    }
  } catch (e) {
    message(String(e), 'error');
    finishedLoad('error');
    return;
  }
  await openModel(path, added);
}

// --- export -----------------------------------------------------------------------------

function download(name, bytes) {
  const url = URL.createObjectURL(new Blob([bytes], { type: 'application/octet-stream' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60000);
}

async function exportModel() {
  if (!app.viewer) return;
  const format = $('export-format').value;
  try {
    const [name, bytes, notes] = app.viewer.export(format);
    download(name, bytes);
    const n = JSON.parse(notes);
    message(`Exported ${name} (${fmtSize(bytes.length)})` + (n.length ? '\n' + n.join('\n') : ''), 'note');
  } catch (e) {
    // A trap while writing: the model opened and drew, so it is opened again.
    if (isTrap(e)) await recover(e, { doing: `writing it as ${format}`, model: app.current, reopen: true });
    else message('Export failed: ' + e, 'error');
  }
}

// --- the frame loop ---------------------------------------------------------------------

let last = null;
let fpsCount = 0;
let fpsSince = null;
let scrubbing = false;
let statusAt = 0;

function loop(ts) {
  const dt = last === null ? 0 : (ts - last) / 1000;
  last = ts;
  requestAnimationFrame(loop);
  // None while a fresh instance is made after a trap.
  if (!app.viewer) return;
  sizeCanvas();
  try {
    app.viewer.frame(dt);
    if (app.info && ts - statusAt > 100) showStatus(ts);
  } catch (e) {
    if (isTrap(e)) recover(e, { doing: app.current ? 'drawing it' : 'drawing', model: app.current });
    else message('Drawing failed: ' + e, 'error');
    return;
  }
  if (app.openedAt !== null && app.firstFrameAt === null) app.firstFrameAt = performance.now();
  fpsCount += 1;
  if (fpsSince === null) fpsSince = ts;
  if (ts - fpsSince >= 1000) {
    app.fps = (fpsCount * 1000) / (ts - fpsSince);
    fpsCount = 0;
    fpsSince = ts;
  }
}

function showStatus(ts) {
  statusAt = ts;
  const s = JSON.parse(app.viewer.status());
  const time = $('time');
  time.max = String(Math.max(s.duration, 0.001));
  if (!scrubbing) time.value = String(s.time);
  $('time-value').textContent = `${s.time.toFixed(2)} / ${s.duration.toFixed(2)} s`;
  $('position').textContent = s.position;
  $('status').textContent = `${app.viewer.adapter()} · ${app.fps.toFixed(0)} fps`;
}

// --- wiring -----------------------------------------------------------------------------

// The controls. They call whichever instance is live (`app.viewer`; none while a fresh one
// is made).
function wire() {
  const v = () => app.viewer ?? idle;
  $('file-input').addEventListener('change', async (e) => {
    await addFiles(fromFileList(e.target.files));
    e.target.value = '';
  });
  $('folder-input').addEventListener('change', async (e) => {
    await addFiles(fromFileList(e.target.files));
    e.target.value = '';
  });
  $('clear').addEventListener('click', () => {
    v().clear_files();
    app.files.clear();
    app.crashed.clear();
    renderModelList([]);
    message('Files forgotten; the model on screen stays until another opens.');
  });
  document.addEventListener('dragover', (e) => {
    e.preventDefault();
    document.body.classList.add('dragging');
  });
  document.addEventListener('dragleave', (e) => {
    if (!e.relatedTarget) document.body.classList.remove('dragging');
  });
  document.addEventListener('drop', async (e) => {
    e.preventDefault();
    document.body.classList.remove('dragging');
    await addFiles(await fromDrop(e.dataTransfer));
  });
  $('clip').addEventListener('change', (e) => v().set_clip(Number(e.target.value)));
  $('play').addEventListener('click', () => {
    app.playing = !app.playing;
    v().set_playing(app.playing);
    $('play').textContent = app.playing ? 'Pause' : 'Play';
  });
  $('interpolate').addEventListener('change', (e) => v().set_interpolate(e.target.checked));
  $('wireframe').addEventListener('change', (e) => v().set_wireframe(e.target.checked));
  $('speed').addEventListener('input', (e) => {
    v().set_speed(Number(e.target.value));
    $('speed-value').textContent = Number(e.target.value).toFixed(2) + 'x';
  });
  const time = $('time');
  time.addEventListener('pointerdown', () => (scrubbing = true));
  for (const ev of ['pointerup', 'pointercancel', 'change']) time.addEventListener(ev, () => (scrubbing = false));
  time.addEventListener('input', (e) => {
    app.playing = false;
    v().set_playing(false);
    $('play').textContent = 'Play';
    // The clip's end is its start again (looping): stop just before it.
    v().set_time(Math.min(Number(e.target.value), Number(e.target.max) - 0.001));
  });
  $('skin').addEventListener('change', (e) => v().set_skin(Number(e.target.value)));
  $('reset-camera').addEventListener('click', () => v().reset_camera());
  $('export').addEventListener('click', exportModel);
  const select = $('export-format');
  for (const [id, label] of JSON.parse(app.glue.Viewer.export_formats())) select.add(new Option(label, id));
  showReadFormats();
  wireCanvas($('view'));
}

// Orbit and zoom on `canvas` (each fresh instance draws on a fresh canvas).
function wireCanvas(canvas) {
  const v = () => app.viewer ?? idle;
  let drag = null;
  canvas.addEventListener('pointerdown', (e) => {
    drag = { x: e.clientX, y: e.clientY };
    canvas.setPointerCapture(e.pointerId);
  });
  canvas.addEventListener('pointermove', (e) => {
    if (!drag) return;
    v().orbit(e.clientX - drag.x, e.clientY - drag.y);
    drag = { x: e.clientX, y: e.clientY };
  });
  canvas.addEventListener('pointerup', () => (drag = null));
  canvas.addEventListener(
    'wheel',
    (e) => {
      e.preventDefault();
      v().zoom_by(-e.deltaY / 100);
    },
    { passive: false },
  );
}

// The formats the page opens, from the library's registry: the hint's list and the open
// dialog's filter (side files such as pictures, palettes and .bin/.mtl files stay pickable:
// "All files" is kept).
function showReadFormats() {
  const formats = JSON.parse(app.glue.Viewer.read_formats());
  const words = formats.map(([d, exts]) => `${d} (${exts.map((e) => '.' + e).join(' ')})`);
  $('formats').textContent = words.join(', ');
  const accept = formats.flatMap(([, exts]) => exts.map((e) => '.' + e));
  $('file-input').dataset.formats = accept.join(',');
}

// --- the module, and a fresh one after a trap -------------------------------------------

// What the controls call while no instance is live: nothing.
const idle = new Proxy({}, { get: () => () => {} });

// Whether `e` is the module trapping (a panic: `RuntimeError: unreachable`; out of memory),
// or wasm-bindgen refusing a call into an instance that trapped inside a call before (its
// `&mut self` borrow was never released), rather than an error the library returned.
function isTrap(e) {
  return (
    e instanceof WebAssembly.RuntimeError ||
    (e instanceof Error && /recursive use of an object detected|null pointer passed to rust/.test(e.message))
  );
}

// Adds a file to the module and keeps it here for a fresh instance.
function addFile(path, bytes) {
  app.viewer.add_file(path, bytes);
  app.files.delete(path);
  app.files.set(path, bytes);
}

// A new instance of the module: wasm-bindgen's glue holds one instance per import and cannot
// drop it, so each later instance comes from the glue imported again under another URL
// (?n=N: another ES module, which instantiates the module anew; the .wasm is fetched from
// the cache). Then a viewer on the canvas.
async function startModule() {
  const n = app.instances++;
  app.glue = await import(n === 0 ? './pkg/retromodel_web.js' : `./pkg/retromodel_web.js?n=${n}`);
  await app.glue.default();
  sizeCanvas();
  const viewer = await app.glue.Viewer.create($('view'), params.get('backend') === 'webgl');
  if (app.preferMd5) viewer.set_prefer_md5(true);
  return viewer;
}

// After a trap: the instance is dropped, a fresh one is made on a fresh canvas (a canvas keeps
// the WebGPU or WebGL context the dead instance configured), every file kept is added again
// but the culprit, the model on screen before is opened again (unless it is the culprit),
// and the error names the file. `what`: `doing` (in words), `file` (the file being added
// when it trapped: left out), `model` (the model being opened or drawn: not opened again;
// a model given as a file is left out), `added` (the files of the action, named), `reopen`
// (open `model` again: the trap was not in reading it).
async function recover(e, what) {
  if (app.recovering) return;
  app.recovering = true;
  const panic = globalThis.retromodelPanic;
  delete globalThis.retromodelPanic;
  const before = app.current;
  app.viewer = null;
  app.restarts += 1;
  document.body.dataset.restarts = String(app.restarts);
  setState('reading');
  // The file the module trapped on, as the user gave it: the file being added, or the model
  // with the archive holding it.
  let named = what.file || (what.model ? '' : what.added?.join(', '));
  if (!named && what.model) {
    const listed = Array.from($('model-list').children).find((li) => li.dataset.path === what.model);
    const source = listed?.dataset.source;
    named = source && source !== what.model ? `${source}: ${what.model}` : what.model;
  }
  const why = panic ? panic.replace(/\s+/g, ' ') : String(e);
  const text =
    `${named ? named + ': ' : ''}the viewer crashed while ${what.doing} (${why}).\n` +
    (what.reopen ? 'The viewer was restarted; the files are kept.' : 'The viewer was restarted without it; the other files are kept.');
  console.warn('retromodel: ' + text);
  if (what.file) app.files.delete(what.file);
  if (what.model && !what.reopen) {
    app.files.delete(what.model);
    app.crashed.set(what.model, text);
  }
  const old = $('view');
  const canvas = old.cloneNode(false);
  old.replaceWith(canvas);
  wireCanvas(canvas);
  let viewer;
  try {
    viewer = await startModule();
  } catch (e2) {
    app.recovering = false;
    message(text + '\nThe viewer cannot start again: ' + e2, 'error');
    finishedLoad('failed');
    return;
  }
  const lost = [];
  app.viewer = viewer;
  for (const [path, bytes] of [...app.files]) {
    try {
      viewer.add_file(path, bytes);
    } catch (e3) {
      // It was added before: only a trap can fail here, and it leaves this instance too.
      app.files.delete(path);
      lost.push(`${path}: ${e3}`);
      if (isTrap(e3)) {
        app.viewer = null;
        app.recovering = false;
        message(text + '\nThe viewer cannot start again: ' + lost.join('\n'), 'error');
        finishedLoad('failed');
        return;
      }
    }
  }
  app.info = null;
  app.current = null;
  $('controls').hidden = true;
  let again = null;
  const reopen = what.reopen ? what.model : before !== what.model ? before : null;
  try {
    const models = listModels();
    if (reopen && isModel(reopen, models)) {
      show(reopen);
      again = reopen;
    }
  } catch (e4) {
    // Opened before, so not expected; the page stays without a model.
    lost.push(String(e4));
    if (isTrap(e4)) app.viewer = null;
  }
  app.recovering = false;
  message(text + (again ? `\nOpened ${again} again.` : '') + (lost.length ? '\n' + lost.join('\n') : ''), 'error');
  finishedLoad('error');
}

async function start() {
  try {
    app.viewer = await startModule();
  } catch (e) {
    message('The viewer cannot start: ' + e, 'error');
    setState('failed');
    return;
  }
  wire();
  $('status').textContent = app.viewer.adapter();
  requestAnimationFrame(loop);
  setState('ready');
  await tryServed();
}

start();
