"""QR codes as inline SVG, drawn on the server by segno: no external service, no image request.

A director points a tablet's camera at the code on `/` to open a kiosk.
"""

from __future__ import annotations

from functools import lru_cache

import segno


@lru_cache(maxsize=256)
def qr_svg(text: str) -> str:
    """An SVG element (no XML declaration, sized by CSS) encoding `text`, hidden from screen
    readers: the page names the URL next to it."""
    svg = segno.make(text, error="m").svg_inline(
        scale=1, border=2, dark="#000", light="#fff", omitsize=True
    )
    return svg.replace("<svg ", '<svg aria-hidden="true" focusable="false" ', 1)
