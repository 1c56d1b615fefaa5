"""The :class:`Scorer` interface: per-token log-probabilities for texts, with an optional context.

A scorer answers :class:`Query` objects, each "score the tokens of ``text`` given ``context``".
A full sentence is ``Query("", sentence)``; BLiMP's prefix methods score one word (or a whole
continuation) after a prefix. Scorers return natural-log probabilities per token and never
reduce them: sums, means and SLOR live in :mod:`blimpgen.evaluate.reductions`.

Nothing here imports torch; model families live in ``blimpgen.evaluate.scorers``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar


@dataclass(frozen=True)
class Query:
    """Score the tokens of ``text`` given ``context`` (empty: the start of a sentence).

    ``text`` is appended to ``context`` as written: prefix methods pass the separating space
    on the text's side (``Query("The cat", " sleeps")``), as lm-evaluation-harness does.
    """

    context: str
    text: str


@dataclass(frozen=True)
class TokenScores:
    """Per-token natural-log probabilities of a query's text."""

    tokens: tuple[str, ...]
    logprobs: tuple[float, ...]

    @property
    def total(self) -> float:
        """Summed log-probability (BLiMP's score)."""
        return float(sum(self.logprobs))

    def __len__(self) -> int:
        return len(self.logprobs)


class Scorer(ABC):
    """One model family: turns queries into per-token log-probabilities.

    Subclasses take their model (or a name/path to load it from) in the constructor, whose
    signature is the scorer's option schema, and override :meth:`score`. Scorers that can
    share work between the two sentences of a pair override :meth:`score_pairs`.
    """

    #: registry name, for messages and result files
    name: ClassVar[str] = ""

    @abstractmethod
    def score(self, queries: Sequence[Query]) -> list[TokenScores]:
        """Score each query's text tokens given its context.

        Args:
            queries: what to score; identical queries may be scored once.

        Returns:
            One :class:`TokenScores` per query, in order.
        """

    def score_pairs(self, pairs: Sequence[tuple[Query, Query]]) -> list[tuple[TokenScores, TokenScores]]:
        """Score (good, bad) query pairs; the default scores them independently.

        Args:
            pairs: the two queries of each minimal pair.

        Returns:
            One (good, bad) tuple of scores per pair, in order.
        """
        flat = self.score([query for pair in pairs for query in pair])
        return list(zip(flat[0::2], flat[1::2]))

    def score_texts(self, texts: Sequence[str]) -> list[TokenScores]:
        """Score whole sentences (a convenience over :meth:`score`)."""
        return self.score([Query("", text) for text in texts])

    @abstractmethod
    def tokenize(self, text: str) -> list[str]:
        """The token strings this scorer scores ``text`` as (used to build SLOR's unigram model)."""

    def options(self) -> dict[str, Any]:
        """JSON-ready settings that determine the scores; written into every result file."""
        return {"scorer": self.name}
