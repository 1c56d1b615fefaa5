"""The :class:`Scorer` interface: per-token log-probabilities for texts, with an optional context.

A scorer answers :class:`Query` objects, each "score the tokens of ``text`` given ``context``".
A full sentence is ``Query("", sentence)``; BLiMP's prefix methods score one word (or a whole
continuation) after a prefix. Scorers return natural-log probabilities per token and never
reduce them: sums, means and SLOR live in :mod:`blimpgen.evaluate.scoring.reductions`.

Cloze probes ask a second question, :class:`BlankQuery`: "how probable is each option in the
blank between ``left`` and ``right``", answered by :meth:`Scorer.blank`.

Nothing here imports torch; model families live in ``blimpgen.evaluate.scoring.scorers``.
"""

from __future__ import annotations

import contextlib
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from blimpgen.errors import BlimpgenError, DataError


class QueryError(BlimpgenError):
    """A query the scorer cannot score, such as a text longer than the model's context.

    The scorer knows the problem but not where the text came from, so it names the query by
    position; the caller turns that into a pair id or item id and ``file:line``.

    Args:
        index: the query's position in what the scorer was given (for :meth:`Scorer.score_pairs`,
            ``2 * pair`` for the good query and ``2 * pair + 1`` for the bad one; for
            :meth:`Scorer.blank`, the position of the :class:`BlankQuery`).
        problem: what is wrong, as the end of a sentence whose subject is the text
            (``"is 300 tokens, more than ..."``).
    """

    def __init__(self, index: int, problem: str) -> None:
        self.index, self.problem = index, problem
        super().__init__(f"query {index} {problem}")


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


@dataclass(frozen=True)
class BlankQuery:
    """Score each of ``options`` filling the blank between ``left`` and ``right``.

    ``left`` and ``right`` are the context's text on either side of the blank, spaces
    included (``BlankQuery("A robin is a ", ".", ("bird", "tree"))``).
    """

    left: str
    right: str
    options: tuple[str, ...]


@dataclass(frozen=True)
class BlankScores:
    """A scorer's answer to one :class:`BlankQuery`.

    Attributes:
        logprobs: per option, the natural-log probability of the option filling the blank,
            normalised over the full vocabulary (summed over its tokens when it has several).
        top: the ``top_k`` most probable single tokens at the blank, decoded, most probable
            first; empty when the scorer cannot say (or ``top_k`` was 0).
        ranks: per option, its rank among all tokens at the blank (1: the most probable) when
            it is a single token, else None; empty when the scorer has no token distribution.
    """

    logprobs: tuple[float, ...]
    top: tuple[str, ...] = ()
    ranks: tuple[int | None, ...] = ()


def blank_continuation(left: str, option: str) -> Query:
    """The query scoring ``option`` after ``left``: trailing spaces of ``left`` move to the text.

    ``blank_continuation("A robin is a ", "bird") == Query("A robin is a", " bird")``, so
    tokenizers that mark a word's leading space (GPT-2's ``Ġ``) see the word as in a sentence.
    """
    context = left.rstrip()
    return Query(context, left[len(context) :] + option)


# Progress of a staged call is reported as this many parts of the whole (Scorer.stage).
STAGE_RESOLUTION = 10_000
# Queries per reported batch for scorers that score one query at a time (n-gram, unigram).
QUERY_BATCH = 500


class Scorer(ABC):
    """One model family: turns queries into per-token log-probabilities.

    Subclasses take their model (or a name/path to load it from) in the constructor, whose
    signature is the scorer's option schema, and override :meth:`score`. Scorers that can
    share work between the two sentences of a pair override :meth:`score_pairs`.
    """

    #: registry name, for messages (results record the versioned registry id, ``hf-causal.v1``)
    name: ClassVar[str] = ""
    #: called with (batches done, batches) as a scorer runs the batches of one call; set by the
    #: runner for progress (:mod:`blimpgen.evaluate.progress`), None otherwise
    batch_hook: Callable[[int, int], None] | None = None

    def report_batch(self, done: int, total: int) -> None:
        """Tell the runner that ``done`` of the ``total`` batches of the current call are scored."""
        if self.batch_hook is not None:
            self.batch_hook(done, total)

    @contextlib.contextmanager
    def stage(self, begin: float, end: float) -> Iterator[None]:
        """Within the block, batches reported count as the share ``begin``..``end`` of the current call.

        A call that runs several passes (a probe chunk: blank queries, then sentences; a causal
        cloze: option scores, then the next-token distribution) gives each pass its stage, so
        progress moves forward through all of them instead of restarting with each pass.
        """
        outer = self.batch_hook
        if outer is None:
            yield
            return

        def hook(done: int, total: int) -> None:
            share = begin + (end - begin) * done / max(1, total)
            outer(round(share * STAGE_RESOLUTION), STAGE_RESOLUTION)

        self.batch_hook = hook
        try:
            yield
        finally:
            self.batch_hook = outer

    def report_queries(
        self, queries: Sequence[Any], batch: int, step: Callable[[Sequence[Any]], list[Any]]
    ) -> list[Any]:
        """Run ``step`` on ``batch`` queries at a time, reporting each batch; return the results in order.

        For scorers without batches of their own (n-gram, unigram), so that their progress
        moves per :data:`QUERY_BATCH` queries rather than once per chunk of thousands of pairs.
        """
        out: list[Any] = []
        total = max(1, -(-len(queries) // batch))
        for done, begin in enumerate(range(0, len(queries), batch), 1):
            out += step(queries[begin : begin + batch])
            self.report_batch(done, total)
        return out

    @classmethod
    def place(cls, options: dict[str, Any], local_rank: int) -> dict[str, Any]:
        """The constructor options that put this scorer on a distributed process's own device.

        Called before the scorer is built when the run is launched over several processes
        (``local_rank`` is the process's index on its machine). The default changes nothing;
        scorers that run on a device pick the process's own (``TorchScorer``: ``cuda:LOCAL_RANK``).

        Args:
            options: the constructor options given.
            local_rank: the process's index on its machine.
        """
        return options

    @abstractmethod
    def score(self, queries: Sequence[Query]) -> list[TokenScores]:
        """Score each query's text tokens given its context.

        Args:
            queries: what to score; identical queries may be scored once.

        Returns:
            One :class:`TokenScores` per query, in order.

        Raises:
            QueryError: for a query the model cannot read (e.g. longer than its context).
        """

    def score_pairs(self, pairs: Sequence[tuple[Query, Query]]) -> list[tuple[TokenScores, TokenScores]]:
        """Score (good, bad) query pairs; the default scores them independently.

        Args:
            pairs: the two queries of each minimal pair.

        Returns:
            One (good, bad) tuple of scores per pair, in order.

        Raises:
            QueryError: indexed ``2 * pair`` (good) or ``2 * pair + 1`` (bad).
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

    def provenance(self) -> dict[str, Any]:
        """What ``results.json``'s ``provenance`` records of the model: ``model`` (an object naming
        it, or None), ``device`` and ``dtype``. Default: a pure-Python scorer on the CPU."""
        return {"model": None, "device": "cpu", "dtype": None}

    #: how multiple-choice probes are scored unless asked otherwise: ``sentence`` or ``blank``
    default_probe_method: ClassVar[str] = "sentence"

    def blank(self, queries: Sequence[BlankQuery], top_k: int = 0) -> list[BlankScores]:
        """Score each option of each query in the blank.

        The default, for any scorer, scores each option as a continuation of ``left``
        (:func:`blank_continuation`) and sums its tokens' log-probabilities. It ignores
        ``right``, and says nothing about the top tokens (``top`` and ``ranks`` are empty).
        Scorers with a token distribution at the blank override this.

        Args:
            queries: the blanks and their options.
            top_k: also return the ``top_k`` most probable tokens at the blank (0: none).

        Returns:
            One :class:`BlankScores` per query, in order.

        Raises:
            QueryError: indexed by the :class:`BlankQuery`.
        """
        asked = [blank_continuation(q.left, option) for q in queries for option in q.options]
        try:
            flat = self.score(asked)
        except QueryError as exc:
            owners = [i for i, q in enumerate(queries) for _ in q.options]
            raise QueryError(owners[exc.index], exc.problem) from None
        out, begin = [], 0
        for query in queries:
            out.append(BlankScores(tuple(s.total for s in flat[begin : begin + len(query.options)])))
            begin += len(query.options)
        return out

    def blank_tokens(self, query: BlankQuery) -> list[tuple[str, ...]]:
        """The tokens each option fills the blank with (a single-token option has one).

        The default tokenizes the option as :meth:`blank` scores it.
        """
        return [tuple(self.tokenize(blank_continuation(query.left, option).text)) for option in query.options]

    def check_blank(self, query: BlankQuery) -> None:
        """Raise when :meth:`blank` cannot score the query's options; the default refuses an
        option that is 0 tokens (it would get log-probability 0, the best possible score).

        Raises:
            DataError: one line naming the option and why (masked LMs: not one token).
        """
        for option, tokens in zip(query.options, self.blank_tokens(query)):
            if not tokens:
                raise DataError(
                    f"candidate {option!r} is 0 tokens for scorer {self.name!r}, so it has no "
                    "score; check the candidate and the model's tokenizer"
                )
