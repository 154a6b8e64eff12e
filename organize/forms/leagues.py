"""Forms of a league's pages: a new league, its settings (name, game, rules, league points),
its tiebreak order, and its organizers (added, removed, invited by email, invitations revoked).

Each parses what was typed into the arguments of one service; the service checks them (the
same checks as the API's) and a refusal is shown with `RefusalForm.refuse`, on the field it
names or above the form. Reading (a username, the roster) is all a form does with the
database."""

from collections.abc import Mapping
from decimal import Decimal
from typing import Any, ClassVar

from django import forms
from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils.text import slugify

from games.models import GameName
from league.models import League, OrganizerInvitation
from league.standings import LeaguePoints, metrics_for
from organize.forms.words import refuse_on_field
from scoring.errors import DomainError
from scoring.json_input import brief
from scoring.yardkle import MAX_TARGET, YardkleRules
from scoring.yardzee import YardzeeRules

SLUG_LENGTH = 60  # League.slug's max_length
ORDINALS = ("1st", "2nd", "3rd")


class RefusalForm(forms.Form):
    """A form whose data a service checks: `refuse` shows the service's refusal."""

    # A refusal's code -> the field it is about, for errors that name no field themselves.
    code_fields: ClassVar[Mapping[str, str]] = {}

    def refuse(self, error: DomainError) -> None:
        """Show a domain error's sentence on the field it names (`details.field`, a rule's
        `details.option`, or by its code), in the page's words, else above the form."""
        named = error.details.get("field") or error.details.get("option")
        refuse_on_field(self, error, self.code_fields.get(error.code, named))


# --- A new league -----------------------------------------------------------------------------


class LeagueCreateForm(RefusalForm):
    name = forms.CharField(max_length=120)
    slug = forms.SlugField(
        max_length=SLUG_LENGTH,
        required=False,
        label="Address",
        help_text="Its page is /leagues/<address>/: letters, digits and hyphens. Blank: made "
        "from the name.",
    )
    game = forms.ChoiceField(choices=GameName.choices)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if "name" in data and not data.get("slug") and "slug" not in self.errors:
            data["slug"] = slugify(data["name"])[:SLUG_LENGTH].strip("-")
            if not data["slug"]:
                self.add_error(
                    "slug", "The name has no letters or digits to make an address from: give one."
                )
        return data


# --- Settings ----------------------------------------------------------------------------------

RULE_DEFAULTS: dict[str, dict[str, Any]] = {
    GameName.YARDZEE: YardzeeRules().to_json(),
    GameName.YARDKLE: YardkleRules().to_json(),
}
JOKER_CHOICES = [
    ("forced", "Forced: the official Joker rule"),
    ("free_choice", "Free choice: any open box"),
]


def _number(value: Decimal) -> int | float:
    """League points as JSON keeps them: 3, not 3.0."""
    return int(value) if value == value.to_integral_value() else float(value)


def _placement_text(placement: Mapping[int, tuple[float, ...]]) -> str:
    return "\n".join(
        f"{size}: {', '.join(f'{_number(Decimal(str(p)))}' for p in points)}"
        for size, points in sorted(placement.items())
    )


class LeagueSettingsForm(RefusalForm):
    """A league's name, game (only while it has no event or match), the rule options of its
    game and its league points. `changes()` is what `league_update` takes."""

    name = forms.CharField(max_length=120)
    game = forms.ChoiceField(choices=GameName.choices)
    win = forms.DecimalField(max_digits=7, decimal_places=2, label="Win")
    draw = forms.DecimalField(max_digits=7, decimal_places=2, label="Draw")
    loss = forms.DecimalField(max_digits=7, decimal_places=2, label="Loss")
    placement = forms.CharField(
        required=False,
        label="Placement points",
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="Tables of 3 or more: one line a table size, its points from 1st to last, "
        "e.g. 4: 5, 3, 1, 0. A size not given scores size - 1 for 1st down to 0 for last.",
    )

    code_fields = {"league_points": "placement", "game_settled": "game"}

    def __init__(self, *args: Any, league: League, game_settled: bool, **kwargs: Any) -> None:
        points = LeaguePoints.from_json(league.points)
        kwargs.setdefault(
            "initial",
            {
                "name": league.name,
                "game": league.game,
                **RULE_DEFAULTS.get(league.game, {}),
                **league.rules,
                "win": points.win,
                "draw": points.draw,
                "loss": points.loss,
                "placement": _placement_text(points.placement),
            },
        )
        super().__init__(*args, **kwargs)
        self.league = league
        if game_settled:
            self.fields["game"].disabled = True
            self.fields["game"].help_text = "Fixed: the league has events or matches."
        if league.game == GameName.YARDZEE:
            self.fields["joker"] = forms.ChoiceField(
                choices=JOKER_CHOICES, label="Joker rule", help_text="RULES.md, Joker."
            )
        else:
            self.fields["target"] = forms.IntegerField(
                min_value=1, max_value=MAX_TARGET, label="Target", help_text="Points to win."
            )
            self.fields["entry_minimum"] = forms.IntegerField(
                min_value=0,
                max_value=MAX_TARGET,
                label="Entry minimum",
                help_text="Points a player's first bank needs.",
            )
        self.rule_fields = [
            name for name in ("joker", "target", "entry_minimum") if name in self.fields
        ]
        self.point_fields = ["win", "draw", "loss", "placement"]

    def clean_placement(self) -> dict[str, list[int | float]]:
        placement: dict[str, list[int | float]] = {}
        lines: dict[str, int] = {}  # a table size -> the line that gave it
        for number, line in enumerate(self.cleaned_data["placement"].splitlines(), start=1):
            if not line.strip():
                continue
            size, colon, points = line.partition(":")
            try:
                if not colon:
                    raise ValueError
                values = [_number(Decimal(p.strip())) for p in points.split(",") if p.strip()]
                key = str(int(size.strip()))
            except (ValueError, ArithmeticError):
                raise forms.ValidationError(
                    f"Line {number} ({brief(line.strip())}) is not a table size, a colon and "
                    "points separated by commas, like 4: 5, 3, 1, 0."
                ) from None
            if key in lines:  # one of the two would be dropped unsaid
                raise forms.ValidationError(
                    f"Line {number} gives the points of a table of {key} again (line "
                    f"{lines[key]} did): one line a table size."
                )
            lines[key] = number
            placement[key] = values
        return placement

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        posted = self.data.get("game")
        if self.fields["game"].disabled and posted and posted != self.league.game:
            # A page opened before the league's first event offered the game: a change sent
            # from it is refused by the service (`game_settled`), not dropped unsaid.
            data["game"] = posted
        return data

    def changes(self) -> dict[str, Any]:
        """The settings as `league_update` takes them. A new game's rules are its defaults:
        the options shown are the old game's."""
        data = self.cleaned_data
        changes: dict[str, Any] = {
            "name": data["name"],
            "points": {
                "win": _number(data["win"]),
                "draw": _number(data["draw"]),
                "loss": _number(data["loss"]),
                "placement": data["placement"],
            },
        }
        if data["game"] != self.league.game:
            changes["game"] = data["game"]
        else:
            changes["rules"] = {name: data[name] for name in self.rule_fields}
        return changes


class TiebreakForm(RefusalForm):
    """A tiebreak order: one choice a place (1st, 2nd, ...), as many places as the game has
    metrics; blank places are skipped. The live preview reads the same fields."""

    def __init__(
        self, *args: Any, game: str, order: list[str] | None = None, **kwargs: Any
    ) -> None:
        metrics = metrics_for(game)
        kwargs["initial"] = {f"tiebreak_{i}": key for i, key in enumerate(order or [], start=1)}
        super().__init__(*args, **kwargs)
        choices = [("", "(none)"), *((metric.key, metric.label) for metric in metrics)]
        for place in range(1, len(metrics) + 1):
            self.fields[f"tiebreak_{place}"] = forms.ChoiceField(
                choices=choices,
                required=False,
                label=ORDINALS[place - 1] if place <= len(ORDINALS) else f"{place}th",
            )

    def order(self) -> list[str]:
        """The metric keys chosen, in order (the form must be valid)."""
        return [value for value in self.cleaned_data.values() if value]

    def chosen(self) -> list[str]:
        """The keys sent, in place order, checked or not: what the preview explains."""
        return [key for name in self.fields if isinstance(key := self.data.get(name), str) and key]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not self.errors and not any(data.values()):
            raise forms.ValidationError("Choose at least one metric: the first ranks the table.")
        return data


# --- Organizers --------------------------------------------------------------------------------


class OrganizerAddForm(RefusalForm):
    username = forms.CharField(
        max_length=150,
        label="Username",
        help_text="Their account's username; they sign in to organize.",
        widget=forms.TextInput(attrs={"autocapitalize": "none", "autocomplete": "off"}),
    )

    def clean_username(self) -> str:
        username: str = self.cleaned_data["username"].strip()
        user = get_user_model().objects.filter(username=username, is_active=True).first()
        if user is None:
            raise forms.ValidationError(
                f"No one has the username {username!r}. Invite them by email instead: they make "
                "their account as they accept."
            )
        self.user = user
        return username


class OrganizerRemoveForm(RefusalForm):
    user = forms.ModelChoiceField(queryset=get_user_model().objects.none())

    def __init__(self, *args: Any, league: League, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["user"]
        assert isinstance(field, forms.ModelChoiceField)  # noqa: S101 - declared so above
        field.queryset = league.organizers.all()
        field.error_messages["invalid_choice"] = "They do not organize this league."


class InvitationForm(RefusalForm):
    email = forms.EmailField(
        max_length=254,
        label="Email",
        widget=forms.EmailInput(attrs={"autocomplete": "off"}),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        days = settings.ORGANIZER_INVITATION_DAYS
        self.fields["email"].help_text = (
            f"They are mailed a link that works once, for {days} day{'s' if days != 1 else ''}: "
            "they accept with their account, or make one there. A new invitation to the same "
            "address replaces the one before."
        )


class InvitationRevokeForm(RefusalForm):
    invitation = forms.ModelChoiceField(queryset=OrganizerInvitation.objects.none())

    def __init__(self, *args: Any, league: League, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["invitation"]
        assert isinstance(field, forms.ModelChoiceField)  # noqa: S101 - declared so above
        field.queryset = OrganizerInvitation.objects.open().filter(league=league)
        field.error_messages["invalid_choice"] = (
            "This invitation is no longer open: it was accepted or revoked meanwhile."
        )
