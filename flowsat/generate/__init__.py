"""Making puzzles: random fillings of a board by paths, cut into solvable puzzles."""
