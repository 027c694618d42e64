"""The standard board's projection from degrees to pixels, shared by the generated regions
(standard_geometry.py) and the hand-drawn coast around Britain and Iberia (standard_atlantic.py):
docs/maps.md."""
from __future__ import annotations

import math

SCALE = 27.5  # pixels per degree of latitude
LONGITUDE_FACTOR = math.cos(math.radians(50))  # a degree of longitude at 50 degrees north
