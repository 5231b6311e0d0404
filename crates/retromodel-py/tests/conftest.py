"""Shared fixtures: the corpus (RETROMODEL_CORPUS, else ../shared/corpus beside the
repository) and the command-line binary (RETROMODEL_BIN, else target/release/retromodel)."""

import json
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]


def corpus_dir():
    env = os.environ.get("RETROMODEL_CORPUS")
    path = pathlib.Path(env) if env else ROOT.parent / "shared" / "corpus"
    return path if path.is_dir() else None


def cli_path():
    env = os.environ.get("RETROMODEL_BIN")
    path = pathlib.Path(env) if env else ROOT / "target" / "release" / "retromodel"
    return path if path.is_file() else None


@pytest.fixture(scope="session")
def corpus():
    path = corpus_dir()
    if path is None:
        pytest.skip("no corpus (set RETROMODEL_CORPUS)")
    return path


@pytest.fixture(scope="session")
def cli():
    path = cli_path()
    if path is None:
        pytest.skip("no retromodel binary (cargo build --release, or set RETROMODEL_BIN)")
    return path


def run_cli(cli, *args, check=True):
    """Runs the command line, returning (returncode, stdout, stderr)."""
    p = subprocess.run([str(cli), *map(str, args)], capture_output=True, text=True)
    if check and p.returncode != 0:
        raise AssertionError(f"retromodel {' '.join(map(str, args))} failed: {p.stderr}")
    return p.returncode, p.stdout, p.stderr


def info_json(cli, paths):
    """`retromodel info --json` of many paths: {path: object}."""
    out = {}
    paths = [str(p) for p in paths]
    for i in range(0, len(paths), 200):
        _, stdout, _ = run_cli(cli, "info", "--json", *paths[i : i + 200], check=False)
        for line in stdout.splitlines():
            v = json.loads(line)
            out[v["path"]] = v
    return out
