"""The browser knockout test's service-level sibling (issue 52): a six-player progressive
knockout with rebuys and an add-on, two players taking the add-on, played through the
services (fixed decks) to a final-table ICM deal. The add-on's price goes to the prize pool,
its chips onto the table; every fee (entries and add-ons) is paid out as prizes (the deal's
shares included) and bounties, to the chip."""

from __future__ import annotations

import pytest
from django.db.models import Sum

from tables.selectors.chips import chips_conserved, chips_total
from tables.tournaments.deals import deal_refusal, players_left
from tables.tournaments.models import Deal, Tournament
from tables.tournaments.selectors import chips_issued
from tables.tournaments.services import tournament_create, tournament_register
from tables.tournaments.services.addons import tournament_addon
from tables.tournaments.services.deals import deal_answer, deal_propose

from .helpers import make_player, play

pytestmark = pytest.mark.django_db

FAST = [{"small_blind": 25 * 2**n, "big_blind": 50 * 2**n, "hands": 3} for n in range(12)]


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def test_a_knockout_with_addons_played_to_an_icm_deal_pays_out_every_fee():
    people = [make_player(f"p{n}") for n in range(6)]
    by_id = {person.pk: person for person in people}
    tournament = tournament_create(
        organiser=people[0],
        name="PKO add-on",
        entry_fee=100,
        bounty_kind="pko",
        bounty=40,
        starting_stack=1000,
        levels=FAST,
        rebuy_levels=1,
        addon_chips=1000,
        addon_price=50,
        start="when-full",
    )
    for person in people:
        tournament_register(tournament=tournament, player=person)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    # Level 1 is the last of the rebuys: the add-on is open from the start (no hand yet).
    for person in people[:2]:
        tournament_addon(tournament=tournament, player=person)
    tournament.refresh_from_db()
    assert tournament.prize_pool == 6 * 60 + 2 * 50
    assert chips_issued(tournament) == 6 * 1000 + 2 * 1000

    def deal_when_four_or_fewer_are_left(table_id: int) -> None:
        tournament.refresh_from_db()
        left = players_left(tournament)
        if tournament.status != Tournament.Status.RUNNING or len(left) > 4:
            return
        proposer, *others = (by_id[player_id] for player_id in left)
        if deal_refusal(tournament, proposer.pk) is not None:
            return  # rebuys still open, or a deal made already
        deal_propose(tournament=tournament, player=proposer)
        for person in others:
            deal_answer(tournament=tournament, player=person, accept=True)

    play(tournament, on_hand_end=deal_when_four_or_fewer_are_left)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    deal = tournament.deals.get()
    assert (deal.status, deal.method) == (Deal.Status.MADE, Deal.Method.ICM)
    shares = [row["share"] for row in deal.offer]
    assert sum(shares) == sum(deal.prizes) and 2 <= len(shares) <= 4
    entries = tournament.entries.all()
    assert sorted(e.deal_share for e in entries if e.deal_share is not None) == sorted(shares)
    assert [e.fee_paid for e in entries.filter(addon_taken=True).order_by("player_id")] == [
        150,
        150,
    ]
    sums = entries.aggregate(
        fees=Sum("fee_paid"), prizes=Sum("prize"), bounties=Sum("bounties_won"), heads=Sum("bounty")
    )
    rebuys = entries.aggregate(rebuys=Sum("rebuys"))["rebuys"]
    assert sums["fees"] == (6 + rebuys) * 100 + 2 * 50
    assert sums["prizes"] == tournament.prize_pool == (6 + rebuys) * 60 + 2 * 50
    assert sums["bounties"] == (6 + rebuys) * 40 and sums["heads"] == 0
    assert sums["fees"] == sums["prizes"] + sums["bounties"]  # to the chip
    assert chips_conserved(chips_total())
