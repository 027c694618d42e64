"""The HTTP plumbing every service shares: the app factory, the ``Annotated`` request
dependencies, the handlers that turn errors into the one JSON error shape, and the middleware
that resolves account and bot tokens."""
