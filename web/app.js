// The retromodel web app: the page around the WebAssembly viewer (crates/retromodel-web).
// Files stay in the browser: they are read with the File API and handed to the module, which
// parses, converts, renders (WebGPU or WebGL2) and writes exports; downloads are blobs.
//
// Served by `retromodel web [PATH]`, the page also lists PATH's models (api/models) and fetches
// a model with the side files it needs (api/bundle) when one is picked.
//
// URL parameters: backend=webgl (skip WebGPU), open=PATH (open a served model at once).
// body[data-state]: starting, ready, loaded, error, failed; body[data-loads] counts finished
// open attempts (the browser tests wait on it).
import init, { Viewer } from './pkg/retromodel_web.js';

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const app = {
  viewer: null,
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
    if (app.viewer) app.viewer.resize(w, h);
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
    if (m.path === app.current) li.className = 'current';
    li.addEventListener('click', () => (app.served && m.served ? openServed(m.path) : openModel(m.path)));
    ul.appendChild(li);
  }
  $('model-count').textContent = `(${models.length})`;
  $('models-section').hidden = models.length === 0;
}

function markCurrent() {
  for (const li of $('model-list').children) {
    li.className = li.dataset.path === app.current ? 'current' : '';
  }
}

// --- opening ----------------------------------------------------------------------------

function openModel(path) {
  let info;
  try {
    info = JSON.parse(app.viewer.open(path));
  } catch (e) {
    message(String(e), 'error');
    finishedLoad('error');
    return false;
  }
  app.info = info;
  app.current = path;
  showModel(info);
  message(info.warnings.length ? 'Warnings:\n' + info.warnings.join('\n') : `Opened ${path}`, 'note');
  app.openedAt = performance.now();
  app.firstFrameAt = null;
  markCurrent();
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
}

function isModel(path, models) {
  const p = path.replace(/\\/g, '/').replace(/^\.?\//, '').toLowerCase();
  return models.find((m) => m.path.toLowerCase() === p);
}

// Adds files ([{path, file}]) to the workspace, then opens the first model among them, or
// opens the current model again (new skins or animations), or the first model there is.
async function addFiles(entries) {
  if (!entries.length) return;
  setState('reading');
  const errors = [];
  const added = [];
  for (const { path, file } of entries) {
    const bytes = new Uint8Array(await file.arrayBuffer());
    try {
      app.viewer.add_file(path, bytes);
      added.push(path);
    } catch (e) {
      errors.push(String(e));
    }
  }
  const models = JSON.parse(app.viewer.models());
  // Served models not fetched yet stay listed beside the files added here.
  const have = new Set(models.map((m) => m.path.toLowerCase()));
  renderModelList([...models, ...app.servedList.filter((m) => !have.has(m.path.toLowerCase()))]);
  const first = added.map((p) => isModel(p, models)).find(Boolean);
  const target = first ? first.path : app.current && isModel(app.current, models) ? app.current : models[0]?.path;
  if (target) {
    openModel(target);
    if (errors.length) message(errors.join('\n') + '\n' + $('message').textContent, 'error');
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
    if (o.prefer === 'md5') app.viewer.set_prefer_md5(true);
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
  setState('reading');
  try {
    const r = await fetch('api/bundle?model=' + encodeURIComponent(path));
    if (!r.ok) throw new Error(await r.text());
    const files = await r.json();
    for (const p of files) {
      const f = await fetch('files/' + encodePath(p));
      if (!f.ok) throw new Error(`${p}: ${f.status} ${await f.text()}`);
      app.viewer.add_file(p, new Uint8Array(await f.arrayBuffer()));
    }
  } catch (e) {
    message(String(e), 'error');
    finishedLoad('error');
    return;
  }
  openModel(path);
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

function exportModel() {
  const format = $('export-format').value;
  try {
    const [name, bytes, notes] = app.viewer.export(format);
    download(name, bytes);
    const n = JSON.parse(notes);
    message(`Exported ${name} (${fmtSize(bytes.length)})` + (n.length ? '\n' + n.join('\n') : ''), 'note');
  } catch (e) {
    message('Export failed: ' + e, 'error');
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
  sizeCanvas();
  try {
    app.viewer.frame(dt);
  } catch (e) {
    message('Drawing failed: ' + e, 'error');
  }
  if (app.openedAt !== null && app.firstFrameAt === null) app.firstFrameAt = performance.now();
  fpsCount += 1;
  if (fpsSince === null) fpsSince = ts;
  if (ts - fpsSince >= 1000) {
    app.fps = (fpsCount * 1000) / (ts - fpsSince);
    fpsCount = 0;
    fpsSince = ts;
  }
  if (app.info && ts - statusAt > 100) {
    statusAt = ts;
    const s = JSON.parse(app.viewer.status());
    const time = $('time');
    time.max = String(Math.max(s.duration, 0.001));
    if (!scrubbing) time.value = String(s.time);
    $('time-value').textContent = `${s.time.toFixed(2)} / ${s.duration.toFixed(2)} s`;
    $('position').textContent = s.position;
    $('status').textContent = `${app.viewer.adapter()} · ${app.fps.toFixed(0)} fps`;
  }
  requestAnimationFrame(loop);
}

// --- wiring -----------------------------------------------------------------------------

function wire() {
  const v = app.viewer;
  $('file-input').addEventListener('change', async (e) => {
    await addFiles(fromFileList(e.target.files));
    e.target.value = '';
  });
  $('folder-input').addEventListener('change', async (e) => {
    await addFiles(fromFileList(e.target.files));
    e.target.value = '';
  });
  $('clear').addEventListener('click', () => {
    v.clear_files();
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
  $('clip').addEventListener('change', (e) => v.set_clip(Number(e.target.value)));
  $('play').addEventListener('click', () => {
    app.playing = !app.playing;
    v.set_playing(app.playing);
    $('play').textContent = app.playing ? 'Pause' : 'Play';
  });
  $('interpolate').addEventListener('change', (e) => v.set_interpolate(e.target.checked));
  $('wireframe').addEventListener('change', (e) => v.set_wireframe(e.target.checked));
  $('speed').addEventListener('input', (e) => {
    v.set_speed(Number(e.target.value));
    $('speed-value').textContent = Number(e.target.value).toFixed(2) + 'x';
  });
  const time = $('time');
  time.addEventListener('pointerdown', () => (scrubbing = true));
  for (const ev of ['pointerup', 'pointercancel', 'change']) time.addEventListener(ev, () => (scrubbing = false));
  time.addEventListener('input', (e) => {
    app.playing = false;
    v.set_playing(false);
    $('play').textContent = 'Play';
    // The clip's end is its start again (looping): stop just before it.
    v.set_time(Math.min(Number(e.target.value), Number(e.target.max) - 0.001));
  });
  $('skin').addEventListener('change', (e) => v.set_skin(Number(e.target.value)));
  $('reset-camera').addEventListener('click', () => v.reset_camera());
  $('export').addEventListener('click', exportModel);
  const select = $('export-format');
  for (const [id, label] of JSON.parse(Viewer.export_formats())) select.add(new Option(label, id));
  showReadFormats();
  const canvas = $('view');
  let drag = null;
  canvas.addEventListener('pointerdown', (e) => {
    drag = { x: e.clientX, y: e.clientY };
    canvas.setPointerCapture(e.pointerId);
  });
  canvas.addEventListener('pointermove', (e) => {
    if (!drag) return;
    v.orbit(e.clientX - drag.x, e.clientY - drag.y);
    drag = { x: e.clientX, y: e.clientY };
  });
  canvas.addEventListener('pointerup', () => (drag = null));
  canvas.addEventListener(
    'wheel',
    (e) => {
      e.preventDefault();
      v.zoom_by(-e.deltaY / 100);
    },
    { passive: false },
  );
}

// The formats the page opens, from the library's registry: the hint's list and the open
// dialog's filter (side files such as pictures, palettes and .bin/.mtl files stay pickable:
// "All files" is kept).
function showReadFormats() {
  const formats = JSON.parse(Viewer.read_formats());
  const words = formats.map(([d, exts]) => `${d} (${exts.map((e) => '.' + e).join(' ')})`);
  $('formats').textContent = words.join(', ');
  const accept = formats.flatMap(([, exts]) => exts.map((e) => '.' + e));
  $('file-input').dataset.formats = accept.join(',');
}

async function start() {
  try {
    await init();
    sizeCanvas();
    app.viewer = await Viewer.create($('view'), params.get('backend') === 'webgl');
    if (params.get('prefer') === 'md5') app.viewer.set_prefer_md5(true);
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
