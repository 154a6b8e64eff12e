"""The flush after a transactional test (tests/conftest.py, `_delete_flush`): every table the
test wrote is empty afterwards, the rows that point at each other included, so the next test
starts from nothing, as with Django's TRUNCATE."""

import pytest
from django.core.management.color import no_style
from django.db import connection

from league.models import Event, Player


@pytest.mark.django_db(transaction=True)
def test_the_flush_empties_every_table_the_test_wrote(organizer, yardzee_event, players):
    assert Event.objects.count() == 1
    assert Player.objects.count() >= 2

    tables = connection.introspection.django_table_names(only_existing=True)
    statements = connection.ops.sql_flush(no_style(), tables)
    assert not any(statement.startswith("TRUNCATE") for statement in statements)
    connection.ops.execute_sql_flush(statements)

    with connection.cursor() as cursor:
        left = {}
        for table in tables:
            cursor.execute(f"SELECT count(*) FROM {connection.ops.quote_name(table)}")  # noqa: S608
            (count,) = cursor.fetchone()
            if count:
                left[table] = count
    assert left == {}
