"""Notifications: each player's own webhook, fed from an outbox with retries and backoff."""
