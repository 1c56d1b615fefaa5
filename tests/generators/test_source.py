"""Text finishing: the fast path gives what the regular expressions gave."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from blimpgen.generators.source import BEFORE_PUNCT_RE, SPACES_RE, finish_fragment, finish_sentence

PIECES = list("ab .,?!;:'A") + ["  ", "\t", "\n", "\xa0", "\u2003", "\x1c", "\r\n", "\x85"]
TEXT = st.lists(st.sampled_from(PIECES), max_size=20).map("".join)


@settings(max_examples=500)
@given(text=TEXT)
def test_source_finish_matches_the_regular_expressions(text: str) -> None:
    expected = BEFORE_PUNCT_RE.sub(r"\1", SPACES_RE.sub(" ", text)).strip()
    assert finish_fragment(text) == expected
    assert finish_sentence(text) == expected[:1].upper() + expected[1:]
