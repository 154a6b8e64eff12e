"""`manage.py load_webhook_demo` (run by `load_demo`): a webhook endpoint of the demo Yardkle
league at an address that is nothing real, and a second league night with one match played,
so its deliveries fail, visibly, in its log (docs/organizing.md, "Webhooks"). Idempotent. Like
`load_demo`, it refuses to run with DEBUG off unless given --force: a real league may have the
demo league's slug."""

import datetime
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.core.management.base import CommandError, CommandParser
from django.db import transaction

import scoring
from core.commands import DatabaseCommand
from games import services as game_services
from league import services as league_services
from league.models import Event, League, Player
from scoring import simulate
from webhooks import services
from webhooks.models import SUBSCRIBABLE

DEMO_LEAGUE = "sunday-yardkle"
# A reserved name (RFC 2606) that never resolves: every delivery fails, with its DNS error.
DEMO_WEBHOOK = "https://hooks.invalid/yard"


class Command(DatabaseCommand):
    help = (
        "Add the demo webhook endpoint (after load_demo; idempotent). Refuses to run unless "
        "DEBUG is on or --force."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--force", action="store_true", help="load even with DEBUG off")

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.DEBUG and not options["force"]:
            raise CommandError("Refusing to load demo data with DEBUG off; pass --force.")
        league = League.objects.filter(slug=DEMO_LEAGUE).first()
        if league is None or league.webhook_endpoints.exists():
            return
        with transaction.atomic():
            organizer = league.organizers.order_by("pk").first()
            endpoint = services.endpoint_create(
                league=league,
                url=DEMO_WEBHOOK,
                events=list(SUBSCRIBABLE),
                description="Demo: an address that is nothing real, so every delivery fails",
                created_by=organizer if isinstance(organizer, User) else None,
            )
            event = Event.objects.create(
                league=league, name="League night 2", date=datetime.date(2026, 6, 13)
            )
            players = list(league.players.order_by("pk")[:2])
            self._play(event, players)
            services.endpoint_ping(endpoint_id=endpoint.pk)
        self.stdout.write(f"Added a webhook endpoint to {league.name} at {DEMO_WEBHOOK}.")

    def _play(self, event: Event, players: list[Player]) -> None:
        match = league_services.match_create(
            game=event.league.game, player_ids=[p.pk for p in players], event=event
        )
        turns = simulate.play_game(scoring.new_game(match.game, 2, match.rules), seed=900)
        game_services.result_submit(match_id=match.pk, turns=turns)
