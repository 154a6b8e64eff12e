"""Issue 21, item 1 (and 2) on the public pages: the sign-up form (CSRF, a rate limit, the
service's refusals shown on the form, the email on no page), the registration's private page
(where it stands, check-in within the window, withdrawal), and the event page's link."""

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client, TestCase
from django.utils import timezone

from league.models import Event, Registration
from league.pages.registration import SignUpRateThrottle
from league.services import registration as reg
from tests.mailed import mailed_link

pytestmark = pytest.mark.django_db


@pytest.fixture
def open_event(yardzee_event: Event) -> Event:
    reg.sign_up_set(event=yardzee_event, cap=1, check_in=True)
    return yardzee_event


def post(client: Client, event: Event, name: str, email: str = "") -> Any:
    """The sign-up form sent; its mail goes once the request's transaction commits."""
    with TestCase.captureOnCommitCallbacks(execute=True):
        return client.post(
            f"/events/{event.pk}/sign-up/",
            {"display_name": name, "email": email or f"{name.lower()}@private.example"},
        )


def test_the_event_page_links_to_the_sign_up_only_while_it_takes_sign_ups(
    client: Client, open_event
):
    link = f'href="/events/{open_event.pk}/sign-up/"'
    assert link in client.get(f"/events/{open_event.pk}/").content.decode()
    reg.sign_up_set(event=open_event, open=False)
    assert link not in client.get(f"/events/{open_event.pk}/").content.decode()
    page = client.get(f"/events/{open_event.pk}/sign-up/")
    assert "takes no sign-ups now: the sign-up is closed." in page.content.decode()
    reg.sign_up_set(event=open_event, deadline=timezone.now() - timedelta(minutes=1))
    page = client.get(f"/events/{open_event.pk}/sign-up/")
    assert "takes no sign-ups now: the deadline has passed." in page.content.decode()
    assert "<form" not in page.content.decode().split("<h1>")[1]


def test_the_sign_up_page_of_an_event_without_sign_ups_is_404_as_the_api_says(
    client: Client, yardzee_event: Event
):
    # issue 37, item 9: the page answered 200 ("takes no sign-ups now") where the API says 404
    assert client.get(f"/events/{yardzee_event.pk}/sign-up/").status_code == 404
    assert client.get(f"/api/v1/events/{yardzee_event.pk}/sign-up/").status_code == 404
    answer = post(client, yardzee_event, "Ana")
    assert answer.status_code == 404
    assert not Registration.objects.filter(event=yardzee_event).exists()


def test_a_sign_up_says_check_your_email_and_its_mailed_link_opens_its_page(
    client: Client, open_event
):
    answer = post(client, open_event, "Ana")
    assert answer.status_code == 200
    assert "Check your email" in answer.content.decode()
    assert "ana@private.example" in answer.content.decode()  # what was typed, to its typist
    page = client.get(mailed_link("ana@private.example"))
    text = page.content.decode()
    assert page.status_code == 200
    assert "Waiting for approval" in text
    assert "private.example" not in text
    assert page["Cache-Control"] == "private, no-store"
    for public in (f"/events/{open_event.pk}/", f"/events/{open_event.pk}/sign-up/"):
        assert "private.example" not in client.get(public).content.decode()
    post(client, open_event, "Ben")
    second = client.get(mailed_link("ben@private.example"))
    assert "On the waiting list (number 1 in line)" in second.content.decode()


def test_the_form_shows_the_services_refusals_and_saves_nothing(client: Client, open_event):
    hidden = post(client, open_event, "Ana\u2066lice", "alice@example.org")
    assert hidden.status_code == 400
    assert "invisible or control characters" in hidden.content.decode()
    # On the name field, in the page's words: not the API's field name that begins it.
    assert "It holds invisible or control characters" in hidden.content.decode()
    assert "display_name holds" not in hidden.content.decode()
    assert not Registration.objects.exists()


def test_a_sign_up_answers_the_same_page_whatever_is_on_file(client: Client, open_event):
    """Issue 37, item 4: the form answered "already signed up" with the registered name. Now
    a sign-up with an address signed up before (or a name like another's) gets the same page;
    the address gets its link again (a new one: the old opens it no more)."""
    first = post(client, open_event, "Ana Lima", "ana@example.org")
    old = mailed_link("ana@example.org")
    again = post(Client(), open_event, "Someone", "ANA@example.org")
    alike = post(Client(), open_event, "ana lima", "other@example.org")
    for answer in (first, again, alike):
        assert answer.status_code == 200
        assert "Check your email" in answer.content.decode()
        assert "Ana Lima" not in answer.content.decode()
        assert "already" not in answer.content.decode()
    assert Registration.objects.filter(email__iexact="ana@example.org").count() == 1
    new = mailed_link("ana@example.org")
    assert new != old
    assert "Ana Lima" in client.get(new).content.decode()
    assert client.get(old).status_code == 404


def test_the_form_needs_its_csrf_token(open_event):
    strict = Client(enforce_csrf_checks=True)
    answer = post(strict, open_event, "Ana")
    assert answer.status_code == 403
    assert not Registration.objects.exists()


def test_sign_ups_from_one_address_are_rate_limited(client: Client, open_event, monkeypatch):
    monkeypatch.setattr(SignUpRateThrottle, "THROTTLE_RATES", {"sign_up": "2/min"})
    answers = [post(client, open_event, n) for n in ("Ana", "Ben", "Cleo")]
    assert [answer.status_code for answer in answers] == [200, 200, 429]
    # It says when to try again (it said "later"), and keeps what was typed.
    text = answers[-1].content.decode()
    assert "Too many sign-ups from here: try again in 1 minute. Nothing was saved." in text
    assert 'value="Cleo"' in text
    assert Registration.objects.count() == 2


def test_the_holder_checks_in_within_the_window_and_withdraws(client: Client, open_event):
    done = reg.registration_create(
        event_id=open_event.pk, display_name="Ana", email="ana@example.org"
    )
    reg.registration_approve(registration_id=done.registration.pk)
    url = f"/sign-up/{done.key}/"
    assert "Check in" in client.get(url).content.decode()
    client.post(f"{url}check-in/")
    done.registration.refresh_from_db()
    assert done.registration.checked_in_at is not None
    reg.sign_up_set(
        event=open_event, check_in=True, check_in_closes=timezone.now() - timedelta(seconds=1)
    )
    page = client.get(url).content.decode()
    assert "Checked in" in page
    assert 'action="' + url + 'check-in/"' not in page
    client.post(f"{url}withdraw/")
    done.registration.refresh_from_db()
    assert done.registration.status == "withdrawn"
    assert client.get("/sign-up/not-a-key/").status_code == 404


def test_the_holder_cannot_withdraw_from_a_closed_event(client: Client, open_event):
    """A finished event's sign-up no longer changes: the private page says so and offers no
    withdrawal, and one posted from a page left open is refused, nothing changed."""
    done = reg.registration_create(
        event_id=open_event.pk, display_name="Ana", email="ana@example.org"
    )
    url = f"/sign-up/{done.key}/"
    assert 'action="' + url + 'withdraw/"' in client.get(url).content.decode()
    Event.objects.filter(pk=open_event.pk).update(status="finished")
    page = client.get(url).content.decode()
    assert "Week 1 is finished: this sign-up no longer changes." in page
    assert 'action="' + url + 'withdraw/"' not in page
    refused = client.post(f"{url}withdraw/", follow=True).content.decode()
    assert "is finished: its sign-up takes no more changes." in refused
    done.registration.refresh_from_db()
    assert done.registration.status == "pending"


def test_a_closed_events_private_page_offers_no_check_in(client: Client, open_event):
    """docs/pages.md: once the event is closed the holder's page offers neither a withdrawal
    nor a check-in, which it offered while the event was open."""
    reg.sign_up_set(event=open_event, check_in=True)
    done = reg.registration_create(
        event_id=open_event.pk, display_name="Ana", email="ana@example.org"
    )
    reg.registration_approve(registration_id=done.registration.pk)
    url = f"/sign-up/{done.key}/"
    assert 'action="' + url + 'check-in/"' in client.get(url).content.decode()
    Event.objects.filter(pk=open_event.pk).update(status="finished")
    page = client.get(url).content.decode()
    assert 'action="' + url + 'check-in/"' not in page
    assert 'action="' + url + 'withdraw/"' not in page


@pytest.mark.parametrize(
    ("opens", "closes", "says", "never"),
    [
        (1, 2, "Check-in opens", "Check-in closed"),
        (None, -1, "Check-in closed", "Check-in opens"),
        (-2, -1, "Check-in closed", "Check-in opens"),
    ],
)
def test_the_private_page_says_whether_check_in_is_still_to_open_or_over(
    client: Client, open_event, opens, closes, says, never
):
    """Outside the check-in window the page says when it opens, or that it has closed: a
    window in the past read "Check-in opens <then> and closes <then>", and one with only a
    closing time "Check-in  and closes <then>"."""
    now = timezone.now()
    reg.sign_up_set(
        event=open_event,
        check_in=True,
        check_in_opens=None if opens is None else now + timedelta(hours=opens),
        check_in_closes=now + timedelta(hours=closes),
    )
    done = reg.registration_create(
        event_id=open_event.pk, display_name="Ana", email="ana@example.org"
    )
    reg.registration_approve(registration_id=done.registration.pk)
    page = client.get(f"/sign-up/{done.key}/").content.decode()
    assert says in page
    assert never not in page
    assert "Check-in  and" not in page
    assert "an organizer can check you in" in page
    assert 'action="/sign-up/' + done.key + '/check-in/"' not in page


def test_the_holders_check_in_takes_only_what_its_buttons_send(client: Client, open_event):
    """`present` is 1 (check in) or 0 (check out): anything else checked the holder in."""
    done = reg.registration_create(
        event_id=open_event.pk, display_name="Ana", email="ana@example.org"
    )
    reg.registration_approve(registration_id=done.registration.pk)
    url = f"/sign-up/{done.key}/"
    for junk in ("banana", "", "true", "01"):
        page = client.post(f"{url}check-in/", {"present": junk}, follow=True).content.decode()
        assert "Nothing changed: check in (present 1) or out (present 0)." in page
        done.registration.refresh_from_db()
        assert done.registration.checked_in_at is None
    client.post(f"{url}check-in/", {"present": "1"})
    done.registration.refresh_from_db()
    assert done.registration.checked_in_at is not None


def test_a_second_withdrawal_says_the_sign_up_is_withdrawn_already(client: Client, open_event):
    """A withdrawal sent again (a double tap, the back button) tells the holder their sign-up
    is withdrawn, in their words: it read "Ana's registration is withdrawn: it cannot be
    withdrawn."."""
    done = reg.registration_create(
        event_id=open_event.pk, display_name="Ana", email="ana@example.org"
    )
    url = f"/sign-up/{done.key}/"
    client.post(f"{url}withdraw/")
    page = client.post(f"{url}withdraw/", follow=True).content.decode()
    assert "Nothing changed: your sign-up is withdrawn." in page
    assert "registration is withdrawn" not in page
    checked = client.post(f"{url}check-in/", follow=True).content.decode()
    assert "Nothing changed: your sign-up is withdrawn." in checked
