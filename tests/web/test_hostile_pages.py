"""Every page and organizer page, asked badly: no answer is a server error.

The URL patterns are walked from the URLconf (all but the API's, which
tests/system/test_schema_fuzz.py fuzzes against its schema, and the admin's), so a page added
later is asked too. Each is asked with its ids as they are in a small league (a started stage
with its matches, a sign-up with a registration), then with each id in turn replaced by one
that does not exist, by 0 and by a number no column holds; with an odd query string; with every
method; and, for the organizer, posted empty and posted junk. Anonymous visitors, an organizer
of another league and the league's own organizer each ask. What each page must answer beyond
"not a 5xx" is tested beside it; this is the net under all of them."""

import contextlib
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import Resolver404, URLPattern, URLResolver, get_resolver, resolve
from rest_framework.test import APIClient

from games.models import Match
from league.models import Event, Registration, Stage
from league.services import registration as reg
from tests.api.helpers import started_stage

pytestmark = pytest.mark.django_db

SKIPPED = ("api/v1/", "admin/")
HUGE = "9" * 30
QUERY = "?page=-1&page=abc&round=" + HUGE + "&x=%00&q=%ff&" + "k=" + "v" * 3000
# Posted to every page: the names the project's forms use, with values no form accepts.
JUNK = dict(
    zip(
        [
            "name",
            "display_name",
            "handle",
            "email",
            "format",
            "rounds",
            "advance",
            "groups",
            "table_size",
            "participants",
            "players",
            "player",
            "score",
            "total",
            "placement",
            "points",
            "date",
            "planned_at",
            "zone",
            "reason",
            "url",
            "events",
            "target",
            "step",
            "keep",
            "into",
            "number",
            "first",
            "second",
            "seed",
            "dice",
            "category",
            "turns",
        ],
        ["\x00", HUGE, "-1", "", "x" * 10_000, "[1, 2]", "\u202e\ufeff"] * 5,
        strict=False,
    )
)


def _patterns(resolver: URLResolver, prefix: str = "") -> Iterator[tuple[str, URLPattern]]:
    for entry in resolver.url_patterns:
        route = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            if str(entry.pattern) not in SKIPPED:
                yield from _patterns(entry, route)
        else:
            yield route, entry


@pytest.fixture
def world(organizer: User, players: list[Any], yardzee_event: Event) -> dict[str, str]:
    """A league with a started stage and a sign-up; the value of each URL argument."""
    client = APIClient()
    client.force_authenticate(organizer)
    yardzee_event.league.players.add(*players)
    stage = started_stage(client, yardzee_event.pk, [p.pk for p in players], format="swiss")
    match = Match.objects.filter(event=yardzee_event).order_by("pk").first()
    assert match is not None
    signed = reg.registration_create(
        event_id=yardzee_event.pk, display_name="Late Comer", by_organizer=True
    )
    registration = Registration.objects.get(pk=signed.registration.pk)
    return {
        "slug": yardzee_event.league.slug,
        "event_id": str(yardzee_event.pk),
        "stage_id": str(Stage.objects.get(pk=stage["id"]).pk),
        "number": "1",
        "match_id": str(match.pk),
        "player_id": str(players[0].pk),
        "registration_id": str(registration.pk),
        "endpoint_id": "1",
        "step": "send",
        "key": signed.key,
        "code": match.score_key,
        "game": "yardzee",
        "uidb64": "MQ",
        "token": "set-password",
    }


def _fill(route: str, values: dict[str, str]) -> str:
    """The route with its arguments taken from `values` (a regex route's named groups too)."""
    path = re.sub(r"<(?:\w+:)?(\w+)>", lambda m: values[m.group(1)], route)
    path = re.sub(r"\(\?P<(\w+)>[^)]*\)", lambda m: values[m.group(1)], path)
    return "/" + path.removeprefix("^").removesuffix("$").replace("/?", "/")


def _urls(world: dict[str, str]) -> list[str]:
    """Every page with real arguments, then with each argument made bad in turn."""
    urls = []
    for route, _ in _patterns(get_resolver()):
        # The route's every argument, an included prefix's too (its pattern holds only its own).
        names = dict.fromkeys(re.findall(r"<(?:\w+:)?(\w+)>", route))
        urls.append(_fill(route, world))
        for name in names:
            for bad in ("0", HUGE, "nope"):
                url = _fill(route, {**world, name: bad})
                with contextlib.suppress(Resolver404):  # the converter refuses it: no page
                    resolve(url)
                    urls.append(url)
    return urls


def _ask(client: Client, method: str, url: str, **extra: Any) -> str | None:
    """None, or what went wrong: a 5xx or an exception."""
    try:
        response = getattr(client, method)(url, **extra)
    except Exception as error:
        return f"{method.upper()} {url[:120]}: {type(error).__name__}: {str(error)[:200]}"
    if response.status_code >= 500:
        return f"{method.upper()} {url[:120]}: {response.status_code}"
    return None


def _sweep(client: Client, urls: list[str], methods: list[tuple[str, dict[str, Any]]]) -> list[str]:
    failures = []
    for method, extra in methods:  # method by method: writes come after every read
        for url in urls:
            for asked in (url, url + QUERY):
                found = _ask(client, method, asked, **extra)
                if found:
                    failures.append(found)
    return failures


READS: list[tuple[str, dict[str, Any]]] = [("get", {}), ("head", {}), ("options", {})]
WRITES: list[tuple[str, dict[str, Any]]] = [
    ("put", {"data": "x=1", "content_type": "application/x-www-form-urlencoded"}),
    ("delete", {}),
    ("post", {"data": JUNK}),
    ("post", {"data": b"\xff\xfe=\x00", "content_type": "application/x-www-form-urlencoded"}),
    ("post", {}),
]


@pytest.mark.parametrize("who", ["anonymous", "another league's organizer", "its organizer"])
def test_no_page_answers_a_server_error_whatever_it_is_asked(
    who: str, world: dict[str, str], organizer: User, other_organizer: User
) -> None:
    client = Client()
    user: Callable[[], User | None] = {
        "anonymous": lambda: None,
        "another league's organizer": lambda: other_organizer,
        "its organizer": lambda: organizer,
    }[who]
    if (someone := user()) is not None:
        client.force_login(someone)
    urls = _urls(world)
    assert len(urls) > 200  # every pattern, with its bad arguments
    failures = _sweep(client, urls, READS + WRITES)
    assert not failures, f"{len(failures)} server errors:\n" + "\n".join(failures[:60])


READ_ONLY = [
    "/",
    "/leagues/{slug}/",
    "/leagues/{slug}/live/",
    "/events/{event_id}/",
    "/events/{event_id}/live/",
    "/players/{player_id}/",
    "/matches/{match_id}/",
    "/matches/{match_id}/live/",
    "/matches/{match_id}/analysis/",
    "/matches/{match_id}/score/",
    "/organize/",
    # The organizer's pages that only show (they answered a POST 405 after the CSRF check).
    "/organize/leagues/{slug}/tiebreak/",
    "/organize/events/{event_id}/",
    "/organize/events/{event_id}/tables/",
    "/organize/stages/{stage_id}/sheet/",
    "/organize/stages/{stage_id}/sheet/live/",
    "/organize/stages/{stage_id}/rounds/1/sheet/",
    "/organize/matches/{match_id}/sheet/",
    "/organize/matches/{match_id}/sheet/live/",
    "/events/{event_id}/calendar.ics",
    "/players/{player_id}/calendar.ics",
    "/pads/yardzee/",
    "/matches/{match_id}/pad/",
    "/sign-up/{key}/",
    "/embed/leagues/{slug}/standings/",
]


@pytest.mark.parametrize("method", ["post", "put", "patch", "delete"])
def test_the_public_pages_refuse_writes_with_405(
    method: str, world: dict[str, str], organizer: User
) -> None:
    """They only show: a write is refused as not allowed (not answered with the page, as if
    it had done something), for their organizers too."""
    client = Client()
    client.force_login(organizer)
    for page in READ_ONLY:
        response = getattr(client, method)(page.format(**world))
        assert response.status_code == 405, page
        assert response["Allow"] == "GET, HEAD", page
        assert client.head(page.format(**world)).status_code in (200, 302), page


@pytest.mark.parametrize("signed_in", [False, True])
@pytest.mark.parametrize("method", ["post", "put", "patch", "delete"])
def test_the_405_comes_before_the_csrf_check(
    method: str, signed_in: bool, world: dict[str, str], organizer: User
) -> None:
    """A real client (not the test client, which skips the CSRF check) sends no CSRF token
    with its POST: the CSRF middleware answered Django's 403 "CSRF verification failed" page
    before the view could say 405 with `Allow: GET, HEAD`, as docs/pages.md says it does. A page
    that takes no write has nothing for the CSRF check to guard (core.methods.read_only)."""
    client = Client(enforce_csrf_checks=True)
    if signed_in:
        client.force_login(organizer)
    for page in [*READ_ONLY, "/t/{match_id}/not-its-code"]:
        response = getattr(client, method)(page.format(**world))
        assert response.status_code == 405, page
        assert response["Allow"] == "GET, HEAD", page


def test_a_number_written_in_other_digits_is_no_number_not_a_server_error(
    world: dict[str, str], organizer: User
) -> None:
    """`str.isdigit` holds for "²" and "³", which `int` refuses: a page that read a number with
    it answered 500 for `?turns=²` (a match page and its live part), `?players=²` (a blank
    pad), `?tables=²` (a round sheet's live part) and a posted `player=²` (approving a sign-up).
    Such a value is no number: the default, or the form's refusal."""
    anonymous = Client()
    for url in (
        "/matches/{match_id}/?turns=²",
        "/matches/{match_id}/live/?turns=²",
        "/pads/yardzee/?players=³",
    ):
        assert anonymous.get(url.format(**world)).status_code == 200, url
    client = Client()
    client.force_login(organizer)
    sheet = client.get("/organize/stages/{stage_id}/sheet/live/?tables=²".format(**world))
    assert sheet.status_code == 200
    approve = "/organize/registrations/{registration_id}/approve/".format(**world)
    assert client.post(approve, {"player": "²"}).status_code < 500
    assert Registration.objects.get(pk=world["registration_id"]).player_id is None
