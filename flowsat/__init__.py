"""flowsat: Flow Free / Numberlink puzzles solved by SAT and by best-first search."""

import gc
import importlib.util
import os
import sys
import threading
import types


class _NumpyWhenUsed(types.ModuleType):
    """`numpy` before it is loaded: loaded (see `load_numpy`) at the first use of a name it
    defines, or of one of its submodules, never at `import numpy`: a command that uses none
    (`flowsat show`, `--help`) does not pay its loading (some 60 ms). The import system's
    own look-ups (`__spec__`, `__name__`) find what is there and load nothing, unlike
    `importlib.util.LazyLoader`'s module, which any `import numpy` statement loads."""

    def __getattr__(self, name: str):
        with _LOADING:  # another thread waits for the whole of numpy
            if type(self) is _NumpyWhenUsed:
                if "__path__" in vars(self):  # loading: numpy asks for what it has not yet
                    raise AttributeError(f"module 'numpy' has no attribute {name!r}")
                load_numpy(self)
                self.__class__ = types.ModuleType
        return getattr(self, name)


_LOADING = threading.RLock()


def load_numpy(module: types.ModuleType) -> None:
    """Load numpy into `module` with its BLAS on one thread and the cycle collector off:
    flowsat does no linear algebra, and OpenBLAS starting a thread per core costs some
    60-100 ms of CPU a process; numpy makes no garbage cycles worth the 38 collections its
    loading sets off. Both last only for the loading (OpenBLAS reads the setting once, when
    loaded), so programs flowsat starts see the environment as it was."""
    given, collecting = os.environ.get("OPENBLAS_NUM_THREADS"), gc.isenabled()
    os.environ["OPENBLAS_NUM_THREADS"] = given or "1"
    gc.disable()
    try:
        module.__path__ = module.__spec__.submodule_search_locations
        module.__spec__.loader.exec_module(module)
        gc.freeze()  # numpy's objects (and any made before) go to the oldest generation,
        gc.unfreeze()  # not through the two younger ones: fewer passes of the collector
    finally:
        if given is None:
            del os.environ["OPENBLAS_NUM_THREADS"]
        if collecting:
            gc.enable()


def numpy_now() -> None:
    """Load numpy now, if `import numpy` left it for its first use: before the first puzzle
    of a run (whose time then does not hold it), or in a fork server (whose processes then
    share it)."""
    module = sys.modules.get("numpy")
    if type(module) is _NumpyWhenUsed:
        module.__getattr__("ndarray")


def _numpy_when_first_used() -> None:
    """`numpy` in sys.modules as a `_NumpyWhenUsed` (unless it is there already)."""
    spec = None if "numpy" in sys.modules else importlib.util.find_spec("numpy")
    if spec is None or spec.loader is None:
        return
    module = importlib.util.module_from_spec(spec)
    del module.__path__  # so that importing a submodule of numpy loads numpy first
    module.__class__ = _NumpyWhenUsed
    sys.modules["numpy"] = module


_numpy_when_first_used()
__version__ = "0.1.0"
