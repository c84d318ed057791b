"""The installed version of dealsim."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("dealsim")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0.0.0+source"
