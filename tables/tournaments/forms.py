"""The "Organise a tournament" form: every setting of ``services.create.tournament_create``,
with presets or custom levels written one per line. The form reads the text; the service checks
the tournament as a whole (a refusal is shown on the field it names). ``TournamentEditForm``:
the same form holding a tournament's settings, to change them before its start."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import forms
from django.db.models import Q
from django.utils import timezone

from tables.http import Viewer
from tables.models import Player, Table
from tables.services.errors import ServiceError
from tables.tournaments import structure
from tables.tournaments.errors import TournamentInvalid
from tables.tournaments.models import Tournament
from tables.tournaments.services import edit, organise

STRUCTURES = [
    ("hyper", "Hyper (2-minute levels, for sit & goes)"),
    ("turbo", "Turbo (3-minute levels)"),
    ("regular", "Regular (10-minute levels)"),
    ("deep", "Deep (20-minute levels)"),
    ("custom", "Custom levels (below; they start from the structure previewed)"),
]
LEVEL_UNITS = [("minutes", "minutes"), ("hands", "hands")]
#: The settings the edit form starts from, as the tournament holds them: the service's, but
#: the start time and the payout percentages, which the form writes its own way.
KEPT_SETTINGS = tuple(name for name in edit.HELD if name not in ("start_at", "payout_percentages"))
#: Settings the form may leave empty (the service's defaults: a freezeout without breaks).
OPTIONAL_DEFAULTS = (
    "satellite_target",
    "time_bank_refill_seconds",
    "bounty_kind",
    "bounty",
    "rebuy_levels",
    "max_rebuys",
    "max_reentries",
    "addon_chips",
    "addon_price",
    "break_every_levels",
    "break_minutes",
)


class TournamentForm(forms.Form):
    name = forms.CharField(max_length=60)
    format = forms.ChoiceField(choices=Tournament.Format.choices, initial="sit-and-go")
    game = forms.ChoiceField(choices=Table.GAME_CHOICES, initial=Table.DEFAULT_GAME)
    betting = forms.ChoiceField(choices=Table.Betting.choices, initial=Table.Betting.NO_LIMIT)
    seats_per_table = forms.IntegerField(min_value=2, max_value=10, initial=6)
    max_entrants = forms.IntegerField(
        min_value=2, required=False, help_text="Empty: a sit & go takes its seats; no cap else."
    )
    entry_fee = forms.IntegerField(min_value=0, initial=0, help_text="0 for a freeroll.")
    bounty_kind = forms.ChoiceField(
        choices=Tournament.Bounty.choices, initial="none", required=False, label="Bounties"
    )
    bounty = forms.IntegerField(
        min_value=0,
        initial=0,
        required=False,
        help_text="The part of the entry fee put on each player's head.",
    )
    satellite_target = forms.TypedChoiceField(
        coerce=int,
        empty_value=None,
        required=False,
        label="Satellite to",
        help_text="Its prizes are seats in that tournament (pool ÷ its entry fee; the "
        "remainder to the next place).",
    )
    starting_stack = forms.IntegerField(min_value=1, initial=1500)
    starting_big_blinds = forms.IntegerField(
        min_value=1,
        max_value=10**6,
        required=False,
        label="Or the starting stack in big blinds",
        help_text="Of the first level (e.g. 50): replaces the stack above.",
    )
    structure = forms.ChoiceField(choices=STRUCTURES, initial="regular")
    levels = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text="Custom: one level per line: small blind, big blind, ante, length "
        '(e.g. "25 50 0 10").',
    )
    level_unit = forms.ChoiceField(
        choices=LEVEL_UNITS, initial="minutes", label="Custom level length in"
    )
    hands = forms.IntegerField(min_value=1, required=False, help_text="Fixed hands only.")
    late_registration_levels = forms.IntegerField(
        min_value=0, initial=0, help_text="Registration stays open this many levels."
    )
    # Rebuys, re-entry and breaks: optional, a freezeout without breaks when left out.
    rebuy_levels = forms.IntegerField(
        min_value=0,
        initial=0,
        required=False,
        label="Rebuys during the first",
        help_text="levels (0: a freezeout). A player at or below the starting stack, or out, "
        "pays the entry fee again for another starting stack.",
    )
    max_rebuys = forms.IntegerField(
        min_value=1, max_value=100, initial=1, required=False, label="Rebuys per player"
    )
    addon_chips = forms.IntegerField(
        min_value=0,
        initial=0,
        required=False,
        label="Add-on chips",
        help_text="0: no add-on. Once per player, during the last rebuy level and a break "
        "after it, added to their stack between hands.",
    )
    addon_price = forms.IntegerField(
        min_value=0, initial=0, required=False, label="Add-on price", help_text="Into the pool."
    )
    max_reentries = forms.IntegerField(
        min_value=0,
        max_value=100,
        initial=0,
        required=False,
        label="Re-entries per player",
        help_text="A player out enters again (a new fee and stack) during late registration.",
    )
    break_every_levels = forms.IntegerField(
        min_value=0,
        initial=0,
        required=False,
        label="A break every",
        help_text="levels (0: no breaks; levels by minutes only).",
    )
    break_minutes = forms.IntegerField(
        min_value=1, max_value=120, initial=5, required=False, label="Break length (minutes)"
    )
    bot_entrants = forms.IntegerField(min_value=0, initial=0, label="Bots entered")
    start = forms.ChoiceField(choices=Tournament.Start.choices, initial="manual")
    start_at = forms.DateTimeField(
        required=False,
        label="Start time",
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
        help_text="For a start at a set time (your time zone).",
    )
    payouts = forms.ChoiceField(choices=Tournament.Payouts.choices, initial="standard")
    payout_percentages = forms.CharField(
        required=False, help_text='Your percentages for places 1, 2, 3... (e.g. "50 30 20").'
    )
    action_seconds = forms.IntegerField(min_value=3, max_value=600, initial=20)
    time_bank_refill_seconds = forms.IntegerField(
        min_value=0,
        max_value=30,
        initial=0,
        required=False,
        label="Time bank refill per level (seconds)",
        help_text="Given back to each player's 30-second time bank at every new level.",
    )
    private = forms.BooleanField(
        required=False, help_text="Seen only by you, the entrants and whoever you invite."
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.offer_targets(
            Tournament.objects.filter(
                status=Tournament.Status.REGISTERING,
                registration_open=True,
                entry_fee__gt=0,
                private=False,
            ).order_by("created_at")
        )

    def offer_targets(self, targets: Iterable[Tournament]) -> None:
        """The tournaments offered as a satellite's target."""
        field = self.fields["satellite_target"]
        assert isinstance(field, forms.TypedChoiceField)
        field.choices = [("", "No: prizes in chips")] + [
            (t.pk, f"{t.name} (entry {t.entry_fee})") for t in targets
        ]

    def clean_levels(self) -> list[Any] | None:
        text = self.cleaned_data.get("levels", "").strip()
        if not text:
            return None
        levels, problem = structure.levels_from_text(text, self.data.get("level_unit", ""))
        if problem:
            raise forms.ValidationError(problem)
        return levels

    def clean_payout_percentages(self) -> list[int]:
        text = self.cleaned_data.get("payout_percentages", "").replace(",", " ").split()
        if not all(p.isascii() and p.isdigit() for p in text):
            raise forms.ValidationError("Whole percentages separated by spaces.")
        return [int(p) for p in text]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("structure") == "custom" and not data.get("levels"):
            self.add_error("levels", "Give the custom levels, one per line.")
        if data.get("start") == Tournament.Start.AT_TIME:
            moment = data.get("start_at")
            if moment is None:
                self.add_error("start_at", "Give the start time.")
            elif moment <= timezone.now():
                self.add_error("start_at", "That time has passed.")
        return data

    def settings(self) -> dict[str, Any]:
        """The service's keyword arguments."""
        data = dict(self.cleaned_data)
        chosen = data.pop("structure")
        data.pop("level_unit")
        if chosen == "custom":
            data["structure_name"] = "custom"
        else:
            data["structure_name"] = chosen  # fixed hands + regular: blinds doubling every 5
            data["levels"] = None
        if data["start"] != Tournament.Start.AT_TIME:
            data["start_at"] = None
        for optional in (*OPTIONAL_DEFAULTS, "starting_big_blinds"):  # empty: the default
            if data.get(optional) in (None, ""):
                data.pop(optional, None)
        if not data.get("break_every_levels"):
            data.pop("break_minutes", None)  # no breaks: their length does not matter
        return data

    def organise(self, organiser: Player) -> Tournament | None:
        """Organise the tournament of a valid form (the site's page and the admin's); a
        refusal is put on the field it names (nothing is made) and None returned."""
        try:
            return organise.tournament_organise(organiser=organiser, **self.settings())
        except ServiceError as error:
            self.refused(error)
        return None

    def refused(self, error: ServiceError) -> None:
        """A service's refusal on the field it names (the whole form's when none)."""
        if isinstance(error, TournamentInvalid):
            field = {"structure_name": "structure"}.get(error.field, error.field)
            self.add_error(field if field in self.fields else None, str(error))
        else:
            self.add_error(None, str(error))


class TournamentEditForm(TournamentForm):
    """The organise form holding ``tournament``'s settings (its levels as custom ones when
    they are no preset), for its organiser before the start; saved through
    ``services.edit``. Its bots are entries already: no bots to enter here."""

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, initial=settings_of(tournament), **kwargs)
        self.tournament = tournament
        del self.fields["bot_entrants"]
        start_at = self.fields["start_at"].widget
        assert isinstance(start_at, forms.DateTimeInput)
        start_at.format = "%Y-%m-%dT%H:%M"  # what a datetime-local field shows
        # not itself; its own target still (a private one too)
        targets = Tournament.objects.filter(
            Q(
                status=Tournament.Status.REGISTERING,
                registration_open=True,
                entry_fee__gt=0,
                private=False,
            )
            | Q(pk=tournament.satellite_target_id)
        ).exclude(pk=tournament.pk)
        self.offer_targets(targets.order_by("created_at"))

    def save(self, by: Viewer) -> Tournament | None:
        """Give the tournament the form's settings (a valid form); a refusal is put on the
        field it names (nothing changes) and None returned."""
        try:
            return edit.tournament_edit(tournament=self.tournament, by=by, **self.settings())
        except ServiceError as error:
            self.refused(error)
        return None


def settings_of(tournament: Tournament) -> dict[str, Any]:
    """The organise form's fields as ``tournament`` has them."""
    initial: dict[str, Any] = {name: getattr(tournament, name) for name in KEPT_SETTINGS}
    levels = tournament.levels
    preset = structure.named_levels(tournament.structure, fixed_hands=tournament.hands)
    if preset is not None and preset == levels:
        initial["structure"] = (
            "regular" if tournament.structure == "doubling" else tournament.structure
        )
    else:
        initial["structure"] = "custom"
        initial["levels"] = structure.levels_text(levels)
        initial["level_unit"] = "hands" if "hands" in levels[0] else "minutes"
    initial["satellite_target"] = tournament.satellite_target_id
    initial["payout_percentages"] = " ".join(map(str, tournament.payout_percentages))
    if tournament.start_at is not None:
        initial["start_at"] = timezone.localtime(tournament.start_at)
    return initial
