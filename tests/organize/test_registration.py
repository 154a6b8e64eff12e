"""Issue 21, items 1 and 2 on the organizer pages: the sign-up's settings, a player added by
hand, approving a registration that matches an existing player (the organizer chooses: link
or new player), refusing (the waiting list moves up), check-in, and starting a stage that says
who was dropped; 403 for anyone but the league's organizers."""

import re
from datetime import UTC, datetime

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from league.models import Event, League, Player, Registration, SignUp
from league.services import registration as reg
from league.services import stages as stage_services

pytestmark = pytest.mark.django_db


@pytest.fixture
def as_organizer(organizer: User) -> Client:
    client = Client()
    client.force_login(organizer)
    return client


def sign(event: Event, name: str, handle: str = "") -> Registration:
    return reg.registration_create(
        event_id=event.pk,
        display_name=name,
        email=f"{name.lower().replace(' ', '.')}@example.org",
        handle=handle,
    ).registration


def test_the_organizer_sets_the_sign_up_and_its_refusals_show_on_the_form(
    as_organizer, yardzee_event
):
    url = f"/organize/events/{yardzee_event.pk}/sign-up/"
    assert as_organizer.get(url).status_code == 200
    saved = as_organizer.post(
        url, {"open": "on", "cap": "8", "check_in": "on", "deadline": "2026-06-01T18:00"}
    )
    assert saved.status_code == 302
    sign_up = SignUp.objects.get(event=yardzee_event)
    assert (sign_up.open, sign_up.cap, sign_up.check_in) == (True, 8, True)
    assert sign_up.deadline is not None
    assert sign_up.deadline.hour == 18
    refused = as_organizer.post(
        url,
        {
            "check_in": "on",
            "check_in_opens": "2026-06-01T19:00",
            "check_in_closes": "2026-06-01T18:00",
        },
    )
    assert refused.status_code == 400
    assert "Check-in must close after it opens." in refused.content.decode()
    assert SignUp.objects.get(event=yardzee_event).check_in_opens is None


def test_the_page_says_when_players_cannot_sign_up_themselves_and_why(as_organizer, yardzee_event):
    """The form shows "Open to sign-ups" ticked before any sign-up was saved (saving opens
    it): the page says it is not open yet, and later why it takes no sign-ups."""
    url = f"/organize/events/{yardzee_event.pk}/sign-up/"

    def said() -> str:
        page = str(as_organizer.get(url).content.decode())
        return page[page.index("<h1>") : page.index("<section")]

    assert "Players cannot sign up themselves yet: the sign-up is not open." in said()
    reg.sign_up_set(event=yardzee_event)
    assert "Players sign up at" in said()
    assert "cannot sign up" not in said()
    reg.sign_up_set(event=yardzee_event, open=False)
    assert "Players cannot sign up themselves: the sign-up is closed." in said()
    reg.sign_up_set(event=yardzee_event, open=True, deadline=datetime(2020, 1, 1, tzinfo=UTC))
    assert "Players cannot sign up themselves: the deadline has passed." in said()
    Event.objects.filter(pk=yardzee_event.pk).update(status="finished")
    assert f"Players cannot sign up themselves: {yardzee_event.name} is finished." in said()


def test_only_the_leagues_organizers_see_the_page(yardzee_event, other_organizer):
    url = f"/organize/events/{yardzee_event.pk}/sign-up/"
    assert Client().get(url).status_code == 302  # to sign in
    other = Client()
    other.force_login(other_organizer)
    assert other.get(url).status_code == 403
    reg.sign_up_set(event=yardzee_event)
    ana = sign(yardzee_event, "Ana")
    assert other.post(f"/organize/registrations/{ana.pk}/approve/").status_code == 403
    assert Registration.objects.get(pk=ana.pk).status == "pending"


def test_a_match_is_shown_and_the_organizer_links_or_makes_a_new_player(
    as_organizer, yardzee_event
):
    reg.sign_up_set(event=yardzee_event)
    known = Player.objects.create(display_name="Sam Doe", handle="sam")
    sam = sign(yardzee_event, "Sam", handle="sam")
    page = as_organizer.get(f"/organize/events/{yardzee_event.pk}/sign-up/").content.decode()
    assert "Sam Doe (@sam): the same handle" in page
    assert "sam@example.org" in page  # the organizers see the email
    linked = as_organizer.post(
        f"/organize/registrations/{sam.pk}/approve/", {"player": str(known.pk)}, follow=True
    )
    assert "Sam is confirmed as Sam Doe (@sam)." in linked.content.decode()
    assert Registration.objects.get(pk=sam.pk).player_id == known.pk

    other = Player.objects.create(display_name="Kim", handle="kim")
    kim = sign(yardzee_event, "Kim B", handle="kim")
    as_organizer.post(f"/organize/registrations/{kim.pk}/approve/", {"player": "new"})
    made = Registration.objects.get(pk=kim.pk).player
    assert made is not None
    assert made.pk != other.pk


def test_approving_a_match_without_a_choice_is_refused_with_a_message(as_organizer, yardzee_event):
    reg.sign_up_set(event=yardzee_event)
    Player.objects.create(display_name="Sam Doe", handle="sam")
    sam = sign(yardzee_event, "Sam", handle="sam")
    answer = as_organizer.post(f"/organize/registrations/{sam.pk}/approve/", follow=True)
    assert "may be a player there is already" in answer.content.decode()
    assert Registration.objects.get(pk=sam.pk).status == "pending"


def test_an_approval_or_check_in_posted_with_garbage_changes_nothing_and_says_so(
    as_organizer, yardzee_event
):
    """`player=abc` approved as if no one were chosen (a new player), `present=abc` checked
    in: a value the page never sends now changes nothing."""
    reg.sign_up_set(event=yardzee_event, check_in=True)
    ana = sign(yardzee_event, "Ana")
    refused = as_organizer.post(
        f"/organize/registrations/{ana.pk}/approve/", {"player": "abc"}, follow=True
    )
    assert "Ana: nothing changed; choose the player it is" in refused.content.decode()
    assert Registration.objects.get(pk=ana.pk).status == "pending"
    as_organizer.post(f"/organize/registrations/{ana.pk}/approve/")
    assert Registration.objects.get(pk=ana.pk).status == "confirmed"
    garbled = as_organizer.post(
        f"/organize/registrations/{ana.pk}/check-in/", {"present": "abc"}, follow=True
    )
    assert "nothing changed; check in (present 1)" in garbled.content.decode()
    assert Registration.objects.get(pk=ana.pk).checked_in_at is None


def test_adding_refusing_and_the_waiting_list_moving_up(as_organizer, yardzee_event):
    reg.sign_up_set(event=yardzee_event, cap=1)
    ana = sign(yardzee_event, "Ana")
    added = as_organizer.post(
        f"/organize/events/{yardzee_event.pk}/registrations/add/",
        {"display_name": "Walk-in", "email": "", "handle": ""},
        follow=True,
    )
    assert "Walk-in is on the waiting list" in added.content.decode()
    again = as_organizer.post(
        f"/organize/events/{yardzee_event.pk}/registrations/add/", {"display_name": "ana"}
    )
    assert again.status_code == 400
    assert "already signed up" in again.content.decode()
    as_organizer.post(f"/organize/registrations/{ana.pk}/refuse/")
    walk_in = Registration.objects.get(display_name="Walk-in")
    assert walk_in.status == "pending"


def test_a_closed_event_refuses_a_refusal_or_a_withdrawal_on_the_page(as_organizer, yardzee_event):
    """As approving and checking in: the page says the event is closed, nothing changes."""
    reg.sign_up_set(event=yardzee_event, cap=1)
    ana, ben = sign(yardzee_event, "Ana"), sign(yardzee_event, "Ben")
    Event.objects.filter(pk=yardzee_event.pk).update(status="finished")
    for registration, step in ((ben, "refuse"), (ana, "refuse"), (ana, "withdraw")):
        answer = as_organizer.post(
            f"/organize/registrations/{registration.pk}/{step}/", follow=True
        ).content.decode()
        assert (
            f"{registration.display_name}: Week 1 is finished: its sign-up takes no more "
            "changes. Its organizers can reopen it."
        ) in answer, step
    assert [Registration.objects.get(pk=r.pk).status for r in (ana, ben)] == [
        "pending",
        "waiting",
    ]
    # The page itself offers none of what the event refuses, and says how to open it again.
    page = as_organizer.get(f"/organize/events/{yardzee_event.pk}/sign-up/").content.decode()
    assert (
        "Week 1 is finished: its sign-up and registrations take no changes until it is reopened"
    ) in page
    assert f'href="/organize/events/{yardzee_event.pk}/reopen/"' in page
    for offered in ("Approve Ana", "Refuse Ana", "Refuse Ben", "Save the sign-up", ">Add<"):
        assert offered not in page, offered
    assert "<strong>Ana</strong>" in page  # still listed
    assert "<strong>Ben</strong>" in page


def test_check_in_on_the_page_and_a_start_that_names_who_was_dropped(as_organizer, yardzee_event):
    reg.sign_up_set(event=yardzee_event, check_in=True)
    rows = [sign(yardzee_event, name) for name in ("Ana", "Ben", "Cleo")]
    for row in rows:
        as_organizer.post(f"/organize/registrations/{row.pk}/approve/")
    for row in rows[:2]:
        as_organizer.post(f"/organize/registrations/{row.pk}/check-in/")
    players = [Registration.objects.get(pk=row.pk).player_id for row in rows]
    stage = stage_services.stage_create(
        event_id=yardzee_event.pk,
        name="Pool",
        format="round_robin",
        player_ids=[p for p in players if p is not None],
    )
    answer = as_organizer.post(f"/organize/stages/{stage.pk}/start/", follow=True)
    text = answer.content.decode()
    assert "Pool has started" in text
    assert "Not checked in, so dropped from Pool: Cleo." in text, re.findall(
        r"<li class=\"message.*?</li>", text
    )


def test_a_start_refused_for_too_few_checked_in_says_so(as_organizer, yardzee_event):
    reg.sign_up_set(event=yardzee_event, check_in=True)
    rows = [sign(yardzee_event, name) for name in ("Ana", "Ben", "Cleo")]
    for row in rows:
        as_organizer.post(f"/organize/registrations/{row.pk}/approve/")
    as_organizer.post(f"/organize/registrations/{rows[0].pk}/check-in/")
    stage = stage_services.stage_create(
        event_id=yardzee_event.pk,
        name="Pool",
        format="round_robin",
        player_ids=[Registration.objects.get(pk=row.pk).player_id for row in rows],
    )
    text = as_organizer.post(f"/organize/stages/{stage.pk}/start/", follow=True).content.decode()
    assert "Only 1 of the 3 players entered is checked in" in text
    assert "Check them in, or change the stage." in text
    stage.refresh_from_db()
    assert stage.status == "draft"


def test_withdrawing_a_sign_up_says_where_the_player_still_plays(as_organizer, yardzee_event):
    """A registration withdrawn seats no one and forfeits nothing: a player already entered
    in a stage plays on there, and the page says so, and what takes them off its tables."""
    reg.sign_up_set(event=yardzee_event)
    rows = [sign(yardzee_event, name) for name in ("Ana", "Ben")]
    for row in rows:
        as_organizer.post(f"/organize/registrations/{row.pk}/approve/")
    players = [Registration.objects.get(pk=row.pk).player_id for row in rows]
    stage = stage_services.stage_create(
        event_id=yardzee_event.pk, name="Pool", format="round_robin", player_ids=players
    )
    stage_services.stage_start(stage_id=stage.pk)
    done = as_organizer.post(f"/organize/registrations/{rows[0].pk}/withdraw/", follow=True)
    text = done.content.decode()
    assert "Ana is withdrawn." in text
    assert "Ana is still entered in Pool: withdrawing the sign-up does not take them off" in text
    assert Registration.objects.get(pk=rows[0].pk).status == "withdrawn"
    quiet = sign(yardzee_event, "Cleo")  # waiting for approval, entered nowhere
    said = as_organizer.post(f"/organize/registrations/{quiet.pk}/withdraw/", follow=True)
    assert "Cleo is withdrawn." in said.content.decode()
    assert "still entered" not in said.content.decode()


def _queries(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


def test_the_sign_up_page_and_the_api_list_read_a_fixed_number_of_queries(
    as_organizer, organizer, yardzee_event
):
    """Each pending registration's matches (by email, handle and name) are read for all of
    them at once: more sign-ups, each matching a player, cost no more queries."""
    reg.sign_up_set(event=yardzee_event, cap=6)
    before = Event.objects.create(league=yardzee_event.league, name="Before", date="2026-05-01")
    reg.sign_up_set(event=before)
    api = APIClient()
    api.force_authenticate(organizer)
    pages = f"/organize/events/{yardzee_event.pk}/sign-up/"
    listing = f"/api/v1/events/{yardzee_event.pk}/registrations/"
    counts = []
    for size in (2, 8):
        for i in range(len(Registration.objects.filter(event=yardzee_event)), size):
            Player.objects.create(display_name=f"Known {i}", handle=f"known-{i}")
            earlier = sign(before, f"Then {i}")
            reg.registration_approve(registration_id=earlier.pk)
            reg.registration_create(
                event_id=yardzee_event.pk,
                display_name=f"Now {i}",
                email=f"then.{i}@example.org",
                handle=f"known-{i}",
            )
        counts.append((_queries(as_organizer, pages), _queries(api, listing)))
    page = as_organizer.get(pages).content.decode()
    assert "Known 5 (@known-5): the same handle" in page  # 6 and 7 wait in line
    assert "Then 5 (@then-5): the same email" in page
    assert counts[0] == counts[1]


def test_a_player_of_another_leagues_organizers_is_not_linked_from_the_page(
    as_organizer, yardzee_event, other_organizer
):
    """The page approves through the same rule as the API: a sign-up matching a player on
    another league's roster, whose organizers the organizer is not among, is not linked (the
    page says why); nothing changes."""
    reg.sign_up_set(event=yardzee_event)
    theirs = Player.objects.create(display_name="Sam Doe", handle="sam")
    League.objects.get(slug="elsewhere").players.add(theirs)
    sam = sign(yardzee_event, "Sam", handle="sam")
    answer = as_organizer.post(
        f"/organize/registrations/{sam.pk}/approve/", {"player": str(theirs.pk)}, follow=True
    )
    assert "only their organizers may put them on another roster" in answer.content.decode()
    assert Registration.objects.get(pk=sam.pk).status == "pending"
    assert not yardzee_event.league.players.filter(pk=theirs.pk).exists()


def test_the_page_offers_a_player_of_another_leagues_organizers_only_to_those_who_may_link_them(
    as_organizer, organizer, yardzee_event, other_organizer, staff
):
    """The page lists, among a sign-up's matches, only the players the organizer may link it
    to: not one on another league's roster whose organizers they are not among (choosing them
    would be refused), but to staff, or once they organize that league too."""
    reg.sign_up_set(event=yardzee_event)
    elsewhere = League.objects.get(slug="elsewhere")
    theirs = Player.objects.create(display_name="Sam Doe", handle="sam")
    elsewhere.players.add(theirs)
    regular = Player.objects.create(display_name="Sam", handle="sam-b")
    yardzee_event.league.players.add(regular)
    sign(yardzee_event, "Sam", handle="sam")
    url = f"/organize/events/{yardzee_event.pk}/sign-up/"
    page = as_organizer.get(url).content.decode()
    assert "Sam (@sam-b): the same name" in page
    assert "Sam Doe (@sam)" not in page
    as_staff = Client()
    as_staff.force_login(staff)
    assert "Sam Doe (@sam): the same handle" in as_staff.get(url).content.decode()
    elsewhere.organizers.add(organizer)
    assert "Sam Doe (@sam): the same handle" in as_organizer.get(url).content.decode()


def test_a_sign_up_matching_only_players_the_organizer_may_not_link_is_approved_as_new(
    as_organizer, yardzee_event, other_organizer
):
    """No match the organizer may link: the page offers no choice, and approving makes a new
    player (the other league's player stays theirs, off this roster)."""
    reg.sign_up_set(event=yardzee_event)
    theirs = Player.objects.create(display_name="Sam Doe", handle="sam")
    League.objects.get(slug="elsewhere").players.add(theirs)
    sam = sign(yardzee_event, "Sam", handle="sam")
    page = as_organizer.get(f"/organize/events/{yardzee_event.pk}/sign-up/").content.decode()
    assert "May already be a player" not in page
    as_organizer.post(f"/organize/registrations/{sam.pk}/approve/", {}, follow=True)
    done = Registration.objects.get(pk=sam.pk)
    assert done.status == "confirmed"
    assert done.player_id not in (None, theirs.pk)
    assert not yardzee_event.league.players.filter(pk=theirs.pk).exists()
