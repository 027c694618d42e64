"""Press: public and private messages between powers, stored as events."""
