"""dealsim: seeded Monte Carlo simulation of Forty-two, Frank's Zoo and Rounds.

The Python API is the application layer, `simulator.app`, re-exported here: `simulate`, `compare`, `tune`,
`analyze`, `report`, `trace`, `make_run` (see README, "Python API")."""

from simulator.version import __version__

__all__ = [
    "__version__",
    "analyze",
    "compare",
    "make_run",
    "report",
    "run_from_manifest",
    "simulate",
    "trace",
    "tune",
]
_API = frozenset(__all__) - {"__version__"}


def __getattr__(name: str):
    # The API is loaded on first use, so that importing a core module (as every worker does) stays light.
    if name in _API:
        import simulator.app

        return getattr(simulator.app, name)
    raise AttributeError(f"module 'simulator' has no attribute {name!r}")
