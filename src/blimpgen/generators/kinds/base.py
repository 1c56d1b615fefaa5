"""What every slot kind shares: parameters, candidate selection, and phrase values.

A slot kind turns its parameters (validated by a pydantic model, ``Params``) into a sampler:
``sample(rng, bindings)`` returns a value (a :class:`~blimpgen.vocab.Word` or a :class:`Phrase`)
or ``None`` when no candidate fits, which the generator counts as that slot running dry.

:class:`Selector` does the constraint work. Top-level conjuncts of a formula without references
are evaluated once; the rest are evaluated per distinct value of the references they mention,
and the filtered list is cached under that key. Words are uniform within a candidate list, except
that words marked ``rare`` are drawn less often (:attr:`Selector.RARE_WEIGHT`).
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Iterator
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict

from blimpgen.errors import SpecError
from blimpgen.vocab import query
from blimpgen.vocab.index import nth_set_bit, positions
from blimpgen.vocab.lexeme import Word
from blimpgen.vocab.lexicon import Lexicon
from blimpgen.vocab.modes import relax
from blimpgen.vocab.nonce import renamed_lemmas

Bindings = dict[str, Any]


class KindParams(BaseModel):
    """Base for kind parameter models: strict, frozen, no unknown keys."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


# The base's earlier name, still importable for kinds written against it. Inside a kind class the
# name ``Params`` is that kind's own model, so this module and the built-in kinds say KindParams.
Params = KindParams


class Phrase:
    """A multi-word value (a DP, a verb group). Features come from its head word.

    Subclasses set ``head`` and ``parts`` (name -> Word or None) and implement ``__str__``.
    A phrase may have no head (empty complements): it then has no features.
    """

    head: Word | None
    parts: dict[str, Any]

    def get(self, name: str) -> Any:
        """A named part (``verb``, ``aux``, ``det``) or a feature of the head."""
        if name in self.parts:
            return self.parts[name]
        return self.head.get(name) if self.head is not None else None

    def stand_in(self, names: Collection[str]) -> Word | None:
        """The head, when :meth:`get` gives the head's value for every one of ``names`` (no
        part is so named and ``get`` is not overridden), else None: the bitset index then
        caches what it finds for this phrase under the head word (see ``takes``)."""
        if type(self).get is not Phrase.get or self.head is None or not self.parts.keys().isdisjoint(names):
            return None
        return self.head

    def words(self) -> Iterator[tuple[str, Word]]:
        """(part name, word) for every word in the phrase."""
        for name, value in self.parts.items():
            if isinstance(value, Word):
                yield name, value
            elif isinstance(value, Phrase):
                for sub, word in value.words():
                    yield f"{name}.{sub}", word

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        value = self.get(name)
        if value is None:
            raise AttributeError(f"{type(self).__name__} has no part or feature {name!r}")
        return value


def resolve(bindings: Bindings, path: tuple[str, ...]) -> Any:
    """Follow ``slot.part.feature`` through bound values; ``None`` when any step is missing."""
    value = bindings.get(path[0])
    for part in path[1:]:
        if value is None:
            return None
        value = value.get(part)
    return value


class Selector:
    """Pick words satisfying a formula that may refer to earlier slots.

    The formula's top-level conjuncts without references give a fixed base list. The
    conjuncts with references are compiled once (:meth:`FeatureIndex.compile
    <blimpgen.vocab.index.FeatureIndex.compile>`) into a function from the referenced values to
    a bitset over the lexicon (the index caches the costly parts - formulas by text, ``takes``
    by the features that matter - with bounded keys), so a pick costs a few big-integer
    operations. A pick is uniform over the candidates: a few rejection draws from the base,
    then an exact draw of the n-th candidate (``nth_set_bit``), with no candidate lists kept.

    Only the formula's syntax and names are checked when the selector is made; the bitsets and
    the base list are computed on first use (a worker process that samples the paradigm, not
    the parent that built every paradigm).

    Everyday words first: when the candidates mix words marked ``rare`` (correct but rare,
    exotic or of a marked register; see ``rare`` in ``features.yaml``) with unmarked ones, a rare
    candidate weighs :attr:`RARE_WEIGHT` and an unmarked one 1: with E unmarked and R rare
    candidates, one ``rng.random()`` picks the unmarked ones with probability E / (E + w R), else
    the rare ones, and a uniform draw follows within the part picked. The extra draw is made only
    when the candidates mix both kinds, so picks stay exact and seeded. A rare word then still
    appears, w times as often as an unmarked word among the same candidates, and no unmarked word
    gains more than the rare words' share lost. The mark is a property of the lexeme and means
    the same in every lexicon mode (a colorless sentence keeps its real words; a nonce lexicon samples
    its pseudo-words as the default lexicon samples their lexemes).

    In a colorless lexicon (:mod:`blimpgen.vocab.modes`) the formula is relaxed first: its
    selectional restrictions and plausibility literals always hold. In a nonce lexicon the lemmas
    it names are joined by their pseudo-words (:func:`blimpgen.vocab.nonce.renamed_lemmas`).

    Args:
        lexicon: the lexicon to select from.
        formula: constraint-language text.
        slots: names of earlier slots (references to others are errors).
        where: a callable building a located SpecError from a message.

    Raises:
        SpecError: for syntax errors, unknown features/values or slots.
    """

    REJECTION_DRAWS = 12
    # How often a word marked rare is drawn, relative to an unmarked word among the same candidates.
    RARE_WEIGHT = 0.2

    def __init__(self, lexicon: Lexicon, formula: str, slots: list[str], where: Callable[[str], SpecError]) -> None:
        node = checked_formula(lexicon, formula, slots, where)
        if lexicon.mode == "colorless":  # selectional restrictions and plausibility always hold
            node = relax(node)
        elif lexicon.mode == "nonce":  # a list of lemmas names the same rows by their pseudo-words
            node = renamed_lemmas(node, lexicon.lemma_aliases)
        self.formula = formula
        self.lexicon = lexicon
        self.node = node
        self._ready = False
        self._predicate: query.Predicate | None = None

    def _prepare(self) -> None:
        index = self.lexicon.index
        static, dynamic = query.split_static(self.node)
        self.base_bits = index.all
        for conjunct in static:
            self.base_bits &= index.evaluate(conjunct, None)
        self.base: list[int] = index.positions(self.base_bits)
        rare = index.present("rare")
        # the base's everyday and rare parts, when it has both kinds (else no preference applies)
        self.rare_bits = self.base_bits & rare
        self.everyday_bits = self.base_bits & ~rare
        if self.rare_bits and self.everyday_bits:
            self.everyday: list[int] = index.positions(self.everyday_bits)
            self.rare: list[int] = index.positions(self.rare_bits)
        else:
            self.everyday = self.rare = self.base
        refs = list(dict.fromkeys(ref for conjunct in dynamic for ref in query.refs(conjunct)))
        self._paths = [ref.path for ref in refs]
        self._dynamic = index.compile(("and", *dynamic), refs) if dynamic else None
        self._ready = True

    def _bits(self, bindings: Bindings) -> int:
        assert self._dynamic is not None
        values = []
        for path in self._paths:
            value = bindings.get(path[0])
            for part in path[1:]:
                if value is None:
                    break
                value = value.get(part)
            values.append(value)
        return self.base_bits & self._dynamic(values)

    def candidates(self, bindings: Bindings) -> list[Word]:
        """All words satisfying the formula under ``bindings``, in lexicon order."""
        if not self._ready:
            self._prepare()
        bits = self._bits(bindings) if self._dynamic is not None else self.base_bits
        return [self.lexicon.words[i] for i in positions(bits)]

    def pick(self, rng: random.Random, bindings: Bindings) -> Word | None:
        """A random candidate, or ``None`` when there is none: uniform, except that a candidate
        marked rare weighs :attr:`RARE_WEIGHT` against an unmarked one's 1."""
        if not self._ready:
            self._prepare()
        words = self.lexicon.words
        base = self.base
        if self._dynamic is None:
            if not base:
                return None
            if self.everyday is not base:
                everyday, rare = len(self.everyday), len(self.rare)
                base = self.everyday if rng.random() * (everyday + self.RARE_WEIGHT * rare) < everyday else self.rare
            return words[base[rng.randrange(len(base))]]
        bits = self._bits(bindings)
        if not bits:
            return None
        if self.everyday is not base:
            everyday_bits = bits & self.everyday_bits
            if everyday_bits and everyday_bits != bits:
                everyday = everyday_bits.bit_count()
                if rng.random() * (everyday + self.RARE_WEIGHT * (bits.bit_count() - everyday)) < everyday:
                    bits, base = everyday_bits, self.everyday
                else:
                    bits, base = bits & self.rare_bits, self.rare
        if type(rng) is random.Random:
            # rng.randrange(len(base)) spelt out, as random.Random draws it (k-bit numbers until
            # one is below n; a test holds the two equal): most of a pick's time went to the call.
            getrandbits, n, k = rng.getrandbits, len(base), len(base).bit_length()
            for _ in range(self.REJECTION_DRAWS):
                r = getrandbits(k)
                while r >= n:
                    r = getrandbits(k)
                i = base[r]
                if bits >> i & 1:
                    return words[i]
        else:
            for _ in range(self.REJECTION_DRAWS):
                i = base[rng.randrange(len(base))]
                if bits >> i & 1:
                    return words[i]
        # The same draw as indexing the sorted candidate positions, without enumerating them.
        return words[nth_set_bit(bits, rng.randrange(bits.bit_count()))]

    def holds(self, word: Any, bindings: Bindings) -> bool:
        """Evaluate the whole formula afresh with the reference closures (no bitsets, no caches):
        an independent check used by tests and ``violations``."""
        if self._predicate is None:
            self._predicate = query.compile_formula(self.node, self.lexicon.categories)
        return self._predicate(word, lambda ref: resolve(bindings, ref.path))


def checked_formula(lexicon: Lexicon, formula: str, slots: list[str], where: Callable[[str], SpecError]) -> query.Node:
    """A formula parsed and checked against the lexicon's inventory and the slots it may name.

    Raises:
        SpecError: built by ``where`` from the first problem.
    """
    try:
        node = query.parse(formula)
    except SpecError as exc:
        raise where(exc.message) from None
    problems = query.check(node, lexicon.inventory, slots)
    if problems:
        raise where(problems[0])
    return node


class SlotKind(ABC):
    """A registered way of filling a slot.

    Args:
        name: the slot's name in the spec.
        params: validated parameters.
        lexicon: the lexicon.
        earlier: names of slots declared before this one.
        where: builds a located SpecError for a parameter key (``where("msg", "head")``).
    """

    Params: ClassVar[type[KindParams]]
    # parameters renamed since they were first published: old key -> current key (the old one
    # is still read, and errors point at whichever the spec wrote)
    renamed: ClassVar[dict[str, str]] = {}

    def __init__(
        self, name: str, params: KindParams, lexicon: Lexicon, earlier: list[str], where: Callable[..., SpecError]
    ) -> None:
        self.name = name
        self.params = params
        self.lexicon = lexicon
        self.earlier = earlier
        self.where = where

    def selector(self, formula: str, key: str, extra_slots: tuple[str, ...] = ()) -> Selector:
        """A :class:`Selector` whose errors point at parameter ``key`` of this slot."""
        return Selector(
            self.lexicon, formula, list(self.earlier) + list(extra_slots), lambda message: self.where(message, key)
        )

    def check_formula(self, formula: str, key: str, extra_slots: tuple[str, ...] = ()) -> None:
        """Check an author's formula as written, so errors quote their text, not a wrapped one."""
        checked_formula(
            self.lexicon, formula, list(self.earlier) + list(extra_slots), lambda message: self.where(message, key)
        )

    def distinct_clause(self, slots: tuple[str, ...]) -> str:
        """Check ``distinct: [...]`` slot names and return the formula text requiring a lemma
        different from each named slot's head (`` and lemma != subj.lemma ...``)."""
        for slot in slots:
            self.check_slot_ref(slot, "distinct")
        return "".join(f" and lemma != {slot}.lemma" for slot in slots)

    def check_slot_ref(self, name: str | None, key: str) -> None:
        """Raise a located error if ``name`` is not an earlier slot."""
        if name is not None and name not in self.earlier:
            from blimpgen.errors import did_you_mean

            raise self.where(
                f"unknown slot {name!r}{did_you_mean(name, self.earlier)} (only earlier slots can be referenced)", key
            )

    @abstractmethod
    def sample(self, rng: random.Random, bindings: Bindings) -> Any | None:
        """Return a value for this slot, or ``None`` when no candidate fits."""

    @abstractmethod
    def violations(self, value: Any, bindings: Bindings) -> list[str]:
        """Re-check a sampled value against every declared constraint (for tests/checks)."""
