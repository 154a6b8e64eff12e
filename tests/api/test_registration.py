"""Issue 21, items 1 and 2 through the API: an event's sign-up, a public sign-up (its email
kept from every public answer, rate-limited, its key opening the registration), the
organizers' list and decisions, check-in by key and by organizer, and a stage start that says
who was dropped."""

from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.test import Client, TestCase
from django.utils import timezone
from rest_framework.test import APIClient

from league.models import Event, League, Player, Registration, SignUp
from league.pages.registration import SignUpRateThrottle
from league.services import registration as reg
from tests.conftest import client_for
from tests.mailed import mailed_key

pytestmark = pytest.mark.django_db


def sign_up(event: Event, name: str, email: str | None = None, **extra: Any) -> Any:
    """A player's sign-up as the API answers it (202, its link mailed once it commits)."""
    body = {"display_name": name, "email": email or f"{name.lower()}@example.org", **extra}
    with TestCase.captureOnCommitCallbacks(execute=True):
        return APIClient().post(f"/api/v1/events/{event.pk}/registrations/", body, format="json")


def signed_up(event: Event, name: str, email: str | None = None, **extra: Any) -> dict[str, Any]:
    """Sign up, then read the registration with the key its mail brought, as its player does."""
    email = email or f"{name.lower()}@example.org"
    answer = sign_up(event, name, email, **extra)
    assert answer.status_code == 202, answer.json()
    key = mailed_key(email)
    own = APIClient().get("/api/v1/registrations/mine/", HTTP_X_REGISTRATION_KEY=key)
    assert own.status_code == 200, own.json()
    return {**own.json(), "key": key}


@pytest.fixture
def open_event(yardzee_event: Event) -> Event:
    reg.sign_up_set(event=yardzee_event, cap=2, check_in=True)
    return yardzee_event


def test_the_organizer_opens_the_sign_up_and_anyone_reads_it(as_organizer, yardzee_event):
    url = f"/api/v1/events/{yardzee_event.pk}/sign-up/"
    assert APIClient().get(url).json()["code"] == "not_found"
    deadline = (timezone.now() + timedelta(days=2)).isoformat()
    answer = as_organizer.put(url, {"deadline": deadline, "cap": 8}, format="json")
    assert answer.status_code == 200, answer.json()
    read = APIClient().get(url).json()
    assert (read["open"], read["cap"], read["takes_sign_ups"], read["places_taken"]) == (
        True,
        8,
        True,
        0,
    )
    assert as_organizer.put(url, {"cap": 0}, format="json").json()["code"] == "invalid"
    assert APIClient().put(url, {}, format="json").status_code == 401


@pytest.mark.parametrize("cap", [0, -1, 100_001])
def test_a_cap_out_of_its_bounds_is_an_invalid_field_and_changes_nothing(
    as_organizer, yardzee_event, cap
):
    """docs/api.md, "Sign-up and check-in": a field out of its bounds is 400 `invalid`."""
    url = f"/api/v1/events/{yardzee_event.pk}/sign-up/"
    response = as_organizer.put(url, {"cap": cap}, format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid"
    assert list(body["details"]["fields"]) == ["cap"]
    assert isinstance(body["details"]["fields"]["cap"], list)
    assert not SignUp.objects.filter(event=yardzee_event).exists()


def test_a_check_in_closing_before_it_opens_is_an_invalid_option(as_organizer, yardzee_event):
    opens = timezone.now() + timedelta(days=1)
    response = as_organizer.put(
        f"/api/v1/events/{yardzee_event.pk}/sign-up/",
        {
            "check_in": True,
            "check_in_opens": opens.isoformat(),
            "check_in_closes": (opens - timedelta(hours=1)).isoformat(),
        },
        format="json",
    )
    assert (response.status_code, response.json()["code"]) == (400, "invalid_option")
    assert response.json()["details"] == {"field": "check_in_closes"}
    assert not SignUp.objects.filter(event=yardzee_event).exists()


def test_a_public_sign_up_mails_its_key_and_never_shows_its_email_to_others(open_event):
    answer = sign_up(open_event, "Ana", "ana@private.example")
    assert answer.status_code == 202, answer.json()
    assert set(answer.json()) == {"email", "message"}
    assert "key" not in answer.json()
    key = mailed_key("ana@private.example")
    own = APIClient().get("/api/v1/registrations/mine/", HTTP_X_REGISTRATION_KEY=key)
    assert own.status_code == 200
    assert own.json()["display_name"] == "Ana"
    assert own.json()["status"] == "pending"
    assert "private.example" not in own.content.decode()
    sign_up_answer = APIClient().get(f"/api/v1/events/{open_event.pk}/sign-up/")
    assert "private.example" not in sign_up_answer.content.decode()
    wrong = APIClient().get("/api/v1/registrations/mine/", HTTP_X_REGISTRATION_KEY="nope")
    assert wrong.status_code == 404


def test_a_sign_up_answers_the_same_whatever_is_on_file(open_event):
    """Issue 37, item 4: a sign-up with someone's email (or a name like theirs) answered
    "already signed up", echoing the registered name. Now every sign-up answers alike; the
    address gets its link (an address signed up before, a new one: the old no longer opens
    it), and a name like another's is for the organizers to tell apart."""
    first = sign_up(open_event, "Ana Lima", "ana@example.org")
    old_key = mailed_key("ana@example.org")
    again = sign_up(open_event, "Someone", "ANA@example.org")
    alike = sign_up(open_event, "ana lima", "other@example.org")
    fresh = sign_up(open_event, "Ben", "ben@example.org")
    for answer, email in [
        (first, "ana@example.org"),
        (again, "ANA@example.org"),
        (alike, "other@example.org"),
        (fresh, "ben@example.org"),
    ]:
        assert answer.status_code == 202
        assert answer.json()["message"] == sign_up_message(email)
        assert "Ana Lima" not in answer.content.decode()
    assert Registration.objects.filter(email__iexact="ana@example.org").count() == 1
    new_key = mailed_key("ana@example.org")  # to the address on file
    assert new_key != old_key
    mine = APIClient().get("/api/v1/registrations/mine/", HTTP_X_REGISTRATION_KEY=new_key)
    assert mine.json()["display_name"] == "Ana Lima"
    old = APIClient().get("/api/v1/registrations/mine/", HTTP_X_REGISTRATION_KEY=old_key)
    assert old.status_code == 404
    assert "already" in str([m for m in mail.outbox if m.to == ["ana@example.org"]][-1].body)


def sign_up_message(email: str) -> str:
    return (
        f"Thanks: the link to your sign-up is on its way to {email}. It opens your sign-up's "
        "own page (where it stands, check-in, withdrawal); keep it to yourself."
    )


def test_sign_up_errors_have_codes_and_change_nothing(open_event, yardkle_event):
    assert sign_up(open_event, "Ana").status_code == 202
    bad = sign_up(open_event, "Bad\u200bName")
    assert (bad.status_code, bad.json()["code"]) == (400, "invalid_name")
    assert sign_up(open_event, "Ben", "nope").json()["code"] == "invalid_email"
    closed = sign_up(yardkle_event, "Ana")
    assert (closed.status_code, closed.json()["code"]) == (409, "registration_closed")
    missing = APIClient().post(f"/api/v1/events/{open_event.pk}/registrations/", {}, format="json")
    assert (missing.status_code, missing.json()["code"]) == (400, "invalid")
    assert Registration.objects.count() == 1


def test_beyond_the_cap_the_answer_is_the_waiting_list(open_event):
    sign_up(open_event, "Ana")
    sign_up(open_event, "Ben")
    third = signed_up(open_event, "Cleo")
    assert (third["status"], third["waiting_position"]) == ("waiting", 1)


def test_public_sign_ups_are_rate_limited_per_address(open_event, monkeypatch, as_organizer):
    monkeypatch.setattr(SignUpRateThrottle, "THROTTLE_RATES", {"sign_up": "2/min"})
    statuses = [sign_up(open_event, name).status_code for name in ("Ana", "Ben", "Cleo")]
    assert statuses == [202, 202, 429]
    assert Registration.objects.count() == 2
    # The organizers adding players are not limited.
    added = as_organizer.post(
        f"/api/v1/events/{open_event.pk}/registrations/", {"display_name": "Dev"}, format="json"
    )
    assert added.status_code == 201


def test_the_organizers_list_shows_emails_and_matches_to_organizers_only(
    open_event, as_organizer, other_organizer
):
    known = Player.objects.create(display_name="Sam Doe", handle="sam")
    sign_up(open_event, "Sam", handle="sam")
    url = f"/api/v1/events/{open_event.pk}/registrations/"
    rows = as_organizer.get(url).json()
    assert rows[0]["email"] == "sam@example.org"
    assert rows[0]["candidates"] == [
        {
            "player": {
                "id": known.pk,
                "display_name": "Sam Doe",
                "handle": "sam",
                "created_at": rows[0]["candidates"][0]["player"]["created_at"],
            },
            "by": ["handle"],
        }
    ]
    assert APIClient().get(url).status_code == 401
    assert client_for(other_organizer).get(url).status_code == 403


def test_approve_needs_a_choice_when_it_matches_and_links_when_told(open_event, as_organizer):
    known = Player.objects.create(display_name="Sam Doe", handle="sam")
    row = signed_up(open_event, "Sam", handle="sam")
    url = f"/api/v1/registrations/{row['id']}/approve/"
    refused = as_organizer.post(url, {}, format="json")
    assert (refused.status_code, refused.json()["code"]) == (409, "player_match")
    assert refused.json()["details"]["candidates"][0]["player"] == known.pk
    both = as_organizer.post(url, {"player": known.pk, "new_player": True}, format="json")
    assert both.status_code == 400
    linked = as_organizer.post(url, {"player": known.pk}, format="json")
    assert linked.status_code == 200, linked.json()
    assert (linked.json()["status"], linked.json()["player"]) == ("confirmed", known.pk)
    assert open_event.league.players.filter(pk=known.pk).exists()


def test_refuse_moves_the_waiting_list_up(open_event, as_organizer):
    ana = signed_up(open_event, "Ana")
    sign_up(open_event, "Ben")
    cleo = signed_up(open_event, "Cleo")
    answer = as_organizer.post(f"/api/v1/registrations/{ana['id']}/refuse/")
    assert answer.json()["status"] == "refused"
    assert Registration.objects.get(pk=cleo["id"]).status == "pending"
    again = as_organizer.post(f"/api/v1/registrations/{ana['id']}/refuse/")
    assert (again.status_code, again.json()["code"]) == (409, "registration_decided")


def test_a_closed_event_refuses_refusals_and_withdrawals_as_every_decision(
    open_event, as_organizer
):
    """Refusing (pending or waiting), withdrawing (by an organizer or by key), approving and
    checking in are all 409 `event_closed` once the event is finished; nothing changes."""
    ana, ben, cleo = (signed_up(open_event, name) for name in ("Ana", "Ben", "Cleo"))
    as_organizer.post(f"/api/v1/registrations/{ana['id']}/approve/", {}, format="json")
    as_organizer.post(f"/api/v1/events/{open_event.pk}/close/", {}, format="json")
    sent = {
        "refuse pending": as_organizer.post(f"/api/v1/registrations/{ben['id']}/refuse/"),
        "refuse waiting": as_organizer.post(f"/api/v1/registrations/{cleo['id']}/refuse/"),
        "approve": as_organizer.post(f"/api/v1/registrations/{ben['id']}/approve/", {}),
        "withdraw": as_organizer.post(f"/api/v1/registrations/{ana['id']}/withdraw/"),
        "check in": as_organizer.post(f"/api/v1/registrations/{ana['id']}/check-in/", {}),
        "withdraw by key": APIClient().post(
            "/api/v1/registrations/mine/withdraw/", HTTP_X_REGISTRATION_KEY=cleo["key"]
        ),
    }
    assert {what: (r.status_code, r.json()["code"]) for what, r in sent.items()} == dict.fromkeys(
        sent, (409, "event_closed")
    )
    assert sent["refuse waiting"].json()["message"] == (
        f"Event {open_event.pk} is finished: its sign-up takes no more changes. Its organizers "
        "can reopen it."
    )
    statuses = Registration.objects.filter(event=open_event).order_by("pk")
    assert list(statuses.values_list("status", flat=True)) == ["confirmed", "pending", "waiting"]


def test_a_player_checks_in_by_key_within_the_window_and_withdraws(open_event, as_organizer):
    row = signed_up(open_event, "Ana")
    as_organizer.post(f"/api/v1/registrations/{row['id']}/approve/", {}, format="json")
    key = {"HTTP_X_REGISTRATION_KEY": row["key"]}
    checked = APIClient().post("/api/v1/registrations/mine/check-in/", {}, format="json", **key)
    assert checked.status_code == 200, checked.json()
    assert checked.json()["checked_in_at"] is not None
    reg.sign_up_set(
        event=open_event, check_in=True, check_in_closes=timezone.now() - timedelta(minutes=1)
    )
    late = APIClient().post(
        "/api/v1/registrations/mine/check-in/", {"present": False}, format="json", **key
    )
    assert (late.status_code, late.json()["code"]) == (409, "check_in_closed")
    out = APIClient().post("/api/v1/registrations/mine/withdraw/", **key)
    assert out.json()["status"] == "withdrawn"


def test_starting_a_stage_answers_who_was_dropped(open_event, as_organizer):
    reg.sign_up_set(event=open_event, check_in=True)
    ids = []
    for name in ("Ana", "Ben", "Cleo"):
        row = signed_up(open_event, name)
        ids.append(
            as_organizer.post(
                f"/api/v1/registrations/{row['id']}/approve/", {}, format="json"
            ).json()["player"]
        )
        if name != "Ben":
            as_organizer.post(f"/api/v1/registrations/{row['id']}/check-in/", {}, format="json")
    stage = as_organizer.post(
        f"/api/v1/events/{open_event.pk}/stages/",
        {"name": "Pool", "format": "round_robin", "participants": ids},
        format="json",
    ).json()
    started = as_organizer.post(f"/api/v1/stages/{stage['id']}/start/")
    assert started.status_code == 200, started.json()
    assert started.json()["dropped"] == [ids[1]]
    assert [e["player"]["id"] for e in started.json()["entries"]] == [ids[0], ids[2]]


def test_a_player_in_a_running_stage_cannot_withdraw_themselves(open_event, as_organizer):
    """docs/api.md, "Sign-up and check-in": the key's holder withdrawing while entered in a
    running stage is 409 `still_playing` and nothing changes (withdrawing the sign-up would
    leave them seated, their tables unsettled); through their link the same sentence shows.
    Once an organizer has withdrawn them from the stage, they may leave the event."""
    reg.sign_up_set(event=open_event, check_in=False)
    reg.sign_up_set(event=open_event, cap=3)
    rows = [signed_up(open_event, name) for name in ("Ana", "Ben", "Cleo")]
    ids = [
        as_organizer.post(f"/api/v1/registrations/{row['id']}/approve/", {}, format="json").json()[
            "player"
        ]
        for row in rows
    ]
    stage = as_organizer.post(
        f"/api/v1/events/{open_event.pk}/stages/",
        {"name": "Pool", "format": "round_robin", "participants": ids},
        format="json",
    ).json()
    assert as_organizer.post(f"/api/v1/stages/{stage['id']}/start/").status_code == 200
    key = {"HTTP_X_REGISTRATION_KEY": rows[0]["key"]}
    refused = APIClient().post("/api/v1/registrations/mine/withdraw/", **key)
    assert refused.status_code == 409
    assert refused.json() == {
        "code": "still_playing",
        "message": f"You are playing in Pool of {open_event.name}: ask an organizer to "
        "withdraw you, so that your tables are settled.",
        "details": {"stages": [stage["id"]]},
    }
    assert Registration.objects.get(pk=rows[0]["id"]).status == "confirmed"
    page = Client().post(f"/sign-up/{rows[0]['key']}/withdraw/", follow=True)
    assert "ask an organizer to withdraw you" in page.content.decode()
    assert Registration.objects.get(pk=rows[0]["id"]).status == "confirmed"
    # An organizer may still take the sign-up off (the organizer's page then says where they
    # play on); once withdrawn from the stage, the player may leave by themselves.
    out = as_organizer.post(
        f"/api/v1/stages/{stage['id']}/withdraw/", {"player": ids[0]}, format="json"
    )
    assert out.status_code == 200, out.json()
    left = APIClient().post("/api/v1/registrations/mine/withdraw/", **key)
    assert left.status_code == 200, left.json()
    assert left.json()["status"] == "withdrawn"


def test_a_sign_up_does_not_hand_another_leagues_player_to_whoever_approves_it(
    open_event, as_organizer, other_organizer, staff
):
    """docs/api.md, "Whose data is whose": a league cannot take over, rename or seat the
    players of another league's organizers. A sign-up naming their handle (public) or email
    matches them, but linking it would put them on this roster, whose organizers may then
    rename them: 403, nothing changes. Their own organizers (and staff) may link them."""
    theirs = Player.objects.create(display_name="Ada Lovelace", handle="ada")
    League.objects.get(slug="elsewhere").players.add(theirs)  # other_organizer's league
    row = signed_up(open_event, "Ada", handle="ada")
    url = f"/api/v1/registrations/{row['id']}/approve/"
    refused = as_organizer.post(url, {"player": theirs.pk}, format="json")
    assert refused.status_code == 403
    assert refused.json()["code"] == "permission_denied"
    assert refused.json()["details"] == {"field": "player", "player": theirs.pk}
    assert Registration.objects.get(pk=row["id"]).status == "pending"
    assert not open_event.league.players.filter(pk=theirs.pk).exists()
    renamed = as_organizer.patch(
        f"/api/v1/players/{theirs.pk}/", {"display_name": "Taken"}, format="json"
    )
    assert renamed.status_code == 403
    made = as_organizer.post(url, {"new_player": True}, format="json")
    assert made.status_code == 200, made.json()
    assert made.json()["player"] != theirs.pk
    # Staff may change any player, so may link them.
    again = signed_up(open_event, "Ada L", email="ada2@example.org", handle="ada")
    linked = client_for(staff).post(
        f"/api/v1/registrations/{again['id']}/approve/", {"player": theirs.pk}, format="json"
    )
    assert linked.status_code == 200, linked.json()


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "/api/v1/registrations/mine/"),
        ("post", "/api/v1/registrations/mine/check-in/"),
        ("post", "/api/v1/registrations/mine/withdraw/"),
    ],
)
def test_a_registration_asked_for_without_its_key_is_401_not_404(open_event, method, path):
    """No X-Registration-Key (or an empty one) is no credentials: 401 `not_authenticated`,
    naming the header, with its challenge; a key that opens nothing stays 404."""
    for extra in ({}, {"HTTP_X_REGISTRATION_KEY": ""}):
        response = getattr(APIClient(), method)(path, **extra)
        assert response.status_code == 401, response.json()
        assert response.json()["code"] == "not_authenticated"
        assert "X-Registration-Key" in response.json()["message"]
        assert response["WWW-Authenticate"] == 'Registration-Key header="X-Registration-Key"'
    wrong = getattr(APIClient(), method)(path, HTTP_X_REGISTRATION_KEY="nope")
    assert wrong.status_code == 404


def test_only_the_players_the_approver_may_link_are_offered(
    open_event, as_organizer, organizer, other_organizer, staff
):
    """A match on other leagues' rosters, whom the approver may not link (403), is not among
    the candidates offered, neither in the list nor in the 409 `player_match`; a match on the
    roster is. Staff, and an organizer of that other league too, are offered both."""
    elsewhere = League.objects.get(slug="elsewhere")  # other_organizer's league
    theirs = Player.objects.create(display_name="Ada Lovelace", handle="ada")
    elsewhere.players.add(theirs)
    regular = Player.objects.create(display_name="Ada", handle="ada-b")
    open_event.league.players.add(regular)
    row = signed_up(open_event, "Ada", handle="ada")
    url = f"/api/v1/registrations/{row['id']}/approve/"
    listing = f"/api/v1/events/{open_event.pk}/registrations/"

    def offered(client: APIClient) -> tuple[list[int], list[int]]:
        conflict = client.post(url, {}, format="json")
        assert conflict.status_code == 409, conflict.json()
        assert conflict.json()["code"] == "player_match"
        listed = next(r for r in client.get(listing).json() if r["id"] == row["id"])
        return (
            [c["player"] for c in conflict.json()["details"]["candidates"]],
            [c["player"]["id"] for c in listed["candidates"]],
        )

    assert offered(as_organizer) == ([regular.pk], [regular.pk])
    assert offered(client_for(staff)) == ([theirs.pk, regular.pk], [theirs.pk, regular.pk])
    elsewhere.organizers.add(organizer)
    assert offered(as_organizer) == ([theirs.pk, regular.pk], [theirs.pk, regular.pk])
    assert Registration.objects.get(pk=row["id"]).status == "pending"
