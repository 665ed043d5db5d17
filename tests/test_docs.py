"""Nothing the command line offers goes undocumented: every command and every `--option` in
`flowsat --help` and `flowsat COMMAND --help` is mentioned in README.md or docs/*.md."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

from tests.conftest import ROOT

SECTION = re.compile(r"^(\w+):$")  # `Options:`, `Commands:`: click's help, as flowsat prints it
COMMAND = re.compile(r"^  ([a-z][\w-]*)(?:\s|$)")
OPTION = re.compile(r"^  (?:-\w, )?(--[a-z][\w-]*)(?: / (--[a-z][\w-]*))?")


def help_text(*command: str) -> str:
    """`python -m flowsat [COMMAND] --help`, wide, as a program sees it."""
    done = subprocess.run([sys.executable, "-m", "flowsat", *command, "--help"], cwd=ROOT,
                          capture_output=True, text=True, env={**os.environ, "COLUMNS": "200"})
    assert done.returncode == 0, done.stderr
    return done.stdout


def section(text: str, name: str) -> list[str]:
    """The lines of one section of a help text (`Options`, `Commands`)."""
    lines, inside = [], False
    for line in text.splitlines():
        header = SECTION.match(line)
        if header:
            inside = header[1] == name
        elif inside:
            lines.append(line)
    return lines


def commands(text: str) -> list[str]:
    return [m[1] for line in section(text, "Commands") if (m := COMMAND.match(line))]


def options(text: str) -> set[str]:
    found = {flag for line in section(text, "Options") if (m := OPTION.match(line))
             for flag in m.groups() if flag}
    return found - {"--help"}


def documentation() -> str:
    return "\n".join(p.read_text() for p in [ROOT / "README.md", *sorted(ROOT.glob("docs/*.md"))])


def mentioned(word: str, text: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text) is not None


def test_every_command_and_option_of_the_help_is_documented():
    main = help_text()
    names = commands(main)
    assert len(names) >= 10 and "solve" in names, f"no commands read from --help:\n{main}"
    with ThreadPoolExecutor(max_workers=4) as pool:
        texts = dict(zip(names, pool.map(help_text, names), strict=True))
    helps = {"flowsat --help": main} | {f"flowsat {n} --help": t for n, t in texts.items()}
    flags: dict[str, str] = {}  # each flag, and the first help that has it
    for where, text in helps.items():
        for flag in sorted(options(text)):
            flags.setdefault(flag, where)
    assert {"--version", "--timeout", "--no-color", "--max-memory"} <= set(flags), flags
    docs = documentation()
    missing = [f"command {name}" for name in names if not mentioned(f"flowsat {name}", docs)]
    missing += [f"{flag} ({where})" for flag, where in sorted(flags.items())
                if not mentioned(flag, docs)]
    assert not missing, "in flowsat --help but not in README.md or docs/*.md: " + \
        ", ".join(missing)


def test_the_help_reader_finds_what_click_prints():
    text = ("Usage: flowsat x [OPTIONS]\n\n  Does x (--not-an-option here).\n\nOptions:\n"
            "  --to <board|pack>  The format.\n  -o, --output <path>  Where.\n"
            "  --color / --no-color  Colors.\n                    (--wrapped text)\n"
            "  --help  Show this message and exit.\n\nCommands:\n  solve  Solve.\n  rate\n")
    assert options(text) == {"--to", "--output", "--color", "--no-color"}
    assert commands(text) == ["solve", "rate"]
    assert mentioned("--color", "[--color/--no-color]") and not mentioned("--max", "--max-cells")
