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

from typing import Any


def diff(old: Any, new: Any) -> list[list]:
    """The operations that turn ``old`` into ``new`` (``[]`` when they are equal)."""
    ops: list[list] = []
    _diff(old, new, "", ops)
    return ops


def _same(old: Any, new: Any) -> bool:
    # ``True == 1`` and ``1 == 1.0`` in Python, not in JSON: compare the kinds too.
    return old is new or (type(old) is type(new) and old == new)


def _diff(old: Any, new: Any, path: str, ops: list[list]) -> None:
    if _same(old, new):
        return
    if type(old) is dict and type(new) is dict:
        for key in old:
            if key not in new:
                ops.append([f"{path}/{_escape(key)}"])
        for key, value in new.items():
            where = f"{path}/{_escape(key)}"
            if key in old:
                _diff(old[key], value, where, ops)
            else:
                ops.append([where, value])
        return
    if type(old) is list and type(new) is list and old and new:
        common = min(len(old), len(new))
        changed = sum(not _same(a, b) for a, b in zip(old, new, strict=False))
        if 2 * changed <= common:
            for index in range(common):
                _diff(old[index], new[index], f"{path}/{index}", ops)
            ops.extend([f"{path}/-", value] for value in new[common:])
            ops.extend([f"{path}/{index}"] for index in range(len(old) - 1, common - 1, -1))
            return
    ops.append([path, new])


def _escape(key: object) -> str:
    return str(key).replace("~", "~0").replace("/", "~1")
