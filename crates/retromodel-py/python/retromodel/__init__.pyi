"""Type stubs of the retromodel package (see __init__.py and the Rust module for docs)."""

import os
from typing import Any, Callable, Iterable, Optional, Sequence, Union

import numpy as np
import numpy.typing as npt

PathLike = Union[str, os.PathLike[str]]
__version__: str

class FormatError(ValueError):
    format: Optional[str]
    message: str
    offset: Optional[int]
    line: Optional[int]
    column: Optional[int]

class RetromodelWarning(UserWarning): ...

class Clip:
    name: str
    first: int
    count: int
    fps: float
    seconds: float
    loop: Optional[bool]

class Mesh:
    name: str
    vertex_count: int
    uvs: npt.NDArray[np.float32]
    triangles: npt.NDArray[np.uint32]
    source_vertices: npt.NDArray[np.uint32]
    skin: Optional[int]
    joints: Optional[npt.NDArray[np.uint32]]
    weights: Optional[npt.NDArray[np.float32]]
    def positions(self, pose: Optional[int] = None) -> npt.NDArray[np.float32]: ...
    def normals(self, pose: Optional[int] = None) -> npt.NDArray[np.float32]: ...
    def all_positions(self) -> npt.NDArray[np.float32]: ...

class Skeleton:
    names: list[str]
    parents: npt.NDArray[np.int32]
    translations: npt.NDArray[np.float32]
    rotations: npt.NDArray[np.float32]
    bind: npt.NDArray[np.float32]
    def __len__(self) -> int: ...

class Animation:
    name: str
    fps: float
    frame_count: int
    loop: bool
    events: list[dict[str, Any]]
    translations: npt.NDArray[np.float32]
    rotations: npt.NDArray[np.float32]

class Skin:
    name: str
    source: Optional[str]
    pictures: list[npt.NDArray[np.uint8]]
    times: Optional[list[float]]

class SaveReport:
    files: list[str]
    warnings: list[str]
    notes: list[str]
    frame_errors: list[float]
    frame_names: list[str]
    max_error: Optional[float]
    summary: Optional[str]
    bytes: int
    written_back: bool

class Model:
    format: Optional[str]
    path: Optional[str]
    vertex_count: int
    triangle_count: int
    pose_count: int
    poses: list[str]
    meshes: list[Mesh]
    clips: list[Clip]
    skeleton: Optional[Skeleton]
    animations: list[Animation]
    skins: list[Skin]
    def info(self) -> dict[str, Any]: ...
    def joint_matrices(
        self,
        animation: Union[int, str, None] = None,
        time: float = 0.0,
        *,
        skinning: bool = True,
        loop: bool = True,
    ) -> npt.NDArray[np.float32]: ...
    def validate(self, engine: Optional[str] = None) -> list[tuple[str, str]]: ...
    def save(
        self,
        path: PathLike,
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
    ) -> SaveReport: ...
    def to_glb(self, **options: Any) -> bytes: ...
    def to_bytes(self, extension: str, **options: Any) -> bytes: ...

class GameFs:
    def __init__(self, dirs: Sequence[PathLike] = (), *, ignore_case: bool = False) -> None: ...
    def mount(self, dir: PathLike) -> None: ...
    def add_dir(self, dir: PathLike) -> None: ...
    def add_archive(self, path: PathLike) -> None: ...
    def files(self, prefix: str = "") -> list[str]: ...
    def read(self, path: str) -> bytes: ...
    def __contains__(self, path: str) -> bool: ...
    layers: list[str]
    warnings: list[str]
    def load(self, path: str, *, skin_name: Optional[str] = None, fps: Optional[float] = None) -> Model: ...

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
) -> Model: ...
def loads(
    data: Union[bytes, bytearray, memoryview],
    name: Optional[str] = None,
    *,
    skin_name: Optional[str] = None,
    fps: Optional[float] = None,
    body: int = 0,
    skin_family: int = 0,
) -> Model: ...
def convert(src: PathLike, dst: PathLike, **options: Any) -> SaveReport: ...
def convert_tree(
    src: PathLike,
    dst: PathLike,
    to: str,
    *,
    progress: Optional[Callable[[int, int, tuple[str, str, str, str]], Any]] = None,
    game_dirs: Union[PathLike, Sequence[PathLike]] = (),
    skin_name: Optional[str] = None,
    ignore_case: bool = False,
    **options: Any,
) -> list[tuple[str, str, str, str]]: ...
def from_keyframes(
    positions: npt.ArrayLike,
    triangles: npt.ArrayLike,
    *,
    uvs: Optional[npt.ArrayLike] = None,
    normals: Optional[npt.ArrayLike] = None,
    skin: Optional[npt.ArrayLike] = None,
    pose_names: Optional[Sequence[str]] = None,
    clips: Sequence[tuple[str, int, int, float]] = (),
    name: str = "model",
) -> Model: ...
def from_skinned(
    positions: npt.ArrayLike,
    triangles: npt.ArrayLike,
    joints: npt.ArrayLike,
    weights: npt.ArrayLike,
    *,
    joint_names: Sequence[str],
    parents: Sequence[int],
    bind_translations: npt.ArrayLike,
    bind_rotations: npt.ArrayLike,
    uvs: Optional[npt.ArrayLike] = None,
    animations: Sequence[tuple[str, float, npt.ArrayLike, npt.ArrayLike]] = (),
    skin: Optional[npt.ArrayLike] = None,
    name: str = "model",
) -> Model: ...
def formats() -> dict[str, list[str]]: ...
def engines() -> list[str]: ...
