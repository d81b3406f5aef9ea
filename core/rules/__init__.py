"""Pure resolvers: (encounter, request, dice) -> result with a full breakdown."""
