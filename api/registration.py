"""Sign-up and check-in through the API (docs/api.md, "Sign-up and check-in"): an event's
sign-up settings, its registrations (a public sign-up, or an organizer adding a player), the
organizers' decisions and check-in, and a registration's own link (`X-Registration-Key`).

A registration's contact email is for the league's organizers: the public answers (the
sign-up's settings, a new registration, the holder's own view) never carry it."""

from typing import Any

from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import permissions, serializers, status
from rest_framework.exceptions import NotAuthenticated, NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import BaseThrottle
from rest_framework.views import APIView

from api.permissions import require_organizer
from api.serializers import (
    ID_MAX,
    ErrorSerializer,
    NoFields,
    PlayerSerializer,
    RefusesUnknownFields,
    validated,
)
from league.models import Event, Registration, SignUp
from league.pages.registration import SignUpRateThrottle
from league.services import registration as services

ERRORS = dict.fromkeys((400, 401, 403, 404, 409, 429), ErrorSerializer)
KEY_HEADER = "X-Registration-Key"
REGISTRATION_KEY = OpenApiParameter(
    KEY_HEADER,
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=True,
    description="The key a sign-up answered with (`key`): the registration's private link.",
)


# --- Shapes -------------------------------------------------------------------------------------


class SignUpSerializer(serializers.ModelSerializer[SignUp]):
    takes_sign_ups = serializers.SerializerMethodField(
        help_text="Whether a player may sign up now (open, before the deadline, event open)."
    )
    places_taken = serializers.SerializerMethodField(
        help_text="Registrations waiting for approval or confirmed."
    )
    waiting = serializers.SerializerMethodField(help_text="Registrations on the waiting list.")

    class Meta:
        model = SignUp
        fields = [
            "open",
            "deadline",
            "cap",
            "check_in",
            "check_in_opens",
            "check_in_closes",
            "takes_sign_ups",
            "places_taken",
            "waiting",
        ]

    def get_takes_sign_ups(self, sign_up: SignUp) -> bool:
        return sign_up.takes_sign_ups()

    def get_places_taken(self, sign_up: SignUp) -> int:
        return services.places_taken(sign_up.event_id)

    def get_waiting(self, sign_up: SignUp) -> int:
        return sign_up.event.registrations.filter(status="waiting").count()


class SignUpWriteSerializer(RefusesUnknownFields):
    open = serializers.BooleanField(default=True)
    deadline = serializers.DateTimeField(required=False, allow_null=True, default=None)
    cap = serializers.IntegerField(
        required=False, allow_null=True, default=None, min_value=1, max_value=100_000
    )
    check_in = serializers.BooleanField(default=False)
    check_in_opens = serializers.DateTimeField(required=False, allow_null=True, default=None)
    check_in_closes = serializers.DateTimeField(required=False, allow_null=True, default=None)


class RegistrationSerializer(serializers.ModelSerializer[Registration]):
    """A registration as its holder (and anyone with its link) sees it: no email."""

    waiting_position = serializers.SerializerMethodField(
        help_text="On the waiting list: its place in line (1 moves up next)."
    )

    class Meta:
        model = Registration
        fields = [
            "id",
            "event",
            "display_name",
            "status",
            "waiting_position",
            "player",
            "checked_in_at",
            "created_at",
        ]

    def get_waiting_position(self, registration: Registration) -> int | None:
        known: dict[int, int] | None = self.context.get("positions")  # a list's, at once
        if known is not None:
            return known.get(registration.pk)
        return services.waiting_position(registration)


class SignedUpSerializer(RegistrationSerializer):
    key = serializers.CharField(
        help_text="The registration's private key, shown this once: send it as "
        "X-Registration-Key to see it, check in or withdraw (the sign-up page's link holds it)."
    )

    class Meta(RegistrationSerializer.Meta):
        fields = [*RegistrationSerializer.Meta.fields, "key"]


class CandidateSerializer(serializers.Serializer[Any]):
    player = PlayerSerializer()
    by = serializers.ListField(
        child=serializers.CharField(), help_text="email, handle and/or name: what matched."
    )


class OrganizerRegistrationSerializer(RegistrationSerializer):
    """A registration as the league's organizers see it: with the contact email, the handle
    given, and the existing players it matches that the caller may link it to (to link it to
    one, or make a new player)."""

    candidates = serializers.SerializerMethodField()

    class Meta(RegistrationSerializer.Meta):
        fields = [
            *RegistrationSerializer.Meta.fields,
            "email",
            "handle",
            "by_organizer",
            "decided_at",
            "candidates",
        ]

    @extend_schema_field(CandidateSerializer(many=True))
    def get_candidates(self, registration: Registration) -> list[dict[str, Any]]:
        if registration.status != "pending":
            return []
        known = self.context.get("candidates")  # a list's, read at once
        found = (
            known.get(registration.pk, [])
            if known is not None
            else services.registration_candidates(registration, by=self.context.get("by"))
        )
        return [CandidateSerializer(c).data for c in found]


class RegistrationCreateSerializer(RefusesUnknownFields):
    display_name = serializers.CharField(max_length=200, trim_whitespace=False)
    email = serializers.CharField(max_length=300, required=False, default="", allow_blank=True)
    handle = serializers.CharField(max_length=100, required=False, default="", allow_blank=True)


class ApproveSerializer(RefusesUnknownFields):
    player = serializers.IntegerField(
        min_value=1,
        max_value=ID_MAX,
        required=False,
        allow_null=True,
        default=None,
        help_text="Link the registration to this existing player (one it matches, or on the "
        "league's roster).",
    )
    new_player = serializers.BooleanField(
        default=False, help_text="Make a new player of it, even though it matches some."
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs["player"] is not None and attrs["new_player"]:
            raise serializers.ValidationError("Choose one: `player` or `new_player`.")
        return attrs


class CheckInSerializer(RefusesUnknownFields):
    present = serializers.BooleanField(default=True, help_text="false: not checked in after all.")


# --- Views --------------------------------------------------------------------------------------


def _event(event_id: str) -> Event:
    event = Event.objects.select_related("league").filter(pk=int(event_id)).first()
    if event is None:
        raise NotFound("No such event.")
    return event


def _require_organizer(request: Request, event: Event) -> None:
    """401 to a caller with no credentials at all; 403 to any other who does not organize the
    event's league, a holder of a match's scoring key too (as DRF's own permission checks
    answer: docs/api.md, "Who may do what")."""
    if request.successful_authenticator is None:
        raise NotAuthenticated("Sign in as an organizer of this league.")
    require_organizer(event.league, request.user, "Only an organizer of this league may do this.")


class SignUpView(APIView):
    """An event's sign-up: anyone reads it; its organizers open, change or close it."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: SignUpSerializer, **ERRORS})
    def get(self, request: Request, event_id: str) -> Response:
        sign_up = SignUp.objects.select_related("event").filter(event_id=int(event_id)).first()
        if sign_up is None:
            _event(event_id)
            raise NotFound("This event takes no sign-ups.")
        return Response(SignUpSerializer(sign_up).data)

    @extend_schema(request=SignUpWriteSerializer, responses={200: SignUpSerializer, **ERRORS})
    def put(self, request: Request, event_id: str) -> Response:
        """Organizers only: open the sign-up (or change it; `open: false` closes it) with an
        optional `deadline`, `cap` (sign-ups beyond it wait in line) and `check_in` (a stage started
        then seats only the players checked in; players check themselves in between `check_in_opens`
        and `check_in_closes`). Fields left out take their defaults: this sets the whole sign-up."""
        event = _event(event_id)
        _require_organizer(request, event)
        data = validated(SignUpWriteSerializer, request.data)
        sign_up = services.sign_up_set(event=event, **data)
        return Response(SignUpSerializer(sign_up).data)


class EventRegistrationsView(APIView):
    """An event's registrations: a sign-up (anyone) or a player added (organizers); the list
    with emails and matches (organizers)."""

    permission_classes = [permissions.AllowAny]

    def get_throttles(self) -> list[BaseThrottle]:
        if self.request.method == "POST" and not self._organizes():
            return [SignUpRateThrottle()]
        return []

    def _organizes(self) -> bool:
        event = Event.objects.select_related("league").filter(pk=int(self.kwargs["event_id"]))
        found = event.first()
        return found is not None and found.league.is_organizer(self.request.user)

    @extend_schema(responses={200: OrganizerRegistrationSerializer(many=True), **ERRORS})
    def get(self, request: Request, event_id: str) -> Response:
        event = _event(event_id)
        _require_organizer(request, event)
        registrations = list(
            event.registrations.select_related("event__league").order_by("created_at", "pk")
        )
        pending = [r for r in registrations if r.status == "pending"]
        candidates = services.candidates_of(pending, by=request.user)
        waiting = [r.pk for r in registrations if r.status == "waiting"]
        positions = {pk: place for place, pk in enumerate(waiting, start=1)}
        answer = OrganizerRegistrationSerializer(
            registrations, many=True, context={"candidates": candidates, "positions": positions}
        )
        return Response(answer.data)

    @extend_schema(
        request=RegistrationCreateSerializer,
        responses={201: SignedUpSerializer, 202: OpenApiTypes.OBJECT, **ERRORS},
    )
    def post(self, request: Request, event_id: str) -> Response:
        """Sign up for the event: `display_name`, `email` (required; only the organizers see it),
        `handle` if you have played here before. 409 `registration_closed` when it takes no sign-ups
        (closed, past its deadline, event closed). Taken: 202 `{"email", "message"}`, the same
        answer whatever was on file: the registration's private link goes to the email (an address
        signed up before gets its link again, with a new key), never to the screen. Rate-limited
        per address (`THROTTLE_SIGN_UP`). An organizer of the league adds a player this way too,
        whenever the event is open, with or without an email: 201 with the registration and its
        `key` (shown once), 409 `already_registered` for an email or a name already signed up."""
        event = _event(event_id)
        data = validated(RegistrationCreateSerializer, request.data)
        by_organizer = event.league.is_organizer(request.user)
        done = services.registration_create(event_id=event.pk, by_organizer=by_organizer, **data)
        if not by_organizer:
            # The link goes to the address, the same answer whatever was on file.
            link = reverse("league:registration", args=[done.key])
            services.mail_link(done, link=request.build_absolute_uri(link))
            # As typed (stripped), not as stored: the answer tells nothing of what is on file.
            typed = str(data.get("email", "")).strip()
            return Response(sent_answer(typed), status=status.HTTP_202_ACCEPTED)
        body = {**RegistrationSerializer(done.registration).data, "key": done.key}
        return Response(body, status=status.HTTP_201_CREATED)


def sent_answer(email: str) -> dict[str, str]:
    """What a player's sign-up answers, whatever was on file."""
    return {
        "email": email,
        "message": f"Thanks: the link to your sign-up is on its way to {email}. It opens your "
        "sign-up's own page (where it stands, check-in, withdrawal); keep it to yourself.",
    }


def _withdraw_or_check_in(
    step: str, registration: Registration, data: Any, *, by_player: bool
) -> Registration:
    """`withdraw/` takes the registration out; `check-in/` (any other step) reads
    `{"present"}` from `data` and checks it in or out, as its player (`by_player`) or an
    organizer."""
    if step == "withdraw":
        validated(NoFields, data)
        return services.registration_withdraw(registration_id=registration.pk, by_player=by_player)
    present = validated(CheckInSerializer, data)["present"]
    return services.registration_check_in(
        registration_id=registration.pk, present=present, by_player=by_player
    )


class RegistrationActionView(APIView):
    """An organizer's decision on one registration: approve, refuse, withdraw, check in."""

    permission_classes = [permissions.AllowAny]
    step = ""

    def _organized(self, registration_id: str) -> Registration:
        registration = (
            Registration.objects.select_related("event__league")
            .filter(pk=int(registration_id))
            .first()
        )
        if registration is None:
            raise NotFound("No such registration.")
        _require_organizer(self.request, registration.event)
        return registration

    @extend_schema(
        request=OpenApiTypes.OBJECT, responses={200: OrganizerRegistrationSerializer, **ERRORS}
    )
    def post(self, request: Request, registration_id: str) -> Response:
        """Organizers only. `approve/`: `{}`, `{"player": id}` (link it to that existing player) or
        `{"new_player": true}`; 409 `player_match` (with `details.candidates`: the matches the
        caller may link it to) when it matches such players and neither is given; 403
        `permission_denied` for a player on other leagues' rosters the caller may not change.
        `refuse/` and `withdraw/`: `{}`; the place it held goes to the first on the waiting list.
        `check-in/`: `{"present": true|false}`. Each is 409 `event_closed` once the event is
        finished or cancelled."""
        registration = self._organized(registration_id)
        if self.step == "approve":
            data = validated(ApproveSerializer, request.data)
            registration = services.registration_approve(
                registration_id=registration.pk,
                player_id=data["player"],
                new_player=data["new_player"],
                by=request.user,
            )
        elif self.step == "refuse":
            validated(NoFields, request.data)
            registration = services.registration_refuse(registration_id=registration.pk)
        else:
            registration = _withdraw_or_check_in(
                self.step, registration, request.data, by_player=False
            )
        answer = OrganizerRegistrationSerializer(registration, context={"by": request.user})
        return Response(answer.data)


def _held(request: Request) -> Registration:
    key = request.headers.get(KEY_HEADER) or ""
    if not key:  # no key at all is no credentials (401), not a key that opens nothing (404)
        raise NotAuthenticated(f"Send the registration's key as the {KEY_HEADER} header.")
    registration = services.registration_by_key(key)
    if registration is None:
        raise NotFound("No registration has this key.")
    return registration


class OwnRegistrationView(APIView):
    """A registration seen, checked in or withdrawn by the holder of its key."""

    permission_classes = [permissions.AllowAny]
    authentication_classes: list[Any] = []
    step = ""

    def get_authenticate_header(self, request: Request) -> str:
        """The challenge of a 401 (without one DRF would make it a 403): the key's header."""
        return f'Registration-Key header="{KEY_HEADER}"'

    @extend_schema(parameters=[REGISTRATION_KEY], responses={200: RegistrationSerializer, **ERRORS})
    def get(self, request: Request) -> Response:
        return Response(RegistrationSerializer(_held(request)).data)

    @extend_schema(
        parameters=[REGISTRATION_KEY],
        request=CheckInSerializer,
        responses={200: RegistrationSerializer, **ERRORS},
    )
    def post(self, request: Request) -> Response:
        """`check-in/`: check yourself in (or out, `present: false`) within the event's check-in
        window (409 `check_in_closed` outside it). `withdraw/`: leave the event; your place goes to
        the first on the waiting list (409 `still_playing` while you are entered in a running
        stage: an organizer withdraws you from it). Both are 409 `event_closed` once the event is
        finished or cancelled."""
        registration = _withdraw_or_check_in(
            self.step, _held(request), request.data, by_player=True
        )
        return Response(RegistrationSerializer(registration).data)
