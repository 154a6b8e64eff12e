"""The bottom of the project's Django code: what every app uses and no app owns.

- `core.methods`: `read_only`, the decorator of a page that only shows.
- `core.conditional`: conditional GETs (strong ETags, 304s) for the pages that refresh.
- `core.commands`: `DatabaseCommand`, the base of the commands that work on the database.
- `core.jobs`: enqueueing a background job by name once the transaction commits.
- `core.error_shape`: the one error shape, `{"code", "message", "details"}`, and the bodies
  Django's own refusals answer with under /api/.
- `core.warmup`: what a Celery job process loads as it starts, registered by each app.
- `core.copy`: many rows into one table with a binary COPY, from NumPy columns.

It imports Django and nothing of the project: the apps import it, `config` (the top) wires
everything, and nothing here knows either (import-linter's `layers` contract)."""
