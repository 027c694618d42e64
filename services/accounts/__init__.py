"""Accounts: sign-in with an OAuth2 provider, the seats an account holds, bot tokens."""
