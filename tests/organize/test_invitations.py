"""Co-organizer invitations (issue 38): an organizer invites someone by email from the league's
organizers page; the mailed link `/invitations/<token>/` makes them an organizer, with the
account they sign in to or one they make there. A used, revoked or expired invitation changes
nothing; the token is stored only as its hash and never reaches a log."""

import hashlib
import logging
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client, TestCase
from django.utils import timezone

from config.logging import guard_request_logs, redact
from league.errors import InvitationGone
from league.models import League, OrganizerInvitation
from league.services import organization
from league.services.organization import invitations as invitation_services
from tests.mailed import mailed_link
from tests.threads import overlapping, run_at_once

INVITE = "/organize/leagues/yardzee/invitations/"
REVOKE = "/organize/leagues/yardzee/invitations/revoke/"
PAGE = "/invitations/"
NEW_ACCOUNT = {
    "username": "ana",
    "password1": "dice-in-the-grass-7",
    "password2": "dice-in-the-grass-7",
}


def _client(user: User | None = None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _text(response) -> str:
    return str(response.content.decode())


def _invite(client: Client, email: str = "ana@example.org") -> str:
    """Invite `email` from the organizers page; the path of the link it was mailed (the mail
    goes once the request's transaction commits)."""
    with TestCase.captureOnCommitCallbacks(execute=True):
        response = client.post(INVITE, {"email": email})
    assert response.status_code == 302, _text(response)
    return mailed_link(email, prefix="invitations")


def _organizers(league: League) -> set[str]:
    return set(league.organizers.values_list("username", flat=True))


@pytest.fixture
def as_organizer(organizer) -> Client:
    return _client(organizer)


# --- Accepting ----------------------------------------------------------------------------------


@pytest.mark.django_db
def test_an_invited_person_without_an_account_makes_one_and_organizes_the_league(
    as_organizer, yardzee_league, mailoutbox
):
    link = _invite(as_organizer)
    assert len(mailoutbox) == 1
    assert mailoutbox[0].subject == "Organize Backyard Yardzee on Yard League"
    assert "orga invites you to organize Backyard Yardzee" in mailoutbox[0].body
    page = _text(as_organizer.get("/organize/leagues/yardzee/"))
    assert "ana@example.org" in page  # listed as pending
    assert link not in page  # the token is shown on no page

    guest = Client()
    opened = guest.get(link)
    # The token goes into a cookie scoped to the clean address, and the browser there.
    assert opened.status_code == 302
    assert opened["Location"] == PAGE
    assert opened["Cache-Control"] == "no-store"
    assert opened["Referrer-Policy"] == "no-referrer"
    cookie = opened.cookies["invitation"]
    assert cookie["path"] == PAGE
    assert cookie["httponly"]
    assert cookie["samesite"] == "Lax"

    shown = guest.get(PAGE)
    assert shown.status_code == 200
    assert shown["Cache-Control"] == "no-store"
    assert shown["Referrer-Policy"] == "same-origin"
    text = _text(shown)
    assert "orga invites you (ana@example.org) to organize" in text
    assert 'href="/accounts/login/?next=/invitations/"' in text

    joined = guest.post(PAGE, NEW_ACCOUNT)
    assert joined.status_code == 302, _text(joined)
    assert joined["Location"] == "/organize/leagues/yardzee/"
    ana = User.objects.get(username="ana")
    assert ana.email == "ana@example.org"
    assert ana.check_password("dice-in-the-grass-7")
    assert _organizers(yardzee_league) == {"orga", "ana"}
    # Signed in as the new account, with the league's organizer pages open to them.
    welcome = guest.get("/organize/leagues/yardzee/")
    assert welcome.status_code == 200
    assert "Welcome: you now organize Backyard Yardzee." in _text(welcome)
    assert guest.get("/organize/leagues/yardzee/players/").status_code == 200
    invitation = OrganizerInvitation.objects.get()
    assert invitation.accepted_by == ana
    assert invitation.accepted_at is not None
    assert "ana@example.org" not in _text(as_organizer.get("/organize/leagues/yardzee/"))


@pytest.mark.django_db
def test_an_invited_person_with_an_account_signs_in_and_joins(
    as_organizer, yardzee_league, player_account
):
    link = _invite(as_organizer, "player@example.org")
    guest = Client()
    guest.get(link)
    signed_in = guest.post(
        "/accounts/login/",
        {"username": "just-a-player", "password": "pw-just-a-player", "next": PAGE},
    )
    assert signed_in.status_code == 302
    assert signed_in["Location"] == PAGE
    page = _text(guest.get(PAGE))
    assert "Join Backyard Yardzee as organizer" in page
    assert "You are signed in as just-a-player" in page
    assert _organizers(yardzee_league) == {"orga"}  # nothing before the button
    joined = guest.post(PAGE)
    assert joined.status_code == 302
    assert joined["Location"] == "/organize/leagues/yardzee/"
    assert _organizers(yardzee_league) == {"orga", "just-a-player"}
    assert guest.get("/organize/leagues/yardzee/").status_code == 200
    assert User.objects.count() == 2  # no account made


@pytest.mark.django_db
def test_someone_else_signed_in_signs_out_and_comes_back_to_the_invitation(
    as_organizer, yardzee_league, player_account
):
    shared = _client(player_account)
    shared.get(_invite(as_organizer))
    out = shared.post("/accounts/logout/", {"next": PAGE})
    assert out.status_code == 302
    assert out["Location"] == PAGE
    page = _text(shared.get(PAGE))
    assert "Make my account and join Backyard Yardzee" in page
    assert _organizers(yardzee_league) == {"orga"}


@pytest.mark.django_db
def test_a_new_account_is_refused_as_django_refuses_one_and_nothing_is_made(
    as_organizer, yardzee_league, player_account
):
    guest = Client()
    guest.get(_invite(as_organizer))
    taken = guest.post(PAGE, {**NEW_ACCOUNT, "username": "Just-A-Player"})
    assert taken.status_code == 400
    assert "A user with that username already exists." in _text(taken)
    weak = guest.post(PAGE, {**NEW_ACCOUNT, "password1": "123", "password2": "123"})
    assert weak.status_code == 400
    assert "This password is too short." in _text(weak)
    assert User.objects.count() == 2
    assert _organizers(yardzee_league) == {"orga"}
    assert OrganizerInvitation.objects.pending().count() == 1  # still open


@pytest.mark.django_db(transaction=True)
def test_two_people_accepting_one_invitation_at_once_make_one_organizer(
    organizer, yardzee_league, player_account, other_organizer, monkeypatch
):
    sent = organization.invitation_create(
        league=yardzee_league, email="ana@example.org", invited_by=organizer
    )
    with overlapping(monkeypatch, invitation_services, "ensure_invitation_usable"):
        results, errors = run_at_once(
            lambda: organization.invitation_accept(token=sent.token, user=player_account),
            lambda: organization.invitation_accept(token=sent.token, user=other_organizer),
        )
    assert len([r for r in results if r is not None]) == 1
    assert [type(error) for error in errors] == [InvitationGone]
    assert errors[0].code == "invitation_used"  # type: ignore[attr-defined]
    assert len(_organizers(yardzee_league)) == 2


# --- Refused ------------------------------------------------------------------------------------


def _expire(invitation: OrganizerInvitation) -> None:
    OrganizerInvitation.objects.filter(pk=invitation.pk).update(
        expires_at=timezone.now() - timedelta(minutes=1)
    )


def _revoke(invitation: OrganizerInvitation) -> None:
    OrganizerInvitation.objects.filter(pk=invitation.pk).update(revoked_at=timezone.now())


def _use(invitation: OrganizerInvitation) -> None:
    other = User.objects.create_user("first-one")
    invitation.league.organizers.add(other)
    OrganizerInvitation.objects.filter(pk=invitation.pk).update(
        accepted_at=timezone.now(), accepted_by=other
    )


GONE = [
    (_expire, "This invitation to organize Backyard Yardzee expired on"),
    (_revoke, "This invitation to organize Backyard Yardzee was withdrawn by an organizer."),
    (_use, "This invitation to organize Backyard Yardzee was accepted already"),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("make_gone", "says"), GONE)
def test_an_expired_revoked_or_used_link_says_so_and_changes_nothing(
    as_organizer, yardzee_league, player_account, make_gone, says
):
    link = _invite(as_organizer)
    make_gone(OrganizerInvitation.objects.get())
    organizers = _organizers(yardzee_league)
    guest = Client()
    opened = guest.get(link)
    assert opened.status_code == 410
    assert says in _text(opened)
    assert "invitation" not in opened.cookies  # nothing to remember
    assert opened["Cache-Control"] == "no-store"
    assert opened["Referrer-Policy"] == "no-referrer"
    assert guest.get(PAGE).status_code == 404  # no cookie: no invitation here
    assert _organizers(yardzee_league) == organizers


@pytest.mark.django_db
@pytest.mark.parametrize(("make_gone", "says"), GONE)
def test_an_invitation_gone_while_its_page_was_open_is_refused_and_changes_nothing(
    as_organizer, yardzee_league, player_account, make_gone, says
):
    """The page was opened while the invitation worked; it was then revoked, it expired or
    someone else used it: neither the join button nor a new account does anything."""
    link = _invite(as_organizer)
    member, guest = _client(player_account), Client()
    member.get(link)
    guest.get(link)
    make_gone(OrganizerInvitation.objects.get())
    organizers, users = _organizers(yardzee_league), User.objects.count()
    joined = member.post(PAGE)
    assert joined.status_code == 410
    assert says in _text(joined)
    made = guest.post(PAGE, NEW_ACCOUNT)
    assert made.status_code == 410
    assert says in _text(made)
    assert _organizers(yardzee_league) == organizers
    assert User.objects.count() == users
    assert member.get("/organize/leagues/yardzee/").status_code == 403


@pytest.mark.django_db
def test_a_link_no_invitation_has_is_not_found(yardzee_league):
    response = Client().get("/invitations/nOtAnInViTaTiOn_x-1/")
    assert response.status_code == 404
    assert "No invitation has this link." in _text(response)
    assert response["Referrer-Policy"] == "no-referrer"
    assert Client().get(PAGE).status_code == 404


# --- Who invites and revokes --------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["other_organizer", "player_account"])
def test_only_the_leagues_organizers_invite_and_revoke(
    request, as_organizer, yardzee_league, mailoutbox, who
):
    _invite(as_organizer)
    invitation = OrganizerInvitation.objects.get()
    outsider = _client(request.getfixturevalue(who))
    invited = outsider.post(INVITE, {"email": "mallory@example.org"})
    assert invited.status_code == 403
    revoked = outsider.post(REVOKE, {"invitation": invitation.pk, "confirmed": "yes"})
    assert revoked.status_code == 403
    assert list(OrganizerInvitation.objects.pending()) == [invitation]
    assert len(mailoutbox) == 1
    anonymous = Client().post(INVITE, {"email": "mallory@example.org"})
    assert anonymous.status_code == 302
    assert anonymous["Location"].startswith("/accounts/login/")


@pytest.mark.django_db
def test_staff_invite_to_any_league(staff, yardzee_league, mailoutbox):
    link = _invite(_client(staff), "bo@example.org")
    assert OrganizerInvitation.objects.get().invited_by == staff
    assert link.startswith("/invitations/")


@pytest.mark.django_db
def test_revoking_asks_to_confirm_then_the_link_opens_nothing(as_organizer, yardzee_league):
    link = _invite(as_organizer)
    invitation = OrganizerInvitation.objects.get()
    asked = as_organizer.post(REVOKE, {"invitation": invitation.pk})
    assert asked.status_code == 200
    assert "Revoke the invitation to ana@example.org?" in _text(asked)
    assert OrganizerInvitation.objects.pending().count() == 1
    revoked = as_organizer.post(REVOKE, {"invitation": invitation.pk, "confirmed": "yes"})
    assert revoked.status_code == 302
    assert "is revoked" in _text(as_organizer.get(revoked["Location"]))
    assert OrganizerInvitation.objects.pending().count() == 0
    assert Client().get(link).status_code == 410
    again = as_organizer.post(REVOKE, {"invitation": invitation.pk, "confirmed": "yes"})
    assert again.status_code == 400
    assert "This invitation is no longer open" in _text(again)


@pytest.mark.django_db
def test_inviting_the_same_address_again_replaces_the_pending_invitation(
    as_organizer, yardzee_league, mailoutbox
):
    first = _invite(as_organizer, "ana@example.org")
    second = _invite(as_organizer, "Ana@Example.org")
    assert first != second
    assert len(mailoutbox) == 2
    pending = OrganizerInvitation.objects.pending()
    assert [i.email for i in pending] == ["Ana@Example.org"]
    assert OrganizerInvitation.objects.count() == 2
    old = Client().get(first)
    assert old.status_code == 410
    assert "replaced by a newer one sent to the same address" in _text(old)
    assert Client().get(second).status_code == 302
    page = _text(as_organizer.get("/organize/leagues/yardzee/"))
    assert "the link sent before no longer opens" in page
    assert page.count("Revoke the invitation to") == 1


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("email", "says"),
    [
        ("ORGA@example.org", "orga has the address ORGA@example.org and already organizes"),
        ("not an address", "Enter a valid email address."),
        ("", "This field is required."),
    ],
)
def test_an_address_that_cannot_be_invited_is_a_form_error(
    as_organizer, organizer, yardzee_league, mailoutbox, email, says
):
    organizer.email = "orga@example.org"
    organizer.save()
    response = as_organizer.post(INVITE, {"email": email})
    assert response.status_code == 400
    assert says in _text(response)
    assert not OrganizerInvitation.objects.exists()
    assert mailoutbox == []


@pytest.mark.django_db
def test_an_unknown_username_points_to_an_invitation(as_organizer, yardzee_league):
    response = as_organizer.post("/organize/leagues/yardzee/organizers/", {"username": "nobody"})
    assert response.status_code == 400
    assert "Invite them by email instead" in _text(response)


# --- The token is a secret ----------------------------------------------------------------------


@pytest.mark.django_db
def test_the_token_is_stored_only_as_its_hash(as_organizer, yardzee_league):
    token = _invite(as_organizer).split("/")[2]
    assert len(token) >= 43  # 256 bits
    row = OrganizerInvitation.objects.values().get()
    assert all(token not in str(value) for value in row.values())
    assert row["token_hash"] == hashlib.sha256(token.encode()).hexdigest()


@pytest.mark.django_db
def test_the_invitation_link_is_redacted_in_the_logs(as_organizer, yardzee_league, caplog):
    token = _invite(as_organizer).split("/")[2]
    assert redact(f'"GET /invitations/{token}/ HTTP/1.1" 302') == (
        '"GET /invitations/[redacted]/ HTTP/1.1" 302'
    )
    # The organizer pages' own paths hold no secret and stay as they are.
    assert redact(f"POST {REVOKE} HTTP/1.1") == f"POST {REVOKE} HTTP/1.1"
    guard_request_logs()  # as config.wsgi does when a server loads the app
    OrganizerInvitation.objects.update(revoked_at=timezone.now())
    with caplog.at_level(logging.WARNING, logger="django.request"):
        assert Client().get(f"/invitations/{token}/").status_code == 410  # Django logs a 410
    assert "Gone: /invitations/[redacted]/" in caplog.text
    assert token not in caplog.text
