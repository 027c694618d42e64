"""The DAIDE server: bots that speak the Diplomacy AI Development Environment's protocol play a
hosted standard game's seats over TCP (docs/bots.md). ``entente daide`` runs it."""
