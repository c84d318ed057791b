"""The same chunks on a Dask cluster: a real distributed.LocalCluster on loopback gives the tables loky gives."""

from __future__ import annotations

import pytest

from simulator import app
from simulator.errors import DealsimError

pytest.importorskip("distributed", reason="the dask extra is part of the test extra; install it with .[test]")


@pytest.mark.parametrize("game,unit", [("rounds", "match"), ("forty-two", "deal")])
def test_a_local_dask_cluster_gives_the_tables_of_loky(tmp_path, game: str, unit: str) -> None:
    kwargs = {"n": 240, "chunk_size": 40, "unit": unit, "jobs": 2}
    on_dask = app.simulate(game, backend="dask", output=tmp_path / "dask", **kwargs)
    on_loky = app.simulate(game, backend="loky", output=tmp_path / "loky", **kwargs)
    for name in on_loky.tables:
        assert (tmp_path / "dask" / f"{name}.parquet").read_bytes() == (
            tmp_path / "loky" / f"{name}.parquet"
        ).read_bytes()
    assert on_dask.summary == on_loky.summary
    assert on_dask.manifest["backend"] == "dask"


def test_an_unreachable_scheduler_is_one_clear_error(monkeypatch) -> None:
    monkeypatch.setenv("DEALSIM_DASK_TIMEOUT", "1s")
    with pytest.raises(DealsimError, match="cannot reach the Dask scheduler"):
        app.simulate("rounds", n=10, backend="dask", scheduler="tcp://127.0.0.1:9", jobs=1)
