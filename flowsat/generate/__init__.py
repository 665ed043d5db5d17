"""Making puzzles: random fillings of a board by paths (`filling`), edited as layouts
(`layout`) into puzzles proved to have one solution (`make`), made seed by seed in runs
(`run`) and written with their manifest (`corpus`)."""

# the kinds of board with a density (`kinds`), their defaults and what the density is a share
# of: light, for `flowsat generate`'s options
DENSITY = {"holes": 0.1, "walls": 0.2, "bridges": 0.5}
DENSITY_HELP = {"holes": "share of the cells", "walls": "share of the links no path uses",
                "bridges": "share of the chances to bridge that are tried"}
