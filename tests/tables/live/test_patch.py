"""``tables.live.patch.diff`` and the client kit's ``apply_patch``: an update applied to the
state it is based on gives the new state exactly, and leaves the old one as it was."""

import copy

import pytest

from pokerclient.live import PatchError, apply_patch
from tables.live.patch import diff

CASES = [
    ({"a": 1}, {"a": 1}),
    ({"a": 1, "b": 2}, {"a": 1, "c": 3}),  # a member gone, one new
    ({"a": 1}, {"a": True}),  # JSON tells 1 from true, Python's == does not
    ({"a": 1}, {"a": 1.0}),
    ({"a": None}, {"a": 0}),
    ({"log": ["x", "y"]}, {"log": ["x", "y", "z", "w"]}),  # appended
    ({"log": ["x", "y", "z"]}, {"log": ["x"]}),  # taken off the end
    ({"seats": [{"s": 1}, {"s": 2}, {"s": 3}]}, {"seats": [{"s": 1}, {"s": 5}, {"s": 3}]}),
    ({"l": [1, 2, 3, 4]}, {"l": [9, 8, 7, 4]}),  # mostly new: set whole
    ({"l": []}, {"l": [1]}),
    ({"l": []}, {"l": []}),
    ({"l": [1, 2]}, {"l": []}),
    ({"l": [{"a": 1}]}, {"l": [{"a": True}]}),
    ({"l": [1, 2.0]}, {"l": [True, 2, 3]}),  # grown, with a start Python's == takes as equal
    ({"log": [{"a": 1}, "x"]}, {"log": [{"a": 1}, "x", "y"]}),  # equal copies, then appended
    ({"a/b": 1, "c~d": {"e": 1}}, {"a/b": 2, "c~d": {"e": 2}}),  # keys a pointer escapes
    ({"x": {"y": {"z": [1, {"w": 2}]}}}, {"x": {"y": {"z": [1, {"w": 3, "v": None}]}}}),
    ([1, 2], {"now": "an object"}),  # the whole document
]


@pytest.mark.parametrize(("old", "new"), CASES)
def test_an_update_applied_on_its_base_gives_the_new_state(old, new):
    before = copy.deepcopy(old)
    patch = diff(old, new)
    result = apply_patch(old, patch)
    assert result == new and type(result) is type(new)
    assert repr(result) == repr(new)  # 1 stays 1, true stays true
    assert old == before  # the state held is not changed in place
    assert (patch == []) == (repr(old) == repr(new))


def test_only_what_changed_is_sent():
    old = {"state": {"seats": [{"stack": 100, "bet": 0}] * 6, "log": ["a"] * 30}, "me": {}}
    new = copy.deepcopy(old)
    new["state"]["seats"][2] = {"stack": 98, "bet": 2}
    new["state"]["log"].append("b")
    assert diff(old, new) == [
        ["/state/seats/2/stack", 98],
        ["/state/seats/2/bet", 2],
        ["/state/log/-", "b"],
    ]
    rebuilt = copy.deepcopy(new)  # equal lists of other objects: still only what changed
    rebuilt["state"]["log"].append("c")
    assert diff(new, rebuilt) == [["/state/log/-", "c"]]


@pytest.mark.parametrize(
    "patch",
    [[["/a/b", 1]], [["/l/7", 1]], [["no-slash", 1]], [{"op": "add"}], [["/a"], ["/a"]]],
)
def test_a_patch_on_another_state_is_refused(patch):
    with pytest.raises(PatchError):
        apply_patch({"a": 1, "l": [0]}, patch)
