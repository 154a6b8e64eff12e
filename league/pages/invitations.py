"""The page an organizer's invitation opens (docs/organizing.md, "Bringing a co-organizer").

Its link, `/invitations/<token>/`, is exchanged at once for a cookie scoped to `/invitations/`
(HttpOnly, SameSite=Lax, until the invitation expires) and the browser is sent on to the clean
`/invitations/`, as a table's private scoring link is (games.views): the token stays out of the
address bar, the history, Referers and the sign-in page's `?next=`. Every answer is `no-store`;
those to an address holding the token send no Referer at all, the page at its clean address
one only to this site (its forms' `Origin` then passes the CSRF check).

At the clean address: signed in, **Join <league> as organizer**; signed out, a new account
(username and password: made, joined and signed in, all at once) or **Sign in** (and back
here). An invitation used, revoked or expired has a page that says so (410) and changes
nothing; a link no invitation has, 404."""

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_http_methods

from core.methods import read_only
from league.errors import InvitationGone
from league.models import League
from league.pages.words import about_field
from league.services import organization
from scoring.errors import DomainError

COOKIE = "invitation"


class AccountForm(UserCreationForm[User]):
    """A new account's username and password, checked as Django checks them (a username free
    in any case of its letters, the site's password validators); the service makes it."""

    def refuse(self, error: DomainError) -> None:
        field = error.details.get("field")
        if isinstance(field, str) and field in self.fields:
            self.add_error(field, about_field(error.message, field))
        else:
            self.add_error(None, error.message)


def _private(response: HttpResponse, *, token_in_url: bool = True) -> HttpResponse:
    """Kept out of caches; no Referer from an address holding the token, one to this site only
    from the clean address (with `no-referrer` a browser sends `Origin: null`, and a form's
    CSRF check fails)."""
    response["Cache-Control"] = "no-store"
    response["Referrer-Policy"] = "no-referrer" if token_in_url else "same-origin"
    return response


def _gone(request: HttpRequest, *, league: League | None, reason: str, status: int) -> HttpResponse:
    response = render(
        request,
        "league/invitation_gone.html",
        {"league": league, "reason": reason, "not_found": status == 404},
        status=status,
    )
    if COOKIE in request.COOKIES:
        response.delete_cookie(COOKIE, path=reverse("league:invitation"), samesite="Lax")
    return response


def _unknown(request: HttpRequest) -> HttpResponse:
    return _gone(
        request,
        league=None,
        reason="No invitation has this link. Open the link of your invitation mail again, "
        "whole, or ask the organizer who invited you for a new one.",
        status=404,
    )


@read_only
def invitation_link(request: HttpRequest, token: str) -> HttpResponse:
    """The mailed link: its token goes into a cookie and the browser to the clean address."""
    invitation = organization.invitation_by_token(token)
    if invitation is None:
        return _private(_unknown(request))
    try:
        organization.ensure_invitation_usable(invitation)
    except InvitationGone as error:
        return _private(_gone(request, league=invitation.league, reason=error.message, status=410))
    clean_url = reverse("league:invitation")
    response = redirect(clean_url)
    response.set_cookie(
        COOKIE,
        token,
        max_age=max(0, int((invitation.expires_at - timezone.now()).total_seconds())),
        path=clean_url,
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )
    return _private(response)


@require_http_methods(["GET", "POST"])
def invitation_page(request: HttpRequest) -> HttpResponse:
    """The invitation the cookie holds: join (signed in), or make an account, or sign in."""
    token = request.COOKIES.get(COOKIE, "")
    invitation = organization.invitation_by_token(token)
    if invitation is None:
        return _private(_unknown(request), token_in_url=False)
    signed_in = request.user.is_authenticated
    form = AccountForm(request.POST if request.method == "POST" and not signed_in else None)
    try:
        organization.ensure_invitation_usable(invitation)
        if request.method == "POST" and signed_in:
            done = organization.invitation_accept(token=token, user=request.user)  # type: ignore[arg-type]
            return _private(_joined(request, done.league, already=done.already), token_in_url=False)
        if request.method == "POST" and form.is_valid():
            user = _new_account(token, form)
            if user is not None:
                login(request, user, backend="django.contrib.auth.backends.ModelBackend")
                joined = _joined(request, invitation.league, already=False)
                return _private(joined, token_in_url=False)
    except InvitationGone as error:
        gone = _gone(request, league=invitation.league, reason=error.message, status=410)
        return _private(gone, token_in_url=False)
    context: dict[str, Any] = {
        "invitation": invitation,
        "league": invitation.league,
        "form": form,
        "expires": organization.time_words(invitation.expires_at),
    }
    status = 400 if form.errors else 200
    page = render(request, "league/invitation.html", context, status=status)
    return _private(page, token_in_url=False)


def _new_account(token: str, form: AccountForm) -> User | None:
    """The account made and joined, or None with the refusal on the form (`InvitationGone`
    goes up: the invitation's page says it)."""
    try:
        return organization.invitation_accept_new_account(
            token=token,
            username=form.cleaned_data["username"],
            password=form.cleaned_data["password1"],
        )
    except InvitationGone:
        raise
    except DomainError as error:
        form.refuse(error)
        return None


def _joined(request: HttpRequest, league: League, *, already: bool) -> HttpResponse:
    """On to the league's organizer pages; the invitation is used, its cookie goes."""
    if already:
        messages.success(request, f"You organize {league.name} already; the invitation is used.")
    else:
        messages.success(request, f"Welcome: you now organize {league.name}.")
    response = redirect("organize:league", league.slug)
    response.delete_cookie(COOKIE, path=reverse("league:invitation"), samesite="Lax")
    return response
