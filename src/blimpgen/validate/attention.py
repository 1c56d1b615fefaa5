"""Attention checks: a real good sentence against a scrambled copy of itself.

Checks are built by blimpgen from the data being validated, so a batch never needs a
hand-written list. The broken version is a "word salad": no word keeps its place and no two
words that were neighbours stay neighbours in the same order, which is unacceptable to any
attentive native speaker however short the sentence is (four words or more).

A worker may take many HITs of one batch, so every HIT gets a check whose good sentence is used
by no other check in the batch: no worker can see the same check twice.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from dataclasses import dataclass

from blimpgen.errors import DataError

MIN_WORDS = 4
_FINAL_PUNCTUATION = ".!?"
_ATTEMPTS = 200
# Sentence-initial words that are capitalised only for being first; lowered when moved.
_FUNCTION_WORDS = frozenset(
    {
        "a",
        "an",
        "the",
        "this",
        "that",
        "these",
        "those",
        "some",
        "many",
        "most",
        "every",
        "all",
        "each",
        "no",
        "few",
        "several",
        "one",
        "two",
        "three",
        "my",
        "your",
        "his",
        "her",
        "its",
        "our",
        "their",
        "he",
        "she",
        "it",
        "we",
        "they",
        "you",
        "who",
        "what",
        "which",
    }
)


@dataclass(frozen=True)
class AttentionCheck:
    """One check: ``good`` is a real sentence, ``bad`` its scramble; ``source`` names its pair."""

    good: str
    bad: str
    source: str
    method: str = "scramble"


def scramble(sentence: str, rng: random.Random) -> str | None:
    """Scramble a sentence's words so that it is clearly broken.

    Args:
        sentence: an acceptable sentence, words separated by spaces.
        rng: the random stream to draw the permutation from.

    Returns:
        The scrambled sentence (first letter capitalised, final punctuation kept), or ``None``
        when the sentence is too short (fewer than four words) or no good permutation exists.
    """
    words = sentence.split()
    final = ""
    if words and words[-1][-1:] in _FINAL_PUNCTUATION:
        final = words[-1][-1]
        words[-1] = words[-1][:-1]
        if not words[-1]:
            words.pop()
    if len(words) < MIN_WORDS:
        return None
    if words[0].lower() in _FUNCTION_WORDS:
        words[0] = words[0].lower()
    neighbours = set(itertools.pairwise(words))
    order = list(range(len(words)))
    for _ in range(_ATTEMPTS):
        rng.shuffle(order)
        salad = [words[i] for i in order]
        if any(new == old for new, old in zip(salad, words, strict=True)):
            continue
        if any(pair in neighbours for pair in itertools.pairwise(salad)):
            continue
        text = " ".join(salad)
        return text[:1].upper() + text[1:] + final
    return None


def make_checks(
    hits: Sequence[frozenset[str]],
    preferred: Sequence[tuple[str, str]],
    fallback: Sequence[tuple[str, str]],
    rng: random.Random,
) -> list[AttentionCheck]:
    """Pick one attention check per HIT, each from a different good sentence.

    Args:
        hits: for each HIT, the sentences it already shows (a check must not repeat one).
        preferred: ``(source_id, good_sentence)`` candidates used first (pairs not in the batch).
        fallback: candidates used when ``preferred`` runs out (pairs shown in other HITs).
        rng: random stream; candidates are shuffled with it and scrambles drawn from it.

    Returns:
        One :class:`AttentionCheck` per HIT, in order, with pairwise different good sentences.

    Raises:
        DataError: when the data has too few distinct sentences of four or more words.
    """
    pools = [list(preferred), list(fallback)]
    for pool in pools:
        rng.shuffle(pool)
    candidates = pools[0] + pools[1]
    used: set[str] = set()
    checks: list[AttentionCheck] = []
    position = 0
    for number, shown in enumerate(hits, start=1):
        check = None
        skipped: list[tuple[str, str]] = []
        while check is None and position < len(candidates):
            source, good = candidates[position]
            position += 1
            if good in used:
                continue
            if good in shown:
                skipped.append((source, good))  # fine for another HIT, not for this one
                continue
            bad = scramble(good, rng)
            if bad is None or bad in shown or bad == good:
                continue
            check = AttentionCheck(good=good, bad=bad, source=source)
        candidates[position:position] = skipped
        if check is None:
            distinct = len({good for _, good in candidates if len(good.split()) >= MIN_WORDS})
            raise DataError(
                f"attention checks: HIT {number} of {len(hits)} has no sentence left for its check (each check "
                f"needs its own good sentence of {MIN_WORDS}+ words not shown in its HIT; the data has {distinct}); "
                "generate more pairs per paradigm into --data, or use more --items-per-hit"
            )
        used.add(check.good)
        checks.append(check)
    return checks
