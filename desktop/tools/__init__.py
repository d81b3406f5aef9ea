"""Map tools: small classes that turn pointer and key events into core commands."""
