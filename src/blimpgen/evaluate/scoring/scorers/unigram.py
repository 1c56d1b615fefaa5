"""A unigram model: deterministic, dependency-free scores for tests, cue audits and SLOR.

Probabilities are add-one smoothed relative frequencies, so unseen tokens get a finite
score. The model can count any tokenization: SLOR builds one over a neural scorer's own
subword tokens (:meth:`UnigramModel.train` with ``tokenize=scorer.tokenize``).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from blimpgen._io import decode, open_regular
from blimpgen.errors import DataError, OptionError
from blimpgen.evaluate.scoring.base import QUERY_BATCH, Query, Scorer, TokenScores

_WORD = re.compile(r"\w+(?:['’]\w+)*|[^\w\s]")


def word_tokenize(text: str, lowercase: bool = True) -> list[str]:
    """Split ``text`` into words and punctuation marks (the n-gram and unigram tokenization)."""
    return _WORD.findall(text.lower() if lowercase else text)


def read_corpus_lines(path: Path | str) -> Iterable[str]:
    """Yield the non-empty lines of a plain-text corpus file: UTF-8 (a byte-order mark is dropped),
    lines ending at LF (a CR before it is dropped).

    Raises:
        DataError: when the path is not a readable regular file (it never blocks on a FIFO), or
            ``file:line`` for a line that is not UTF-8 text.
    """
    name = str(path)
    with open_regular(path, name, DataError) as handle:
        for number, raw in enumerate(handle, start=1):
            line = decode(raw, name, DataError, "utf-8-sig" if number == 1 else "utf-8", line=number)
            line = line.rstrip("\n").removesuffix("\r")
            if line.strip():
                yield line


class UnigramModel:
    """Add-one smoothed token frequencies.

    Args:
        counts: token -> count.
    """

    def __init__(self, counts: Mapping[str, int]) -> None:
        self.counts = dict(counts)
        self._denominator = sum(self.counts.values()) + len(self.counts) + 1

    @classmethod
    def train(cls, texts: Iterable[str], tokenize: Callable[[str], Sequence[str]]) -> UnigramModel:
        """Count the tokens of ``texts`` as ``tokenize`` splits them."""
        counts: Counter[str] = Counter()
        for text in texts:
            counts.update(tokenize(text))
        return cls(counts)

    def logprob(self, token: str) -> float:
        """Natural-log probability of one token."""
        return math.log((self.counts.get(token, 0) + 1) / self._denominator)


class UnigramScorer(Scorer):
    """Score words by their unigram frequency, ignoring context.

    Args:
        counts: token -> count (give this or ``corpus``).
        corpus: a plain-text file to count (one sentence or paragraph per line).
        lowercase: fold case before counting and scoring.

    Raises:
        OptionError: unless exactly one of ``counts`` and ``corpus`` is given.
        DataError: when the corpus cannot be read.
    """

    name = "unigram"

    def __init__(
        self, counts: Mapping[str, int] | None = None, corpus: str | Path | None = None, lowercase: bool = True
    ) -> None:
        if (counts is None) == (corpus is None):
            raise OptionError("unigram scorer needs exactly one of counts or corpus (--scorer-option corpus=FILE)")
        self.lowercase = lowercase
        self.corpus = str(corpus) if corpus is not None else None
        if counts is not None:
            self.model = UnigramModel(counts)
        elif corpus is not None:  # exactly one of the two is given (checked above)
            self.model = UnigramModel.train(read_corpus_lines(corpus), self.tokenize)

    def tokenize(self, text: str) -> list[str]:
        return word_tokenize(text, self.lowercase)

    def score(self, queries: Sequence[Query]) -> list[TokenScores]:
        return self.report_queries(queries, QUERY_BATCH, self._score)

    def _score(self, queries: Sequence[Query]) -> list[TokenScores]:
        out = []
        for query in queries:
            tokens = tuple(self.tokenize(query.text))
            out.append(TokenScores(tokens, tuple(self.model.logprob(t) for t in tokens)))
        return out

    def options(self) -> dict[str, Any]:
        return {
            "scorer": self.name,
            "corpus": self.corpus,
            "lowercase": self.lowercase,
            "vocabulary_size": len(self.model.counts),
        }
