"""Map data and pictures of the boards (docs/maps.md): the standard board's geometry and its
generator, the SVG drawings of a game as one caller's view shows it, PNG, and the router."""
