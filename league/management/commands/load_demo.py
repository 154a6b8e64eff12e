"""`manage.py load_demo`: the demo leagues that `make run` serves. Idempotent: running it again
changes nothing. It grows as models arrive."""

import datetime
import random
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError, CommandParser
from django.db import transaction

import scoring
from core.commands import DatabaseCommand
from games import services as game_services
from games.models import Match, MatchStatus
from league import services as league_services
from league.models import Event, League, Player, Stage
from league.services import registration, schedule, stages
from scoring import simulate

DEMO_ORGANIZER = "organizer"
# Demo data only ever goes into a DEBUG (development) database, so a known password is fine.
DEMO_PASSWORD = "yardleague"  # noqa: S105
PLAYER_NAMES = [
    "Ada",
    "Bea",
    "Cal",
    "Dot",
    "Eli",
    "Fay",
    "Gus",
    "Hal",
    "Ivy",
    "Jo",
    "Kit",
    "Lou",
]
LEAGUES = [
    ("Backyard Yardzee", "backyard-yardzee", "yardzee", 3),
    ("Sunday Yardkle", "sunday-yardkle", "yardkle", 2),
]
FINISHED_MATCHES = 4
IN_PROGRESS_MATCHES = 2


def _new_event(league: int, name: str, day: datetime.date, venue: str) -> Event | None:
    """A new event of the `league`-th demo league (of `LEAGUES`), or None when it has one of
    that name already (the demo is loaded again: it is left as it is)."""
    event, created = Event.objects.get_or_create(
        league=League.objects.get(slug=LEAGUES[league][1]),
        name=name,
        defaults={"date": day, "venue": venue},
    )
    return event if created else None


def _started_stage(event: Event, name: str, format: str, players: list[Player]) -> Stage:
    """A stage of the event for `players` in seed order, its first round drawn."""
    stage = stages.stage_create(
        event_id=event.pk, name=name, format=format, player_ids=[p.pk for p in players]
    )
    return stages.stage_start(stage_id=stage.pk)


class Command(DatabaseCommand):
    help = "Load the demo leagues (idempotent). Refuses to run unless DEBUG is on or --force."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--force", action="store_true", help="load even with DEBUG off")

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.DEBUG and not options["force"]:
            raise CommandError("Refusing to load demo data with DEBUG off; pass --force.")
        with transaction.atomic():
            organizer = self._organizer()
            players = [
                Player.objects.get_or_create(handle=name.lower(), defaults={"display_name": name})[
                    0
                ]
                for name in PLAYER_NAMES
            ]
            for index, (name, slug, game, table) in enumerate(LEAGUES):
                self._league(organizer, players, name, slug, game, table, seed=index)
            self._cup(players)
            self._scheduled_round(players)
            self._sign_up()
            # The webhooks app sits above league: its part of the demo is its own command.
            call_command("load_webhook_demo", force=options["force"], stdout=self.stdout)
        self.stdout.write(self.style.SUCCESS("Demo data is loaded."))

    def _organizer(self) -> User:
        organizer, created = User.objects.get_or_create(
            username=DEMO_ORGANIZER, defaults={"is_staff": True, "is_superuser": True}
        )
        if created:
            organizer.set_password(DEMO_PASSWORD)
            organizer.save(update_fields=["password"])
            self.stdout.write(
                f"Created demo organizer '{DEMO_ORGANIZER}' (password '{DEMO_PASSWORD}')."
            )
        return organizer

    def _cup(self, players: list[Player]) -> None:
        """A knockout cup of 8 in the Yardzee league: the quarter-finals and one semi played."""
        event = _new_event(0, "Summer Cup", datetime.date(2026, 7, 4), "The park")
        if event is None:
            return
        stage = _started_stage(event, "Knockout", "single_elimination", players[:8])
        for number in range(6):
            match = (
                Match.objects.filter(stage_match__stage=stage, status=MatchStatus.SCHEDULED)
                .order_by("pk")
                .first()
            )
            if match is None:
                break
            local = scoring.new_game(match.game, match.seats.count(), match.rules)
            turns = simulate.play_game(local, seed=500 + number)
            game_services.result_submit(match_id=match.pk, turns=turns)
        self.stdout.write("Drew the Summer Cup knockout and played its first matches.")

    def _scheduled_round(self, players: list[Player]) -> None:
        """A round robin of four a week from today, its first round scheduled on two yards
        from 18:30 London time, 20 minutes apart (docs/organizing.md, "Scheduling a round")."""
        day = datetime.date.today() + datetime.timedelta(days=7)
        event = _new_event(0, "Pairs evening", day, "The park")
        if event is None:
            return
        stage = _started_stage(event, "Pairs", "round_robin", players[8:12])
        schedule.round_schedule(
            stage_id=stage.pk,
            round_number=1,
            first_start=datetime.datetime.combine(day, datetime.time(18, 30)),
            interval_minutes=20,
            label="Yard {n}",
            time_zone="Europe/London",
        )
        self.stdout.write("Drew the Pairs evening and scheduled its first round.")

    def _sign_up(self) -> None:
        """An event two weeks ahead taking sign-ups (8 places, check-in): two confirmed (one
        checked in), one waiting for approval who may be Ada, already a player (her handle);
        docs/organizing.md, "Sign-up and check-in"."""
        event = _new_event(
            1, "Autumn Open", datetime.date.today() + datetime.timedelta(days=14), "The green"
        )
        if event is None:
            return
        registration.sign_up_set(event=event, cap=8, check_in=True)
        for name, handle in (("Mo", ""), ("Nell", ""), ("Ada L.", "ada")):
            signed = registration.registration_create(
                event_id=event.pk,
                display_name=name,
                email=f"{name.split()[0].lower()}@example.org",
                handle=handle,
            ).registration
            if not handle:
                registration.registration_approve(registration_id=signed.pk)
                if name == "Mo":
                    registration.registration_check_in(registration_id=signed.pk)
        self.stdout.write("Opened the Autumn Open's sign-up, with three sign-ups.")

    def _league(
        self,
        organizer: User,
        players: list[Player],
        name: str,
        slug: str,
        game: str,
        table: int,
        *,
        seed: int,
    ) -> None:
        league = League.objects.filter(slug=slug).first()
        if league is None:
            league = league_services.league_create(
                name=name, slug=slug, game=game, created_by=organizer
            )
        league.players.add(*players)  # every demo player plays in both leagues
        event, _ = Event.objects.get_or_create(
            league=league,
            name="League night 1",
            defaults={"date": datetime.date(2026, 6, 6), "venue": "The back lawn"},
        )
        if event.matches.exists():
            return
        rng = random.Random(seed)  # noqa: S311 - a reproducible demo, not cryptography
        for number in range(FINISHED_MATCHES + IN_PROGRESS_MATCHES):
            seated = rng.sample(players, table)
            match = league_services.match_create(
                game=game, player_ids=[p.pk for p in seated], event=event, created_by=organizer
            )
            local = scoring.new_game(game, table, match.rules)
            turns = simulate.play_game(local, seed=seed * 100 + number)
            if number < FINISHED_MATCHES:
                game_services.result_submit(match_id=match.pk, turns=turns, submitted_by=organizer)
                continue
            for turn in turns[: len(turns) // 2]:
                game_services.turn_submit(match_id=match.pk, turn=turn, submitted_by=organizer)
        self.stdout.write(
            f"Seated and played {FINISHED_MATCHES + IN_PROGRESS_MATCHES} matches in {league.name}."
        )
