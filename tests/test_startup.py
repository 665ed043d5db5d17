"""What a run imports at start-up: a sat run of a text file imports none of what only other
runs use (external solver programs, propagation's residue, JSON)."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import PUZZLES

FIVE = PUZZLES / "small" / "5x5" / "5x5-0001.txt"
# imported where they are used: an external solver (`external:COMMAND`), propagation first on
# large boards, JSON output, PySAT's cardinality encodings (not the default pairwise), the
# names of characters that are no cell (bad input); and never: pkgutil
NOT_ON_A_SAT_RUN = ("flowsat.process", "flowsat.sat.dimacs", "flowsat.sat.residue", "json",
                    "pysat.card", "unicodedata", "pkgutil")


def imported_by(args: list[str]) -> tuple[set[str], str]:
    """The modules a command line's run imported, and what it printed."""
    code = ("import sys; sys.argv = ['flowsat', *sys.argv[1:]]\n"
            "from flowsat.__main__ import main\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "print('MODULES', *sorted(sys.modules))")
    out = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                         check=True).stdout
    text, _, modules = out.rpartition("MODULES ")
    return set(modules.split()), text


def test_a_sat_run_of_a_text_file_imports_only_what_it_uses():
    modules, text = imported_by(["solve", str(FIVE)])
    assert "solved" in text and "flowsat.sat.search" in modules
    assert not modules & set(NOT_ON_A_SAT_RUN)


def test_json_output_and_propagation_import_what_they_need():
    modules, text = imported_by(["solve", "--format", "json", "--deduce", "on", str(FIVE)])
    assert '"status":"solved"' in text
    assert {"json", "flowsat.sat.residue"} <= modules
