"""The difference between two JSON documents as the few operations that turn one into the
other, for the ``?state=json&frames=diff`` socket's updates.

An operation is JSON Patch's (RFC 6902) in a shorter spelling, one list each, at a JSON
Pointer (RFC 6901) ``path``: ``[path, value]`` sets the value there (an object member added
or replaced, a list item replaced, or appended when the path ends ``/-``), ``[path]`` removes
it. ``diff(old, new)`` makes them for an object member that appeared, went or changed, a list
item that changed (by index), items added at the end or taken off the end. A list that
changed in most of its items is set whole (its operations would be longer than it); the
whole document is ``["", new]``. JSON Patch's spelling, ``{"op": "replace", "path",
"value"}``, took twice the bytes: most of an update was the words ``op``, ``path``,
``value``.
The client kit applies them (``pokerclient.live.apply_patch``):
``apply_patch(old, diff(old, new)) == new``.
"""

from __future__ import annotations

import operator
from typing import Any

import orjson

#: One operation: ``[path, value]`` or ``[path]``.
Operation = list[Any]


def diff(old: Any, new: Any) -> list[Operation]:
    """The operations that turn ``old`` into ``new`` (``[]`` when they are equal)."""
    ops: list[Operation] = []
    if type(old) is type(new) and type(new) in (dict, list):
        _diff(old, new, "", ops)
    elif not _same(old, new):
        ops.append(["", new])
    return ops


def _same(old: Any, new: Any) -> bool:
    """Equal as JSON: ``True == 1`` and ``1 == 1.0`` in Python, also deep inside a list or
    an object, not in JSON (so containers are compared as their JSON text)."""
    if old is new:
        return True
    if type(old) is not type(new):
        return False
    if type(old) is dict or type(old) is list:
        return _json(old) == _json(new)
    return bool(old == new)


def _json(value: Any) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)


#: What ``value_at`` finds where a pointer leads nowhere (no JSON value is this object).
MISSING: Any = object()


def value_at(document: Any, pointer: str) -> Any:
    """The value at JSON Pointer ``pointer`` (unescaped: its keys hold no ``/`` or ``~``) in
    ``document``; ``MISSING`` when there is none."""
    for key in pointer.split("/")[1:]:
        if type(document) is dict:
            document = document.get(key, MISSING)
        elif type(document) is list and key.isdigit() and int(key) < len(document):
            document = document[int(key)]
        else:
            return MISSING
        if document is MISSING:
            return MISSING
    return document


def _diff(old: Any, new: Any, path: str, ops: list[Operation]) -> None:
    """The operations at ``path`` and under it: none for equal objects or lists (any other
    value reaches here only when it differs)."""
    if type(old) is dict and type(new) is dict:
        for key in old:
            if key not in new:
                ops.append([f"{path}/{_escape(key)}"])
        for key, value in new.items():
            before = old.get(key, MISSING)
            if before is value:  # the presenters share what did not change: nothing to walk
                continue
            kind = type(value)
            if kind is type(before) and (kind is dict or kind is list):
                if not value and not before:
                    continue  # both empty (a board not run twice, no chances): equal
                if kind is dict and value == before and _json(value) == _json(before):
                    continue  # an equal new object (a table's, a clock's): compared in C
                # (a list's items are most often the very same: ``_same_prefix`` sees that)
                _diff(before, value, f"{path}/{_escape(key)}", ops)
            # (``_same`` spelt out: a value of another type, or unequal, is not the same)
            elif kind is not type(before) or before != value:
                ops.append([f"{path}/{_escape(key)}", value])  # added or replaced
        return
    if type(old) is list and type(new) is list and (new or not old):
        common = min(len(old), len(new))
        if _same_prefix(old, new, common):  # most often a log that grew: only appends
            changed = []
        else:
            # Python's ``!=`` first, in C: an item it tells apart is walked as changed (its
            # diff says only what differs); one it takes as equal (``1`` for ``True``?) is
            # compared as JSON text
            changed = [
                i
                for i, (before, after) in enumerate(zip(old, new, strict=False))
                if before is not after and (before != after or not _same(before, after))
            ]
        if 2 * len(changed) <= common:
            for index in changed:
                _diff(old[index], new[index], f"{path}/{index}", ops)
            ops.extend([f"{path}/-", value] for value in new[common:])
            ops.extend([f"{path}/{index}"] for index in range(len(old) - 1, common - 1, -1))
            return
    ops.append([path, new])


def _same_prefix(old: list[Any], new: list[Any], common: int) -> bool:
    """Whether the first ``common`` items of the two lists are equal as JSON, checked in C
    rather than item by item: the very same objects, or equal ones whose JSON text is the
    same (Python's ``==`` alone would take ``True`` for ``1``)."""
    first = old if len(old) == common else old[:common]
    second = new if len(new) == common else new[:common]
    if all(map(operator.is_, first, second)):
        return True
    return first == second and _json(first) == _json(second)


def _escape(key: object) -> str:
    if type(key) is str and "~" not in key and "/" not in key:
        return key  # (every key of the states)
    return str(key).replace("~", "~0").replace("/", "~1")
