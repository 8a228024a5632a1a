"""A ``frames=diff`` socket's JSON state and the update that brings it to a new version.

A viewer's state is the version's shared state (``SharedJson``, built once per version for
every viewer) with their own parts put in (``JsonState``: JSON Pointer -> value). The update
between two states (``json_update``) is the patch of the shared states, made once per pair
of versions for every viewer (``SharedPatch``), less what it says of the viewer's own parts,
then their own parts' patch (``tables.live.patch``: JSON Patch spelt short). What a socket
holds and which frame it is sent: ``tables.live.frames``.
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Hashable, Set as AbstractSet
from typing import Any

import orjson

from tables.live.patch import MISSING, diff, value_at
from tables.presenters.own_signature import OwnSignature


class SharedJson:
    """The JSON state of one version as a spectator sees it, built once for every viewer:
    each viewer's state is this with their own parts put in (``JsonState``)."""

    __slots__ = ("version", "data", "__weakref__")

    def __init__(self, version: int, data: dict[str, Any]) -> None:
        self.version, self.data = version, data


class JsonState:
    """One viewer's state at one version as a ``frames=diff`` socket holds it: the version's
    ``shared`` state with the viewer's ``own`` parts (JSON Pointer -> value: their seat, their
    controls, their log, their engine view's private members; none for a spectator). ``data``
    is the whole frame less its ``type`` and ``version``. Compared by identity.

    ``signature``: every input ``own`` was built from
    (``tables.presenters.own_signature``), or None: a later version of the same signature
    takes this ``own`` as it is (of the same but what the viewer may tick in advance, with
    that member made anew)."""

    __slots__ = ("shared", "own", "signature", "_data", "_text")

    def __init__(
        self, shared: SharedJson, own: dict[str, Any], signature: OwnSignature | None = None
    ) -> None:
        self.shared, self.own, self.signature = shared, own, signature
        self._data: dict[str, Any] | None = None
        self._text = ""

    @property
    def version(self) -> int:
        return self.shared.version

    @property
    def data(self) -> dict[str, Any]:
        """The viewer's whole state (the shared one with their own parts put in)."""
        if self._data is None:
            data = self.shared.data
            for pointer, value in self.own.items():
                data = _put(data, pointer.split("/")[1:], value)
            self._data = data
        return self._data

    @property
    def text(self) -> str:
        """The whole state frame."""
        if not self._text:
            self._text = orjson.dumps(
                {"type": "state", "version": self.version, **self.data}
            ).decode()
        return self._text


def _put(container: Any, keys: list[str], value: Any) -> Any:
    """A copy of ``container`` with ``value`` at ``keys`` (each container on the way copied,
    the rest shared)."""
    if not keys:
        return value
    key, rest = keys[0], keys[1:]
    if isinstance(container, list):
        index = int(key)
        copied = list(container)
        copied[index] = _put(copied[index], rest, value)
        return copied
    copied_dict = dict(container)
    copied_dict[key] = _put(copied_dict[key], rest, value)
    return copied_dict


def json_update(held: JsonState, now: JsonState, memo: dict[Hashable, Any]) -> str:
    """The ``update`` frame from ``held`` to ``now``.

    The shared states' patch is made once per pair of versions for every viewer (``memo``:
    the newer snapshot's); each viewer's frame is that patch less what it says of their own
    parts (``held``'s and ``now``'s), then their own parts' patch: a part that became theirs
    from the spectator's value before, a part no longer theirs to the spectator's value now.
    Where their own parts moved within each other (a whole part and parts of it) or a part
    is not found, they get the patch of their whole states."""
    own, was = now.own, held.own
    same = own is was or own.keys() == was.keys()
    mine = own.keys() if same else own.keys() | was.keys()
    if not same and not _apart(mine):
        return _whole_update(held, now)
    key = ("shared patch", held.shared, now.shared)
    shared: SharedPatch | None = memo.get(key)
    if shared is None:
        shared = memo[key] = SharedPatch(diff(held.shared.data, now.shared.data))
    above = _above(tuple(own) if same else tuple(sorted(mine)))
    gone: Collection[str] = () if same else was.keys() - own.keys()
    parts: list[bytes] = []
    overwritten: set[str] = set()
    if shared.under.isdisjoint(mine) and shared.at.isdisjoint(above):
        # Most often: no shared operation at, under or above a part of theirs (all of it).
        if own is was or not (own or was):  # nothing of their own (``own_signature``)
            return shared.frame(now, held)
        if shared.text:
            parts.append(shared.text)
    else:
        _shared_parts(shared, mine, above, gone, parts, overwritten)
    for part, value in own.items():
        before = was.get(part, MISSING)
        if part in overwritten:  # set whole by a shared operation above it: put it back
            parts.append(orjson.dumps([part, value]))
        elif before is MISSING and (before := value_at(held.shared.data, part)) is MISSING:
            parts.append(orjson.dumps([part, value]))  # new: the shared patch made its place
        elif before is not value:
            parts.extend(_patch_at(part, before, value))
    for part in gone:
        if part in overwritten:  # set or removed by a shared operation at it or above it
            continue
        spectators = value_at(now.shared.data, part)
        if spectators is MISSING:
            return _whole_update(held, now)
        parts.extend(_patch_at(part, was[part], spectators))
    return _update_frame(now, held, parts)


class SharedPatch:
    """The patch between two versions' shared states, made once for all their viewers: each
    operation's pointers (``_pointers_to`` its path) and JSON text, the texts joined
    (``text``), every pointer an operation is at or under (``under``) and every path one is
    at (``at``): a viewer none of whose parts they reach takes the joined text as it is."""

    __slots__ = ("operations", "text", "under", "at", "_frame")

    def __init__(self, operations: list[Any]) -> None:
        self.operations = [(_pointers_to(op[0]), orjson.dumps(op)) for op in operations]
        self.text = b",".join(text for _, text in self.operations)
        self.under = {pointer for pointers, _ in self.operations for pointer in pointers}
        self.at = {pointers[-1] if pointers else "" for pointers, _ in self.operations}
        self._frame = ""

    def frame(self, now: JsonState, held: JsonState) -> str:
        """The update from ``held`` to ``now`` of a viewer whose own parts it says nothing
        of: the same text for all of them (a spectator, a player whose parts were reused)."""
        if not self._frame:
            self._frame = _update_frame(now, held, [self.text] if self.text else [])
        return self._frame


def _shared_parts(
    shared: SharedPatch,
    mine: AbstractSet[str],
    above: frozenset[str],
    gone: Collection[str],
    parts: list[bytes],
    overwritten: set[str],
) -> None:
    """The shared operations a viewer of parts ``mine`` gets (put in ``parts``), less those
    at or under a part of theirs but one at a part no longer theirs (``gone``: as for all);
    the parts a shared operation at or above them set whole go in ``overwritten``."""
    for pointers, text in shared.operations:
        if not mine.isdisjoint(pointers):
            if pointers[-1] in gone:  # set or removed at a part no longer theirs: as for all
                overwritten.add(pointers[-1])
                parts.append(text)
            continue  # the spectator's value of a part this viewer has their own of
        path = pointers[-1] if pointers else ""
        if path in above:
            overwritten.update(part for part in mine if part.startswith(path + "/"))
        parts.append(text)


def _patch_at(part: str, before: Any, after: Any) -> list[bytes]:
    """The operations that turn ``before`` into ``after`` at pointer ``part``."""
    return [orjson.dumps([part + op[0], *op[1:]]) for op in diff(before, after)]


def _whole_update(held: JsonState, now: JsonState) -> str:
    return _update_frame(now, held, [orjson.dumps(op) for op in diff(held.data, now.data)])


def _apart(parts: Collection[str]) -> bool:
    """Whether no part is within another (each is patched on its own)."""
    return not any(pointer in parts for part in parts for pointer in _pointers_to(part)[:-1])


@functools.lru_cache(maxsize=256)
def _above(own: tuple[str, ...]) -> frozenset[str]:
    """The pointers above a viewer's own parts, and the document's own ("")."""
    return frozenset(("", *(pointer for mine in own for pointer in _pointers_to(mine)[:-1])))


@functools.lru_cache(maxsize=4096)
def _pointers_to(path: str) -> tuple[str, ...]:
    """``path`` and the pointers above it, the document's own ("") left out: ``/a/b`` ->
    ``("/a", "/a/b")``."""
    parts = path.split("/")
    return tuple("/".join(parts[:n]) for n in range(2, len(parts) + 1))


def _update_frame(now: JsonState, held: JsonState, operations: list[bytes]) -> str:
    return (
        b'{"type":"update","version":%d,"base":%d,"patch":[%b]}'
        % (now.version, held.version, b",".join(operations))
    ).decode()
