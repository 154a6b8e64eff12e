"""Matches: seated, read, and scored turn by turn or all at once; a turn taken back, undone or
corrected; the match voided and unvoided; its analysis and its win probability."""

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from django.db.models import QuerySet
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import mixins, permissions, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotAuthenticated, NotFound, PermissionDenied, Throttled
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import BaseThrottle

from analysis.models import MatchForecast
from analysis.services import current_analysis
from api import serializers as s
from api.pagination import BoundedLimitOffsetPagination
from api.permissions import CanKeepScore, IsMatchOrganizer, presented_score_key
from api.throttles import TurnRateThrottle
from api.views._common import ERRORS, IDEMPOTENCY_KEY, SCORE_KEY, YARDKLE_TURN, YARDZEE_TURN, reads
from games import score_keys
from games import services as game_services
from games.errors import MatchClosed, MatchNotFinished, MatchNotStarted, WrongScoreKey
from games.models import Match, MatchStatus, TurnUndo
from games.selectors import (
    match_detail_queryset,
    turn_preview,
    turns_newest_first,
    with_corrections,
)
from league import services as league_services
from league.models import StageVoid
from scoring import yardzee

_Row = TypeVar("_Row")


class MatchViewSet(
    mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet[Match]
):
    """Matches: seat one, read its full state, and keep score turn by turn or all at once."""

    lookup_value_regex = s.ID_IN_URL

    filterset_fields = ["event", "status", "game"]

    def get_queryset(self) -> QuerySet[Match]:
        if self.action == "retrieve":
            return match_detail_queryset()
        if self.action == "list":
            return Match.objects.select_related("league").prefetch_related("seats__player")
        return Match.objects.select_related("event__league", "league")

    def filter_queryset(self, queryset: QuerySet[Match, _Row]) -> QuerySet[Match, _Row]:
        # ?event=, ?status= and ?game= narrow the list; one match is found by its id alone
        # (building the filter set for every turn cost more than the rest of the lookup).
        if self.action != "list":
            return queryset
        return super().filter_queryset(queryset)

    def get_serializer_class(self) -> type[serializers.BaseSerializer[Any]]:
        if self.action == "retrieve":
            return s.MatchDetailSerializer
        if self.action == "create":
            return s.MatchCreateSerializer
        return s.MatchSerializer

    def _is_write(self) -> bool:
        return self.request.method not in permissions.SAFE_METHODS

    def get_throttles(self) -> list[BaseThrottle]:
        if self.action in ("turns", "result", "scorecard", "take_back") and self._is_write():
            return [TurnRateThrottle()]
        return super().get_throttles()

    def get_permissions(self) -> list[permissions.BasePermission]:
        if self.action in ("turns", "result", "scorecard", "take_back") and self._is_write():
            return [CanKeepScore()]
        if self.action in ("undo", "void", "unvoid", "correct_turn"):
            return [permissions.IsAuthenticated(), IsMatchOrganizer()]
        if self.action == "create":
            return [permissions.IsAuthenticated()]
        return [permissions.AllowAny()]

    def _answer(self, match: Match, *, game: Any = None, detail: bool = False) -> dict[str, Any]:
        """The match as the API shows it; the scoring key only for its organizers."""
        serializer_class = s.MatchDetailSerializer if detail else s.MatchSerializer
        context = {
            **self.get_serializer_context(),
            "show_score_key": match.is_organizer(self.request.user),
            "games": {match.pk: game} if game is not None else {},
        }
        return dict(serializer_class(match, context=context).data)

    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        match = self.get_object()
        return Response(self._answer(match, detail=True))

    @extend_schema(
        request=s.MatchCreateSerializer, responses={201: s.MatchDetailSerializer, **ERRORS}
    )
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Seat players (ids in seat order) at a new match of a league: at one of its events
        (`event`), or a casual match of the league (`league`, its slug). The caller organizes the
        league, the players are on its roster, and the ruleset is the league's, then the event's,
        then `rules`. The answer carries the match's private `score_key`."""
        data = s.validated(s.MatchCreateSerializer, request.data)
        event = data.get("event")
        league = event.league if event is not None else data.get("league")
        if league is not None and not league.is_organizer(request.user):
            raise PermissionDenied("Only an organizer of this league may seat its matches.")
        match = league_services.match_create(
            game=data["game"],
            player_ids=data["players"],
            rules=data["rules"],
            event=event,
            league=data.get("league"),
            created_by=request.user,  # type: ignore[arg-type]
        )
        return Response(
            self._answer(match_detail_queryset().get(pk=match.pk), detail=True),
            status=status.HTTP_201_CREATED,
        )

    @extend_schema(
        methods=["GET"],
        request=None,
        responses={200: s.TurnSerializer(many=True), 404: s.ErrorSerializer},
        description="Every turn of the match, a page at a time, newest first (`limit`, "
        "default 50, at most 500; `offset`). The match's own answer carries only its latest "
        "turns.",
    )
    @extend_schema(
        methods=["POST"],
        request=OpenApiTypes.OBJECT,
        parameters=[IDEMPOTENCY_KEY, SCORE_KEY],
        examples=[YARDZEE_TURN, YARDKLE_TURN],
        responses={201: s.TurnCreatedSerializer, **ERRORS},
        description="Submit the next turn (the turn JSON of the game, plus `player`: the "
        "player whose turn it is, and optionally `turn_number`: the 1-based turn the client "
        "believes comes next; another number is 409 with the expected one). The rulebook "
        "checks every roll; a broken rule is 422 with its code and nothing is stored.",
    )
    @action(detail=True, methods=["get", "post"], filter_backends=[])
    def turns(self, request: Request, pk: str | None = None) -> Response:
        if reads(request):
            paginator = BoundedLimitOffsetPagination()
            page = paginator.paginate_queryset(
                turns_newest_first(self.get_object()), request, view=self
            )
            return paginator.get_paginated_response(
                s.TurnSerializer(with_corrections(page or []), many=True).data
            )
        # One short transaction (games.services.locked_submission): the match is read and
        # locked once, for the permission check and the write alike; the caller is checked
        # between the lock and the write, as for a take-back.
        with self._locked_submission(pk) as submission:
            reply = game_services.turn_submit_locked(
                submission,
                body=request.data,
                presented_key=presented_score_key(request),
                submitted_by=request.user,
            )
        return Response(reply.body, status=reply.status_code)

    @contextmanager
    def _scoring_refusals(self) -> Iterator[None]:
        """A wrong scoring key is counted against the caller's address and refused (403); a
        match that is not there is 404."""
        try:
            yield
        except WrongScoreKey:
            score_keys.record_failure(self.request)
            raise PermissionDenied(CanKeepScore.message) from None
        except Match.DoesNotExist:
            raise NotFound() from None

    @contextmanager
    def _locked_submission(
        self, pk: str | None, *, idempotent: bool = True
    ) -> Iterator[game_services.Submission]:
        """The match of the URL locked in a new transaction (404 if none), once the caller
        may score it (403 otherwise, and nothing changes): read the body inside, so that a
        caller who may not is told so whatever it holds. A caller with only a scoring key
        is checked by the lookup itself: a wrong key never locks the match, and an address
        that sends too many wrong keys gets 429 for the rest of the minute. `idempotent`:
        the write takes an `Idempotency-Key` (turns and results; a take-back does not)."""
        request = self.request
        score_key = self._anonymous_score_key()
        with (
            self._scoring_refusals(),
            game_services.locked_submission(
                match_id=int(pk or 0),
                key=request.headers.get("Idempotency-Key") if idempotent else None,
                score_key=score_key,
            ) as submission,
        ):
            self.check_object_permissions(request, submission.match)
            yield submission

    def _anonymous_score_key(self) -> str | None:
        """The scoring key a caller who is not signed in presents (401 without one, 429 once
        their address has sent too many wrong keys); None for a signed-in caller."""
        request = self.request
        if request.user.is_authenticated:
            return None
        score_key = presented_score_key(request)
        if score_key is None:
            raise NotAuthenticated()
        if score_keys.too_many_failures(request):
            raise Throttled(
                wait=score_keys.WINDOW_SECONDS,
                detail="Too many wrong scoring keys from this address; wait a minute.",
            )
        return score_key

    @extend_schema(
        request=s.TakeBackSerializer,
        parameters=[SCORE_KEY],
        responses={200: s.UndoSerializer, **ERRORS},
    )
    @action(
        detail=True,
        methods=["post"],
        url_path="turns/last/take-back",
        url_name="turn-take-back",
    )
    def take_back(self, request: Request, pk: str | None = None) -> Response:
        """The scorekeeper who sent the last turn takes it back (with the scoring key it was sent
        with, or signed in as who sent it), within TAKE_BACK_SECONDS and before the next turn is
        entered; not a turn that finished the match. Refusals: 409 `take_back_not_yours`,
        `take_back_too_late`, `match_closed`, `turn_number_mismatch`, `nothing_to_undo`; 422
        `wrong_type` for a `turn_number` that is not a positive integer: docs/api.md, "Taking back
        your own last turn"."""
        # Who asks first (401, 403, 429), then what they sent (422): the body is read once the
        # caller may take the turn back.
        with self._locked_submission(pk, idempotent=False) as submission:
            data = s.validated(s.TakeBackSerializer, request.data)
            turn_number = data.get("turn_number")
            # An organizer, or a signed-in key holder, by their account; anyone else by the key.
            signed_in = request.user.is_authenticated
            undone = game_services.turn_take_back(
                match_id=submission.match.pk,
                turn_number=turn_number,
                taken_back_by=request.user if signed_in else None,
                score_key=None if signed_in else presented_score_key(request),
            )
        return Response(self._undone_answer(undone, Match.objects.get(pk=undone.match_id)))

    def _undone_answer(self, undone: TurnUndo, match: Match) -> dict[str, Any]:
        """The answer to a turn taken back or undone: the turn removed and the match now."""
        return {"undone": s.UndoneTurnSerializer(undone).data, "match": self._answer(match)}

    @extend_schema(
        request=s.ResultSerializer,
        parameters=[IDEMPOTENCY_KEY, SCORE_KEY],
        responses={201: s.MatchDetailSerializer, **ERRORS},
    )
    @action(detail=True, methods=["post"])
    def result(self, request: Request, pk: str | None = None) -> Response:
        """Submit a complete game at once (a match with no turns yet): all turns valid and the game
        over, or 422 naming the index of the first bad turn (`details.turn_index`) and nothing
        stored."""
        with self._locked_submission(pk) as submission:
            if replay := submission.replay(game_services.request_fingerprint(request.data)):
                return Response(replay.response, status=replay.status_code)
            data = s.validated(s.ResultSerializer, request.data)
            game_services.result_apply(
                submission=submission,
                turns=data["turns"],
                submitted_by=request.user,
            )
            answer = self._answer(match_detail_queryset().get(pk=submission.match.pk), detail=True)
            submission.record(status.HTTP_201_CREATED, answer)
        return Response(answer, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=s.PadSerializer,
        parameters=[IDEMPOTENCY_KEY, SCORE_KEY],
        responses={201: s.MatchDetailSerializer, **ERRORS},
    )
    @action(detail=True, methods=["post"])
    def scorecard(self, request: Request, pk: str | None = None) -> Response:
        """Finish a match not started from its paper pad (docs/rules.md, "What a pad can
        show"): the match is then finished like any other, without turns, and `pad` holds what
        was entered. A pad no legal game writes is 422 `pad_invalid`, `details.errors` naming
        every refused cell (player, box or turn) and its rule; nothing is stored."""
        with self._locked_submission(pk) as submission:
            if replay := submission.replay(game_services.request_fingerprint(request.data)):
                return Response(replay.response, status=replay.status_code)
            data = s.validated(s.PadSerializer, request.data)
            game_services.scorecard_apply(
                submission=submission, pad=data["pad"], submitted_by=request.user
            )
            answer = self._answer(match_detail_queryset().get(pk=submission.match.pk), detail=True)
            submission.record(status.HTTP_201_CREATED, answer)
        return Response(answer, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=OpenApiTypes.OBJECT,
        examples=[
            OpenApiExample(
                "Corrected Yardzee turn",
                value={"player": 7, **yardzee.EXAMPLE_TURN},
                request_only=True,
            )
        ],
        responses={200: s.CorrectionSerializer, **ERRORS},
        parameters=[
            OpenApiParameter(
                "reseed_later_stages",
                OpenApiTypes.BOOL,
                description="Confirms putting later stages back to draft when the result of a "
                "finished stage changes and they took players by its ranking (else 409 "
                "`stage_in_use`).",
            )
        ],
    )
    @action(
        detail=True,
        methods=["post"],
        url_path=r"turns/(?P<sequence>[0-9]{1,9})/correct",
        url_name="turn-correct",
    )
    def correct_turn(
        self, request: Request, pk: str | None = None, sequence: str | None = None
    ) -> Response:
        """Organizers only: replace turn `sequence` (the turn JSON of the game, with `player`: who
        played it) without undoing the turns after it. The later turns are replayed on top: when all
        still fit, the old version is kept (`corrections`) and they are rescored; otherwise 409
        `correction_breaks_later_turn` names the first that no longer fits (`details.turn`,
        `details.violation`) and nothing changes. A finished match whose result changes is reopened
        and finished again (409 `undo_blocked` while a later match fed by it has started):
        docs/api.md, "Corrections"."""
        match = self.get_object()
        then = dict(s.validated(s.ReseedQuerySerializer, request.query_params))
        outcome = game_services.turn_correct(
            match_id=match.pk,
            sequence=int(sequence or 0),
            turn=request.data,
            corrected_by=request.user,
            then=then,
        )
        return Response(
            {
                "turn": s.TurnSerializer(with_corrections([outcome.turn])[0]).data,
                "changed": outcome.correction is not None,
                "later_turns_replayed": outcome.replayed,
                "match": self._answer(outcome.match, game=outcome.game),
            }
        )

    @extend_schema(
        request=OpenApiTypes.OBJECT,
        responses={200: OpenApiTypes.OBJECT, **ERRORS},
        examples=[
            OpenApiExample("Yardzee dice", value={"dice": [3, 3, 3, 3, 3]}, request_only=True),
            OpenApiExample(
                "Yardkle throws",
                value={
                    "throws": [{"dice": [1, 5, 2, 3, 4, 6], "set_aside": [1, 5]}],
                    "dice": [1, 1, 2, 3],
                },
                request_only=True,
            ),
        ],
    )
    @action(detail=True, methods=["post"])
    def preview(self, request: Request, pk: str | None = None) -> Response:
        """What the rules make of a turn still being entered; stores nothing. Yardzee `{"dice"}`:
        each open box of the current player with its points (joker included; null where forbidden)
        and the Yardzee bonus. Yardkle `{"throws", "dice"}`: turn total, dice to throw, hot dice,
        whether banking is allowed, and every legal set-aside of `dice` with its points."""
        return Response(turn_preview(self.get_object(), request.data))

    @extend_schema(request=s.ReseedSerializer, responses={200: s.UndoSerializer, **ERRORS})
    @action(detail=True, methods=["post"])
    def undo(self, request: Request, pk: str | None = None) -> Response:
        """Organizers only: remove the last turn (kept in an audit record). Undoing the last turn of
        a finished match reopens it; refused (409 `undo_blocked`, `stage_in_use`) when later play
        depends on its result."""
        match = self.get_object()
        data = s.validated(s.ReseedSerializer, request.data)
        undone = game_services.turn_undo(match_id=match.pk, undone_by=request.user, then=dict(data))
        match.refresh_from_db()
        return Response(self._undone_answer(undone, match))

    @extend_schema(request=s.VoidSerializer, responses={200: s.MatchSerializer, **ERRORS})
    @action(detail=True, methods=["post"])
    def void(self, request: Request, pk: str | None = None) -> Response:
        """Organizers only: void the match; it no longer counts anywhere. A stage match's slot is
        then replayed (default), awarded as a walkover, or left with no result (round robin, Swiss):
        docs/api.md, "Corrections". The answer is the void match with `replay`: the id of the match
        seated in its place, if one was."""
        match = self.get_object()
        data = s.validated(s.VoidSerializer, request.data)
        if match.status == MatchStatus.VOID:
            _void_again_checked(match, data)
        game_services.match_void(match_id=match.pk, voided_by=request.user, then=dict(data))
        match.refresh_from_db()
        replay = StageVoid.objects.filter(match=match).values_list("replay_id", flat=True).first()
        return Response({**self._answer(match), "replay": replay})

    @extend_schema(
        request=None,
        responses={200: s.MatchAnalysisSerializer, 202: s.AnalysisPendingSerializer, **ERRORS},
    )
    @action(detail=True, methods=["get"])
    def analysis(self, request: Request, pk: str | None = None) -> Response:
        """The finished match's play against optimal play: per player the summary (decisions,
        optimal ones, total and mean loss, accuracy), per turn each decision with the chosen and the
        best option, their values and the loss (docs/analysis.md). 202 `{"status": "pending"}` while
        its analysis is being made; 409 `match_not_finished`; 404 for a void match."""
        match = self.get_object()
        if match.status == MatchStatus.VOID:
            raise NotFound(f"Match {match.pk} is void: it has no analysis.")
        if match.status != MatchStatus.FINISHED:
            raise MatchNotFinished(
                f"Match {match.pk} is {match.get_status_display().lower()}; it is analysed "
                "once it finishes.",
                details={"status": match.status},
            )
        stored = current_analysis(match)
        if stored is None:
            return Response(
                {"match": match.pk, "status": "pending"}, status=status.HTTP_202_ACCEPTED
            )
        return Response(s.MatchAnalysisSerializer(stored).data)

    @extend_schema(
        responses={200: s.MatchForecastSerializer, 202: s.AnalysisPendingSerializer, **ERRORS},
    )
    @action(detail=True, methods=["get"], url_path="win-probability")
    def win_probability(self, request: Request, pk: str | None = None) -> Response:
        """Each player's chance to win after every turn (`turns[i]`: after `i` turns, seat
        order), and the turns that swung it most (docs/analysis.md, "Win probability"). Worked
        out by a job after each turn: `status` is `behind` while the latest turns are; 202
        `{"status": "pending"}` before the first figures; 409 `match_not_started` for a match
        with no turn; 404 for a void match or one entered from the paper pad (no turns)."""
        match = self.get_object()
        if match.status == MatchStatus.VOID or match.pad is not None:
            why = "is void" if match.status == MatchStatus.VOID else "was entered from the pad"
            raise NotFound(f"Match {match.pk} {why}: it has no win probability.")
        if not match.turns_played:
            raise MatchNotStarted(
                f"Match {match.pk} has no turn yet; its chances follow each turn.",
                details={"status": match.status},
            )
        stored = MatchForecast.objects.filter(match=match).first()
        if stored is None:
            return Response(
                {"match": match.pk, "status": "pending"}, status=status.HTTP_202_ACCEPTED
            )
        chances = stored.chances[: match.turns_played + 1]
        answer = {
            "match": match.pk,
            "status": "current" if stored.version == match.version else "behind",
            "model": stored.model,
            "players": stored.players,
            "turns": [{"turn": turn, "chances": row} for turn, row in enumerate(chances)],
            "swings": [
                {**swing, "player": stored.players[swing["seat"]]}
                for swing in stored.swings
                if swing["turn"] < len(chances)
            ],
        }
        return Response(s.MatchForecastSerializer(answer).data)

    @extend_schema(request=s.NoFields, responses={200: s.MatchSerializer, **ERRORS})
    @action(detail=True, methods=["post"])
    def unvoid(self, request: Request, pk: str | None = None) -> Response:
        """Organizers only: take back a void made by mistake. The match is again what its turns make
        it; a stage match gets its slot back (its replay, not yet started, is deleted). Refused (409
        `void_in_use`) once the slot has moved on."""
        match = self.get_object()
        s.validated(s.NoFields, request.data)
        game_services.match_unvoid(match_id=match.pk, unvoided_by=request.user)
        match.refresh_from_db()
        return Response(self._answer(match))


def _void_again_checked(match: Match, asked: dict[str, Any]) -> None:
    """A void of a match void already changes nothing: answered as done when it asks for
    nothing more (no `outcome`, no `forfeits`: a retry) or for what the void did; 409
    `match_closed` when it asks for another outcome or other forfeits, which it would not
    get (take the void back first)."""
    if not (asked.get("outcome") or asked.get("forfeits")):
        return
    done = StageVoid.objects.filter(match=match).values_list("outcome", "forfeits").first()
    wanted = (asked.get("outcome") or "replay", sorted(set(asked.get("forfeits") or [])))
    if done is not None and (done[0], sorted(done[1])) == wanted:
        return
    did = f" ({done[0].replace('_', ' ')})" if done is not None else ""
    raise MatchClosed(
        f"Match {match.pk} is void already{did}: take the void back (POST "
        f"matches/{match.pk}/unvoid/) to decide it otherwise.",
        details={"status": match.status},
    )
