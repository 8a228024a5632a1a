"""Structures you can see (issue 52): the hyper preset, a starting stack in big blinds, the
duration estimate (a pure function), and the organise page's preview of the chosen levels
(blinds, antes, breaks, the estimate) from which *Custom* starts."""

from __future__ import annotations

import pytest
from django.test import Client

from tables.tournaments import structure
from tables.tournaments.errors import TournamentInvalid
from tables.tournaments.models import Tournament
from tables.tournaments.services import tournament_create

BY_HANDS = [{"small_blind": 10 * 2**n, "big_blind": 20 * 2**n, "hands": 5} for n in range(6)]


def test_hyper_is_a_preset_of_two_minute_levels_on_the_same_blinds():
    hyper = structure.preset_levels("hyper")
    regular = structure.preset_levels("regular")
    assert {level["minutes"] for level in hyper} == {2}
    assert [level["big_blind"] for level in hyper] == [level["big_blind"] for level in regular]
    assert list(structure.PRESET_MINUTES)[0] == "hyper"


def test_the_estimate_ends_at_the_first_level_whose_big_blind_is_a_thirtieth_of_the_chips():
    regular = structure.preset_levels("regular")
    # 6 x 1,500 = 9,000 chips: a 300 big blind (level 9) is a thirtieth of them.
    six = structure.duration_estimate(regular, entrants=6, starting_stack=1500)
    assert six == structure.DurationEstimate(levels=9, length=90, unit="minutes", open_ended=False)
    assert six.text == "about 1 h 30 min"
    # A break of 5 minutes after every 4 levels: two breaks before level 9.
    with_breaks = structure.duration_estimate(
        regular, entrants=6, starting_stack=1500, break_every=4, break_minutes=5
    )
    assert (with_breaks.levels, with_breaks.length) == (9, 100)
    # More entrants, more chips: later levels. Hyper: the same levels, a fifth of the time.
    hundred = structure.duration_estimate(regular, entrants=100, starting_stack=1500)
    assert hundred.levels > six.levels
    hyper = structure.duration_estimate(
        structure.preset_levels("hyper"), entrants=6, starting_stack=1500
    )
    assert (hyper.levels, hyper.length, hyper.text) == (9, 18, "about 18 min")


def test_the_estimate_counts_hands_for_levels_by_hands_and_says_when_the_last_level_stays():
    # 4 x 600 = 2,400 chips: an 80 big blind (level 3) is a thirtieth.
    hands = structure.duration_estimate(BY_HANDS, entrants=4, starting_stack=600)
    assert hands == structure.DurationEstimate(levels=3, length=15, unit="hands", open_ended=False)
    assert hands.text == "about 15 hands"
    # So many chips that no level reaches it: the last level stays, at least all of them.
    deep = structure.duration_estimate(BY_HANDS, entrants=50, starting_stack=100_000)
    assert (deep.levels, deep.length, deep.open_ended) == (6, 30, True)
    assert deep.text == "more than 30 hands (the last level stays)"
    # One entrant (before anyone registers) is estimated as two.
    assert structure.duration_estimate(BY_HANDS, entrants=0, starting_stack=600).levels == 2


def test_levels_are_written_one_per_line_as_the_custom_field_reads_them():
    assert structure.levels_text(BY_HANDS[:2]) == "10 20 0 5\n20 40 0 5"


@pytest.mark.django_db
def test_a_starting_stack_in_big_blinds_is_that_many_first_big_blinds(players):
    made = tournament_create(
        organiser=players[0], name="Hyper", structure_name="hyper", starting_big_blinds=25
    )
    assert (made.structure, made.starting_stack) == ("hyper", 500)
    custom = tournament_create(
        organiser=players[0], name="Custom", levels=BY_HANDS, starting_big_blinds=40
    )
    assert custom.starting_stack == 800
    with pytest.raises(TournamentInvalid) as refused:
        tournament_create(organiser=players[0], name="Bad", starting_big_blinds=0)
    assert refused.value.field == "starting_big_blinds"
    assert Tournament.objects.count() == 2


# --- the organise page ---------------------------------------------------------------------
FORM = {
    "name": "Preview",
    "format": "sit-and-go",
    "game": "holdem",
    "betting": "no-limit",
    "seats_per_table": 6,
    "entry_fee": 0,
    "starting_stack": 1500,
    "structure": "regular",
    "level_unit": "minutes",
    "late_registration_levels": 0,
    "bot_entrants": 0,
    "start": "manual",
    "payouts": "standard",
    "action_seconds": 20,
}


def site_for(player) -> Client:
    client = Client()
    client.force_login(player.user)
    return client


def test_the_organise_page_previews_the_chosen_levels_with_the_estimate(players):
    page = site_for(players[0]).get("/tournaments/new/").content.decode()
    preview = page.split('id="structure-preview"')[1]
    assert "Hyper (2-minute levels" in page
    assert '<td class="num">10/20</td>' in preview  # level 1 of the regular preset
    assert "about 1 h 30 min for 6 entrants" in preview
    assert 'hx-get="/tournaments/new/structure/"' in page


def test_the_preview_follows_the_settings_breaks_and_stack_in_big_blinds(players):
    site = site_for(players[0])
    query = {
        **FORM,
        "structure": "turbo",
        "starting_big_blinds": 50,
        "break_every_levels": 4,
        "break_minutes": 5,
    }
    preview = site.get("/tournaments/new/structure/", query).content.decode()
    assert "3 min" in preview and "Break: 5 min" in preview
    assert "1,000 chips (50 big blinds)" in preview
    # 6 x 1,000 = 6,000: a 200 big blind (level 8), 24 minutes and a break after level 4.
    assert "about 29 min for 6 entrants" in preview


def test_choosing_custom_starts_from_the_previewed_structures_levels(players):
    site = site_for(players[0])
    page = site.get("/tournaments/new/").content.decode()
    assert "js/tournament_structure.js" in page  # copies data-levels-text as Custom is chosen
    regular = structure.levels_text(structure.preset_levels("regular"))
    assert f'data-levels-text="{regular}" data-level-unit="minutes"' in page
    # Custom chosen with its field empty: the structure previewed before is previewed still,
    # its levels ready to copy; and the next Custom starts from it.
    query = {**FORM, "structure": "custom", "levels": "", "previewed": "hyper"}
    answer = site.get("/tournaments/new/structure/", query).content.decode()
    hyper = structure.levels_text(structure.preset_levels("hyper"))
    assert f'data-levels-text="{hyper}"' in answer
    assert '<td class="num">10/20</td>' in answer and "2 min" in answer
    assert 'value="hyper" hx-swap-oob="true"' in answer
    assert "<textarea" not in answer  # the fields are never replaced from the server
    # Custom levels written: previewed as they are; a wrong line is said.
    written = site.get(
        "/tournaments/new/structure/",
        {**query, "levels": "5 10 0 4\n10 20 0 4", "level_unit": "hands"},
    ).content.decode()
    assert '<td class="num">5/10</td>' in written and "4 hands" in written
    assert 'data-levels-text="5 10 0 4\n10 20 0 4" data-level-unit="hands"' in written
    wrong = site.get("/tournaments/new/structure/", {**query, "levels": "5 10"}).content.decode()
    assert "Line 1" in wrong


def test_the_form_takes_hyper_and_a_stack_in_big_blinds(players):
    made = site_for(players[0]).post(
        "/tournaments/new/", {**FORM, "structure": "hyper", "starting_big_blinds": 30}
    )
    tournament = Tournament.objects.get()
    assert made.url == f"/tournaments/{tournament.pk}/"
    assert (tournament.structure, tournament.starting_stack) == ("hyper", 600)
    assert tournament.levels == structure.preset_levels("hyper")
