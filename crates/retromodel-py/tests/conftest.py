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
    if env and not (path / "MANIFEST.tsv").is_file():
        # As the Rust tests: a corpus that is named must be there (issue 45).
        raise pytest.UsageError(f"RETROMODEL_CORPUS={env} has no MANIFEST.tsv")
    return path if path.is_dir() else None


def corpus_required():
    """Whether the corpus was named (RETROMODEL_CORPUS): then no test may skip."""
    return bool(os.environ.get("RETROMODEL_CORPUS"))


def skip_or_fail(reason):
    """Skips the test, or fails it when RETROMODEL_CORPUS is set (a corpus case that is
    missing is then a failure, as in the Rust tests)."""
    if corpus_required():
        pytest.fail(f"RETROMODEL_CORPUS is set but {reason}", pytrace=False)
    pytest.skip(reason)


def cli_path():
    env = os.environ.get("RETROMODEL_BIN")
    path = pathlib.Path(env) if env else ROOT / "target" / "release" / "retromodel"
    return path if path.is_file() else None


@pytest.fixture(scope="session")
def corpus():
    path = corpus_dir()
    if path is None:
        skip_or_fail("no corpus (set RETROMODEL_CORPUS)")
    return path


@pytest.fixture(scope="session")
def cli():
    path = cli_path()
    if path is None:
        if os.environ.get("RETROMODEL_BIN"):
            pytest.fail(f"RETROMODEL_BIN={os.environ['RETROMODEL_BIN']} is not a file", pytrace=False)
        skip_or_fail("no retromodel binary (cargo build --release, or set RETROMODEL_BIN)")
    return path


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """With RETROMODEL_CORPUS set, any skip is a failure (issue 45): a corpus test that
    cannot run must not pass CI unseen."""
    outcome = yield
    report = outcome.get_result()
    if corpus_required() and report.skipped and not hasattr(report, "wasxfail"):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr
        report.outcome = "failed"
        report.longrepr = f"skipped with RETROMODEL_CORPUS set: {reason}"


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
