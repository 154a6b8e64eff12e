"""`DatabaseCommand`: the base of the project's management commands that work on the database
(recompute_standings, recompute_ratings, analyse_matches, export_event, import_event, load_demo,
load_webhook_demo, seed_season). Before anything else it reaches the database and checks that every
migration is applied; otherwise the command stops with one line saying which (a CommandError,
exit 1): not a traceback from its first query ("no such table", "connection refused"), and
nothing half-done. Django's own `requires_migrations_checks` only prints a notice and runs on."""

from django.core.management.base import BaseCommand, CommandError
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections
from django.db.migrations.executor import MigrationExecutor


class DatabaseCommand(BaseCommand):
    requires_migrations_checks = True

    def check_migrations(self) -> None:
        try:
            executor = MigrationExecutor(connections[DEFAULT_DB_ALIAS])
            plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
        except DatabaseError as error:
            raise CommandError(f"Cannot reach the database: {error}".strip()) from error
        if plan:
            raise CommandError(
                f"The database has {len(plan)} migrations not applied: run "
                "`manage.py migrate` first."
            )
