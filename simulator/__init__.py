"""dealsim: seeded Monte Carlo simulation of Forty-two, Frank's Zoo and Rounds.

The Python API is the application layer, `simulator.app`, re-exported here: the specs (`RunSpec`,
`Execution`, `Output`) and the use cases that take them (`simulate`, `resume`, `compare`, `tune`, `ladder`,
`analyze`, `report`, `report_run`, `bench`, `trace`); see README, "Python API"."""

__all__ = [
    "Execution",
    "Output",
    "RunSpec",
    "__version__",
    "analyze",
    "bench",
    "compare",
    "ladder",
    "report",
    "report_run",
    "resume",
    "run_from_manifest",
    "simulate",
    "trace",
    "tune",
]
_API = frozenset(__all__) - {"__version__"}


def __getattr__(name: str):
    # The API is loaded on first use, so that importing a core module (as every worker does) stays light;
    # the version too (importlib.metadata takes longer to import than most of the games).
    if name == "__version__":
        from simulator.version import __version__

        return __version__
    if name in _API:
        import simulator.app

        return getattr(simulator.app, name)
    raise AttributeError(f"module 'simulator' has no attribute {name!r}")
