"""The game core every service uses: a game's state folded from its stream, the repository that
reads and writes it through the store (with a per-process cache), the clock and draw rules, the
guards of who may act now, and each power's latest submission. No web framework here: the
errors raised are shared.errors' domain errors."""
