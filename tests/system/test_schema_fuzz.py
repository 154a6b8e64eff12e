"""Hostile input generated from the API's own OpenAPI schema (schemathesis): for every
operation, anonymous and as an organizer, no answer is a server error and every answer
conforms to the schema. The quick form runs in `make test`; SCHEMA_FUZZ_EXAMPLES raises it."""

import os
from typing import Any

import pytest
import schemathesis
from django.core.wsgi import get_wsgi_application
from hypothesis import HealthCheck, given, settings
from rest_framework.authtoken.models import Token
from schemathesis.core.result import Err

from league.models import Event, League, Player

# A schema-valid body may still be refused by the rules (a wrong password, an unknown player,
# a broken game rule): that is the API's job, not a schema defect.
# Reads are public by design, though the schema lists the auth schemes writes use.
EXCLUDED = [schemathesis.checks.positive_data_acceptance, schemathesis.checks.ignored_auth]

EXAMPLES = int(os.environ.get("SCHEMA_FUZZ_EXAMPLES", "8"))


@pytest.fixture
def organizer_token(organizer: Any) -> str:
    league = League.objects.create(name="Fuzz", slug="fuzz", game="yardzee")
    league.organizers.add(organizer)
    Event.objects.create(league=league, name="Fuzz night", date="2026-01-01")
    for i in range(3):
        league.players.add(Player.objects.create(display_name=f"F{i}", handle=f"f{i}"))
    token, _ = Token.objects.get_or_create(user=organizer)
    return str(token.key)


def _fuzz_every_operation(headers: dict[str, str]) -> int:
    """Run each operation's generated requests; return how many were sent."""
    api = schemathesis.openapi.from_wsgi("/api/v1/schema/", get_wsgi_application())
    sent = 0
    for result in api.get_all_operations():
        if isinstance(result, Err):  # the schema itself describes an operation it cannot use
            pytest.fail(f"An operation of the schema is invalid: {result.err()}")
        operation = result.ok()

        @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
        @given(case=operation.as_strategy())
        def check(case: Any) -> None:
            nonlocal sent
            sent += 1
            case.call_and_validate(headers=headers, excluded_checks=EXCLUDED)

        check()
    return sent


# `tables`: the server has its strategy tables, as a deployment does (`make run` builds them), so
# a valid advice position is answered rather than refused with 503 analysis_unavailable.
@pytest.mark.django_db(transaction=True)
def test_anonymous_requests_never_answer_a_server_error_or_off_schema(tables, organizer_token):
    assert _fuzz_every_operation({}) >= EXAMPLES


@pytest.mark.django_db(transaction=True)
def test_organizer_requests_never_answer_a_server_error_or_off_schema(tables, organizer_token):
    assert _fuzz_every_operation({"Authorization": f"Token {organizer_token}"}) >= EXAMPLES
