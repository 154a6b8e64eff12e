"""The organization: players, leagues, events, stages (brackets), standings and ratings."""
