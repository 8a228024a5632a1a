"""``decision_write``: a decision's log row, written from its values (as an action's write
sends it), is the row ``HandAction.objects.create`` writes (this file runs in both passes)."""

import pytest
from django.db import transaction
from django.forms.models import model_to_dict
from django.utils import timezone

from tables.db.statements import run
from tables.models import HandAction
from tables.selectors.hands import Decision
from tables.services import hand_start, seat_take
from tables.services.events import decision_write

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize(
    "decision",
    [
        Decision("raise", 120, HandAction.Source.PLAYER),
        Decision("fold", None, HandAction.Source.TIMEOUT),
        Decision("draw", None, HandAction.Source.BOT, "7h2c"),
        Decision("check", None, HandAction.Source.PRE_ACTION),
    ],
)
def test_a_decisions_row_is_the_one_the_orm_writes(players, table, decision):
    for number, player in enumerate(players):
        seat_take(table=table, player=player, buy_in=100, seat_number=number)
    hand = hand_start(table=table)
    before = timezone.now()
    with transaction.atomic():
        run(decision_write(decision, hand.pk, 50, 2))
        HandAction.objects.create(
            hand=hand,
            index=51,
            seat=2,
            kind=decision.kind,
            amount=decision.amount,
            cards=decision.cards,
            source=decision.source,
        )
    written, orm = HandAction.objects.filter(hand=hand, index__gte=50).order_by("index")
    ours, theirs = model_to_dict(written), model_to_dict(orm)
    assert ours.pop("id") != theirs.pop("id")
    assert (ours.pop("index"), theirs.pop("index")) == (50, 51)
    assert ours == theirs
    assert before <= written.created_at <= orm.created_at and written.created_at.tzinfo
