"""Drawing boards and solutions: text with box-drawing characters (and ANSI colors)."""
