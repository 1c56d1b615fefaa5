"""Counterbalancing: which side the acceptable sentence is shown on.

Every item belongs to one HIT and one paradigm, so the items are the edges of a bipartite
multigraph (HITs on one side, paradigms on the other). Showing the good sentence first or
second is a two-colouring of those edges, and we want every vertex to see both colours
equally often: within each HIT *and* within each paradigm, the two positions differ by at
most one.

That is the classic Euler-partition argument. Join each odd-degree HIT to a dummy paradigm and
each odd-degree paradigm to a dummy HIT (plus one dummy-dummy edge when both counts are odd),
so every degree is even and the graph stays bipartite. Each connected component then has an
Euler circuit of even length; colouring its edges alternately gives every vertex as many edges
of each colour, because a circuit enters and leaves a vertex on consecutive edges. Dropping the
dummy edges changes any real vertex by at most one. A greedy pass cannot promise this.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence

_DUMMY_LEFT = ("dummy", "left")
_DUMMY_RIGHT = ("dummy", "right")


def balanced_orientation(edges: Sequence[tuple[Hashable, Hashable]], rng: random.Random) -> list[int]:
    """Give each ``(left, right)`` edge a side, 0 or 1, balanced at every vertex.

    Args:
        edges: one ``(hit, paradigm)`` pair per item; repeated pairs are allowed.
        rng: randomises which circuit starts with which side, so the pattern is not systematic.

    Returns:
        One 0/1 per edge, in input order, such that at every left and every right vertex the
        counts of 0 and 1 differ by at most one.
    """
    ends: list[tuple[tuple, tuple]] = [(("L", left), ("R", right)) for left, right in edges]
    degree: dict[tuple, int] = {}
    for a, b in ends:
        degree[a] = degree.get(a, 0) + 1
        degree[b] = degree.get(b, 0) + 1
    odd_left = [v for v, d in degree.items() if d % 2 and v[0] == "L"]
    odd_right = [v for v, d in degree.items() if d % 2 and v[0] == "R"]
    padded = list(ends)
    padded += [(v, _DUMMY_RIGHT) for v in odd_left]
    padded += [(_DUMMY_LEFT, v) for v in odd_right]
    if len(odd_left) % 2:  # then len(odd_right) is odd too: both dummies have odd degree
        padded.append((_DUMMY_LEFT, _DUMMY_RIGHT))

    adjacency: dict[tuple, list[int]] = {}
    for index, (a, b) in enumerate(padded):
        adjacency.setdefault(a, []).append(index)
        adjacency.setdefault(b, []).append(index)
    for incident in adjacency.values():
        rng.shuffle(incident)

    colour: list[int] = [-1] * len(padded)
    used = [False] * len(padded)
    cursor = dict.fromkeys(adjacency, 0)
    for start in sorted(adjacency, key=repr):
        circuit = _euler_circuit(start, padded, adjacency, used, cursor)
        first = rng.randrange(2)
        for step, edge in enumerate(circuit):
            colour[edge] = (first + step) % 2
    return colour[: len(ends)]


def _euler_circuit(
    start: tuple,
    edges: list[tuple[tuple, tuple]],
    adjacency: dict[tuple, list[int]],
    used: list[bool],
    cursor: dict[tuple, int],
) -> list[int]:
    """Hierholzer's algorithm from ``start`` over unused edges; returns edge indices in order."""
    circuit: list[int] = []
    stack: list[tuple[tuple, int]] = [(start, -1)]
    while stack:
        vertex, via = stack[-1]
        incident = adjacency[vertex]
        while cursor[vertex] < len(incident) and used[incident[cursor[vertex]]]:
            cursor[vertex] += 1
        if cursor[vertex] == len(incident):
            stack.pop()
            if via >= 0:
                circuit.append(via)
            continue
        edge = incident[cursor[vertex]]
        used[edge] = True
        a, b = edges[edge]
        stack.append((b if vertex == a else a, edge))
    return circuit
