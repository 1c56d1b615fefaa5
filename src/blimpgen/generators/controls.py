"""Controls and perturbations derived from any probe item (oLMpics §3; Ettinger 2020 §5).

Each takes an item and returns a new item (``control`` set, ``item_id`` suffixed):

* ``no_language``: only the arguments (the item's sampled values, in the order they appear
  in the context) and the blank remain, so a model can only learn the task from the arguments
  (oLMpics' No-Language control). The suite's fixed candidates (those that are the same words
  on every item, such as *younger* / *older*) are renamed by **one renaming for the whole
  suite**: its i-th fixed candidate, in the order the suite declares them, becomes
  ``NONSENSE_ANSWERS[i]`` (age: *younger* = *blah*, *older* = *ya*). The label of a control
  item is then a function of the original answer, as in oLMpics, so a model that learns the
  mapping from the arguments can score above chance. Candidates that vary per item (the
  hypernyms of the taxonomy suite, the categories of ``neg_simp``) are the task's own
  arguments and stay as they are (oLMpics: ``chipmunk lizard [MASK]`` with the real candidates).
* ``perturbed_language``: the suite's key words are replaced by nonsense words; the
  candidates stay (oLMpics' perturbed-language control).
* ``shuffled``: the words of the first sentence are shuffled (in a one-sentence context the
  blank keeps its place and the other words move).
* ``truncated``: only the last two words before the blank, the blank and the punctuation
  right after it remain.

All of them are deterministic given the item and a seed (``no_language`` given the suite).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from dataclasses import replace

from blimpgen.errors import GenerationError
from blimpgen.records.item import BLANK, ProbeItem

# Nonsense words: a suite's fixed candidate i becomes NONSENSE_ANSWERS[i] in the no-language
# control; key word i of a suite becomes NONSENSE_WORDS[i]. Pronounceable, not English words,
# and not one another; the first two are oLMpics' own (blah, ya).
NONSENSE_ANSWERS = ("blah", "ya", "dax", "wug", "blick", "fep", "zorp", "toma", "kiki", "lorp")
NONSENSE_WORDS = ("florp", "snib", "gorble", "tepa", "zent", "prav", "quilm", "darp", "vosk", "nale",
                  "brisk", "hume", "jarp", "clon", "fesh", "trob", "wimp", "gleb", "spon", "yuft")
SENTENCE_END_RE = re.compile(r"(?<=[.!?])\s+")


def derive(item: ProbeItem, control: str, keywords: tuple[str, ...] = (), seed: int = 0,
           fixed_candidates: Sequence[str] = ()) -> ProbeItem:
    """``item`` under ``control`` (``none`` returns it unchanged).

    Args:
        item: the original item.
        control: ``none`` or a control name.
        keywords: the suite's key words (``perturbed_language``).
        seed: the generation seed (``shuffled``).
        fixed_candidates: the suite's candidates that are the same on every item, in the order
            the suite declares them; ``no_language`` renames these (:func:`no_language_renaming`)
            and keeps every other candidate. Empty: keep them all.

    Raises:
        GenerationError: when the control cannot apply (no arguments or key words declared,
            an argument not found in the context, more fixed candidates than nonsense words).
    """
    if control == "none":
        return item
    if control == "no_language":
        return replace(_no_language(item, no_language_renaming(item.UID, fixed_candidates)), control=control,
                       item_id=f"{item.item_id}.{control}")
    makers = {"perturbed_language": _perturbed, "shuffled": _shuffled, "truncated": _truncated}
    if control not in makers:
        raise GenerationError(f"unknown control {control!r}; expected one of: none, no_language, "
                              f"{', '.join(makers)}")
    changed = makers[control](item, keywords, random.Random(f"blimpgen-control:{seed}:{item.item_id}:{control}"))
    return replace(changed, control=control, item_id=f"{item.item_id}.{control}")


def no_language_renaming(uid: str, fixed_candidates: Sequence[str]) -> dict[str, str]:
    """The no-language control's renaming of a suite: its i-th fixed candidate -> ``NONSENSE_ANSWERS[i]``.

    One renaming per suite, never redrawn per item, so the control's label stays a function of
    the original answer (learnable from the arguments, as in oLMpics).

    Raises:
        GenerationError: for more fixed candidates than nonsense words.
    """
    if len(fixed_candidates) > len(NONSENSE_ANSWERS):
        raise GenerationError(f"{uid}: no_language renames at most {len(NONSENSE_ANSWERS)} fixed candidates, "
                              f"the suite has {len(fixed_candidates)}")
    return {candidate: NONSENSE_ANSWERS[i] for i, candidate in enumerate(fixed_candidates)}


def _no_language(item: ProbeItem, rename: dict[str, str]) -> ProbeItem:
    if not item.arguments:
        raise GenerationError(f"{item.UID}: the no_language control needs the suite's 'arguments'")
    spans: list[tuple[int, str]] = []
    taken: list[tuple[int, int]] = []
    for argument in item.arguments:
        span = _find(item.context, argument, taken)
        if span is None:
            raise GenerationError(f"{item.UID}: argument {argument!r} does not occur in the context {item.context!r}")
        taken.append(span)
        spans.append((span[0], argument))
    spans.append((item.context.index(BLANK), BLANK))
    context = " ".join(text for _, text in sorted(spans))

    def renamed(word: str | None) -> str | None:
        return None if word is None else rename.get(word, word)

    return replace(item, context=context, contexts=None, candidates=tuple(rename.get(c, c) for c in item.candidates),
                   answer=rename.get(item.answer, item.answer), expected=tuple(rename.get(e, e) for e in item.expected),
                   good=renamed(item.good), bad=renamed(item.bad))


def _find(text: str, needle: str, taken: list[tuple[int, int]]) -> tuple[int, int] | None:
    for match in re.finditer(rf"(?<![\w]){re.escape(needle)}(?![\w])", text):
        if all(match.end() <= a or match.start() >= b for a, b in taken):
            return match.span()
    return None


def _perturbed(item: ProbeItem, keywords: tuple[str, ...], rng: random.Random) -> ProbeItem:
    if not keywords:
        raise GenerationError(f"{item.UID}: the perturbed_language control needs the suite's 'keywords'")
    if len(keywords) > len(NONSENSE_WORDS):
        raise GenerationError(f"{item.UID}: perturbed_language supports at most {len(NONSENSE_WORDS)} key words")
    mapping = {k.lower(): NONSENSE_WORDS[i] for i, k in enumerate(keywords)}
    pattern = re.compile(r"(?<![\w\[])(" + "|".join(re.escape(k) for k in sorted(mapping, key=len, reverse=True))
                         + r")(?![\w\]])", re.IGNORECASE)

    def swap(text: str) -> str:
        def one(match: re.Match[str]) -> str:
            word = mapping[match.group(0).lower()]
            return word.capitalize() if match.group(0)[:1].isupper() else word
        return pattern.sub(one, text)

    return _map_contexts(item, swap)


def _shuffled(item: ProbeItem, keywords: tuple[str, ...], rng: random.Random) -> ProbeItem:
    state = rng.getstate()

    def shuffle(text: str) -> str:
        rng.setstate(state)  # the same permutation for every option's context
        sentences = SENTENCE_END_RE.split(text.strip())
        first = sentences[0]
        end = first[-1] if first[-1:] in ".!?" else ""
        words = [w.rstrip(",;:") or w for w in first[:len(first) - len(end)].split()]
        movable = [i for i, w in enumerate(words) if BLANK not in w]
        if len(movable) < 2:
            return text
        for _ in range(10):  # a permutation that changes the order, when there is one
            order = movable[:]
            rng.shuffle(order)
            if [words[i] for i in order] != [words[i] for i in movable]:
                break
        shuffled = words[:]
        for target, source in zip(movable, order):
            shuffled[target] = words[source].lower() if source == 0 else words[source]
        if movable[0] == 0:
            shuffled[0] = shuffled[0][:1].upper() + shuffled[0][1:]
        return " ".join([" ".join(shuffled) + end] + sentences[1:])

    return _map_contexts(item, shuffle)


def _truncated(item: ProbeItem, keywords: tuple[str, ...], rng: random.Random) -> ProbeItem:
    def truncate(text: str) -> str:
        left, _, right = text.partition(BLANK)
        before = left.split()[-2:]
        punctuation = re.match(r"[.,;:!?]*", right.lstrip())  # always matches, perhaps empty
        after = punctuation.group(0) if punctuation else ""
        return " ".join(before + [BLANK]) + after

    return _map_contexts(item, truncate)


def _map_contexts(item: ProbeItem, change: Callable[[str], str]) -> ProbeItem:
    contexts = {option: change(text) for option, text in item.contexts.items()} if item.contexts else None
    context = contexts[item.answer] if contexts else change(item.context)
    if contexts is not None and len(set(contexts.values())) == 1:
        contexts = None
    return replace(item, context=context, contexts=contexts)
