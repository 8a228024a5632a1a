"""PokerNow's ledger CSV (``player_nickname,player_id,...,net``) as one night's nets and who
owes whom (``engine.debts.settle``, the same settle-up as a game played here)."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from engine.debts import settle
from tables.imports.errors import BadLedger

REQUIRED = ("player_nickname", "player_id", "net")


@dataclass(frozen=True)
class Night:
    """Each player's net (summed over their sessions) and the transfers that square them."""

    nets: dict[str, Decimal]
    transfers: list[tuple[str, str, Decimal]]  # (payer, payee, amount)


def read_ledger(text: str) -> Night:
    """The night of a PokerNow ledger CSV; ``BadLedger`` naming the first line it cannot read."""
    reader = csv.DictReader(io.StringIO(text.lstrip("\ufeff")))
    missing = [column for column in REQUIRED if column not in (reader.fieldnames or [])]
    if missing:
        raise BadLedger(f"line 1: not a PokerNow ledger (no column {', '.join(missing)})")
    nets: dict[str, Decimal] = {}
    for line, row in enumerate(reader, start=2):
        try:
            net = Decimal(row["net"])
            if not net.is_finite():
                raise InvalidOperation
        except (InvalidOperation, TypeError):
            raise BadLedger(f"line {line}: the net {row['net']!r} is not an amount") from None
        name = f"{row['player_nickname']} @ {row['player_id']}"
        nets[name] = nets.get(name, Decimal(0)) + net
    if sum(nets.values(), Decimal(0)) != 0:
        raise BadLedger("the ledger's nets do not sum to zero: chips were created or lost")
    # settle in whole units of the smallest amount the ledger uses
    places = max((-int(net.as_tuple().exponent) for net in nets.values()), default=0)
    scale = Decimal(10) ** max(places, 0)
    transfers = settle({name: int(net * scale) for name, net in nets.items()})
    return Night(nets, [(t.payer, t.payee, Decimal(t.amount) / scale) for t in transfers])
