"""What a chunk of probe items asks the scorer, and asking it.

Each item is planned into blank queries, one per distinct context, each asking for the words
scored there (:meth:`ProbeItem.cells`: the candidates for multiple choice by the blank method,
and every cell sensitivity compares: good and bad, the foils, a role item's target in both
contexts), and, for the sentence method or a question, one sentence query per candidate. A
contrast's answer context also asks for the top tokens, with the expected words that are single
tokens.

Every item of a chunk is planned (and checked by the scorer: ``check_blank``) before anything
is scored. An item with a word the scorer cannot score in the blank (for a masked LM: not one
token of its vocabulary) is **dropped**, with the reason, and counted (Ettinger filters items
the same way; the summary reports each suite's coverage); it asks nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from blimpgen.errors import BlimpgenError, DataError
from blimpgen.evaluate.scoring.base import BlankQuery, BlankScores, Query, QueryError, Scorer
from blimpgen.records.item import ProbeItem
from blimpgen.records.item_types import BLANK, Cell


@dataclass
class ItemPlan:
    """What one item asks, as indices into its chunk's query lists."""

    item: ProbeItem
    where: str  # the item's file:line, for messages
    method: str = "blank"  # how its multiple choice is scored: blank or sentence
    cells: dict[Cell, tuple[int, int]] = field(default_factory=dict)  # cell -> (blank query, option index)
    sentences: list[int] = field(default_factory=list)  # per candidate: its sentence query (sentence method)
    top: tuple[int, tuple[str, ...]] | None = None  # (blank query, single-token expected words)
    top_status: str | None = None  # scored, no_expected, multi_token, no_top_k; None: no top-k
    dropped: str | None = None  # why the item is not scored (a word the scorer cannot score)

    def error(self, problem: str, what: str) -> DataError:
        """A located error about this item."""
        return DataError(f"{self.where}: item {self.item.item_id!r}: {what} {problem}")


@dataclass
class ChunkPlan:
    """A chunk's item plans and the queries they index."""

    items: list[ItemPlan]
    blank_queries: list[BlankQuery]
    sentences: list[Query]

    def __len__(self) -> int:
        return len(self.items)


@dataclass(frozen=True)
class ChunkScores:
    """The scorer's answers to a :class:`ChunkPlan`'s queries, index for index."""

    blanks: list[BlankScores]
    sentences: list[float]


def plan_chunk(scorer: Scorer, items: Sequence[tuple[ProbeItem, object]], method: str) -> ChunkPlan:
    """Plan every item of a chunk; an item the scorer cannot score in the blank is dropped."""
    plan = ChunkPlan([], [], [])
    for item, where in items:
        plan.items.append(_plan_item(item, str(where), scorer, method, plan.blank_queries, plan.sentences))
    return plan


def _split(context: str) -> tuple[str, str]:
    left, _, right = context.partition(BLANK)
    return left, right


def _plan_item(
    item: ProbeItem, where: str, scorer: Scorer, method: str, blank_queries: list[BlankQuery], sentences: list[Query]
) -> ItemPlan:
    plan = ItemPlan(item, where, method if item.has_blank else "sentence")
    wanted: list[Cell] = []
    if plan.method == "blank" and item.is_multiple_choice:
        wanted += item.cells()
    for better, worse in item.comparisons():
        wanted += [better, worse]
    by_context: dict[tuple[str, str], list[str]] = {}
    for text, word in dict.fromkeys(wanted):
        by_context.setdefault(_split(text), []).append(word)
    answer_context = _split(item.context)
    single: tuple[str, ...] = ()
    if item.is_contrast:
        plan.top_status = "no_expected"
        if item.expected:
            query = BlankQuery(*answer_context, tuple(dict.fromkeys(item.expected)))
            single = tuple(w for w, tokens in zip(query.options, scorer.blank_tokens(query)) if len(tokens) == 1)
            plan.top_status = "scored" if single else "multi_token"
    if single:
        by_context.setdefault(answer_context, [])
    for context, options in by_context.items():
        try:
            scorer.check_blank(BlankQuery(*context, tuple(options)))
        except BlimpgenError as exc:  # a word this scorer cannot score in the blank: drop the item
            plan.dropped = str(exc)
            plan.top_status = None
            return plan
    if plan.method == "sentence" and item.is_multiple_choice:
        plan.sentences = list(range(len(sentences), len(sentences) + len(item.candidates)))
        sentences.extend(Query("", item.filled(option)) for option in item.candidates)
    for context, options in by_context.items():
        for k, option in enumerate(options):
            plan.cells[(context[0] + BLANK + context[1], option)] = (len(blank_queries), k)
        asked = tuple(options)
        if single and context == answer_context:
            plan.top = (len(blank_queries), single)
            asked += tuple(w for w in single if w not in options)
        blank_queries.append(BlankQuery(*context, asked))
    return plan


def score_chunk(scorer: Scorer, plan: ChunkPlan, top_k: int) -> ChunkScores:
    """Ask the scorer every query of a planned chunk.

    Only the answer contexts of contrasts ask for the top tokens (a causal LM's cost a pass).

    Raises:
        DataError: naming the item, for a context, sentence or candidate the scorer refuses
            (e.g. longer than the model's context) or a sentence of 0 tokens.
    """
    with_top = {item.top[0] for item in plan.items if item.top is not None}
    blanks: list[BlankScores] = [BlankScores(())] * len(plan.blank_queries)
    owner = {i: item for item in plan.items for i, _ in item.cells.values()}
    owner.update({item.top[0]: item for item in plan.items if item.top is not None})
    passes = [[i for i in range(len(plan.blank_queries)) if (i in with_top) == wanted] for wanted in (False, True)]
    # progress: each pass is a stage of the chunk, weighed by its queries (options count for blanks)
    weights = [sum(len(plan.blank_queries[i].options) for i in asked) for asked in passes] + [len(plan.sentences)]
    bounds = [sum(weights[:k]) / max(1, sum(weights)) for k in range(len(weights) + 1)]
    for stage, (asked, k) in enumerate(zip(passes, (0, top_k))):
        try:
            with scorer.stage(bounds[stage], bounds[stage + 1]):
                answered = scorer.blank([plan.blank_queries[i] for i in asked], k) if asked else []
        except QueryError as exc:
            raise owner[asked[exc.index]].error(exc.problem, "its context") from None
        for i, scores in zip(asked, answered):
            blanks[i] = scores
    with scorer.stage(bounds[2], bounds[3]):
        sentences = _score_sentences(scorer, plan)
    return ChunkScores(blanks, sentences)


def _score_sentences(scorer: Scorer, plan: ChunkPlan) -> list[float]:
    """Summed log-probability of each filled sentence (sentence method)."""
    if not plan.sentences:
        return []
    owner = {i: item for item in plan.items for i in item.sentences}
    try:
        scored = scorer.score(plan.sentences)
    except QueryError as exc:
        raise owner[exc.index].error(exc.problem, f"the sentence {plan.sentences[exc.index].text[:60]!r}") from None
    for i, scores in enumerate(scored):
        if not len(scores):
            raise owner[i].error(
                f"is 0 tokens for scorer {scorer.name!r}, so it has no score; fix the item, "
                "or check the model's tokenizer",
                f"the sentence {plan.sentences[i].text[:60]!r}",
            )
    return [scores.total for scores in scored]
