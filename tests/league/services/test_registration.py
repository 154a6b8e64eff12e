"""Issue 21, items 1 and 2: sign-up (a deadline, a cap and its waiting list, the organizers'
approval linking a registration to the player it matches, never merging behind anyone's back)
and check-in (a stage started seats only the players checked in, and says who was dropped)."""

import threading
import time
from datetime import datetime, timedelta

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from league.errors import LeagueError
from league.models import Event, League, Player, Registration, RegistrationStatus, StageEntry
from league.services import registration as reg
from league.services import stages
from league.services.organization import NewPlayer, event_close, player_merge, players_create
from league.services.registration import decisions
from scoring.errors import DomainError

pytestmark = pytest.mark.django_db


def sign(event: Event, name: str, email: str = "", handle: str = "", **kw: object) -> Registration:
    email = email or f"{name.lower().replace(' ', '.')}@example.org"
    return reg.registration_create(
        event_id=event.pk,
        display_name=name,
        email=email,
        handle=handle,
        **kw,  # type: ignore[arg-type]
    ).registration


def code_of(call: object, *args: object, **kwargs: object) -> str:
    with pytest.raises(DomainError) as caught:
        call(*args, **kwargs)  # type: ignore[operator]
    return caught.value.code


def status_of(registration: Registration) -> str:
    registration.refresh_from_db()
    return registration.status


# --- Sign-up: open, deadline, cap, duplicates ---------------------------------------------------


def test_an_event_without_a_sign_up_takes_no_sign_ups(yardzee_event):
    assert code_of(sign, yardzee_event, "Ana") == "registration_closed"
    assert not Registration.objects.exists()


def test_sign_up_closes_at_its_deadline_and_when_closed_or_the_event_is(yardzee_event):
    deadline = timezone.now() + timedelta(hours=1)
    reg.sign_up_set(event=yardzee_event, deadline=deadline)
    assert sign(yardzee_event, "Ana").status == RegistrationStatus.PENDING
    late = deadline + timedelta(seconds=1)
    assert code_of(sign, yardzee_event, "Ben", now=late) == "registration_closed"
    reg.sign_up_set(event=yardzee_event, open=False)
    assert code_of(sign, yardzee_event, "Cleo") == "registration_closed"
    reg.sign_up_set(event=yardzee_event)
    event_close(event_id=yardzee_event.pk, status="cancelled")
    assert code_of(sign, yardzee_event, "Dev") == "registration_closed"
    assert list(Registration.objects.values_list("display_name", flat=True)) == ["Ana"]


def test_a_refused_sign_up_says_why_the_event_takes_none(yardzee_event):
    def said(now: datetime | None = None) -> str:
        with pytest.raises(DomainError) as caught:
            sign(yardzee_event, "Ana", now=now)
        return caught.value.message

    name = yardzee_event.name
    assert said() == f"{name} takes no sign-ups now: it has no sign-up."
    deadline = timezone.now() + timedelta(hours=1)
    reg.sign_up_set(event=yardzee_event, deadline=deadline)
    late = deadline + timedelta(seconds=1)
    assert said(now=late) == f"{name} takes no sign-ups now: the deadline has passed."
    reg.sign_up_set(event=yardzee_event, open=False)
    assert said() == f"{name} takes no sign-ups now: the sign-up is closed."
    reg.sign_up_set(event=yardzee_event)
    event_close(event_id=yardzee_event.pk, status="cancelled")
    assert said() == f"{name} takes no sign-ups now: {name} is cancelled."


def test_an_email_signs_up_once_per_event_and_a_player_is_told_nothing_of_it(yardzee_event):
    """A player's second sign-up with one email is their registration again, with a new key
    (issue 37, item 4: nothing tells them what was on file); a look-alike name is the
    organizers' to tell apart. An organizer adding players is refused both, as before."""
    reg.sign_up_set(event=yardzee_event)

    def signed(name: str, email: str) -> reg.SignedUp:
        return reg.registration_create(event_id=yardzee_event.pk, display_name=name, email=email)

    first = signed("Ana", "ana@example.org")
    again = signed("Anna", "ANA@example.org")
    assert again.already
    assert again.registration.pk == first.registration.pk
    assert again.key != first.key
    assert reg.registration_by_key(first.key) is None
    full_width = "\uff21\uff2e\uff21"  # "ANA" in full-width letters
    assert not signed(full_width, "o@example.org").already
    assert Registration.objects.count() == 2
    by_organizer = {"by_organizer": True, "event_id": yardzee_event.pk}
    with pytest.raises(DomainError) as caught:
        reg.registration_create(display_name="Other", email="ana@example.org", **by_organizer)
    assert caught.value.code == "already_registered"
    with pytest.raises(DomainError) as caught:
        reg.registration_create(display_name="ANA", email="", **by_organizer)
    assert caught.value.code == "already_registered"


def test_bad_names_emails_and_handles_are_refused_by_the_names_rules(yardzee_event):
    reg.sign_up_set(event=yardzee_event)
    assert code_of(sign, yardzee_event, "Ana\u202e") == "invalid_name"
    assert code_of(sign, yardzee_event, "   ") == "invalid_name"
    assert code_of(sign, yardzee_event, "x" * 81) == "invalid_name"
    assert code_of(sign, yardzee_event, "Ana", "not-an-email") == "invalid_email"
    assert code_of(sign, yardzee_event, "Ana", handle="no spaces") == "invalid_handle"
    with pytest.raises(LeagueError) as caught:
        reg.registration_create(event_id=yardzee_event.pk, display_name="Ana", email="")
    assert caught.value.code == "invalid_email"
    assert not Registration.objects.exists()


@pytest.mark.parametrize("handle", ["no spaces", "Has Space", "x" * 41, "y" * 100_000])
def test_a_bad_handle_is_refused_in_the_same_words_as_on_the_roster(yardzee_event, handle):
    reg.sign_up_set(event=yardzee_event)
    with pytest.raises(LeagueError) as signing_up:
        sign(yardzee_event, "Ana", handle=handle)
    with pytest.raises(LeagueError) as adding:
        players_create(league=yardzee_event.league, players=[NewPlayer(1, "Ana", handle)])
    (row,) = adding.value.details["rows"]
    assert (signing_up.value.code, row["code"]) == ("invalid_handle", "invalid_handle")
    assert signing_up.value.message == row["message"]
    assert "letters, digits, hyphens and underscores only, at most 40" in row["message"]
    assert handle[:20] in row["message"]  # quoted as written (not lowercased), cut short
    assert len(row["message"]) < 200


def test_beyond_the_cap_sign_ups_wait_and_move_up_in_order_when_a_place_frees(yardzee_event):
    reg.sign_up_set(event=yardzee_event, cap=2)
    ana, ben = sign(yardzee_event, "Ana"), sign(yardzee_event, "Ben")
    cleo, dev, eli = (sign(yardzee_event, n) for n in ("Cleo", "Dev", "Eli"))
    assert [status_of(r) for r in (ana, ben, cleo, dev, eli)] == [
        "pending",
        "pending",
        "waiting",
        "waiting",
        "waiting",
    ]
    assert [reg.waiting_position(r) for r in (cleo, dev, eli)] == [1, 2, 3]
    reg.registration_approve(registration_id=ana.pk)
    reg.registration_refuse(registration_id=ben.pk)  # a refusal frees Ben's place: Cleo's
    assert [status_of(r) for r in (cleo, dev, eli)] == ["pending", "waiting", "waiting"]
    reg.registration_withdraw(registration_id=ana.pk)  # a confirmed player leaving: Dev's
    assert [status_of(r) for r in (dev, eli)] == ["pending", "waiting"]
    assert reg.waiting_position(eli) == 1
    reg.sign_up_set(event=yardzee_event, cap=3)  # a raised cap moves the line up too
    assert status_of(eli) == "pending"


def test_refusing_someone_waiting_frees_no_place(yardzee_event):
    reg.sign_up_set(event=yardzee_event, cap=1)
    ana, ben, cleo = (sign(yardzee_event, n) for n in ("Ana", "Ben", "Cleo"))
    reg.registration_refuse(registration_id=ben.pk)
    assert [status_of(r) for r in (ana, ben, cleo)] == ["pending", "refused", "waiting"]
    assert code_of(reg.registration_approve, registration_id=cleo.pk) == "on_waiting_list"
    assert code_of(reg.registration_approve, registration_id=ben.pk) == "registration_decided"


def test_a_closed_event_takes_no_decision_on_any_registration(yardzee_event):
    """Every organizer's action on a sign-up, and the holder's withdrawal, is `event_closed`
    once the event is finished or cancelled, as approving and checking in always were: a
    refusal or a withdrawal then would move the waiting list up in an event that is over."""
    reg.sign_up_set(event=yardzee_event, cap=2, check_in=True)
    ana, ben, cleo = (sign(yardzee_event, n) for n in ("Ana", "Ben", "Cleo"))
    reg.registration_approve(registration_id=ana.pk)
    event_close(event_id=yardzee_event.pk, status="finished")
    yardzee_event.refresh_from_db()
    actions = {
        "approve": lambda: reg.registration_approve(registration_id=ben.pk),
        "refuse a pending one": lambda: reg.registration_refuse(registration_id=ben.pk),
        "refuse a waiting one": lambda: reg.registration_refuse(registration_id=cleo.pk),
        "withdraw": lambda: reg.registration_withdraw(registration_id=ana.pk),
        "check in": lambda: reg.registration_check_in(registration_id=ana.pk),
        "the sign-up's settings": lambda: reg.sign_up_set(event=yardzee_event, cap=5),
        "add a player": lambda: reg.registration_create(
            event_id=yardzee_event.pk, display_name="Dev", by_organizer=True
        ),
    }
    assert {what: code_of(act) for what, act in actions.items()} == dict.fromkeys(
        actions, "event_closed"
    )
    assert [status_of(r) for r in (ana, ben, cleo)] == ["confirmed", "pending", "waiting"]
    assert Registration.objects.filter(event=yardzee_event).count() == 3


def test_organizers_add_players_after_the_deadline_and_without_an_email(yardzee_event):
    reg.sign_up_set(event=yardzee_event, deadline=timezone.now() - timedelta(days=1))
    added = reg.registration_create(
        event_id=yardzee_event.pk, display_name="Walk-in", by_organizer=True
    ).registration
    assert (added.status, added.email, added.by_organizer) == ("pending", "", True)


def test_the_key_opens_the_registration_and_is_kept_hashed(yardzee_event):
    reg.sign_up_set(event=yardzee_event)
    done = reg.registration_create(
        event_id=yardzee_event.pk, display_name="Ana", email="ana@example.org"
    )
    assert reg.registration_by_key(done.key) == done.registration
    assert done.key not in done.registration.key_hash
    assert reg.registration_by_key("wrong") is None


# --- Approval: the same player next time, never merged behind anyone's back ----------------------


def test_a_first_registration_approved_makes_a_new_player_on_the_roster(yardzee_event):
    reg.sign_up_set(event=yardzee_event)
    ana = sign(yardzee_event, "Ana Lima", handle="ana")
    confirmed = reg.registration_approve(registration_id=ana.pk)
    assert confirmed.status == "confirmed"
    assert confirmed.player is not None
    assert (confirmed.player.display_name, confirmed.player.handle) == ("Ana Lima", "ana")
    assert yardzee_event.league.players.filter(pk=confirmed.player.pk).exists()


def test_a_player_confirmed_before_is_matched_by_email_and_linked_only_when_chosen(
    yardzee_event, organizer
):
    reg.sign_up_set(event=yardzee_event)
    first = reg.registration_approve(
        registration_id=sign(yardzee_event, "Ana", "ana@example.org").pk
    )
    other_league = League.objects.create(name="Lawn", slug="lawn", game="yardzee")
    next_event = Event.objects.create(league=other_league, name="Cup", date="2026-09-01")
    reg.sign_up_set(event=next_event)
    again = sign(next_event, "Ana L.", "Ana@Example.org")
    candidates = reg.registration_candidates(again)
    assert [(c.player, c.by) for c in candidates] == [(first.player, ("email",))]
    with pytest.raises(DomainError) as caught:
        reg.registration_approve(registration_id=again.pk)
    assert caught.value.code == "player_match"
    assert caught.value.details["candidates"][0]["player"] == first.player_id
    assert status_of(again) == "pending"  # nothing decided, nothing merged
    linked = reg.registration_approve(registration_id=again.pk, player_id=first.player_id)
    assert linked.player_id == first.player_id
    assert other_league.players.filter(pk=first.player_id).exists()
    assert Player.objects.count() == 1


def test_a_match_by_handle_may_be_made_a_new_player_instead(yardzee_event):
    reg.sign_up_set(event=yardzee_event)
    existing = Player.objects.create(display_name="Sam Doe", handle="sam")
    sam = sign(yardzee_event, "Sam Roe", handle="sam")
    assert [c.by for c in reg.registration_candidates(sam)] == [("handle",)]
    made = reg.registration_approve(registration_id=sam.pk, new_player=True)
    assert made.player is not None
    assert made.player.pk != existing.pk
    assert made.player.handle == "sam-roe"  # "sam" is the other player's
    assert Player.objects.count() == 2


def test_the_candidates_offered_are_those_the_approver_may_link(
    yardzee_event, organizer, other_organizer, staff
):
    """`registration_candidates(by=...)` and `player_match` follow the rule that refuses a
    link (`linkable`): a player on another league's roster whose organizers `by` is not among
    is left out; one on no roster, or on this one, is offered; staff are offered all."""
    reg.sign_up_set(event=yardzee_event)
    theirs = Player.objects.create(display_name="Sam Doe", handle="sam")
    League.objects.get(slug="elsewhere").players.add(theirs)
    loose = Player.objects.create(display_name="Sam Loose", handle="sam-l")
    sam = sign(yardzee_event, "Sam", handle="sam")
    loner = sign(yardzee_event, "Sam L", handle="sam-l")
    assert [c.player for c in reg.registration_candidates(sam)] == [theirs]
    assert reg.registration_candidates(sam, by=organizer) == []
    assert [c.player for c in reg.registration_candidates(sam, by=staff)] == [theirs]
    assert [c.player for c in reg.registration_candidates(loner, by=organizer)] == [loose]
    assert reg.linkable(yardzee_event.league, organizer, [theirs.pk, loose.pk]) == {loose.pk}
    with pytest.raises(DomainError) as caught:
        reg.registration_approve(registration_id=loner.pk, by=organizer)
    assert caught.value.code == "player_match"
    assert [c["player"] for c in caught.value.details["candidates"]] == [loose.pk]
    made = reg.registration_approve(registration_id=sam.pk, by=organizer)  # no one to offer
    assert made.player_id not in (None, theirs.pk)


def test_linking_to_a_player_neither_matched_nor_on_the_roster_is_refused(yardzee_event):
    reg.sign_up_set(event=yardzee_event)
    stranger = Player.objects.create(display_name="Stranger", handle="stranger")
    ana = sign(yardzee_event, "Ana")
    assert (
        code_of(reg.registration_approve, registration_id=ana.pk, player_id=stranger.pk)
        == "unknown_player"
    )
    assert status_of(ana) == "pending"


def test_a_player_is_confirmed_once_per_event(yardzee_event):
    reg.sign_up_set(event=yardzee_event)
    ana = reg.registration_approve(registration_id=sign(yardzee_event, "Ana", "a@x.org").pk)
    twin = sign(yardzee_event, "Ana Two", "a2@x.org")
    assert (
        code_of(reg.registration_approve, registration_id=twin.pk, player_id=ana.player_id)
        == "already_registered"
    )


def test_linking_to_a_player_on_the_roster_looks_for_no_matches(yardzee_event, monkeypatch):
    reg.sign_up_set(event=yardzee_event)
    regular = Player.objects.create(display_name="Ana Lima", handle="ana-lima")
    yardzee_event.league.players.add(regular)
    ana = sign(yardzee_event, "Ana")

    def no_candidates(registration: Registration) -> list[reg.Candidate]:
        raise AssertionError("the candidates of a registration linked to a roster player")

    # Patched where `registration_approve` looks it up.
    monkeypatch.setattr(decisions, "registration_candidates", no_candidates)
    linked = reg.registration_approve(registration_id=ana.pk, player_id=regular.pk)
    assert linked.player_id == regular.pk


def _handle_queries(call: object, **kwargs: object) -> int:
    """The queries a call makes that look players up by handle."""
    with CaptureQueriesContext(connection) as caught:
        call(**kwargs)  # type: ignore[operator]
    wheres = [q["sql"].partition(" WHERE ")[2] for q in caught.captured_queries]
    return sum('"league_player"."handle"' in where for where in wheres)


def test_a_new_players_handle_takes_one_query_taken_or_not(yardzee_event):
    reg.sign_up_set(event=yardzee_event)
    Player.objects.create(display_name="Someone", handle="sam")
    free = sign(yardzee_event, "Ana", handle="ana")
    taken = sign(yardzee_event, "Sam Roe", handle="sam")
    for registration in (free, taken):
        approve = {"registration_id": registration.pk, "new_player": True}
        assert _handle_queries(reg.registration_approve, **approve) == 1
    assert list(Player.objects.order_by("pk").values_list("handle", flat=True)) == [
        "sam",
        "ana",
        "sam-roe",
    ]


def test_merging_two_players_moves_their_registrations(yardzee_event):
    reg.sign_up_set(event=yardzee_event)
    ana = reg.registration_approve(registration_id=sign(yardzee_event, "Ana").pk)
    duplicate = Player.objects.create(display_name="Ana B", handle="ana-b")
    yardzee_event.league.players.add(duplicate)
    assert ana.player is not None
    player_merge(league=yardzee_event.league, keep=duplicate, remove=ana.player, by=None)
    ana.refresh_from_db()
    assert ana.player_id == duplicate.pk


# --- Check-in ------------------------------------------------------------------------------------


def confirmed(event: Event, *names: str) -> list[Registration]:
    return [reg.registration_approve(registration_id=sign(event, n).pk) for n in names]


def test_players_check_in_only_within_the_window_organizers_any_time(yardzee_event):
    now = timezone.now()
    reg.sign_up_set(
        event=yardzee_event,
        check_in=True,
        check_in_opens=now + timedelta(hours=1),
        check_in_closes=now + timedelta(hours=2),
    )
    (ana,) = confirmed(yardzee_event, "Ana")
    assert (
        code_of(reg.registration_check_in, registration_id=ana.pk, by_player=True, now=now)
        == "check_in_closed"
    )
    inside = now + timedelta(minutes=90)
    done = reg.registration_check_in(registration_id=ana.pk, by_player=True, now=inside)
    assert done.checked_in_at == inside
    reg.registration_check_in(registration_id=ana.pk, present=False)
    ana.refresh_from_db()
    assert ana.checked_in_at is None


def test_check_in_needs_an_event_using_it_and_a_confirmed_player(yardzee_event):
    reg.sign_up_set(event=yardzee_event)
    (ana,) = confirmed(yardzee_event, "Ana")
    assert code_of(reg.registration_check_in, registration_id=ana.pk) == "check_in_off"
    reg.sign_up_set(event=yardzee_event, check_in=True)
    ben = sign(yardzee_event, "Ben")
    assert code_of(reg.registration_check_in, registration_id=ben.pk) == "registration_decided"


def test_a_stage_started_seats_only_the_players_checked_in_and_keeps_who_was_dropped(
    yardzee_event,
):
    reg.sign_up_set(event=yardzee_event, check_in=True)
    rows = confirmed(yardzee_event, "Ana", "Ben", "Cleo", "Dev", "Eli")
    for row in rows[:3] + rows[4:]:
        reg.registration_check_in(registration_id=row.pk)
    ids = [row.player_id for row in rows]
    walk_in = Player.objects.create(display_name="Walk-in", handle="walk-in")
    yardzee_event.league.players.add(walk_in)  # on the stage, never signed up nor checked in
    stage = stages.stage_create(
        event_id=yardzee_event.pk,
        name="Pool",
        format="round_robin",
        player_ids=[*ids, walk_in.pk],
    )
    started = stages.stage_start(stage_id=stage.pk)
    assert started.dropped == [ids[3], walk_in.pk]
    entries = list(StageEntry.objects.filter(stage=stage).order_by("seed"))
    assert [(e.player_id, e.seed) for e in entries] == [
        (ids[0], 1),
        (ids[1], 2),
        (ids[2], 3),
        (ids[4], 4),
    ]
    seated = {s.player_id for m in started.stage_matches.all() for s in m.match.seats.all()}
    assert seated == {ids[0], ids[1], ids[2], ids[4]}


@pytest.mark.parametrize("players", [6, 12])
def test_the_players_checked_in_are_seeded_again_in_two_statements(yardzee_event, players):
    """Absent at seeds 1 and 4: every seed after moves up, in two UPDATEs however many (the
    seeds stay unique per stage all the while)."""
    reg.sign_up_set(event=yardzee_event, check_in=True)
    rows = confirmed(yardzee_event, *(f"Player {n}" for n in range(1, players + 1)))
    present = [row for seed, row in enumerate(rows, start=1) if seed not in (1, 4)]
    for row in present:
        reg.registration_check_in(registration_id=row.pk)
    stage = stages.stage_create(
        event_id=yardzee_event.pk,
        name="Pool",
        format="round_robin",
        player_ids=[row.player_id for row in rows],
    )
    with CaptureQueriesContext(connection) as caught:
        dropped = reg.absent_dropped(stage)
    assert dropped == [rows[0].player_id, rows[3].player_id]
    updates = [q["sql"] for q in caught.captured_queries if q["sql"].startswith("UPDATE")]
    assert sum('"league_stageentry"' in sql for sql in updates) == 2
    entries = StageEntry.objects.filter(stage=stage).order_by("seed")
    assert [(e.player_id, e.seed) for e in entries] == [
        (row.player_id, seed) for seed, row in enumerate(present, start=1)
    ]


def test_too_few_checked_in_refuses_the_start_and_changes_nothing(yardzee_event):
    reg.sign_up_set(event=yardzee_event, check_in=True)
    rows = confirmed(yardzee_event, "Ana", "Ben", "Cleo")
    reg.registration_check_in(registration_id=rows[0].pk)
    stage = stages.stage_create(
        event_id=yardzee_event.pk,
        name="Pool",
        format="round_robin",
        player_ids=[row.player_id for row in rows],
    )
    with pytest.raises(DomainError) as refused:
        stages.stage_start(stage_id=stage.pk)
    # The draw's reason alone ("needs at least two participants") contradicts the three the
    # stage lists: the sentence says first that only one is checked in, and who would go.
    assert refused.value.code == "too_few_players"
    assert refused.value.message.startswith(
        "Only 1 of the 3 players entered is checked in, and a stage starts with those checked "
        "in: A stage needs at least two participants."
    )
    assert refused.value.details["dropped"] == [rows[1].player_id, rows[2].player_id]
    assert StageEntry.objects.filter(stage=stage).count() == 3
    stage.refresh_from_db()
    assert (stage.status, stage.dropped) == ("draft", [])
    reg.registration_check_in(registration_id=rows[0].pk, present=False)
    with pytest.raises(DomainError) as refused:
        stages.stage_start(stage_id=stage.pk)
    assert refused.value.message.startswith("None of the 3 players entered is checked in")


def test_an_event_without_check_in_seats_every_entrant_as_before(yardzee_event):
    reg.sign_up_set(event=yardzee_event)  # sign-up, but no check-in
    rows = confirmed(yardzee_event, "Ana", "Ben", "Cleo")
    stage = stages.stage_create(
        event_id=yardzee_event.pk,
        name="Pool",
        format="round_robin",
        player_ids=[row.player_id for row in rows],
    )
    assert stages.stage_start(stage_id=stage.pk).dropped == []
    assert StageEntry.objects.filter(stage=stage).count() == 3


# --- Two sign-ups at once --------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_the_last_place_goes_to_one_of_two_sign_ups_sent_at_once(yardzee_event):
    """The sign-up's row is locked while places are counted: a second sign-up waits for the
    first to commit, sees its place taken, and joins the waiting list."""
    reg.sign_up_set(event=yardzee_event, cap=1)
    first_holds_the_lock = threading.Event()
    let_first_commit = threading.Event()
    statuses: dict[str, str] = {}
    errors: list[BaseException] = []

    def first() -> None:
        try:
            with transaction.atomic():
                statuses["first"] = sign(yardzee_event, "Ana").status
                first_holds_the_lock.set()
                let_first_commit.wait(10)
        except BaseException as error:
            errors.append(error)
        finally:
            connection.close()

    def second() -> None:
        try:
            first_holds_the_lock.wait(10)
            statuses["second"] = sign(yardzee_event, "Ben").status
        except BaseException as error:
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    first_holds_the_lock.wait(10)
    time.sleep(0.5)  # the second is now blocked on the lock (without it, it would be done)
    assert "second" not in statuses
    let_first_commit.set()
    for thread in threads:
        thread.join(20)
    assert errors == []
    assert statuses == {"first": "pending", "second": "waiting"}


# --- The private link, derived again for a mail (docs/notifications.md, "Every mail") ----------


def test_a_registrations_link_is_derived_again_from_its_seed_never_stored_nor_reissued(
    yardzee_event, settings
):
    reg.sign_up_set(event=yardzee_event)
    done = reg.registration_create(
        event_id=yardzee_event.pk, display_name="Ana", email="ana@example.org"
    )
    row = Registration.objects.get(pk=done.registration.pk)
    assert reg.link_key(row) == done.key
    assert done.key not in (row.key_hash, row.key_seed)
    again = reg.registration_create(
        event_id=yardzee_event.pk, display_name="Ana", email="ana@example.org"
    )
    row.refresh_from_db()
    assert again.already
    assert reg.link_key(row) == again.key != done.key
    assert reg.registration_by_key(done.key) is None
    settings.SECRET_KEY = "another-secret-key-" + "x" * 40  # rotated: the link no longer derives
    assert reg.link_key(row) is None
    assert reg.registration_by_key(again.key) == row  # the link mailed still opens it
