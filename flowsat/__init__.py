"""flowsat: Flow Free / Numberlink puzzles solved by SAT and by best-first search."""
__version__ = "0.1.0"
