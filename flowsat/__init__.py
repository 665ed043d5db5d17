"""flowsat: Flow Free / Numberlink puzzles solved by SAT and by best-first search."""

import gc
import os


def _import_numpy_single_threaded() -> None:
    """Import numpy with its BLAS on one thread and the cycle collector off: flowsat does no
    linear algebra, and OpenBLAS starting a thread per core costs some 60-100 ms of CPU a
    process (half a small run); numpy makes no garbage cycles worth the 38 collections its
    loading sets off. Both last only for the import (OpenBLAS reads the setting once, when
    loaded), so programs flowsat starts see the environment as it was."""
    given, collecting = os.environ.get("OPENBLAS_NUM_THREADS"), gc.isenabled()
    os.environ["OPENBLAS_NUM_THREADS"] = given or "1"
    gc.disable()
    try:
        import numpy  # noqa: F401
        gc.freeze()  # numpy's objects (and any made before) go to the oldest generation,
        gc.unfreeze()  # not through the two younger ones: fewer passes of the collector
    finally:
        if given is None:
            del os.environ["OPENBLAS_NUM_THREADS"]
        if collecting:
            gc.enable()


_import_numpy_single_threaded()
__version__ = "0.1.0"
