"""A page as htmx's out-of-band swaps leave it, for tests: the socket's HTML frames applied
to a small element tree (``html.parser``), the way the ws extension applies them.

``Page(html)`` holds the elements of ``html``; ``apply(frame)`` swaps each top-level element
of a frame in by its ``id``: ``hx-swap-oob="true"`` replaces the element with that id
(``hx-swap-oob`` removed, as htmx removes it), ``"beforeend"`` appends the element's children
to it; an element inside it with ``hx-preserve`` is the page's element of that id, kept.
``region(id)`` is one element serialized, to compare a page built from updates with the page
a reload gives.
"""

from __future__ import annotations

from html import escape
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "wbr"}


class Element:
    __slots__ = ("tag", "attrs", "children")

    def __init__(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tag, self.attrs = tag, dict(attrs)
        self.children: list[Element | str] = []

    def html(self) -> str:
        attrs = "".join(
            f" {name}" if value is None else f' {name}="{escape(value)}"'
            for name, value in self.attrs.items()
            if name != "hx-swap-oob"
        )
        inner = "".join(c if isinstance(c, str) else c.html() for c in self.children)
        if self.tag in VOID:
            return f"<{self.tag}{attrs}>"
        return f"<{self.tag}{attrs}>{inner}</{self.tag}>"


class _Tree(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Element("root", [])
        self.open = [self.root]

    def handle_starttag(self, tag, attrs):
        element = Element(tag, attrs)
        self.open[-1].children.append(element)
        if tag not in VOID:
            self.open.append(element)

    def handle_startendtag(self, tag, attrs):
        self.open[-1].children.append(Element(tag, attrs))

    def handle_endtag(self, tag):
        for depth in range(len(self.open) - 1, 0, -1):
            if self.open[depth].tag == tag:
                del self.open[depth:]
                return

    def handle_data(self, data):
        self.open[-1].children.append(escape(data, quote=False))


def parse(html: str) -> Element:
    tree = _Tree()
    tree.feed(html)
    tree.close()
    return tree.root


def _find(node: Element, element_id: str) -> tuple[Element, int] | None:
    """(parent, index) of the element with ``element_id`` under ``node``."""
    for index, child in enumerate(node.children):
        if isinstance(child, Element):
            if child.attrs.get("id") == element_id:
                return node, index
            found = _find(child, element_id)
            if found is not None:
                return found
    return None


class Page:
    def __init__(self, html: str) -> None:
        self.root = parse(html)

    def apply(self, frame: str) -> None:
        for element in parse(frame).children:
            if not isinstance(element, Element):
                continue  # whitespace between the frame's elements
            swap = element.attrs.get("hx-swap-oob", "true")
            found = _find(self.root, element.attrs.get("id", ""))
            assert found is not None, f"no target for #{element.attrs.get('id')}"
            parent, index = found
            self._keep_preserved(element)
            if swap == "true":
                parent.children[index] = element
            elif swap == "beforeend":
                target = parent.children[index]
                assert isinstance(target, Element)
                target.children.extend(element.children)
            else:
                raise AssertionError(f"unexpected swap {swap!r}")

    def _keep_preserved(self, node: Element) -> None:
        """An incoming element with ``hx-preserve`` stands for the page's element of its id,
        which is kept as it is (htmx's ``handlePreservedElements``)."""
        for index, child in enumerate(node.children):
            if not isinstance(child, Element):
                continue
            if "hx-preserve" in child.attrs:
                found = _find(self.root, child.attrs.get("id", ""))
                assert found is not None, f"nothing to preserve for #{child.attrs.get('id')}"
                parent, at = found
                node.children[index] = parent.children[at]
            else:
                self._keep_preserved(child)

    def region(self, element_id: str) -> str:
        found = _find(self.root, element_id)
        assert found is not None, f"no #{element_id} on the page"
        parent, index = found
        element = parent.children[index]
        assert isinstance(element, Element)
        return element.html()
