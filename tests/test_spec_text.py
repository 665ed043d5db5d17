"""The specs' plain reader (`flowsat.sat.spec.plain_toml`): what it reads, tomllib reads the
same; what it does not read (None), tomllib does; and every spec shipped is plain."""

from __future__ import annotations

import tomllib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from flowsat.sat.spec import builtin_specs, plain_toml


def agrees(text: str) -> bool:
    """Whether the plain reader leaves the text to tomllib or reads what tomllib reads."""
    mine = plain_toml(text)
    try:
        theirs = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return mine is None
    return mine is None or mine == theirs


@pytest.mark.parametrize("name", sorted(builtin_specs()))
def test_every_spec_shipped_is_read_plainly_as_tomllib_reads_it(name):
    text = builtin_specs()[name].read_text(encoding="utf-8")
    assert plain_toml(text) == tomllib.loads(text)


@pytest.mark.parametrize(("text", "read"), [
    ('a = "x"\nb = true\nc = false\n', {"a": "x", "b": True, "c": False}),
    ('# why\n\nnotes = """\none "two"\n\tthree\n"""\n', {"notes": 'one "two"\n\tthree\n'}),
    ('notes = """\n"""', {"notes": ""}),
    ("", {}),
    ('a = "x\\ny"\n', None),  # an escape
    ('a = "x"  # why\n', None),
    ('a = "x"\r\nb = "y"\r\n', None),
    ('a="x"\n', None),
    ('a = "x"\na = "y"\n', None),  # twice: tomllib refuses it
    ('é = "x"\n', None),
    ('1a = "x"\n', None),
    ('a = "x"y"\n', None),
    ('a = """\nx\n', None),  # never closed
    ('a = """\nx """\n"""\n', None),
    ('a = """\nx\\\ny\n"""\n', None),  # a line-ending backslash
    ('a = """\nx\n  """\n', None),
    ('# \x7f\na = "x"\n', None),
    ('a = 1\n', None),
    ('a = [1]\n', None),
    ('[t]\na = "x"\n', None),
])
def test_the_plain_reader_reads_plain_text_and_leaves_the_rest_to_tomllib(text, read):
    assert plain_toml(text) == read
    assert agrees(text)


PIECES = ['a', 'b', ' = ', '"', '"""', 'x', ' ', '\t', '\n', '\r', '#', '\\', 'true', 'false',
          '1', '[', ']', 'é', '\x01', '\x7f']


@given(st.lists(st.sampled_from(PIECES), max_size=30).map("".join))
def test_the_plain_reader_never_reads_a_text_otherwise_than_tomllib(text):
    assert agrees(text)
