"""The same chunks on Dask: a real distributed.LocalCluster on loopback gives the tables loky gives."""

from __future__ import annotations

import pytest

from simulator import app
from simulator.errors import DealsimError
from simulator.specs import Execution, Output, RunSpec

pytest.importorskip("distributed", reason="the dask extra is part of the test extra; install it with .[test]")


@pytest.mark.parametrize("game,unit", [("rounds", "match"), ("forty-two", "deal")])
def test_a_local_dask_cluster_gives_the_tables_of_loky(tmp_path, game: str, unit: str) -> None:
    spec = RunSpec(game, n=240, chunk_size=40, unit=unit)
    on_dask = app.simulate(spec, Execution(jobs=2, backend="dask"), Output(tmp_path / "dask"))
    on_loky = app.simulate(spec, Execution(jobs=2, backend="loky"), Output(tmp_path / "loky"))
    for name in on_loky.tables:
        assert (tmp_path / "dask" / f"{name}.parquet").read_bytes() == (
            tmp_path / "loky" / f"{name}.parquet"
        ).read_bytes()
    assert on_dask.summary == on_loky.summary
    assert on_dask.timing["backend"] == "dask"


def test_an_unreachable_scheduler_is_one_clear_error(monkeypatch) -> None:
    monkeypatch.setenv("DEALSIM_DASK_TIMEOUT", "1s")
    with pytest.raises(DealsimError, match="cannot reach the Dask scheduler"):
        app.simulate(
            RunSpec("rounds", n=10),
            execution=Execution(jobs=1, backend="dask", scheduler="tcp://127.0.0.1:9"),
        )
