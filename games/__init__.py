"""One match at a table: seats, turns, its validated scorecards and final placements."""
