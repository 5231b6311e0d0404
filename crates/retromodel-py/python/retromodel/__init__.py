"""retromodel: classic game models from Python.

Read, inspect, build, validate, write and convert Quake MDL (and Hexen II, QuakeForge,
QTest), Quake 2 MD2, Quake 3 MD3 (player folders assembled), Doom 3 MD5, 3D GameStudio
MDL/HMP, glTF and OBJ, with numpy arrays. The work is done by the Rust library that the
``retromodel`` command line uses, so a file loads, converts and fails here exactly as it
does there.

    >>> import retromodel
    >>> m = retromodel.load("id1/progs/ogre.mdl")          # or "pak0.pak:progs/ogre.mdl"
    >>> m.info()["poses"], [c.name for c in m.clips][:3]
    >>> pos = m.meshes[0].positions(pose=5)                  # float32 (n, 3)
    >>> m.save("ogre.md2")                                   # format from the extension
    >>> glb = m.to_glb()                                     # bytes

Errors are exceptions: :class:`FormatError` (a ``ValueError``) for bad files, with the
command line's message; ``FileNotFoundError`` / ``OSError`` for files that cannot be read
or written. Warnings (lossy steps, odd data) go through :mod:`warnings` as
:class:`RetromodelWarning`.
"""

from __future__ import annotations

import os
import warnings as _warnings
from typing import Any, Callable, Iterable, Optional, Sequence, Union

import numpy as np

from . import _native
from ._native import (  # noqa: F401  (re-exported)
    Animation,
    Clip,
    FormatError,
    GameFs as _NativeGameFs,
    Mesh,
    Model,
    SaveReport,
    Skeleton,
    Skin,
    __version__,
)

__all__ = [
    "load",
    "loads",
    "convert",
    "convert_tree",
    "from_keyframes",
    "from_skinned",
    "formats",
    "engines",
    "Model",
    "Mesh",
    "Clip",
    "Skeleton",
    "Animation",
    "Skin",
    "SaveReport",
    "GameFs",
    "FormatError",
    "RetromodelWarning",
    "__version__",
]

PathLike = Union[str, "os.PathLike[str]"]


class RetromodelWarning(UserWarning):
    """Something lossy or odd that retromodel noticed while reading or writing a model."""


def _warn(messages: Iterable[str], stacklevel: int = 3) -> None:
    for m in messages:
        _warnings.warn(m, RetromodelWarning, stacklevel=stacklevel)


def _paths(values: Union[PathLike, Sequence[PathLike], None]) -> list:
    if values is None:
        return []
    if isinstance(values, (str, os.PathLike)):
        return [os.fspath(values)]
    return [os.fspath(v) for v in values]


def _opt_path(value: Optional[PathLike]) -> Optional[str]:
    return None if value is None else os.fspath(value)


def load(
    path: PathLike,
    *,
    game_dirs: Union[PathLike, Sequence[PathLike]] = (),
    skin_name: Optional[str] = None,
    anims: Union[PathLike, Sequence[PathLike]] = (),
    palette: Optional[PathLike] = None,
    ignore_case: bool = False,
    replacements: bool = False,
    fps: Optional[float] = None,
    model_config: bool = True,
    weapon: Optional[PathLike] = None,
    prefer_md5: bool = False,
    body: int = 0,
    skin_family: int = 0,
) -> Model:
    """Read a model file of any format retromodel reads, detected by content.

    ``path`` is a file on disk, ``ARCHIVE:PATH`` (a file inside a ``.pak``/``.pk3``/
    ``.pk4``/``.zip``), or a Quake 3 player folder (``models/players/sarge``: lower, upper
    and head assembled on their tags, one clip per ``animation.cfg`` entry).
    Side files are found as ``retromodel convert`` finds them: skins and palettes beside the
    model or up its game tree, an md5mesh's ``.md5anim`` files beside it.

    Keyword arguments (the command line's options):

    - ``game_dirs``: game folders (``baseq2``, ``baseoa``) whose files and archives side
      files are also looked for in; the last one wins.
    - ``skin_name``: a Quake 3 skin (``red`` for ``lower_red.skin``).
    - ``anims``: an md5mesh's animations (default: every ``.md5anim`` beside it that fits).
    - ``palette``: a 768-byte ``palette.lmp`` for 8-bit pictures.
    - ``ignore_case``: look-ups in archives and game folders ignore ASCII case.
    - ``replacements``: prefer modern engines' replacement textures to stored skins.
    - ``fps``: frames per second at which glTF animations are sampled into poses.
    - ``model_config``: apply what a Cube 2 / Red Eclipse ``md5.cfg`` or ``iqm.cfg`` beside
      the model says about size, turn and animation speeds, as the engine shows the model
      (on by default, as in ``retromodel info`` and ``convert``; ``False`` keeps the file as
      stored, as ``--no-model-config`` does).
    - ``weapon``: a weapon ``.md3`` to attach on a player's ``tag_weapon``.
    - ``prefer_md5``: a Quake II ``.md2`` or Quake ``.mdl`` is shown through its re-release
      MD5 replacement (``md5/NAME.md5mesh`` + ``.md5anim`` + ``.md5scale`` beside an MD2,
      ``NAME.md5mesh`` + ``.md5anim`` beside an MDL) when the engine would use it, with the
      classic frame names and clips, as ``--prefer md5`` does.
    - ``body``: a Half-Life model's body value (``pev->body``), which picks each body
      part's sub-model as the engine does, as ``--body`` does; 0 shows the first of each.
    - ``skin_family``: a Half-Life model's skin family (``pev->skin``), as
      ``--skin-family`` does.

    Raises :class:`FormatError` for a file that is not a model or is damaged (the message
    names the format, the problem and the byte offset or line:column), ``FileNotFoundError``
    for a missing file. Warnings are emitted as :class:`RetromodelWarning`.
    """
    model, said = _native.load(
        os.fspath(path),
        game_dirs=_paths(game_dirs),
        skin_name=skin_name,
        anims=_paths(anims),
        palette=_opt_path(palette),
        ignore_case=ignore_case,
        replacements=replacements,
        fps=fps,
        model_config=model_config,
        weapon=_opt_path(weapon),
        prefer_md5=prefer_md5,
        body=body,
        skin_family=skin_family,
    )
    _warn(said)
    return model


def loads(
    data: Union[bytes, bytearray, memoryview],
    name: Optional[str] = None,
    *,
    skin_name: Optional[str] = None,
    fps: Optional[float] = None,
    body: int = 0,
    skin_family: int = 0,
) -> Model:
    """Read a model from bytes (any format, detected by content).

    ``name`` is how messages and ``info()`` name it. No side files can be found, so use
    formats that carry their data (``.glb``, MDL, MD3 without external skins). The keyword
    arguments are :func:`load`'s.
    """
    model, said = _native.loads(
        bytes(data), name, skin_name=skin_name, fps=fps, body=body, skin_family=skin_family
    )
    _warn(said)
    return model


def _save_options(
    *,
    force: bool = False,
    fps: Optional[float] = None,
    mdl: Optional[str] = None,
    target_palette: Optional[PathLike] = None,
    dither: bool = False,
    fullbrights: bool = False,
    strict: bool = False,
    quantize: bool = False,
    compress: Union[bool, str] = False,
    embed: bool = False,
    skin: Optional[PathLike] = None,
    skin_paths: Sequence[str] = (),
    scale: Optional[float] = None,
    rotate: Union[None, float, Sequence[float]] = None,
    fit_height: Optional[float] = None,
    keep_skin_size: bool = False,
    qc: bool = False,
    frame: int = 0,
    clip_split: str = "names",
    frames: str = "all",
    filter: str = "nearest",
    rerelease: bool = False,
    bones: int | None = None,
    external_textures: bool = False,
    sequence_group_size: int | None = None,
) -> dict:
    if rotate is not None:
        r = [float(rotate)] if np.ndim(rotate) == 0 else [float(v) for v in rotate]  # type: ignore[arg-type]
        if not 1 <= len(r) <= 3:
            raise ValueError(f"rotate={rotate!r}: give yaw, (yaw, pitch) or (yaw, pitch, roll) in degrees")
        rotate = (r + [0.0, 0.0])[:3]
    return {
        "force": bool(force),
        "fps": None if fps is None else float(fps),
        "mdl": mdl,
        "target_palette": _opt_path(target_palette),
        "dither": bool(dither),
        "fullbrights": bool(fullbrights),
        "strict": bool(strict),
        "quantize": bool(quantize),
        "compress": ("ext" if compress else "none") if isinstance(compress, bool) else str(compress),
        "embed": bool(embed),
        "skin": _opt_path(skin),
        "skin_paths": list(skin_paths),
        "scale": None if scale is None else float(scale),
        "rotate": rotate,
        "fit_height": None if fit_height is None else float(fit_height),
        "keep_skin_size": bool(keep_skin_size),
        "qc": bool(qc),
        "frame": int(frame),
        "clip_split": clip_split,
        "frames": frames,
        "filter": filter,
        "rerelease": bool(rerelease),
        "bones": None if bones is None else int(bones),
        "external_textures": bool(external_textures),
        "sequence_group_size": None if sequence_group_size is None else int(sequence_group_size),
    }


_SAVE_DOC = """
    Options (``retromodel convert``'s):

    - ``force``: replace files that exist (otherwise nothing is written if one does).
    - ``fps``: the rate clips are resampled to and skeletal animations baked at for MDL,
      MD2, MD3 and GameStudio MDL (default 10, the rate their games step frames at).
    - ``mdl``: which MDL to write for ``.mdl``: ``"quake"``, ``"gs3"``, ``"gs4"``, ``"gs5"``.
    - ``target_palette``: a ``palette.lmp`` for 8-bit skins (default: Quake's for MDL).
    - ``dither``, ``fullbrights``: how skins are matched to the palette.
    - ``strict``: fail instead of warning when the result exceeds the target engine's limits.
    - ``quantize``, ``embed``, ``clip_split``, ``frames``, ``filter``: glTF output.
    - ``compress``: meshopt-compressed glTF (implies ``quantize``): ``True`` or ``"ext"``
      for ``EXT_meshopt_compression``, ``"khr"`` for ``KHR_meshopt_compression``.
    - ``skin``: a picture to use as the only skin (same format: replaces skin 0 in place).
    - ``skin_paths``: MD2 skin paths to store.
    - ``scale``, ``rotate`` (yaw or (yaw, pitch, roll) degrees), ``fit_height``: placement.
      A glTF/OBJ model in metres is otherwise scaled to the target's units.
    - ``keep_skin_size``: keep skins larger than the engines take.
    - ``qc``: write QuakeC ``$frame`` macros beside a Quake MDL.
    - ``frame``: the pose an OBJ gets.
    - ``rerelease``: write the re-release layout (the ``.md2``/``.mdl`` with its MD5
      replacement beside it), as ``--rerelease`` does; the model must be skeletal.
    - ``bones``: at most this many joints, as ``--bones`` does: a skeletal model's least
      important joints merged into their parents, a keyframe model written to a skeletal
      format given that many fitted rigid bones; the error per frame in ``frame_errors``.
    - ``external_textures``: Half-Life MDL: textures in ``NAMET.mdl`` beside the model.
    - ``sequence_group_size``: Half-Life MDL: at most this many KB of animation in one
      sequence group, the rest in ``NAME01.mdl``, ``NAME02.mdl`` ...
"""


def _save(self: Model, path: PathLike, **options: Any) -> SaveReport:
    report = self._save(os.fspath(path), _save_options(**options))
    _warn(report.warnings)
    return report


_save.__doc__ = (
    """Write the model to ``path``; the extension picks the format (``.mdl``, ``.md2``,
    ``.md3``, ``.md5mesh``, ``.glb``, ``.gltf``, ``.obj``, ...).

    The model is fitted to the target as ``retromodel convert`` fits it (clip timing, frame
    names, skin sizes, mesh splits). The model's own format is written back byte for byte.
    Files are written through a temporary file and renamed into place. Returns a
    :class:`SaveReport` (files written, warnings, per-frame quantisation error).
"""
    + _SAVE_DOC
)


def _to_glb(self: Model, **options: Any) -> bytes:
    """The model as a binary glTF (what ``retromodel convert x y.glb`` writes), in memory.

    Takes ``save``'s glTF options (``quantize``, ``compress``, ``clip_split``, ``frames``, ``filter``,
    ``fps``, ``skin``).
    """
    data, report = self._to_bytes("glb", _save_options(**options))
    _warn(report.warnings)
    return data


def _to_bytes(self: Model, extension: str, **options: Any) -> bytes:
    """The main file ``save`` would write for ``extension`` (``"mdl"``, ``"md3"``, ...), in
    memory. Side files (MD2 PCX skins, md5anims) are left out."""
    data, report = self._to_bytes(extension.lstrip("."), _save_options(**options))
    _warn(report.warnings)
    return data


Model.save = _save  # type: ignore[attr-defined]
Model.to_glb = _to_glb  # type: ignore[attr-defined]
Model.to_bytes = _to_bytes  # type: ignore[attr-defined]


def convert(src: PathLike, dst: PathLike, **options: Any) -> SaveReport:
    """Convert one model file (or a Quake 3 player folder) to ``dst``, as
    ``retromodel convert SRC DST`` does: ``load(src, ...)`` then ``save(dst, ...)``.

    Takes :func:`load`'s keyword arguments and :meth:`Model.save`'s options.
    """
    load_keys = {
        "game_dirs", "skin_name", "anims", "palette", "ignore_case", "replacements",
        "model_config", "weapon", "prefer_md5", "body", "skin_family",
    }
    lo = {k: options.pop(k) for k in list(options) if k in load_keys}
    if "fps" in options:
        lo["fps"] = options["fps"]
    return load(src, **lo).save(dst, **options)


def convert_tree(
    src: PathLike,
    dst: PathLike,
    to: str,
    *,
    progress: Optional[Callable[[int, int, tuple], Any]] = None,
    game_dirs: Union[PathLike, Sequence[PathLike]] = (),
    skin_name: Optional[str] = None,
    ignore_case: bool = False,
    **options: Any,
) -> list:
    """Convert every model under ``src`` (a folder, a game folder with its archives, an
    archive, or ``ARCHIVE:FOLDER``) to format ``to`` (``"glb"``, ``"gltf"``, ``"obj"``,
    ``"mdl"``, ``"md2"``, ...) under ``dst``, keeping the tree, as
    ``retromodel convert SRC DST --to TO`` does.

    Bad files are reported and the others go on. Returns one
    ``(input, output, outcome, message)`` tuple per file, outcome ``"converted"``,
    ``"kept"`` (the output exists; ``force=True`` replaces it), ``"unsupported"`` or
    ``"failed"``. ``progress(done, total, entry)`` is called after each file; the GIL is
    released while a file is converted. Takes :meth:`Model.save`'s options.
    """
    fps = options.get("fps")
    return _native.convert_tree(
        os.fspath(src),
        os.fspath(dst),
        to,
        _save_options(**options),
        (_paths(game_dirs), skin_name, bool(ignore_case), None if fps is None else float(fps)),
        progress,
    )


def _f32(a: Any, ndim: int, what: str) -> np.ndarray:
    arr = np.ascontiguousarray(a, dtype=np.float32)
    if arr.ndim != ndim:
        raise ValueError(f"{what}: expected {ndim} dimensions, got shape {arr.shape}")
    return arr


def _u32(a: Any, what: str) -> np.ndarray:
    arr = np.asarray(a)
    if arr.size and (arr.min() < 0):
        raise ValueError(f"{what}: negative index")
    arr = np.ascontiguousarray(arr, dtype=np.uint32)
    if arr.ndim != 2:
        raise ValueError(f"{what}: expected 2 dimensions, got shape {arr.shape}")
    return arr


def _skin(a: Any) -> Optional[np.ndarray]:
    if a is None:
        return None
    arr = np.asarray(a)
    if arr.ndim == 3 and arr.shape[2] == 3:
        arr = np.concatenate([arr, np.full(arr.shape[:2] + (1,), 255, arr.dtype)], axis=2)
    if arr.dtype != np.uint8:
        if np.issubdtype(arr.dtype, np.floating):
            arr = np.clip(np.rint(arr * 255.0), 0, 255)
        arr = arr.astype(np.uint8)
    return np.ascontiguousarray(arr)


def from_keyframes(
    positions: Any,
    triangles: Any,
    *,
    uvs: Any = None,
    normals: Any = None,
    skin: Any = None,
    pose_names: Optional[Sequence[str]] = None,
    clips: Sequence[tuple] = (),
    name: str = "model",
) -> Model:
    """Build a keyframe model (one mesh) to save in any format.

    - ``positions``: ``(poses, n, 3)`` (or ``(n, 3)`` for one pose), in game units, Z up.
    - ``triangles``: ``(m, 3)`` vertex indices, front faces clockwise seen from the front
      (Quake's winding; reverse a counter-clockwise mesh's with ``triangles[:, ::-1]``).
    - ``uvs``: ``(n, 2)`` in ``[0, 1]``, v downwards; ``normals``: like positions (computed
      when None); ``skin``: an ``(h, w, 4)`` (or 3) uint8 picture, or floats in ``[0, 1]``.
    - ``pose_names``: one per pose (default ``frame0``, ``frame1``, ...).
    - ``clips``: ``(name, first, count, fps)`` tuples.

    >>> m = retromodel.from_keyframes(poses, tris, uvs=uv, skin=rgba,
    ...                               clips=[("walk", 0, 8, 10.0)])
    >>> m.save("thing.mdl")
    """
    pos = np.asarray(positions)
    if pos.ndim == 2:
        pos = pos[None]
    return _native.from_keyframes(
        _f32(pos, 3, "positions"),
        _u32(triangles, "triangles"),
        None if uvs is None else _f32(uvs, 2, "uvs"),
        None if normals is None else _f32(np.asarray(normals) if np.ndim(normals) == 3 else np.asarray(normals)[None], 3, "normals"),
        _skin(skin),
        None if pose_names is None else list(pose_names),
        [(str(c[0]), int(c[1]), int(c[2]), float(c[3])) for c in clips],
        name,
    )


def from_skinned(
    positions: Any,
    triangles: Any,
    joints: Any,
    weights: Any,
    *,
    joint_names: Sequence[str],
    parents: Sequence[int],
    bind_translations: Any,
    bind_rotations: Any,
    uvs: Any = None,
    animations: Sequence[tuple] = (),
    skin: Any = None,
    name: str = "model",
) -> Model:
    """Build a skinned model (one mesh with a skeleton) to save in any format.

    - ``positions`` ``(n, 3)`` in the bind pose, ``triangles`` ``(m, 3)`` clockwise,
      ``uvs`` ``(n, 2)``.
    - ``joints`` ``(n, k)`` joint indices and ``weights`` ``(n, k)`` (k up to 4; weights
      are normalised).
    - The skeleton: ``joint_names``, ``parents`` (-1 for a root; a parent before its
      children), ``bind_translations`` ``(j, 3)`` and ``bind_rotations`` ``(j, 4)``
      quaternions ``(x, y, z, w)``, object space.
    - ``animations``: ``(name, fps, translations (f, j, 3), rotations (f, j, 4))`` tuples of
      local joint transforms (relative to the parent).

    Saved as MDL, MD2 or MD3 the animations are baked into frames; as MD5 they become
    ``.md5anim`` files beside the mesh.
    """

    def pad4(a: Any, dtype: Any, what: str) -> np.ndarray:
        arr = np.asarray(a)
        if arr.ndim == 1:
            arr = arr[:, None]
        if arr.ndim != 2 or arr.shape[1] > 4:
            raise ValueError(f"{what}: expected shape (n, k) with k <= 4, got {arr.shape}")
        out = np.zeros((arr.shape[0], 4), dtype=dtype)
        out[:, : arr.shape[1]] = arr
        return np.ascontiguousarray(out)

    return _native.from_skinned(
        _f32(positions, 2, "positions"),
        _u32(triangles, "triangles"),
        pad4(joints, np.uint32, "joints"),
        pad4(weights, np.float32, "weights"),
        [str(n) for n in joint_names],
        [int(p) for p in parents],
        _f32(bind_translations, 2, "bind_translations"),
        _f32(bind_rotations, 2, "bind_rotations"),
        None if uvs is None else _f32(uvs, 2, "uvs"),
        [
            (str(a[0]), float(a[1]), _f32(a[2], 3, "animation translations"), _f32(a[3], 3, "animation rotations"))
            for a in animations
        ],
        _skin(skin),
        name,
    )


class GameFs(_NativeGameFs):
    """A game's files as its engine sees them: folders and archives stacked.

    >>> fs = retromodel.GameFs(["quake/id1"])
    >>> fs.files("progs")[:3]
    >>> ogre = fs.load("progs/ogre.mdl")
    >>> data = fs.read("gfx/palette.lmp")
    """

    def load(self, path: str, *, skin_name: Optional[str] = None, fps: Optional[float] = None) -> Model:
        """Load the model at game path ``path``, its side files (skins, palettes, shader
        scripts, animations) found in the tree as the engine finds them."""
        model, said = self._load(path, skin_name=skin_name, fps=fps)
        _warn(said)
        return model


def formats() -> dict:
    """The extensions retromodel reads (detected by content) and writes, from the library's
    registry: ``{"read": [...], "write": [...], "writers": [...]}``. ``write`` holds every
    extension :meth:`Model.save` takes (some only write a file back as read: ``.hmp``,
    ``.wmp``); ``writers`` the targets a model can be written to from any source, as
    ``"md2"`` or ``"mdl:gs5"`` (the ``mdl=`` variant after the colon)."""
    read, write, writers = _native.formats()
    return {"read": list(read), "write": list(write), "writers": list(writers)}


def engines() -> list:
    """The engine names :meth:`Model.validate` checks against."""
    return list(_native.engines())
