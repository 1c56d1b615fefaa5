"""Formula evaluation over the whole lexicon at once, with bitsets.

Every word has a position in ``lexicon.words``; a set of words is a Python ``int`` whose bit
``i`` is set when word ``i`` belongs to it. For each feature the index keeps the bitset of the
words having each value (built on first use), so a formula becomes a handful of big-integer
``&``, ``|`` and ``~`` operations instead of one closure call per word - the difference between
minutes and milliseconds when a slot's candidates depend on earlier slots (``fits(verb.arg2)``
changes with every verb). The closures of :mod:`blimpgen.vocab.query` remain the reference
semantics; tests check that both agree.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from blimpgen.vocab import query

Resolver = query.Resolver
_ONE = re.compile("1")


def positions(bits: int) -> list[int]:
    """Indices of the set bits, ascending.

    The binary digits, lowest first, are scanned for ``1`` in C (a regular expression): three to
    four times faster than walking the bytes in Python for the sparse candidate sets that narrow
    restrictions give."""
    if not bits:
        return []
    return [match.start() for match in _ONE.finditer(format(bits, "b")[::-1])]


def nth_set_bit(bits: int, n: int) -> int:
    """Position of the ``n``-th set bit (from 0, ascending): ``positions(bits)[n]`` without building
    the list, by bisecting on popcounts of prefixes (about 14 big-integer steps for the lexicon)."""
    low, high = 0, bits.bit_length()
    while low < high:
        middle = (low + high) // 2
        if (bits & ((2 << middle) - 1)).bit_count() > n:
            high = middle
        else:
            low = middle + 1
    return low


class FeatureIndex:
    """Bitsets of a lexicon's words by feature value, and formula evaluation on them."""

    def __init__(self, words: Sequence[query.FeatureSource], categories: frozenset[str],
                 bool_features: frozenset[str]) -> None:
        self.words = words
        self.categories = categories
        self.bool_features = bool_features
        self.all = (1 << len(words)) - 1
        self._values: dict[str, tuple[dict[Any, int], int]] = {}
        self._present: dict[str, int] = {}
        self._formulas: dict[str, int] = {}
        self._takes: dict[tuple[str, tuple[Any, ...]], int] = {}
        self._groups: dict[str, list[tuple[str, int]]] = {}
        self._mentioned: dict[str, tuple[str, ...]] = {}
        self._bytes: dict[str, list[tuple[bytes, int]]] = {}

    def values(self, feature: str) -> tuple[dict[Any, int], int]:
        """(value -> bitset of words with it, bitset of words lacking the feature)."""
        found = self._values.get(feature)
        if found is None:
            lists: dict[Any, list[int]] = {}
            missing: list[int] = []
            for i, word in enumerate(self.words):
                value = word.get(feature)
                if value is None:
                    missing.append(i)
                elif isinstance(value, frozenset):
                    for element in value:
                        lists.setdefault(element, []).append(i)
                else:
                    lists.setdefault(value, []).append(i)
            found = ({v: _bits(ps) for v, ps in lists.items()}, _bits(missing))
            self._values[feature] = found
        return found

    def present(self, feature: str) -> int:
        """Bitset of the words for which a bare ``feature`` holds: a true flag or a non-empty relation."""
        found = self._present.get(feature)
        if found is None:
            found = self._present[feature] = _bits([i for i, word in enumerate(self.words)
                                                     if query.present(word.get(feature))])
        return found

    def formula(self, text: str) -> int:
        """Bitset of the words satisfying a reference-free formula (cached per text)."""
        found = self._formulas.get(text)
        if found is None:
            found = self._formulas[text] = self.evaluate(query.parse(text), None)
        return found

    def evaluate(self, node: query.Node, resolve: Resolver | None) -> int:
        """Bitset of the words satisfying ``node``, references resolved by ``resolve``."""
        kind = node[0]
        if kind == "and":
            bits = self.all
            for child in node[1:]:
                bits &= self.evaluate(child, resolve)
                if not bits:
                    break
            return bits
        if kind == "or":
            bits = 0
            for child in node[1:]:
                bits |= self.evaluate(child, resolve)
            return bits
        if kind == "not":
            return self.all & ~self.evaluate(node[1], resolve)
        if kind == "flag":
            return self.all if query.present(query.resolve_ref(resolve, node[1])) else 0
        if kind == "fits":
            formula = query.resolve_ref(resolve, node[1])
            return 0 if formula is None else self.formula(formula)
        if kind == "takes":
            return self._takes_bits(node[1], query.resolve_ref(resolve, node[2]))
        _, name, op, values = node
        if op is None:
            if name in self.categories:
                return self.values("category")[0].get(name, 0)
            if name in self.bool_features:
                return self.values(name)[0].get(True, 0)
            return self.present(name)
        by_value, missing = self.values(name)
        wanted = []
        for value in values:
            wanted.append(query.resolve_ref(resolve, value) if isinstance(value, query.Ref)
                          else self._constant(name, value))
        present = [w for w in wanted if w is not None]
        matched = 0
        for w in present:
            if isinstance(w, frozenset):
                for element in w:
                    matched |= by_value.get(element, 0)
            else:
                matched |= by_value.get(w, 0)
        if op == "=":
            return matched
        if op == "!=":
            return self.all & ~matched
        return self.all if not present else matched | missing  # "~": equal, or either side lacks it

    def _constant(self, name: str, value: str) -> Any:
        if name in self.bool_features:
            return value == "true"
        return value

    def _takes_bits(self, feature: str, other: Any) -> int:
        """Words whose own ``feature`` formula accepts ``other``.

        Cached by ``other``'s values of just the features those formulas mention, so all
        subjects that look alike to the verbs' arg1 restrictions share one entry.
        """
        if other is None:
            return 0
        groups = self._groups.get(feature)
        if groups is None:
            by_value, _ = self.values(feature)
            groups = self._groups[feature] = sorted(by_value.items())
            self._mentioned[feature] = tuple(sorted(set().union(
                *(query.feature_names(query.parse(f)) for f, _ in groups))))
        key = (feature, tuple(other.get(name) for name in self._mentioned[feature]))
        found = self._takes.get(key)
        if found is None:
            found = 0
            head = getattr(other, "head", other)  # a phrase is judged by its head word
            position = getattr(head, "position", -1)
            if position >= 0:
                # Restrictions that list lemmas make the key nearly one per word, so the test
                # per formula must be cheap: a byte lookup, not a shift of a lexicon-wide int.
                byte, mask = position >> 3, 1 << (position & 7)
                for data, bits in self._group_bytes(feature, groups):
                    if byte < len(data) and data[byte] & mask:
                        found |= bits
            else:
                for formula, bits in groups:
                    if query.evaluate(formula, other, self.categories):
                        found |= bits
            self._takes[key] = found
        return found

    def _group_bytes(self, feature: str, groups: list[tuple[str, int]]) -> list[tuple[bytes, int]]:
        """Each formula's bitset as little-endian bytes, with the words whose formula it is."""
        found = self._bytes.get(feature)
        if found is None:
            found = self._bytes[feature] = [(_to_bytes(self.formula(formula)), bits) for formula, bits in groups]
        return found


def _to_bytes(bits: int) -> bytes:
    return bits.to_bytes((bits.bit_length() + 7) // 8, "little")


def _bits(indices: list[int]) -> int:
    if not indices:
        return 0
    data = bytearray((indices[-1] >> 3) + 1)
    for i in indices:
        data[i >> 3] |= 1 << (i & 7)
    return int.from_bytes(data, "little")
