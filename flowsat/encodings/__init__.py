"""Named SAT encodings, one TOML spec each; installed with flowsat as `flowsat.encodings`."""
