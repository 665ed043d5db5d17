"""Making puzzles: random fillings of a board by paths (`filling`), edited as layouts
(`layout`) into puzzles proved to have one solution (`make`), made seed by seed in runs
(`run`) and written with their manifest (`corpus`)."""
