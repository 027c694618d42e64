"""SVG pictures to PNG with CairoSVG (docs/maps.md says why this renderer).

A picture comes in layers (board_svg.Layers): the board itself, the same for every game, is
rasterised once per process and kept as pixels; each PNG starts from a copy of those pixels,
CairoSVG draws only the game's own layer on top, and Pillow writes the PNG with fast
compression. A picture without layers is rendered whole.
"""
from __future__ import annotations

import struct
import threading
import zlib
from typing import Any

from shared.errors import DomainError, ErrorCode

_STATIC: dict[str, bytes] = {}
_LOCK = threading.Lock()


class PngUnavailable(DomainError):
    status_code = 503
    code = ErrorCode.PNG_UNAVAILABLE


def _cairo() -> tuple[Any, Any, Any]:
    try:
        import cairocffi
        from cairosvg.parser import Tree
        from cairosvg.surface import PNGSurface
    except (ImportError, OSError) as missing:  # no CairoSVG, or no libcairo on this machine
        raise PngUnavailable(f"PNG pictures need CairoSVG and libcairo: {missing}") from None
    return cairocffi, Tree, PNGSurface


def _draw(document: str, background: bytes | None) -> Any:
    """A cairo image surface with ``document`` drawn on ``background`` (pixels of the same
    size, or None for a transparent start)."""
    PNGSurface: Any  # CairoSVG's class, untyped; declared so that mypy lets it be a base class
    cairo, Tree, PNGSurface = _cairo()

    class OnBackground(PNGSurface):
        def _create_surface(self, width: float, height: float) -> tuple[Any, int, int]:
            width, height = int(round(width)), int(round(height))
            if background is None:
                return cairo.ImageSurface(cairo.FORMAT_ARGB32, width, height), width, height
            stride = cairo.ImageSurface.format_stride_for_width(cairo.FORMAT_ARGB32, width)
            surface = cairo.ImageSurface.create_for_data(bytearray(background), cairo.FORMAT_ARGB32,
                                                         width, height, stride)
            return surface, width, height

    surface = OnBackground(Tree(bytestring=document.encode("utf-8")), None, 96)
    surface.cairo.flush()
    return surface.cairo


def _pixels(surface: Any) -> bytes:
    return bytes(surface.get_data())


def _encode(surface: Any) -> bytes:
    """The surface's pixels as an RGB PNG. Written here rather than by Pillow's encoder: no
    row filters and zlib's fastest level cost a third of the time for a file as small, on
    pictures that are mostly flat colour."""
    from PIL import Image

    width, height, stride = surface.get_width(), surface.get_height(), surface.get_stride()
    rgb = Image.frombuffer("RGB", (width, height), bytes(surface.get_data()), "raw", "BGRX", stride, 1).tobytes()
    row = width * 3
    raw = b"".join(b"\x00" + rgb[y * row:(y + 1) * row] for y in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"IDAT", zlib.compress(raw, 1))
            + _chunk(b"IEND", b""))


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def layers_to_png(layers: Any) -> bytes:
    """A layered picture: the board's layer from the process's cache (drawn the first time),
    this picture's layer on top."""
    return layered_png(layers.static_key, layers.static_document(), layers.dynamic_document())


def layered_png(static_key: str, static_document: str, dynamic_document: str) -> bytes:
    """``layers_to_png`` from the layers' texts."""
    background = _STATIC.get(static_key)
    if background is None:
        with _LOCK:
            background = _STATIC.get(static_key)
            if background is None:
                background = _STATIC[static_key] = _pixels(_draw(static_document, None))
    return _encode(_draw(dynamic_document, background))
