"""Forms of an event's pages: a new event, a stage (new or changed), closing the event, and a
player's withdrawal.

Each parses the fields into the arguments of one service; a stage's options take their bounds,
defaults and words from the service's declaration (`league.stage_options`), as the API's do,
and everything else (options that contradict each other, a draw that cannot be made, a closed
event) is the service's to refuse: `refuse` shows its sentence on the field it names, or above
the form."""

import re
from collections.abc import Mapping, Sequence
from typing import Any

from django import forms
from django.http import QueryDict

from league.models import EventStatus, Seeding, Stage, StageFormat
from league.stage_options import (
    ADVANCE,
    DRAW_OPTIONS,
    FORMAT_OPTIONS,
    GRAND_FINAL_RESET,
    GROUPS,
    MAX_ENTRANTS,
    MAX_TIEBREAK_KEY_LENGTH,
    MAX_TIEBREAK_KEYS,
    ROUNDS,
    SEEDING,
    SOURCE_BEST_REST,
    SOURCE_PER_GROUP,
    SOURCE_TOP,
    TABLE_SIZE,
    THIRD_PLACE,
    StageOption,
)
from organize.forms.words import page_words, refuse_on_field
from organize.selectors import EntrantRow, StageRow
from scoring.errors import DomainError


def stage_words(
    error: DomainError, stage_names: Mapping[int, str], stage: int | None = None
) -> str:
    """A stage service's refusal as an event page says it: the stages it names by their names
    (the API's sentences name them by id: "Stage 12 has started", "Stage 13 takes its players
    from stage 12"). `stage`: the stage the page acts on, where the refusal does not say."""
    details = error.details
    message = page_words(error)
    stage = details.get("stage", stage)
    if error.code == "stage_is_source" and isinstance(stage, int):
        fed = [stage_names.get(pk, f"stage {pk}") for pk in details.get("stages", [])]
        one = len(fed) == 1
        return (
            f"{' and '.join(fed)} take{'s' if one else ''} {'its' if one else 'their'} players "
            f"from {stage_names.get(stage, 'this stage')}: delete {'it' if one else 'them'}, "
            f"or give {'it' if one else 'them'} another source, first."
        )
    if isinstance(stage, int) and stage in stage_names:
        return re.sub(rf"\b[Ss]tage {stage}\b", lambda _: stage_names[stage], message)
    return message


class ServiceForm(forms.Form):
    # The event's stages by id, to name them in a refusal (set by the forms that know them).
    stage_names: Mapping[int, str] = {}

    def set_choices(self, name: str, choices: Sequence[tuple[Any, str]]) -> None:
        field = self.fields[name]
        assert isinstance(field, forms.ChoiceField)  # noqa: S101 - declared so above
        field.choices = list(choices)

    def refuse(self, error: DomainError) -> None:
        """Show a service's refusal: on the field it names (`details.field`), without the
        field's API name that begins the sentence, else above; stages by their names."""
        if error.code in ("stage_started", "stage_is_source"):
            self.add_error(None, stage_words(error, self.stage_names))
            return
        refuse_on_field(self, error, error.details.get("field"))


class EventForm(ServiceForm):
    name = forms.CharField(max_length=120)
    date = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}))
    venue = forms.CharField(max_length=120, required=False)


class CloseForm(ServiceForm):
    status = forms.ChoiceField(
        label="Close as",
        choices=[
            (EventStatus.FINISHED, "Finished: its play is over"),
            (EventStatus.CANCELLED, "Cancelled: it did not take place"),
        ],
        initial=EventStatus.FINISHED,
        widget=forms.RadioSelect,
    )


class WithdrawForm(ServiceForm):
    player = forms.TypedChoiceField(coerce=int, label="Player")
    stage = forms.TypedChoiceField(
        coerce=int,
        empty_value=None,
        required=False,
        label="From",
        help_text="Every stage of the event still to finish, or one stage.",
    )

    def __init__(
        self,
        *args: Any,
        entrants: Sequence[EntrantRow],
        stages: Sequence[StageRow],
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.stage_names = {row.stage.pk: row.stage.name for row in stages}
        players = {row.player: row.name for row in entrants if not row.withdrawn}
        entered = {row.stage for row in entrants if not row.withdrawn}
        self.player_names = {row.player: row.name for row in entrants}
        # Offered: the players still entered somewhere. Taken: every entrant, so that one who
        # has withdrawn already (a second submit) hears it from the service (`already_withdrawn`).
        self.set_choices("player", [("", "Choose a player"), *self.player_names.items()])
        player = self.fields["player"]
        assert isinstance(player, forms.ChoiceField)  # noqa: S101 - declared so above
        player.widget.choices = [("", "Choose a player"), *players.items()]
        self.set_choices(
            "stage",
            [
                ("", "Every stage of the event"),
                *((row.stage.pk, row.stage.name) for row in stages if row.stage.pk in entered),
            ],
        )


# --- Stages ---------------------------------------------------------------------------------

# Which options each format takes (the rest keep their defaults; the service refuses others).
_FORMAT_OPTIONS = FORMAT_OPTIONS
_SOURCE_OPTIONS = frozenset({"source_top", "source_per_group", "source_best_rest"})
_PLAYER_OPTIONS = frozenset({"seeding", "participants"})
_OPTION_ORDER = (
    "table_size",
    "advance",
    "groups",
    "rounds",
    "third_place",
    "grand_final_reset",
    "source_top",
    "source_per_group",
    "source_best_rest",
    "seeding",
    "tiebreak",
)
# What an option not shown is, as the service takes it (`stage_create`'s defaults).
_DEFAULTS: dict[str, Any] = {name: option.default for name, option in DRAW_OPTIONS.items()}


def option_field(option: StageOption, **page: Any) -> forms.Field:
    """A stage's option as the page takes it: its bounds, choices and default as the service
    declares them (`league.stage_options`), with its label and hint; `page`: what the page
    does its own way (a number it lets be left blank)."""
    words: dict[str, Any] = {"help_text": option.page_help}
    if option.label:
        words["label"] = option.label
    if option.kind == "yes_no":
        return forms.BooleanField(required=False, initial=option.default, **words, **page)
    if option.kind == "choice":
        return forms.ChoiceField(choices=option.choices, initial=option.default, **words, **page)
    number: dict[str, Any] = {"required": not option.nullable, **words, **page}
    return forms.IntegerField(
        min_value=option.low, max_value=option.high, initial=option.default, **number
    )


class StageForm(ServiceForm):
    """A stage's options. The fields shown follow the format, the source stage and the
    seeding chosen (the page asks again for them when one of those changes): players from
    the league's roster, ticked and numbered in seed order, or taken from an earlier stage."""

    name = forms.CharField(max_length=120)
    format = forms.ChoiceField(choices=StageFormat.choices, initial=StageFormat.ROUND_ROBIN)
    source_stage = forms.TypedChoiceField(
        coerce=int,
        empty_value=None,
        required=False,
        label="Players",
        help_text="Chosen below from the roster, or taken from an earlier stage's final order "
        "when it finishes.",
    )
    table_size = option_field(TABLE_SIZE)
    advance = option_field(ADVANCE)
    rounds = option_field(ROUNDS)
    groups = option_field(GROUPS)
    third_place = option_field(THIRD_PLACE)
    grand_final_reset = option_field(GRAND_FINAL_RESET)
    tiebreak = forms.CharField(
        required=False,
        # The text of as many keys as the service takes.
        max_length=MAX_TIEBREAK_KEYS * MAX_TIEBREAK_KEY_LENGTH,
        label="Tiebreak order",
        help_text="Metric keys in order, separated by commas (docs/standings.md); blank: the "
        "default order.",
    )
    source_top = option_field(SOURCE_TOP)
    source_per_group = option_field(SOURCE_PER_GROUP)
    # Left blank, none of the rest.
    source_best_rest = option_field(SOURCE_BEST_REST, required=False)
    seeding = option_field(SEEDING)
    participants = forms.TypedMultipleChoiceField(
        coerce=int, required=False, widget=forms.CheckboxSelectMultiple
    )

    def __init__(
        self,
        *args: Any,
        roster: Sequence[tuple[int, str]],
        stages: Sequence[StageRow],
        stage: Stage | None = None,
        refresh_url: str = "",
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.stage_names = {row.stage.pk: row.stage.name for row in stages}
        self.roster = list(roster)
        sources = [row.stage for row in stages if stage is None or row.stage.pk != stage.pk]
        self.set_choices(
            "source_stage",
            [("", "Chosen from the roster"), *((s.pk, f"From {s.name}") for s in sources)],
        )
        self.set_choices("participants", self.roster)
        for player, name in self.roster:
            self.fields[f"seed_{player}"] = forms.IntegerField(
                min_value=1,
                max_value=MAX_ENTRANTS,
                required=False,
                label=f"Seed of {name}",
                widget=forms.NumberInput(attrs={"class": "seed", "aria-label": f"Seed of {name}"}),
            )
        self.chosen_format = str(self._current("format"))
        source_id = self._current_int("source_stage")
        self.source = next((s for s in sources if s.pk == source_id), None)
        self.source_in_groups = bool(
            self.source is not None
            and self.source.format == StageFormat.ROUND_ROBIN
            and self.source.groups > 1
        )
        self.manual_seeding = self._current("seeding") == Seeding.MANUAL
        shown = set(_FORMAT_OPTIONS.get(self.chosen_format, frozenset()))
        if self.source is not None:
            shown |= {"source_top"} | (
                {"source_per_group", "source_best_rest"} if self.source_in_groups else set()
            )
        else:
            shown |= _PLAYER_OPTIONS
        for name in (*_DEFAULTS, "participants"):
            if name not in shown:
                del self.fields[name]
        if self.source is not None or not self.manual_seeding:
            for player, _name in self.roster:
                del self.fields[f"seed_{player}"]
        self.kept = self._hidden_values() if self.is_bound else []
        if refresh_url:
            self._asks_again(refresh_url)

    def _hidden_values(self) -> list[tuple[str, str]]:
        """What the browser sent of the options, players and seeds this form does not show
        (a change of format, source or seeding hid them): carried along on the page as hidden
        inputs, so that the next change that shows them again shows them as typed. The form
        never reads them (their fields are not in it), so a hidden option does not reach the
        service: it takes its default. A box shown unticked is carried as "false" (an
        unticked box sends nothing)."""
        data = self.data
        shown = set(str(data.get("shown", "")).split(","))
        names = [*_DEFAULTS, "participants", *(f"seed_{player}" for player, _ in self.roster)]
        kept: list[tuple[str, str]] = []
        for name in names:
            if name in self.fields:
                continue
            key = self.add_prefix(name)
            values = data.getlist(key) if isinstance(data, QueryDict) else [data.get(key)]
            values = [str(value) for value in values if value is not None]
            box = isinstance(self.base_fields.get(name), forms.BooleanField)
            if not values and box and name in shown:
                values = ["false"]
            kept.extend((key, value) for value in values)
        return kept

    def _asks_again(self, refresh_url: str) -> None:
        """A change of format, source or seeding asks the page for the form again (htmx), which
        swaps in the options those take; the form's own values go along, not its CSRF token."""
        for name in ("format", "source_stage", "seeding"):
            if name in self.fields:
                self.fields[name].widget.attrs.update(
                    {
                        "hx-get": refresh_url,
                        "hx-target": "#stage-options",
                        "hx-select": "#stage-options",
                        "hx-swap": "outerHTML",
                        "hx-include": "#stage-form",
                        "hx-params": "not csrfmiddlewaretoken",
                    }
                )

    def option_fields(self) -> list[forms.BoundField]:
        """The options this format, source and seeding take, in the order the page shows."""
        return [self[name] for name in _OPTION_ORDER if name in self.fields]

    @property
    def has_participants(self) -> bool:
        return "participants" in self.fields

    @classmethod
    def refreshed(cls, data: Any, **kwargs: Any) -> "StageForm":
        """The form as it stands in the browser (`data`), shown again with the fields its
        format, source and seeding take, and no errors: the page asks for it when one of
        those changes. A field the browser did not show, nor carried hidden (`kept`), starts
        from its initial value (an unticked box sends nothing, so `shown` says which fields
        were there); what the browser sent of the fields the form now hides is carried along
        hidden again."""
        probe = cls(data, **kwargs)
        shown = set(str(data.get("shown", "")).split(","))
        initial = {
            name: field.widget.value_from_datadict(data, {}, probe.add_prefix(name))
            for name, field in probe.fields.items()
            if name in data or name in shown
        }
        form = cls(initial=initial, **kwargs)
        form.kept = probe.kept
        return form

    @property
    def shown(self) -> str:
        """The fields on the page, sent back when the page asks for the form again."""
        return ",".join(self.fields)

    def _current(self, name: str) -> Any:
        if self.is_bound:
            return self.data.get(self.add_prefix(name), "")
        return self.get_initial_for_field(self.fields[name], name)

    def _current_int(self, name: str) -> int | None:
        value = self._current(name)
        try:
            return int(value) if value not in (None, "") else None
        except (TypeError, ValueError):
            return None

    def participant_rows(self) -> list[dict[str, Any]]:
        """Each roster player with whether they are ticked and their seed field (manual)."""
        ticked = {str(pk) for pk in self._ticked()}
        return [
            {
                "id": player,
                "name": name,
                "checked": str(player) in ticked,
                "seed": self[f"seed_{player}"] if f"seed_{player}" in self.fields else None,
            }
            for player, name in self.roster
        ]

    def _ticked(self) -> list[Any]:
        if "participants" not in self.fields:
            return []
        if self.is_bound:
            data = self.data
            key = self.add_prefix("participants")
            return list(data.getlist(key) if isinstance(data, QueryDict) else data.get(key) or [])
        return list(self.get_initial_for_field(self.fields["participants"], "participants") or [])

    def clean_tiebreak(self) -> list[str] | None:
        keys = [key for key in re.split(r"[\s,]+", self.cleaned_data["tiebreak"]) if key]
        return keys or None

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if "participants" in self.fields:
            cleaned["player_ids"] = self._in_seed_order(cleaned)
        return cleaned

    def _in_seed_order(self, cleaned: dict[str, Any]) -> list[int]:
        """The players ticked or given a seed: by seed, then those without one in roster
        order. One seed given twice is refused."""
        ticked = set(cleaned.get("participants") or [])
        seeds: dict[int, int] = {
            player: seed
            for player, _name in self.roster
            if (seed := cleaned.get(f"seed_{player}")) is not None
        }
        taken: dict[int, int] = {}
        for player, seed in seeds.items():
            if seed in taken:
                self.add_error(None, f"Seed {seed} is given to two players.")
            taken[seed] = player
        playing = [player for player, _name in self.roster if player in ticked or player in seeds]
        position = {player: index for index, player in enumerate(playing)}
        return sorted(playing, key=lambda p: (seeds.get(p, MAX_ENTRANTS + 1), position[p]))

    def stage_options(self) -> dict[str, Any]:
        """Every option of the stage (`STAGE_OPTIONS`), as `stage_create` and `stage_update`
        take them: what the form shows, and the defaults of what it does not."""
        data = self.cleaned_data
        options: dict[str, Any] = {
            name: data.get(name, default) if name in self.fields else default
            for name, default in _DEFAULTS.items()
        }
        if options["source_best_rest"] is None:
            options["source_best_rest"] = 0
        options.update(
            name=data["name"],
            format=data["format"],
            tiebreak=data.get("tiebreak"),
            source_stage_id=data.get("source_stage"),
            player_ids=data.get("player_ids", []),
        )
        return options

    @staticmethod
    def initial_of(stage: Stage, seeds: Sequence[tuple[int, int]]) -> dict[str, Any]:
        """A stage's options as the form's initial values; `seeds`: (player, seed)."""
        initial: dict[str, Any] = {
            "name": stage.name,
            "format": stage.format,
            "source_stage": stage.source_stage_id or "",
            "tiebreak": ", ".join(stage.tiebreak or []),
            "participants": [player for player, _seed in seeds],
            **{name: getattr(stage, name) for name in _DEFAULTS},
        }
        if stage.seeding == Seeding.MANUAL:
            initial.update({f"seed_{player}": seed for player, seed in seeds})
        return initial
