"""Play analysis in the product (issue 19): every finished match analysed against optimal play
(`scoring.analysis`) by a Celery job, stored per match, discarded when its result no longer
stands, and read by the API and the pages (docs/analysis.md, "In the product")."""
