"""Issue 38: players are told by email when their registration is received (added by the
organizers), approved, refused or moved up from the waiting list, when their event's check-in
opens and when their table is up. Each mail once, to the registration's address, with the
player's own link and an unsubscribe link; sent by a job once the change has committed,
retried when the mail server fails, never twice."""

import re
import smtplib
from datetime import timedelta
from typing import Any
from unittest import mock

import pytest
from celery.exceptions import Retry
from django.core import mail
from django.db import transaction
from django.test import Client
from django.utils import timezone

from games.models import Match
from league.models import Event, League, Registration
from league.services import registration as reg
from league.services import schedule, stages
from notifications import services, tasks
from notifications.models import Kind, Notification, Status, Unsubscribe
from tests.mailed import mailed_key

pytestmark = pytest.mark.django_db

UNSUBSCRIBE = re.compile(r"http://testserver(/notifications/unsubscribe/[^/\s]+/)")


def sign(event: Event, name: str, **kwargs: Any) -> reg.SignedUp:
    email = f"{name.lower()}@example.org"
    return reg.registration_create(event_id=event.pk, display_name=name, email=email, **kwargs)


def to(address: str) -> list[mail.EmailMessage]:
    return [message for message in mail.outbox if message.to == [address]]


def about(address: str, subject: str) -> list[mail.EmailMessage]:
    return [message for message in to(address) if subject in message.subject]


def unsubscribe_path(message: mail.EmailMessage) -> str:
    found = UNSUBSCRIBE.search(str(message.body))
    assert found is not None, message.body
    return found.group(1)


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """Run what waits for the commit (league's signals, then the notifications' jobs) as the
    block ends, as a real commit would."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


# --- Each news, once, to its player ------------------------------------------------------------


def test_an_approved_player_is_mailed_once_with_their_own_link_and_an_unsubscribe_link(
    yardzee_event, committed
):
    reg.sign_up_set(event=yardzee_event)
    with committed():  # the sign-up page, which mails the private link: the sign-up's receipt
        Client().post(
            f"/events/{yardzee_event.pk}/sign-up/",
            {"display_name": "Ana", "email": "ana@example.org"},
        )
    key = mailed_key("ana@example.org")
    ana = Registration.objects.get()
    with committed():
        reg.registration_approve(registration_id=ana.pk)
    [approved] = about("ana@example.org", "is confirmed")
    assert approved.subject == f"Your place in {yardzee_event.name} is confirmed"
    # The link the player already holds, not a new one: it still opens their sign-up.
    assert f"http://testserver/sign-up/{key}/" in approved.body
    assert reg.registration_by_key(key) == ana
    path = unsubscribe_path(approved)
    assert approved.extra_headers["List-Unsubscribe"] == f"<http://testserver{path}>"
    assert approved.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert "ana@example.org" not in path  # the address is never in a link
    row = Notification.objects.get()
    assert (row.kind, row.status, row.email, row.attempts) == (
        Kind.APPROVED,
        Status.SENT,
        "ana@example.org",
        1,
    )


def test_a_refusal_is_mailed_and_the_next_in_line_is_told_they_moved_up(yardzee_event, committed):
    reg.sign_up_set(event=yardzee_event, cap=1)
    with committed():
        ana = sign(yardzee_event, "Ana").registration
        sign(yardzee_event, "Ben")  # on the waiting list
    with committed():
        reg.registration_refuse(registration_id=ana.pk)
    [refused] = to("ana@example.org")
    assert refused.subject == f"Your sign-up for {yardzee_event.name}"
    assert "could not give your sign-up a place" in refused.body
    [moved] = about("ben@example.org", "moved up")
    assert "waits for the organizers' approval" in moved.body
    assert set(Notification.objects.values_list("kind", flat=True)) == {"refused", "moved_up"}


def test_a_sign_up_by_the_organizers_is_mailed_as_received_a_players_own_only_by_its_link(
    yardzee_event, committed
):
    reg.sign_up_set(event=yardzee_event)
    with committed():
        sign(yardzee_event, "Ana")
        added = sign(yardzee_event, "Ben", by_organizer=True)
        reg.registration_create(event_id=yardzee_event.pk, display_name="Cleo", by_organizer=True)
    # A player's own sign-up: its receipt is the mail with its link, which the page sends.
    assert to("ana@example.org") == []
    [received] = to("ben@example.org")
    assert received.subject == f"You are signed up for {yardzee_event.name}"
    assert f"/sign-up/{added.key}/" in received.body
    assert Notification.objects.count() == 1  # Cleo gave no address


def test_a_key_made_before_seeds_is_not_reissued_the_mail_says_how_to_get_a_new_one(
    yardzee_event, committed
):
    reg.sign_up_set(event=yardzee_event)
    ana = sign(yardzee_event, "Ana").registration
    Registration.objects.filter(pk=ana.pk).update(key_seed="")  # as an older registration
    hash_before = Registration.objects.get(pk=ana.pk).key_hash
    with committed():
        reg.registration_approve(registration_id=ana.pk)
    [approved] = about("ana@example.org", "is confirmed")
    assert "/sign-up/" not in approved.body.replace(f"/events/{yardzee_event.pk}/sign-up/", "")
    assert f"http://testserver/events/{yardzee_event.pk}/sign-up/" in approved.body
    assert "Lost it? Sign up again" in approved.body
    assert Registration.objects.get(pk=ana.pk).key_hash == hash_before


# --- Never twice, never for a change rolled back -------------------------------------------------


def test_the_job_run_again_or_the_news_sent_again_mails_nothing_more(yardzee_event, committed):
    reg.sign_up_set(event=yardzee_event)
    ana = sign(yardzee_event, "Ana").registration
    with committed():
        reg.registration_approve(registration_id=ana.pk)
    row = Notification.objects.get()
    sent = len(mail.outbox)
    assert services.notification_send(notification_id=row.pk) is None
    tasks.send.delay(row.pk)
    with committed():
        assert services.registration_news(registration_id=ana.pk, change="approved") is None
    services.notifications_sweep(now=timezone.now() + timedelta(hours=1))
    assert len(mail.outbox) == sent
    assert Notification.objects.count() == 1


def test_a_notification_being_sent_is_not_claimed_again(yardzee_event, committed):
    reg.sign_up_set(event=yardzee_event)
    ana = sign(yardzee_event, "Ana").registration
    with mock.patch("notifications.services.enqueue_on_commit"), committed():
        reg.registration_approve(registration_id=ana.pk)
    row = Notification.objects.get()
    Notification.objects.filter(pk=row.pk).update(status=Status.SENDING)  # a worker died mid-send
    services.notifications_sweep(now=timezone.now() + timedelta(hours=1))
    services.notification_send(notification_id=row.pk)
    assert about("ana@example.org", "is confirmed") == []


@pytest.mark.django_db(transaction=True)
def test_nothing_is_mailed_when_the_change_rolls_back(yardzee_event):
    reg.sign_up_set(event=yardzee_event)
    ana = sign(yardzee_event, "Ana").registration
    mail.outbox.clear()

    def approved_then_failed() -> None:
        with transaction.atomic():
            reg.registration_approve(registration_id=ana.pk)
            raise RuntimeError("the request failed after the approval")

    with pytest.raises(RuntimeError):
        approved_then_failed()
    assert mail.outbox == []
    assert not Notification.objects.exists()
    reg.registration_approve(registration_id=ana.pk)  # committed: mailed by its job
    assert [m.subject for m in mail.outbox] == [f"Your place in {yardzee_event.name} is confirmed"]


# --- Retried when the mail server fails ----------------------------------------------------------


def test_a_send_the_mail_server_refused_is_tried_again_and_sent_once(yardzee_event, committed):
    reg.sign_up_set(event=yardzee_event)
    ana = sign(yardzee_event, "Ana").registration
    refused = smtplib.SMTPServerDisconnected("Connection unexpectedly closed")
    with mock.patch("django.core.mail.EmailMessage.send", side_effect=refused), committed():
        reg.registration_approve(registration_id=ana.pk)
    row = Notification.objects.get()
    assert (row.status, row.attempts) == (Status.PENDING, 1)
    assert row.last_error == "SMTPServerDisconnected: Connection unexpectedly closed"
    assert row.next_attempt_at is not None
    # Not before its retry is due; then by beat's sweep (no broker here), once.
    services.notifications_sweep()
    tasks.send.delay(row.pk)
    assert about("ana@example.org", "is confirmed") == []
    due = timezone.now() - timedelta(seconds=2)
    Notification.objects.filter(pk=row.pk).update(next_attempt_at=due)  # the wait is over
    services.notifications_sweep()
    services.notifications_sweep()
    assert len(about("ana@example.org", "is confirmed")) == 1
    row.refresh_from_db()
    assert (row.status, row.attempts, row.last_error) == (Status.SENT, 2, "")


def test_a_failed_send_on_a_worker_is_retried_by_its_job_then_given_up(
    yardzee_event, committed, settings
):
    settings.NOTIFY_RETRY_SECONDS = [30.0]
    reg.sign_up_set(event=yardzee_event)
    ana = sign(yardzee_event, "Ana").registration
    with mock.patch("notifications.services.enqueue_on_commit"), committed():
        reg.registration_approve(registration_id=ana.pk)
    row = Notification.objects.get()
    with mock.patch("django.core.mail.EmailMessage.send", side_effect=smtplib.SMTPException):
        with pytest.raises(Retry):  # as a worker runs it (not in-process): retried in 30 s
            tasks.send.run(row.pk)
        later = timezone.now() + timedelta(seconds=31)
        assert services.notification_send(notification_id=row.pk, now=later) is None
    row.refresh_from_db()
    assert (row.status, row.attempts) == (Status.FAILED, 2)
    assert about("ana@example.org", "is confirmed") == []


# --- Unsubscribing -------------------------------------------------------------------------------


def test_after_unsubscribing_from_a_league_its_mail_stops_and_other_leagues_still_write(
    yardzee_event, committed
):
    other = League.objects.create(name="Yardkle Nights", slug="nights", game="yardkle")
    other_event = Event.objects.create(league=other, name="Night 1", date="2026-08-01")
    for event in (yardzee_event, other_event):
        reg.sign_up_set(event=event)
    ana = sign(yardzee_event, "Ana", by_organizer=True).registration
    again = sign(other_event, "Ana", by_organizer=True).registration
    with committed():
        reg.registration_approve(registration_id=ana.pk)
    path = unsubscribe_path(about("ana@example.org", "is confirmed")[0])
    page = Client().get(path)
    assert page.status_code == 200
    assert page["Cache-Control"] == "private, no-store"
    assert "Stop the mails" in page.content.decode()
    assert not Unsubscribe.objects.exists()  # opening the link alone changes nothing
    done = Client(enforce_csrf_checks=True).post(path, {"scope": "league"})
    assert "no more mail from Backyard Yardzee" in done.content.decode()
    assert list(Unsubscribe.objects.values_list("email", "league")) == [
        ("ana@example.org", yardzee_event.league_id)
    ]
    mail.outbox.clear()
    with committed():
        reg.sign_up_set(event=yardzee_event, check_in=True)  # open at once
    with committed():
        assert reg.check_in_sweep() == 1
        reg.registration_approve(registration_id=again.pk, new_player=True)
    assert [m.subject for m in to("ana@example.org")] == ["Your place in Night 1 is confirmed"]
    skipped = Notification.objects.get(kind=Kind.CHECK_IN_OPENED)
    assert (skipped.status, skipped.last_error) == (Status.SKIPPED, "unsubscribed")


def test_one_click_unsubscribe_and_every_league(yardzee_event, committed):
    reg.sign_up_set(event=yardzee_event, cap=1)
    with committed():
        ana = sign(yardzee_event, "Ana").registration
        sign(yardzee_event, "Ben")
    with committed():
        reg.registration_refuse(registration_id=ana.pk)
    path = unsubscribe_path(about("ben@example.org", "moved up")[0])
    # A mail client's own button: RFC 8058's body, no CSRF token.
    answer = Client(enforce_csrf_checks=True).post(path, {"List-Unsubscribe": "One-Click"})
    assert answer.status_code == 200
    Client().post(path, {"scope": "all"})
    Client().post(path, {"scope": "all"})  # twice: stored once
    assert sorted(Unsubscribe.objects.values_list("league", flat=True), key=str) == [
        yardzee_event.league_id,
        None,
    ]
    assert services.unsubscribed("BEN@example.org", league_id=12345)
    assert Client().get("/notifications/unsubscribe/not-a-token/").status_code == 404


def test_a_notification_for_an_unsubscribed_address_is_kept_unsent(yardzee_event, committed):
    reg.sign_up_set(event=yardzee_event)
    ana = sign(yardzee_event, "Ana").registration
    services.unsubscribe(email="Ana@Example.org", league_id=None)
    with committed():
        reg.registration_approve(registration_id=ana.pk)
    row = Notification.objects.get()
    assert (row.status, row.last_error) == (Status.SKIPPED, "unsubscribed")
    assert about("ana@example.org", "is confirmed") == []


# --- Check-in opens ------------------------------------------------------------------------------


def confirmed(event: Event, *names: str) -> list[Registration]:
    rows = [sign(event, name).registration for name in names]
    return [reg.registration_approve(registration_id=row.pk) for row in rows]


def test_check_in_opening_is_announced_once_to_the_confirmed_players(yardzee_event, committed):
    now = timezone.now()
    opens = now + timedelta(hours=1)
    reg.sign_up_set(
        event=yardzee_event,
        check_in=True,
        check_in_opens=opens,
        check_in_closes=now + timedelta(hours=3),
    )
    confirmed(yardzee_event, "Ana", "Ben")
    sign(yardzee_event, "Cleo")  # not confirmed: not told
    mail.outbox.clear()
    with committed():
        assert reg.check_in_sweep(now=now) == 0  # not open yet
    assert mail.outbox == []
    with committed():
        assert reg.check_in_sweep(now=opens + timedelta(seconds=5)) == 1
    with committed():
        assert reg.check_in_sweep(now=opens + timedelta(minutes=1)) == 0  # once
    [to_ana] = to("ana@example.org")
    assert to_ana.subject == f"Check-in for {yardzee_event.name} is open"
    assert "check in from your sign-up's own page" in to_ana.body
    assert len(to("ben@example.org")) == 1
    assert to("cleo@example.org") == []
    # Its opening moved later: announced again when it opens then.
    with committed():
        reg.sign_up_set(
            event=yardzee_event, check_in=True, check_in_opens=opens + timedelta(hours=1)
        )
    with committed():
        assert reg.check_in_sweep(now=opens + timedelta(hours=1, seconds=5)) == 1
    assert len(to("ana@example.org")) == 2


def test_a_player_confirmed_once_check_in_is_open_is_told_so_by_the_approval(
    yardzee_event, committed
):
    reg.sign_up_set(
        event=yardzee_event, check_in=True, check_in_opens=timezone.now() + timedelta(hours=1)
    )
    with committed():
        confirmed(yardzee_event, "Ana")
    reg.sign_up_set(event=yardzee_event, check_in=True)  # open now
    with committed():
        assert reg.check_in_sweep() == 1
    with committed():
        confirmed(yardzee_event, "Ben")  # after the announcement
    assert "Check-in is open now" not in about("ana@example.org", "is confirmed")[0].body
    assert about("ana@example.org", "Check-in for")
    assert "Check-in is open now" in about("ben@example.org", "is confirmed")[0].body
    assert about("ben@example.org", "Check-in for") == []


# --- The table is up -----------------------------------------------------------------------------


def test_players_are_told_their_table_is_ready_when_seated_then_when_it_starts_soon(
    yardzee_event, committed
):
    reg.sign_up_set(event=yardzee_event)
    rows = confirmed(yardzee_event, "Ana", "Ben")
    mail.outbox.clear()
    stage = stages.stage_create(
        event_id=yardzee_event.pk,
        name="Final",
        format="round_robin",
        player_ids=[row.player_id for row in rows],
    )
    with committed():
        stages.stage_start(stage_id=stage.pk)
    match = Match.objects.get(stage_match__stage=stage)
    [ready] = to("ana@example.org")
    assert ready.subject == f"Your table in {yardzee_event.name} is ready"
    assert "Against: Ben" in ready.body
    assert f"http://testserver/matches/{match.pk}/" in ready.body
    assert len(to("ben@example.org")) == 1
    start = timezone.now() + timedelta(minutes=40)
    schedule.match_schedule(match_id=match.pk, table_label="Table 3", planned_at=start)
    with committed():
        assert services.tables_soon(now=start - timedelta(minutes=30)) == 0  # not soon yet
        assert services.tables_soon(now=start - timedelta(minutes=14)) == 2
        assert services.tables_soon(now=start - timedelta(minutes=10)) == 0  # once
    soon = about("ana@example.org", "starts soon")
    assert len(soon) == 1
    assert "Table: Table 3" in soon[0].body
    assert "Start: " in soon[0].body
    assert len(about("ben@example.org", "starts soon")) == 1
