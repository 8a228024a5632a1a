"""QR codes drawn on the server (``segno``): inline SVG that scales with its box, no script."""

from __future__ import annotations

import segno
from django.utils.html import escape
from django.utils.safestring import SafeString


def qr_svg(url: str, label: str) -> SafeString:
    """``url`` as a QR code in inline SVG, read by screen readers as ``label``."""
    svg = segno.make(url, error="m").svg_inline(
        border=2, dark="#000", light="#fff", omitsize=True, svgclass="qr"
    )
    return SafeString(svg.replace("<svg ", f'<svg role="img" aria-label="{escape(label)}" ', 1))
