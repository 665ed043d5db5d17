"""flowsat: Flow Free / Numberlink puzzles solved by SAT and by best-first search."""

import os


def _import_numpy_single_threaded() -> None:
    """Import numpy with its BLAS on one thread: flowsat does no linear algebra, and OpenBLAS
    starting a thread per core costs some 60-100 ms of CPU a process (half a small run).
    The setting lasts only for the import (OpenBLAS reads it once, when loaded), so programs
    flowsat starts see the environment as it was."""
    given = os.environ.get("OPENBLAS_NUM_THREADS")
    os.environ["OPENBLAS_NUM_THREADS"] = given or "1"
    try:
        import numpy  # noqa: F401
    finally:
        if given is None:
            del os.environ["OPENBLAS_NUM_THREADS"]


_import_numpy_single_threaded()
__version__ = "0.1.0"
