"""The public sign-up pages (docs/pages.md, "Sign-up"): an event's sign-up form, and the private
page a registration's link opens, where its holder sees where they stand, checks in within the
event's check-in window, and withdraws.

The form is open to anyone, so it is guarded: Django's CSRF check, a rate limit per client
address on sign-ups (`SignUpRateThrottle`, shared with the API's), and the service's own
refusals (a closed or late sign-up, an email or name already signed up, a bad name). Nothing
here shows a registration's email."""

import logging
import math
from typing import Any

from django import forms
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST
from redis.exceptions import RedisError
from rest_framework.request import Request
from rest_framework.throttling import SimpleRateThrottle
from rest_framework.views import APIView

from core.methods import read_only
from league.models import Event, Registration, SignUp
from league.pages.words import about_field
from league.services import registration as services
from scoring.errors import DomainError

logger = logging.getLogger(__name__)


class SignUpRateThrottle(SimpleRateThrottle):
    """Public sign-ups per client address (`THROTTLE_SIGN_UP`), the page's and the API's on
    one budget. A cache that cannot be reached lets sign-ups through, like the other limits."""

    scope = "sign_up"

    def get_cache_key(self, request: Request | HttpRequest, view: APIView | None) -> str:
        ident = self.get_ident(request)  # type: ignore[arg-type]
        return self.cache_format % {"scope": self.scope, "ident": ident}

    def allow_request(self, request: Request | HttpRequest, view: APIView | None) -> bool:
        try:
            return super().allow_request(request, view)  # type: ignore[arg-type]
        except (RedisError, OSError):
            logger.warning("Rate-limit cache unreachable; sign-up allowed unthrottled.")
            return True


class SignUpForm(forms.Form):
    display_name = forms.CharField(
        label="Your name", max_length=80, help_text="As it will show in the tables."
    )
    email = forms.EmailField(
        label="Email",
        max_length=254,
        help_text="For the organizers only: it is never shown on a page.",
    )
    handle = forms.SlugField(
        label="Handle (if you have played here before)", max_length=40, required=False
    )

    def refuse(self, error: DomainError) -> None:
        """The service's sentence on the field it names, without the field's API name that
        begins it ("It holds invisible ..."), else above the form."""
        field = error.details.get("field")
        if isinstance(field, str) and field in self.fields:
            self.add_error(field, about_field(error.message, field))
        else:
            self.add_error(None, error.message)


def _sign_up_of(event: Event) -> SignUp | None:
    return SignUp.objects.filter(event=event).first()


@require_http_methods(["GET", "POST"])
def sign_up(request: HttpRequest, event_id: int) -> HttpResponse | HttpResponseBase:
    """The event's sign-up form; a sign-up leads to the registration's private page. An event
    that takes no sign-ups at all has no such page (404, as the API's `sign-up/` answers); one
    whose sign-up is closed says why."""
    event = get_object_or_404(Event.objects.select_related("league"), pk=event_id)
    settings = _sign_up_of(event)
    if settings is None:
        raise Http404("This event takes no sign-ups.")
    form = SignUpForm(request.POST or None)
    status = 200
    if request.method == "POST":
        throttle = SignUpRateThrottle()
        if not throttle.allow_request(request, None):
            minutes = max(1, math.ceil((throttle.wait() or 60) / 60))
            form.add_error(
                None,
                f"Too many sign-ups from here: try again in {minutes} "
                f"minute{'s' if minutes > 1 else ''}. Nothing was saved.",
            )
            status = 429
        elif form.is_valid():
            try:
                done = services.registration_create(event_id=event.pk, **form.cleaned_data)
            except DomainError as error:
                form.refuse(error)
            else:
                # The link goes to the address, never to this screen: the same page whatever
                # was on file (an address signed up before gets its link again).
                link = request.build_absolute_uri(reverse("league:registration", args=[done.key]))
                services.mail_link(done, link=link)
                return render(
                    request,
                    "league/sign_up_sent.html",
                    {
                        "event": event,
                        "league": event.league,
                        "email": form.cleaned_data["email"].strip(),
                    },
                )
        if status == 200:
            status = 400
    places = services.places_taken(event.pk)
    return render(
        request,
        "league/sign_up.html",
        {
            "event": event,
            "league": event.league,
            "sign_up": settings,
            "closed_because": services.closed_because(settings),
            "places_left": None if settings.cap is None else max(settings.cap - places, 0),
            "form": form,
        },
        status=status,
    )


def _registration(key: str) -> Registration:
    registration = services.registration_by_key(key)
    if registration is None:
        raise Http404("No sign-up has this link.")
    return registration


def _registration_context(registration: Registration, key: str) -> dict[str, Any]:
    settings = _sign_up_of(registration.event)
    closes = settings.check_in_closes if settings else None
    return {
        "key": key,
        "registration": registration,
        "event": registration.event,
        "league": registration.event.league,
        "sign_up": settings,
        "position": services.waiting_position(registration),
        "can_check_in": settings is not None
        and registration.status == "confirmed"
        and settings.check_in_window_open(),
        # Outside the window: it is over (closed in the past), else it opens later.
        "check_in_over": closes is not None and closes <= timezone.now(),
    }


@read_only
def registration_page(request: HttpRequest, key: str) -> HttpResponse:
    """Where a registration stands: waiting for approval, on the waiting list (and where),
    confirmed (and checked in), refused or withdrawn; with its check-in and withdrawal."""
    registration = _registration(key)
    response = render(request, "league/registration.html", _registration_context(registration, key))
    response["Cache-Control"] = "private, no-store"
    return response


def _holder_words(error: DomainError, registration: Registration) -> str:
    """A refusal as its holder reads it on their own page: a registration not in a state for
    the step (a second submit, a page left open) is "your sign-up", not "Ana's registration"."""
    if error.code == "registration_decided":
        state = registration.get_status_display().lower()
        return f"Nothing changed: your sign-up is {state}."
    return error.message


@require_POST
def registration_check_in(request: HttpRequest, key: str) -> HttpResponseBase:
    """The holder checks in (`present=1`, the default) or out (`present=0`) within the event's
    check-in window; any other `present` changes nothing and says so."""
    registration = _registration(key)
    asked = request.POST.get("present", "1")
    if asked not in ("0", "1"):
        messages.error(request, "Nothing changed: check in (present 1) or out (present 0).")
        return redirect(reverse("league:registration", args=[key]))
    present = asked == "1"
    try:
        services.registration_check_in(
            registration_id=registration.pk, present=present, by_player=True
        )
    except DomainError as error:
        messages.error(request, _holder_words(error, registration))
    else:
        messages.success(request, "You are checked in." if present else "You are checked out.")
    return redirect(reverse("league:registration", args=[key]))


@require_POST
def registration_withdraw(request: HttpRequest, key: str) -> HttpResponseBase:
    """The holder withdraws: their place goes to the first on the waiting list."""
    registration = _registration(key)
    try:
        services.registration_withdraw(registration_id=registration.pk, by_player=True)
    except DomainError as error:
        messages.error(request, _holder_words(error, registration))
    else:
        messages.success(request, "You are withdrawn from this event.")
    return redirect(reverse("league:registration", args=[key]))
