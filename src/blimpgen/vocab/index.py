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
from collections.abc import Callable, Sequence
from functools import reduce
from operator import itemgetter, methodcaller, or_
from typing import Any

from blimpgen.vocab import query
from blimpgen.vocab.lexeme import Word

Resolver = query.Resolver
# A compiled formula: the bitset for the values of its references (``values[i]`` is reference i's).
Evaluator = Callable[[Sequence[Any]], int]
_ONE = re.compile("1")
# Up to this many distinct values, :meth:`FeatureIndex.values` builds its bitsets by translation.
_FEW_VALUES = 64
# Names Word.get answers from the word itself when its features lack them.
_WORD_ATTRIBUTES = frozenset({"category", "lemma", "text", "id"})
# _BIT_DIGIT[k] translates a byte to b"1" when its bit k is set, else to b"0".
_BIT_DIGIT = [bytes(0x31 if v >> k & 1 else 0x30 for v in range(256)) for k in range(8)]


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
    the list. The set is halved at each step (the low half's popcount says which half holds the
    bit), so the big-integer work shrinks geometrically: about a third of the time of bisecting
    on prefixes of the whole integer. The last 64 bits are finished by clearing low bits."""
    offset = 0
    width = 1 << (bits.bit_length() - 1).bit_length() if bits > 1 else 1
    while width > 64:
        width >>= 1
        mask = _LOW_MASKS.get(width)
        if mask is None:
            mask = _LOW_MASKS[width] = (1 << width) - 1
        low = bits & mask
        count = low.bit_count()
        if n < count:
            bits = low
        else:
            bits >>= width
            n -= count
            offset += width
    for _ in range(n):
        bits &= bits - 1
    return offset + (bits & -bits).bit_length() - 1


# width -> (1 << width) - 1, for the power-of-two widths nth_set_bit splits at
_LOW_MASKS: dict[int, int] = {}


class FeatureIndex:
    """Bitsets of a lexicon's words by feature value, and formula evaluation on them."""

    def __init__(
        self, words: Sequence[query.FeatureSource], categories: frozenset[str], bool_features: frozenset[str]
    ) -> None:
        self.words = words
        self.categories = categories
        self.bool_features = bool_features
        self.all = (1 << len(words)) - 1
        # The words' feature dicts, when every word is a plain Word (whose get reads them first).
        dicts = [w.features for w in words if type(w) is Word]
        self._dicts: list[dict[str, Any]] | None = dicts if len(dicts) == len(words) else None
        self._values: dict[str, tuple[dict[Any, int], int]] = {}
        self._present: dict[str, int] = {}
        self._formulas: dict[str, int] = {}
        self._takes: dict[tuple[str, tuple[Any, ...]], int] = {}
        self._groups: dict[str, list[tuple[str, int]]] = {}
        self._mentioned: dict[str, tuple[str, ...]] = {}
        self._bytes: dict[str, list[tuple[bytes, int]]] = {}
        self._takes_at: dict[str, dict[int, int]] = {}
        self._compiled: dict[tuple[query.Node, tuple[query.Ref, ...]], Evaluator] = {}
        self._positions: dict[int, list[int]] = {}
        self._columns: dict[str, _Columns] = {}

    def prepare(self, takes: Sequence[str] = ()) -> None:
        """Build now what sampling builds on first use and every paradigm needs: the bitsets of
        every feature's values, read in one pass over the words (a third of the time of one
        :meth:`values` per feature), and the tables ``takes(feature, ...)`` reads for each of
        ``takes`` (the formula features). Processes forked afterwards share them (see
        :meth:`~blimpgen.vocab.lexicon.Lexicon.prepare`); what they build is the same either way."""
        if self._dicts is not None:
            self._values_in_one_pass(self._dicts)
        self.values("category")
        for feature in takes:
            if feature not in self._mentioned:
                self._prepare_takes(feature)
            if feature not in self._columns:
                self._columns[feature] = _Columns(self, feature)

    def _values_in_one_pass(self, dicts: list[dict[str, Any]]) -> None:
        """:meth:`values` of every feature in the words' dicts, by one walk over them all: the
        same bitsets (each value's words, and the words lacking the feature), values in the
        same order (of first use)."""
        lists: dict[str, dict[Any, list[int]]] = {}
        having: dict[str, list[int]] = {}
        for i, features in enumerate(dicts):
            for name, value in features.items():
                if value is None:
                    continue
                words = having.get(name)
                if words is None:
                    words = having[name] = []
                    lists[name] = {}
                words.append(i)
                by_value = lists[name]
                if isinstance(value, frozenset):
                    for element in value:
                        by_value.setdefault(element, []).append(i)
                else:
                    by_value.setdefault(value, []).append(i)
        for name, by_value in lists.items():
            if name not in _WORD_ATTRIBUTES and name not in self._values:
                self._values[name] = ({v: _bits(ps) for v, ps in by_value.items()}, self.all & ~_bits(having[name]))

    def values(self, feature: str) -> tuple[dict[Any, int], int]:
        """(value -> bitset of words with it, bitset of words lacking the feature)."""
        found = self._values.get(feature)
        if found is None:
            lists: dict[Any, list[int]] = {}
            missing: list[int] = []
            if self._dicts is not None and feature not in _WORD_ATTRIBUTES:
                # Word.get(feature) is its features dict's entry: read the dicts in C, and visit
                # only the words that have the feature (most words lack most features).
                values = list(map(methodcaller("get", feature), self._dicts))
                # in order of first use, as the lists below are filled
                distinct = dict.fromkeys(values) if not any(isinstance(v, frozenset) for v in values) else None
                if distinct is not None and len(distinct) <= _FEW_VALUES:
                    found = self._few_values(values, distinct)
                    self._values[feature] = found
                    return found
                having = [i for i, value in enumerate(values) if value is not None]
                for i in having:
                    value = values[i]
                    if isinstance(value, frozenset):
                        for element in value:
                            lists.setdefault(element, []).append(i)
                    else:
                        lists.setdefault(value, []).append(i)
                missing_bits = self.all & ~_bits(having)
            else:
                for i, word in enumerate(self.words):
                    value = word.get(feature)
                    if value is None:
                        missing.append(i)
                    elif isinstance(value, frozenset):
                        for element in value:
                            lists.setdefault(element, []).append(i)
                    else:
                        lists.setdefault(value, []).append(i)
                missing_bits = _bits(missing)
            found = ({v: _bits(ps) for v, ps in lists.items()}, missing_bits)
            self._values[feature] = found
        return found

    def _few_values(self, values: list[Any], distinct: dict[Any, None]) -> tuple[dict[Any, int], int]:
        """:meth:`values` for a feature with few distinct values (no sets): each word's value as a
        one-byte code, then per value the codes translated to base-2 digits and parsed, in C."""
        codes = {value: code for code, value in enumerate(distinct)}
        coded = bytes(map(codes.__getitem__, values))[::-1]  # the last word is the top bit

        def bits_of(value: Any) -> int:
            table = bytes(0x31 if code == codes[value] else 0x30 for code in range(256))
            return int(coded.translate(table), 2)

        by_value = {value: bits_of(value) for value in distinct if value is not None}
        return by_value, bits_of(None) if None in distinct else 0

    def present(self, feature: str) -> int:
        """Bitset of the words for which a bare ``feature`` holds: a true flag or a non-empty relation."""
        found = self._present.get(feature)
        if found is None:
            found = self._present[feature] = _bits(
                [i for i, word in enumerate(self.words) if query.present(word.get(feature))]
            )
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
            wanted.append(
                query.resolve_ref(resolve, value) if isinstance(value, query.Ref) else self._constant(name, value)
            )
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

    def compile(self, node: query.Node, refs: Sequence[query.Ref]) -> Evaluator:
        """``node`` as a function of its references' values: ``compile(node, refs)(values)`` is
        ``evaluate(node, resolve)`` where ``resolve(refs[i])`` is ``values[i]``.

        The tree is walked once, here: parts without references become constant bitsets, and each
        test keeps its feature's bitsets at hand, so a call costs a few big-integer operations
        rather than a tree walk and a resolver per node (what a slot pays at every pick).
        """
        key = (node, tuple(refs))
        found = self._compiled.get(key)
        if found is None:
            found = self._compiled[key] = self._compile(node, {ref: i for i, ref in enumerate(refs)})
        return found

    def positions(self, bits: int) -> list[int]:
        """:func:`positions` of ``bits``, shared by every caller asking for the same set (the base
        lists of slot selectors: a few hundred distinct sets across all shipped paradigms, out
        of well over a thousand selectors). Callers must not modify the list."""
        found = self._positions.get(bits)
        if found is None:
            found = self._positions[bits] = positions(bits)
        return found

    def _compile(self, node: query.Node, where: dict[query.Ref, int]) -> Evaluator:
        full = self.all
        if not query.refs(node):
            constant = self.evaluate(node, None)
            return lambda values: constant
        kind = node[0]
        if kind in ("and", "or"):
            fixed = [c for c in node[1:] if not query.refs(c)]
            parts = [self._compile(c, where) for c in node[1:] if query.refs(c)]
            if kind == "or":
                base = reduce(or_, (self.evaluate(c, None) for c in fixed), 0)
                return lambda values: reduce(or_, [part(values) for part in parts], base)
            start = full
            for child in fixed:
                start &= self.evaluate(child, None)
            if not start:
                return lambda values: 0

            def conjunction(values: Sequence[Any]) -> int:
                bits = start
                for part in parts:
                    bits &= part(values)
                    if not bits:
                        return 0
                return bits

            return conjunction
        if kind == "not":
            inner = self._compile(node[1], where)
            return lambda values: full & ~inner(values)
        if kind == "flag":
            i = where[node[1]]
            return lambda values: full if query.present(values[i]) else 0
        if kind == "fits":
            i = where[node[1]]
            formulas = self._formulas

            def fits(values: Sequence[Any]) -> int:
                text = values[i]
                if text is None:
                    return 0
                found = formulas.get(text)
                return self.formula(text) if found is None else found

            return fits
        if kind == "takes":
            feature, j = node[1], where[node[2]]
            return lambda values: self._takes_bits(feature, values[j])
        return self._compile_test(node, where)

    def _compile_test(self, node: query.Node, where: dict[query.Ref, int]) -> Evaluator:
        """A ``name op value, ...`` test with references (see :meth:`evaluate` for its meaning)."""
        _, name, op, values = node
        full = self.all
        by_value, missing = self.values(name)
        constants = [self._constant(name, v) for v in values if not isinstance(v, query.Ref)]
        slots = [where[v] for v in values if isinstance(v, query.Ref)]
        fixed = _matching(by_value, constants)

        def matched(values: Sequence[Any]) -> tuple[int, bool]:
            bits, present = fixed, bool(constants)
            for i in slots:
                wanted = values[i]
                if wanted is None:
                    continue
                present = True
                if isinstance(wanted, frozenset):
                    for element in wanted:
                        bits |= by_value.get(element, 0)
                else:
                    bits |= by_value.get(wanted, 0)
            return bits, present

        if op == "~":

            def compatible(values: Sequence[Any]) -> int:
                bits, present = matched(values)
                return bits | missing if present else full

            return compatible
        if len(slots) == 1 and not constants:  # the usual ``number = subj.number``: one lookup
            i = slots[0]

            def one(values: Sequence[Any]) -> int:
                wanted = values[i]
                if wanted is None:
                    return 0
                if isinstance(wanted, frozenset):
                    return _matching(by_value, wanted)
                return by_value.get(wanted, 0)

            if op == "=":
                return one
            return lambda values: full & ~one(values)
        if op == "=":
            return lambda values: matched(values)[0]
        return lambda values: full & ~matched(values)[0]

    def _takes_bits(self, feature: str, other: Any) -> int:
        """Words whose own ``feature`` formula accepts ``other``.

        Cached by ``other``'s values of just the features those formulas mention, so all
        subjects that look alike to the verbs' arg1 restrictions share one entry; and, for a
        word of this lexicon (or a value standing in for one, below), by its position too, so
        that the next time costs one lookup. A value that stands for a word as far as some
        features go (a phrase for its head) says so with ``stand_in(names)``, which returns
        that word when ``get`` gives the word's value for every one of ``names``, else None.
        """
        if other is None:
            return 0
        mentioned = self._mentioned.get(feature)
        if mentioned is None:
            mentioned = self._prepare_takes(feature)
        if isinstance(other, Word):
            word: Word | None = other
        else:  # looked up on the class: a phrase answers unknown attributes with its features
            stand_in = getattr(type(other), "stand_in", None)
            word = stand_in(other, mentioned) if stand_in is not None else None
        position = -1 if word is None else word.position
        if not (0 <= position < len(self.words) and self.words[position] is word):
            return self._takes_by_key(feature, other)
        assert word is not None
        at = self._takes_at[feature]
        found = at.get(position)
        if found is None:
            key = (feature, tuple(map(word.get, mentioned)))
            found = self._takes.get(key)
            if found is None:
                found = self._takes[key] = self._accepting(feature, position)
            at[position] = found
        return found

    def _prepare_takes(self, feature: str) -> tuple[str, ...]:
        by_value, _ = self.values(feature)
        groups = self._groups[feature] = sorted(by_value.items())
        mentioned = self._mentioned[feature] = tuple(
            sorted(set().union(*(query.feature_names(query.parse(f)) for f, _ in groups)))
        )
        self._takes_at[feature] = {}
        return mentioned

    def _takes_by_key(self, feature: str, other: Any) -> int:
        """:meth:`_takes_bits` for a value that is no word of this lexicon (nor stands in for one)."""
        groups = self._groups[feature]
        key = (feature, tuple(other.get(name) for name in self._mentioned[feature]))
        found = self._takes.get(key)
        if found is None:
            found = 0
            head = getattr(other, "head", other)  # a phrase is judged by its head word
            position = getattr(head, "position", -1)
            if position >= 0:
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

    def _accepting(self, feature: str, position: int) -> int:
        """The words whose ``feature`` formula accepts the word at ``position``.

        Restrictions that list lemmas make the takes key nearly one per word, so this runs often
        (thousands of times a run). It reads one column of the words x words matrix "the formula
        of the row's word accepts the column's word": byte ``position // 8`` of the formula
        bitset of every word, gathered once per byte into a string (a word without the feature
        reads a zero byte). Translating that string to ASCII digits by the word's bit and parsing
        it in base 2 gives the answer as a bitset, without a Python step per word or per formula.
        """
        table = self._columns.get(feature)
        if table is None:
            table = self._columns[feature] = _Columns(self, feature)
        return table.accepting(position)

    def _group_bytes(self, feature: str, groups: list[tuple[str, int]]) -> list[tuple[bytes, int]]:
        """Each formula's bitset as little-endian bytes, with the words whose formula it is."""
        found = self._bytes.get(feature)
        if found is None:
            found = self._bytes[feature] = [(_to_bytes(self.formula(formula)), bits) for formula, bits in groups]
        return found


class _Columns:
    """The columns :meth:`FeatureIndex._accepting` reads, for one formula feature, built per byte."""

    def __init__(self, index: FeatureIndex, feature: str) -> None:
        self.groups = index._groups[feature]  # (formula, its words): one group per formula text
        width = (len(index.words) + 7) // 8
        self.rows = [index.formula(formula).to_bytes(width, "little") for formula, _ in self.groups]
        self.rows.append(bytes(width))  # the row of the words lacking the feature: accepts nothing
        # The rows one after another: byte b of every row is the slice [b::width], taken in C.
        self.width, self.matrix = width, b"".join(self.rows)
        group_of = [len(self.groups)] * len(index.words)
        for g, (_, bits) in enumerate(self.groups):
            for i in positions(bits):
                group_of[i] = g
        members = [i for i, g in enumerate(group_of) if g < len(self.groups)]
        self.low = members[0] if members else 0
        spread = group_of[self.low : members[-1] + 1] if members else []
        # Each word has one formula, so the groups are disjoint; were they not (or were there
        # fewer than two words to gather), the answer is the union of the accepting groups.
        disjoint = len(members) == sum(bits.bit_count() for _, bits in self.groups)
        self.gather = itemgetter(*spread) if disjoint and len(spread) > 1 else None
        self.columns: dict[int, bytes] = {}

    def accepting(self, position: int) -> int:
        """Bitset of the words whose formula has the bit of the word at ``position``."""
        byte, bit = position >> 3, position & 7
        if self.gather is None:
            return reduce(or_, (bits for row, (_, bits) in zip(self.rows, self.groups) if row[byte] >> bit & 1), 0)
        column = self.columns.get(byte)
        if column is None:
            column = self.columns[byte] = bytes(self.gather(self.matrix[byte :: self.width]))
        return int(column.translate(_BIT_DIGIT[bit])[::-1], 2) << self.low


def _matching(by_value: dict[Any, int], wanted: Any) -> int:
    """The words having any of the ``wanted`` values."""
    bits = 0
    for value in wanted:
        bits |= by_value.get(value, 0)
    return bits


def _to_bytes(bits: int) -> bytes:
    return bits.to_bytes((bits.bit_length() + 7) // 8, "little")


def _bits(indices: list[int]) -> int:
    if not indices:
        return 0
    data = bytearray((indices[-1] >> 3) + 1)
    for i in indices:
        data[i >> 3] |= 1 << (i & 7)
    return int.from_bytes(data, "little")
