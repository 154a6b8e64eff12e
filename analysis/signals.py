"""What play analysis tells the apps above it (docs/analysis.md, "Win probability").

`forecast_stored` is sent (sender `MatchForecast`, with `match_id` and `forecast`) once a
match's new chances are stored (one statement, committed: `analysis.forecast_sql.store`),
once per computed update: a burst of turns that the job takes in at once sends it once.
`league` re-projects the match's stage on it."""

from django.dispatch import Signal

forecast_stored = Signal()
