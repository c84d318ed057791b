"""A user module that calls sys.exit when imported (`--seat all=tests.exits_on_import:X` loads it): the run
fails in one line instead of ending silently with the module's exit code."""

import sys

sys.exit(4)
