"""Controls and perturbations derived from any probe item (oLMpics section 3; Ettinger 2020 sections 7-8).

Each takes an item and returns a new item (``control`` set, ``item_id`` suffixed):

* ``no_language``: only the arguments (the item's sampled values, in the order they appear
  in the context) and the blank remain, so a model can only learn the task from the arguments
  (oLMpics' No-Language control). The suite's fixed candidates (those that are the same words
  on every item, such as *older* / *younger*) are renamed by **one renaming for the whole
  suite**: its i-th fixed candidate, in the order the suite declares them, becomes
  ``NONSENSE_ANSWERS[i]`` (age: *older* = *blah*, *younger* = *ya*, as in oLMpics). The label
  of a control item is then a function of the original answer, so a model that learns the
  mapping from the arguments can score above chance. Candidates that vary per item (the
  hypernyms of the taxonomy suite, the categories of ``neg_simp``, a question's answers) are the
  task's own arguments and stay as they are (oLMpics: ``chipmunk lizard [MASK]`` with the real
  candidates).
* ``perturbed_language``: each of the suite's key words is replaced by a word drawn (seeded,
  per item, without repetition) from oLMpics' ten words of limited meaning,
  ``PERTURBATION_WORDS`` (*blah, ya, foo, snap, woo, boo, da, wee, foe, fee*); the candidates
  stay (oLMpics' Perturbed-Language control; for age the key words are *age* and *than*).
* ``shuffled``: the words of the first sentence are shuffled (Ettinger's Shuf; in a one-sentence
  context the blank keeps its place and the other words move).
* ``truncated``: every sentence before the last is kept, and the last (the one with the blank)
  is cut to the two words before the blank (Ettinger's Trunc keeps sentence 1).
* ``shuffled_truncated``: both (Ettinger's Shuf + Trunc).
* ``generic_object``, ``generic_subject``, ``generic_both``: role-reversal items only; the
  object noun becomes *one* and the subject noun *other* in each context (Ettinger's -Obj,
  -Sub, -Both). A role item's ``arguments`` are (object, subject) of its plausible context;
  its reversed context has them the other way round.

The two shuffling controls are random: Ettinger reports the mean and standard deviation over 100
shuffles. :func:`derive_controls` makes ``shuffles`` versions of each (``replicate`` 0, 1, ...,
``item_id`` ``ID.shuffled.000``), and the evaluation reports them as a mean with its SD.

All of them are deterministic given the item, the seed and the replicate (``no_language``
given the suite).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from dataclasses import replace

from blimpgen.errors import GenerationError
from blimpgen.records.item import BLANK, CONTROLS, ProbeItem

# A suite's fixed candidate i becomes NONSENSE_ANSWERS[i] in the no-language control. The first two
# are oLMpics' own (older = blah, younger = ya); all are pronounceable non-words, not one another.
NONSENSE_ANSWERS = ("blah", "ya", "dax", "wug", "blick", "fep", "zorp", "toma", "kiki", "lorp")
# oLMpics' list of substitutions for key words (section 3.3, footnote 4).
PERTURBATION_WORDS = ("blah", "ya", "foo", "snap", "woo", "boo", "da", "wee", "foe", "fee")
# Ettinger's generic nouns for the role perturbations: the object becomes "one", the subject "other".
GENERIC_OBJECT, GENERIC_SUBJECT = "one", "other"
RANDOM_CONTROLS = ("shuffled", "shuffled_truncated")
SENTENCE_END_RE = re.compile(r"(?<=[.!?])\s+")
# A control other than no_language: (item marked as the control, the suite's key words, its rng) -> item.
Maker = Callable[[ProbeItem, tuple[str, ...], random.Random], ProbeItem]


def derive(
    item: ProbeItem,
    control: str,
    keywords: tuple[str, ...] = (),
    seed: int = 0,
    fixed_candidates: Sequence[str] = (),
    replicate: int | None = None,
) -> ProbeItem:
    """``item`` under ``control`` (``none`` returns it unchanged).

    Args:
        item: the original item.
        control: ``none`` or a control name.
        keywords: the suite's key words (``perturbed_language``).
        seed: the generation seed (the random controls).
        fixed_candidates: the suite's candidates that are the same on every item, in the order
            the suite declares them; ``no_language`` renames these (:func:`no_language_renaming`)
            and keeps every other candidate. Empty: keep them all.
        replicate: which random version of a shuffling control (None: the one version).

    Raises:
        GenerationError: when the control cannot apply (no arguments or key words declared,
            an argument not found in the context, a control the item's type does not take).
    """
    if control == "none":
        return item
    if control not in CONTROLS:
        raise GenerationError(f"unknown control {control!r}; expected one of: {', '.join(CONTROLS)}")
    if control not in item.shape.controls:
        raise GenerationError(
            f"{item.UID}: a {item.item_type} item does not take the {control} control "
            f"(it takes: {', '.join(c for c in item.shape.controls if c != 'none')})"
        )
    suffix = control if replicate is None else f"{control}.{replicate:03d}"
    if control == "no_language":
        changed = _no_language(item, no_language_renaming(item.UID, fixed_candidates))
    else:
        key = f"blimpgen-control:{seed}:{item.item_id}:{control}" + ("" if replicate is None else f":{replicate}")
        # marked as the control first: a control may make a role item's two contexts equal (Trunc
        # keeps 'had [MASK]' of both), which only an original item must not be
        changed = MAKERS[control](replace(item, control=control), keywords, random.Random(key))
    return replace(changed, control=control, item_id=f"{item.item_id}.{suffix}", replicate=replicate)


def derive_controls(
    item: ProbeItem,
    controls: Sequence[str],
    keywords: tuple[str, ...] = (),
    seed: int = 0,
    fixed_candidates: Sequence[str] = (),
    shuffles: int = 1,
) -> list[ProbeItem]:
    """``item`` under each of ``controls`` in turn; a shuffling control gives ``shuffles`` versions
    (replicates 0 .. shuffles-1) when ``shuffles`` > 1.

    Raises:
        GenerationError: as :func:`derive`.
    """
    out = []
    for control in controls:
        if control in RANDOM_CONTROLS and shuffles > 1:
            out += [derive(item, control, keywords, seed, fixed_candidates, r) for r in range(shuffles)]
        else:
            out.append(derive(item, control, keywords, seed, fixed_candidates))
    return out


def no_language_renaming(uid: str, fixed_candidates: Sequence[str]) -> dict[str, str]:
    """The no-language control's renaming of a suite: its i-th fixed candidate -> ``NONSENSE_ANSWERS[i]``.

    One renaming per suite, never redrawn per item, so the control's label stays a function of
    the original answer (learnable from the arguments, as in oLMpics).

    Raises:
        GenerationError: for more fixed candidates than nonsense words.
    """
    if len(fixed_candidates) > len(NONSENSE_ANSWERS):
        raise GenerationError(
            f"{uid}: no_language renames at most {len(NONSENSE_ANSWERS)} fixed candidates, "
            f"the suite has {len(fixed_candidates)}"
        )
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
    if item.has_blank:
        spans.append((item.context.index(BLANK), BLANK))
    context = " ".join(text for _, text in sorted(spans))

    def renamed(word: str | None) -> str | None:
        return None if word is None else rename.get(word, word)

    return replace(
        item,
        context=context,
        contexts=None,
        candidates=tuple(rename.get(c, c) for c in item.candidates),
        answer=rename.get(item.answer, item.answer),
        expected=tuple(rename.get(e, e) for e in item.expected),
        good=renamed(item.good),
        bad=renamed(item.bad),
        foils=tuple(rename.get(f, f) for f in item.foils),
    )


def _find(text: str, needle: str, taken: list[tuple[int, int]]) -> tuple[int, int] | None:
    for match in re.finditer(rf"(?<![\w]){re.escape(needle)}(?![\w])", text):
        if all(match.end() <= a or match.start() >= b for a, b in taken):
            return match.span()
    return None


def _perturbed(item: ProbeItem, keywords: tuple[str, ...], rng: random.Random) -> ProbeItem:
    if not keywords:
        raise GenerationError(f"{item.UID}: the perturbed_language control needs the suite's 'keywords'")
    if len(keywords) > len(PERTURBATION_WORDS):
        raise GenerationError(
            f"{item.UID}: perturbed_language replaces at most {len(PERTURBATION_WORDS)} key words "
            f"(oLMpics' list of substitutions), the suite has {len(keywords)}"
        )
    drawn = rng.sample(PERTURBATION_WORDS, len(keywords))
    mapping = {k.lower(): drawn[i] for i, k in enumerate(keywords)}
    pattern = re.compile(
        r"(?<![\w\[])(" + "|".join(re.escape(k) for k in sorted(mapping, key=len, reverse=True)) + r")(?![\w\]])",
        re.IGNORECASE,
    )

    def swap(text: str) -> str:
        def one(match: re.Match[str]) -> str:
            word = mapping[match.group(0).lower()]
            return word.capitalize() if match.group(0)[:1].isupper() else word

        return pattern.sub(one, text)

    return _map_contexts(item, swap)


def _sentences(text: str) -> list[str]:
    return SENTENCE_END_RE.split(text.strip())


def _shuffle_first_sentence(text: str, rng: random.Random) -> str:
    sentences = _sentences(text)
    first = sentences[0]
    end = first[-1] if first[-1:] in ".!?" else ""
    words = [w.rstrip(",;:") or w for w in first[: len(first) - len(end)].split()]
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


def _truncate_last_sentence(text: str) -> str:
    left, blank, right = text.partition(BLANK)
    if not blank:  # no blank (a question): nothing to cut before
        return text
    sentences = _sentences(left + "\0")
    kept = sentences[:-1]
    before = sentences[-1].rstrip("\0").split()[-2:]
    punctuation = re.match(r"[.,;:!?]*", right.lstrip())  # always matches, perhaps empty
    after = punctuation.group(0) if punctuation else ""
    return " ".join(kept + before + [BLANK]) + after


def _same_shuffle(rng: random.Random) -> Callable[[str], str]:
    state = rng.getstate()

    def shuffle(text: str) -> str:
        rng.setstate(state)  # the same permutation for every context of the item
        return _shuffle_first_sentence(text, rng)

    return shuffle


def _shuffled(item: ProbeItem, keywords: tuple[str, ...], rng: random.Random) -> ProbeItem:
    return _map_contexts(item, _same_shuffle(rng))


def _truncated(item: ProbeItem, keywords: tuple[str, ...], rng: random.Random) -> ProbeItem:
    return _map_contexts(item, _truncate_last_sentence)


def _shuffled_truncated(item: ProbeItem, keywords: tuple[str, ...], rng: random.Random) -> ProbeItem:
    shuffle = _same_shuffle(rng)
    return _map_contexts(item, lambda text: _truncate_last_sentence(shuffle(text)))


def _generic(control: str, object_word: str | None, subject_word: str | None) -> Maker:
    def make(item: ProbeItem, keywords: tuple[str, ...], rng: random.Random) -> ProbeItem:
        if len(item.arguments) != 2 or item.reversed_context is None:
            raise GenerationError(
                f"{item.UID}: the generic_* controls need a role item whose arguments are (object, subject)"
            )
        obj, subj = item.arguments

        def swap(text: str, first: str, second: str) -> str:
            spans: list[tuple[int, int]] = []
            for word in (first, second):
                span = _find(text, word, spans)
                if span is None:
                    raise GenerationError(f"{item.UID}: argument {word!r} does not occur in {text!r}")
                spans.append(span)
            out = text
            for (start, end), generic in sorted(zip(spans, (object_word, subject_word)), reverse=True):
                if generic is not None:  # right to left, so the spans stay valid
                    out = out[:start] + generic + out[end:]
            return out

        return replace(
            item,
            context=swap(item.context, obj, subj),
            control=control,
            reversed_context=swap(item.reversed_context, subj, obj),
        )

    return make


def _map_contexts(item: ProbeItem, change: Callable[[str], str]) -> ProbeItem:
    contexts = {option: change(text) for option, text in item.contexts.items()} if item.contexts else None
    context = contexts[item.answer] if contexts else change(item.context)
    if contexts is not None and len(set(contexts.values())) == 1:
        contexts = None
    reversed_context = change(item.reversed_context) if item.reversed_context is not None else None
    return replace(item, context=context, contexts=contexts, reversed_context=reversed_context)


MAKERS: dict[str, Maker] = {
    "perturbed_language": _perturbed,
    "shuffled": _shuffled,
    "truncated": _truncated,
    "shuffled_truncated": _shuffled_truncated,
    "generic_object": _generic("generic_object", GENERIC_OBJECT, None),
    "generic_subject": _generic("generic_subject", None, GENERIC_SUBJECT),
    "generic_both": _generic("generic_both", GENERIC_OBJECT, GENERIC_SUBJECT),
}
