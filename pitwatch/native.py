"""The compiled fold: the rules engine's hot modules built with mypyc, used only when they match
the source.

The modules of :data:`COMPILED_MODULES` (the fold of every event: the engine, the games, the
accounting, the sequence checker, the auditor, the alerts and the file replay) can be compiled to C extension
modules by mypyc (part of mypy) with ``pitwatch native build`` (``make`` does it). The
build goes to ``build/native/`` beside the package, never next to the sources, with a manifest of
the SHA-256 of every source file the compiled code was built from (:data:`FINGERPRINTED`).

``import pitwatch`` calls :func:`install`: when the manifest matches the sources on disk, the
Python version and the platform, an import finder loads those modules from the build; otherwise
(no build, a source edited since, another interpreter, ``PITWATCH_NATIVE=0`` in the environment)
every module is imported from its source, as if no build existed. A stale build is never used,
so an edited ``.py`` file always runs. Compiled or not, the code is the same source and gives the
same verdicts (a test replays a simulated evening both ways and compares every output); only the
speed differs (BENCHMARKS.md). :func:`status` says which one runs and why.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
from importlib.abc import MetaPathFinder
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType
from typing import Any, Sequence

from pitwatch.catalogue import CATALOGUE

PACKAGE_DIR = Path(__file__).resolve().parent
BUILD_DIR = PACKAGE_DIR.parent / "build" / "native"
"""Where :func:`build` writes the extension modules and :data:`MANIFEST`."""
MANIFEST = "manifest.json"
MANIFEST_VERSION = 1
ENV_SWITCH = "PITWATCH_NATIVE"
"""Environment variable: ``0`` imports every module from its source even with a fresh build."""

FOLD_MODULES = (
    "pitwatch.rules.accounting",
    "pitwatch.rules.game",
    "pitwatch.rules.engine",
    "pitwatch.rules.book",
    "pitwatch.detectors.sequence",
    "pitwatch.detectors.alerts",
    "pitwatch.detectors.auditor",
    "pitwatch.detectors.chain",
    "pitwatch.detectors.digest",
    "pitwatch.detectors.release",
    "pitwatch.detectors.expiry",
    "pitwatch.detectors.pair_rates",
    "pitwatch.detectors.pair_behaviour",
    "pitwatch.detectors.poker_play",
    "pitwatch.detectors.pairs",
    "pitwatch.detectors.association",
    "pitwatch.detectors.chip_dumping",
    "pitwatch.detectors.soft_play",
    "pitwatch.detectors.whipsaw",
    "pitwatch.detectors.two_tables",
    "pitwatch.replay",
)
"""The engine's and the detectors' modules of the per-event fold."""

COMPILED_MODULES = FOLD_MODULES + tuple(m for e in CATALOGUE for m in e.compiled)
"""The modules mypyc compiles: the fold's, and each game's (its catalogue entry's ``compiled``)."""
GROUP = "pitwatch_native__mypyc"
"""The shared library of the compiled group (mypyc's runtime and every module's code); each
module of :data:`COMPILED_MODULES` is a small extension that loads it."""

FINGERPRINTED = ("pitwatch/rules", "pitwatch/detectors", "pitwatch/schemas", "pitwatch/replay/__init__.py",
                 "pitwatch/catalogue.py")
"""Sources (relative to the repository) whose SHA-256 the manifest records: the compiled modules,
every module of pitwatch they import, and the catalogue (which names the games' compiled modules).
Editing any of them makes the build stale."""

_state: dict[str, str | bool] = {"active": False, "reason": "not installed"}


def _sources() -> list[Path]:
    root = PACKAGE_DIR.parent
    found: list[Path] = []
    for rel in FINGERPRINTED:
        p = root / rel
        found.extend(sorted(p.rglob("*.py")) if p.is_dir() else [p])
    return found


def fingerprint() -> dict[str, str]:
    """``{path relative to the repository: SHA-256 hex}`` of every source in :data:`FINGERPRINTED`."""
    root = PACKAGE_DIR.parent
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest() for p in _sources()}


def _platform() -> dict[str, str]:
    return {"python": sys.version.split()[0], "cache_tag": str(sys.implementation.cache_tag),
            "ext_suffix": importlib.machinery.EXTENSION_SUFFIXES[0]}


def module_path(name: str) -> str:
    """A module's path relative to the repository, without suffix (a package: its ``__init__``)."""
    return name.replace(".", "/") + ("/__init__" if name == "pitwatch.replay" else "")


def _module_file(name: str, build_dir: Path) -> Path:
    return build_dir / (module_path(name) + importlib.machinery.EXTENSION_SUFFIXES[0])


def check_build(build_dir: Path = BUILD_DIR) -> str | None:
    """Why the build in ``build_dir`` cannot be used (``None``: it can): no manifest, another
    manifest version, interpreter or platform, a module missing, or a source changed since."""
    try:
        manifest = json.loads((build_dir / MANIFEST).read_text())
    except FileNotFoundError:
        return "no compiled build (pitwatch native build)"
    except (OSError, ValueError) as exc:
        return f"unreadable manifest: {exc}"
    if manifest.get("manifest_version") != MANIFEST_VERSION:
        return "manifest of another version"
    if manifest.get("platform") != _platform():
        return f"built for {manifest.get('platform')}, running {_platform()}"
    for name in (*COMPILED_MODULES, GROUP):
        if not _module_file(name, build_dir).is_file():
            return f"{name} missing from the build"
    if manifest.get("sources") != fingerprint():
        return "sources changed since the build (stale: pitwatch native build)"
    return None


class _NativeFinder(MetaPathFinder):
    """Finds the compiled extension of each module of :data:`COMPILED_MODULES` (and the group
    library) in the build directory; leaves every other import to the usual finders."""

    def __init__(self, build_dir: Path):
        self.build_dir = build_dir

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        if fullname != GROUP and fullname not in COMPILED_MODULES:
            return None
        where = [str(PACKAGE_DIR / "replay")] if fullname == "pitwatch.replay" else None
        loader = _PackageLoader(fullname, str(_module_file(fullname, self.build_dir)), where)
        spec = importlib.util.spec_from_loader(fullname, loader, origin=loader.path)
        if spec is not None and where is not None:
            spec.submodule_search_locations = list(where)
        return spec


class _PackageLoader(importlib.machinery.ExtensionFileLoader):
    """Loads a compiled module; for a package, keeps its submodules' search path in the source
    tree (the compiled ``__init__`` sets ``__path__`` to the build directory)."""

    def __init__(self, name: str, path: str, where: list[str] | None):
        super().__init__(name, path)
        self.where = where

    def exec_module(self, module: ModuleType) -> None:
        super().exec_module(module)
        if self.where is not None:
            module.__path__ = list(self.where)


def install(build_dir: Path = BUILD_DIR) -> bool:
    """Use the compiled modules if the build in ``build_dir`` matches the sources (see the module
    docstring); returns whether it does. Must run before any of :data:`COMPILED_MODULES` is
    imported (``import pitwatch`` does it); idempotent."""
    if _state["active"]:
        return True
    if os.environ.get(ENV_SWITCH, "") == "0":
        _state["reason"] = f"{ENV_SWITCH}=0"
        return False
    if any(name in sys.modules for name in COMPILED_MODULES):
        _state["reason"] = "modules already imported from source"
        return False
    why = check_build(build_dir)
    if why is not None:
        _state["reason"] = why
        return False
    sys.meta_path.insert(0, _NativeFinder(build_dir))
    _state.update(active=True, reason=f"compiled by mypyc ({build_dir})")
    return True


def status() -> tuple[bool, str]:
    """``(compiled, why)``: whether the fold runs compiled, and why (or why not)."""
    return bool(_state["active"]), str(_state["reason"])


def _compile_in_parallel(cmd: Any) -> None:
    """Make ``build_ext`` command ``cmd`` compile the C files of an extension on every core (setuptools
    compiles them one after the other, and mypyc's group is one extension of many files): its compiler's
    ``compile`` hands each file to a thread, which waits on its own ``gcc``."""
    from concurrent.futures import ThreadPoolExecutor

    build_extensions = cmd.build_extensions

    def in_parallel() -> None:
        one_by_one = cmd.compiler.compile

        def compile_all(sources: list[str], *args: Any, **kwargs: Any) -> list[str]:
            with ThreadPoolExecutor(os.cpu_count() or 1) as pool:
                parts = list(pool.map(lambda src: one_by_one([src], *args, **kwargs), sources))
            return [obj for part in parts for obj in part]

        cmd.compiler.compile = compile_all
        build_extensions()

    cmd.build_extensions = in_parallel


def build(build_dir: Path = BUILD_DIR) -> Path:
    """Compile :data:`COMPILED_MODULES` with mypyc into ``build_dir`` (replacing what it held) and
    write its manifest; returns ``build_dir``. Needs mypy (the test extra), setuptools and a C
    compiler with the Python headers. Raises ``RuntimeError`` if a source changes during the build,
    and whatever mypyc raises for code it cannot compile."""
    import shutil

    from mypyc.build import mypycify  # build-time tools: imported only here
    from setuptools import Distribution

    root = PACKAGE_DIR.parent
    tmp = build_dir.parent / (build_dir.name + "-tmp")
    before = fingerprint()
    paths = [module_path(name) + ".py" for name in COMPILED_MODULES]
    cwd = os.getcwd()
    os.chdir(root)  # mypyc names the modules by their paths relative to the working directory
    try:
        shutil.rmtree(build_dir, ignore_errors=True)
        # one C file per module (multi_file), the files compiled on every core
        extensions = mypycify(paths, opt_level="3", target_dir=str(tmp / "c"), multi_file=True,
                              group_name=GROUP.removesuffix("__mypyc"))
        dist = Distribution({"name": "pitwatch-native", "ext_modules": extensions})
        cmd = dist.get_command_obj("build_ext")
        cmd.build_lib, cmd.build_temp = str(build_dir), str(tmp / "obj")  # type: ignore[attr-defined]
        _compile_in_parallel(cmd)
        dist.run_command("build_ext")
    finally:
        os.chdir(cwd)
    if fingerprint() != before:
        raise RuntimeError("a source changed during the build: build again")
    manifest = {"manifest_version": MANIFEST_VERSION, "platform": _platform(), "sources": before}
    (build_dir / MANIFEST).write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    return build_dir

