"""Backends for the bench tests only, registered with monkeypatch in `flowsat.solve.BACKENDS`:
one that never answers, one whose process dies, one that raises, one that naps, a slow one,
a fake astar."""
