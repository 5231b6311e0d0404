# SPDX-License-Identifier: GPL-3.0-or-later
"""The one module of the extension that talks to retromodel.

Everything else in the extension goes through the functions below, so
that a change of the retromodel Python API (or of how it is reached) touches
this file only:

    load_glb(path, ..., model_config=True) -> Loaded(glb: bytes, info: dict, warnings: list[str])
    save_glb(glb_path, out_path, **options) -> Saved(files, warnings, notes, max_error, frame_errors)
    info(path) -> dict                      (the keys of `retromodel info --json`)
    formats() -> {"read": [...], "write": [...]}   (the registry's extensions, no dot)
    export_formats(variants) -> Exports     (what a Blender export can be written as)
    describe() -> str                       (which retromodel is in use, for messages)

The retromodel package (the wheel bundled in the extension's wheels/ folder,
installed by Blender) is used.  Only when it cannot be imported, and the
environment variable RETROMODEL_CLI names a `retromodel` executable, is the
command-line tool run instead (a development aid: the same options, the same
outputs, slower); otherwise a clear error says that the package is missing.
"""

import json
import os
import re
import subprocess
import tempfile
import warnings
from dataclasses import dataclass, field

try:
    import retromodel as _rm
    _IMPORT_ERROR = None
except ImportError as e:  # the wheel was not installed (or not built for this Python)
    _rm = None
    _IMPORT_ERROR = e


class BackendError(Exception):
    """A model could not be read or written; str(e) is retromodel's message."""


@dataclass
class Loaded:
    glb: bytes
    info: dict
    warnings: list = field(default_factory=list)


@dataclass
class Saved:
    files: list = field(default_factory=list)
    warnings: list = field(default_factory=list)
    notes: list = field(default_factory=list)
    max_error: float | None = None
    frame_errors: list = field(default_factory=list)


def _cli():
    exe = os.environ.get("RETROMODEL_CLI")
    if _rm is None and exe:
        return exe
    return None


def _need_backend():
    if _rm is None and not _cli():
        raise BackendError(
            "the retromodel Python package is not installed (%s); install the extension "
            "from its .zip (it bundles the wheel) or `pip install retromodel` into "
            "Blender's Python" % _IMPORT_ERROR)


def describe():
    if _rm is not None:
        return "retromodel %s (Python package)" % getattr(_rm, "__version__", "?")
    if _cli():
        return "retromodel command-line tool %s (RETROMODEL_CLI; the package is missing)" % _cli()
    return "retromodel missing"


# -- the package ---------------------------------------------------------------

def _format_error():
    return getattr(_rm, "FormatError", ValueError)


def _collect(fn):
    """Run fn() recording retromodel's warnings (RetromodelWarning) as strings."""
    category = getattr(_rm, "RetromodelWarning", Warning)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", category)
        try:
            result = fn()
        except (_format_error(), ValueError) as e:
            # FormatError (a damaged file), ValueError (a conversion retromodel does not
            # make: "converting glb to hmp is not supported yet")
            raise BackendError(str(e)) from None
        except OSError as e:
            raise BackendError(str(e)) from None
    return result, [str(w.message) for w in caught if issubclass(w.category, category)]


def _load_options(game_dirs=(), skin_name=None, anims=(), palette=None, model_config=True,
                  body=0, skin_family=0):
    kw = {} if model_config else {"model_config": False}
    if body:
        kw["body"] = int(body)
    if skin_family:
        kw["skin_family"] = int(skin_family)
    if game_dirs:
        kw["game_dirs"] = tuple(game_dirs)
    if skin_name:
        kw["skin_name"] = skin_name
    if anims:
        kw["anims"] = tuple(anims)
    if palette:
        kw["palette"] = palette
    return kw


# -- the public functions ------------------------------------------------------

def load_glb(path, game_dirs=(), skin_name=None, anims=(), palette=None, model_config=True,
             body=0, skin_family=0):
    """Read any model retromodel reads and return it as a binary glTF in memory.

    ``body`` and ``skin_family``: a Half-Life model's body value and skin family, as the
    command line's ``--body`` and ``--skin-family``."""
    _need_backend()
    if _rm is not None:
        kw = _load_options(game_dirs, skin_name, anims, palette, model_config, body, skin_family)
        (glb, inf), warns = _collect(lambda: _model_glb(path, kw))
        return Loaded(glb=glb, info=inf, warnings=warns)
    with tempfile.TemporaryDirectory(prefix="retromodel-") as tmp:
        out = os.path.join(tmp, "model.glb")
        args = ["convert", path, out, "--force"]
        for d in game_dirs:
            args += ["--game-dir", d]
        if skin_name:
            args += ["--skin-name", skin_name]
        for a in anims:
            args += ["--anim", a]
        if palette:
            args += ["--palette", palette]
        if not model_config:
            args.append("--no-model-config")
        if body:
            args += ["--body", str(int(body))]
        if skin_family:
            args += ["--skin-family", str(int(skin_family))]
        res = _run(args)
        with open(out, "rb") as f:
            glb = f.read()
        inf = info(out)
        if os.path.isfile(path):
            # the source's own header facts (the .md5anim files and their rates)
            src = info(path)
            for k in ("format", "version", "animations", "skin_sources"):
                if k in src:
                    inf[k] = src[k]
    return Loaded(glb=glb, info=inf, warnings=_cli_warnings(res.stderr))


def _model_glb(path, kw):
    m = _rm.load(path, **kw)
    return m.to_glb(), m.info()


def info(path):
    """`retromodel info --json` of one model (for a folder: the assembled player)."""
    _need_backend()
    if _rm is not None:
        m, _ = _collect(lambda: _rm.load(path))
        return m.info()
    res = _run(["info", "--json", path])
    return json.loads(res.stdout.splitlines()[0])


SAVE_OPTIONS = ("fps", "mdl", "palette", "dither", "strict", "quantize", "skin", "scale",
                "rotate", "fit_height", "keep_skin_size", "bones", "external_textures",
                "sequence_group_size")


def save_glb(glb_path, out_path, **options):
    """Write the glTF at glb_path (Blender's export) as out_path; the format from its extension.

    options: those of retromodel's Model.save (the CLI's convert options); None/False
    ones are left out.  The output is replaced if it exists.
    """
    _need_backend()
    _drop_required_variants(glb_path)
    opts = {k: v for k, v in options.items() if v not in (None, False, "", 0)}
    unknown = set(opts) - set(SAVE_OPTIONS)
    if unknown:
        raise TypeError("unknown save options: %s" % ", ".join(sorted(unknown)))
    if _rm is not None:
        if "palette" in opts:  # save's name for the palette skins are written with
            opts["target_palette"] = opts.pop("palette")

        def go():
            # fps is also the rate glTF animations are sampled at, as the CLI's --fps
            m = _rm.load(glb_path, fps=opts["fps"]) if "fps" in opts else _rm.load(glb_path)
            return m.save(out_path, force=True, **opts)
        report, warns = _collect(go)
        # save() both returns its warnings and emits them as RetromodelWarning
        for w in getattr(report, "warnings", None) or []:
            if w not in warns:
                warns.append(w)
        return Saved(files=list(getattr(report, "files", None) or [out_path]), warnings=warns,
                     notes=list(getattr(report, "notes", None) or []),
                     max_error=getattr(report, "max_error", None),
                     frame_errors=list(getattr(report, "frame_errors", None) or []))
    args = ["convert", glb_path, out_path, "--force", "-v"]
    flags = {"dither": "--dither", "strict": "--strict", "quantize": "--quantize",
             "keep_skin_size": "--keep-skin-size", "external_textures": "--external-textures"}
    for k, v in opts.items():
        if k in flags:
            args.append(flags[k])
        elif k == "palette":
            args += ["--target-palette", v]
        elif k == "rotate":
            args += ["--rotate", ",".join(str(x) for x in v) if isinstance(v, (tuple, list)) else str(v)]
        else:
            args += ["--" + k.replace("_", "-"), str(v)]
    res = _run(args)
    errors = [float(x) for x in re.findall(r"largest position error ([0-9.eE+-]+)", res.stdout + res.stderr)]
    notes = [l.strip() for l in (res.stdout + res.stderr).splitlines()
             if l.strip() and "warning:" not in l and "largest position error" not in l]
    files = [out_path] + sorted(
        os.path.join(os.path.dirname(out_path), f) for f in os.listdir(os.path.dirname(out_path) or ".")
        if f.startswith(os.path.splitext(os.path.basename(out_path))[0] + "_skin")
        or f.endswith(".md5anim") and out_path.endswith(".md5mesh"))
    return Saved(files=files, warnings=_cli_warnings(res.stderr), notes=notes,
                 max_error=max(errors) if errors else None, frame_errors=errors)


def _drop_required_variants(glb_path):
    """Blender's exporter lists KHR_materials_variants (the skins of a model imported from
    retromodel) in extensionsRequired, which retromodel's glTF reader refuses; the
    variants are optional to read (the default material stays), so move the name to
    extensionsUsed only."""
    import struct
    with open(glb_path, "rb") as f:
        data = f.read()
    if data[:4] != b"glTF" or b"KHR_materials_variants" not in data[:64 * 1024 * 1024]:
        return
    (length,) = struct.unpack_from("<I", data, 12)
    doc = json.loads(data[20:20 + length])
    req = doc.get("extensionsRequired") or []
    if "KHR_materials_variants" not in req:
        return
    req.remove("KHR_materials_variants")
    if not req:
        doc.pop("extensionsRequired")
    chunk = json.dumps(doc, separators=(",", ":")).encode()
    chunk += b" " * (-len(chunk) % 4)
    rest = data[20 + length:]
    out = b"glTF" + struct.pack("<II", 2, 12 + 8 + len(chunk) + len(rest)) \
        + struct.pack("<I", len(chunk)) + b"JSON" + chunk + rest
    with open(glb_path, "wb") as f:
        f.write(out)


# -- the formats -----------------------------------------------------------------

def formats():
    """The extensions retromodel reads and writes, from its registry: `retromodel.formats()`
    ({"read": [...], "write": [...]}, lower case, no dot).  "write" holds every extension
    `save` takes, including those of formats retromodel only writes back as read (see
    export_formats for what a Blender export can be written as)."""
    _need_backend()
    if _rm is not None:
        f = _rm.formats()
        return {"read": list(f["read"]), "write": list(f["write"])}
    read, write = [], []
    for line in _run(["formats", "--json"]).stdout.splitlines():
        f = json.loads(line)
        read += [e for e in f["extensions"] if e not in read]
        if f.get("write") and f["extensions"][0] not in write:
            write.append(f["extensions"][0])
    return {"read": read, "write": write}


@dataclass
class Exports:
    """What a Blender export can be written as (see export_formats).

    extensions: those of formats()["write"] that retromodel builds from a glTF model, in the
    registry's order; variants: {extension: [variant, ...]} for the writer variants asked
    about that retromodel takes (`mdl="gs3"`), each with a description of what it writes;
    skeletal: the extensions whose files keep the skeleton (MD5, IQM, glTF), whose skeletal
    animations keep Blender's keys when sampled at the scene's rate; refused:
    {extension: retromodel's message} for the other extensions of formats()["write"]."""
    extensions: list = field(default_factory=list)
    variants: dict = field(default_factory=dict)
    skeletal: list = field(default_factory=list)
    refused: dict = field(default_factory=dict)


def export_formats(variants=None):
    """Which of formats()["write"] a Blender export can be written as, asked of retromodel itself.

    The package lists the extensions `save` takes, but not which of them it can build from
    a model (some it only writes back as read, `.hmp`, or needs data a glTF never carries,
    `.md5camera`'s camera path), nor the writer variants of an extension.  So every
    extension is tried on a small skinned, animated model read from a binary glTF, as
    Blender's export is: what retromodel writes is exportable, what it refuses is not (its
    message is kept).  `variants` ({extension: [name, ...]}) are tried the same way, as
    `mdl=name` (the command-line fallback takes them from `retromodel formats --json`).
    A new writer in retromodel's registry thus appears with no edit here."""
    variants = variants or {}
    names = formats()["write"]
    out = Exports()
    if _rm is None:
        return _cli_export_formats(names)
    category = getattr(_rm, "RetromodelWarning", Warning)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", category)
        model = _rm.loads(_probe_model().to_glb(), "blender.glb")
        for ext in names:
            try:
                # embed: a .gltf with its buffers inside, so that it reads back alone
                data = model.to_bytes(ext, embed=True)
            except Exception as e:  # retromodel's refusal: FormatError, ValueError
                out.refused[ext] = str(e)
                continue
            out.extensions.append(ext)
            try:
                written = _rm.loads(data, "probe." + ext).info()
            except Exception:
                continue
            if written.get("joints"):
                out.skeletal.append(ext)
        for ext, names_ in variants.items():
            if ext not in out.extensions:
                continue
            for v in names_:
                try:
                    written = _rm.loads(model.to_bytes(ext, mdl=v), "probe." + ext).info()
                except Exception:
                    continue
                out.variants.setdefault(ext, []).append(
                    (v, "%s (version %s)" % (written.get("format"), written.get("version"))))
    return out


def _probe_model():
    """Two joints, a quad bent by them, one two-frame animation: enough for every writer
    that builds a file from a model (keyframe formats bake it, skeletal ones keep it)."""
    return _rm.from_skinned(
        [[0, 0, 0], [1, 0, 0], [1, 0, 2], [0, 0, 2]],
        [[0, 1, 2], [0, 2, 3]],
        [[0], [0], [1], [1]],
        [[1.0], [1.0], [1.0], [1.0]],
        joint_names=["root", "tip"],
        parents=[-1, 0],
        bind_translations=[[0, 0, 0], [0, 0, 1]],
        bind_rotations=[[0, 0, 0, 1], [0, 0, 0, 1]],
        uvs=[[0, 0], [1, 0], [1, 1], [0, 1]],
        animations=[("bend", 10.0, [[[0, 0, 0], [0, 0, 1]]] * 2,
                     [[[0, 0, 0, 1], [0, 0, 0, 1]], [[0, 0, 0, 1], [0.3826834, 0, 0, 0.9238795]]])],
        name="probe")


# -- the command-line fallback -------------------------------------------------

# A two-joint quad as an md5mesh and a two-frame md5anim (text, so that the command line
# can make the probe's glTF from them without the package).
_PROBE_MD5MESH = """MD5Version 10
commandline ""
numJoints 2
numMeshes 1
joints {
\t"root" -1 ( 0 0 0 ) ( 0 0 0 )
\t"tip" 0 ( 0 0 1 ) ( 0 0 0 )
}
mesh {
\tshader "probe"
\tnumverts 4
\tvert 0 ( 0 0 ) 0 1
\tvert 1 ( 1 0 ) 1 1
\tvert 2 ( 1 1 ) 2 1
\tvert 3 ( 0 1 ) 3 1
\tnumtris 2
\ttri 0 0 2 1
\ttri 1 0 3 2
\tnumweights 4
\tweight 0 0 1 ( 0 0 0 )
\tweight 1 0 1 ( 1 0 0 )
\tweight 2 1 1 ( 1 0 1 )
\tweight 3 1 1 ( 0 0 1 )
}
"""
_PROBE_MD5ANIM = """MD5Version 10
commandline ""
numFrames 2
numJoints 2
frameRate 10
numAnimatedComponents 1
hierarchy {
\t"root" -1 0 0
\t"tip" 0 8 0
}
bounds {
\t( 0 0 0 ) ( 1 1 2 )
\t( 0 0 0 ) ( 1 1 2 )
}
baseframe {
\t( 0 0 0 ) ( 0 0 0 )
\t( 0 0 1 ) ( 0 0 0 )
}
frame 0 {
\t0
}
frame 1 {
\t0.3826834
}
"""


def _cli_export_formats(names):
    """export_formats through the command line: the probe converted to glTF, then to each
    extension; the variants from `retromodel formats --json`."""
    out = Exports()
    with tempfile.TemporaryDirectory(prefix="retromodel-probe-") as tmp:
        mesh, glb = os.path.join(tmp, "probe.md5mesh"), os.path.join(tmp, "probe.glb")
        with open(mesh, "w") as f:
            f.write(_PROBE_MD5MESH)
        with open(os.path.join(tmp, "probe_bend.md5anim"), "w") as f:
            f.write(_PROBE_MD5ANIM)
        _run(["convert", mesh, glb, "--force"])
        for ext in names:
            dst = os.path.join(tmp, ext, "probe." + ext)
            os.makedirs(os.path.dirname(dst))
            try:
                _run(["convert", glb, dst, "--force"] + (["--embed"] if ext == "gltf" else []))
            except BackendError as e:
                out.refused[ext] = str(e).splitlines()[-1]
                continue
            out.extensions.append(ext)
            try:
                if info(dst).get("joints"):
                    out.skeletal.append(ext)
            except (BackendError, ValueError, IndexError):
                pass
    for line in _run(["formats", "--json"]).stdout.splitlines():
        f = json.loads(line)
        for v in f.get("variants") or []:
            if f["extensions"][0] in out.extensions:
                out.variants.setdefault(f["extensions"][0], []).append(
                    (v, "%s (%s)" % (f["name"], f.get("description", ""))))
    return out


def _run(args):
    res = subprocess.run([_cli()] + list(args), capture_output=True, text=True)
    if res.returncode != 0:
        msg = "\n".join(l for l in res.stderr.splitlines() if l.strip()) or "retromodel failed"
        raise BackendError(msg)
    return res


def _cli_warnings(stderr):
    out = []
    for line in stderr.splitlines():
        if "warning:" in line:
            out.append(line.split("warning:", 1)[1].strip())
    return out
