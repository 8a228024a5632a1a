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
#: A net's bounds: PokerNow writes at most cents; a trillion is more than any night, and a net
#: beyond these (``1e999999999``) would overflow the settle-up's arithmetic.
MAX_NET_DIGITS = 12
MAX_NET_PLACES = 2


@dataclass(frozen=True)
class Night:
    """Each player's net (summed over their sessions) and the transfers that square them."""

    nets: dict[str, Decimal]
    transfers: list[tuple[str, str, Decimal]]  # (payer, payee, amount)


def _net(text: str | None) -> Decimal:
    """The amount ``text`` (``InvalidOperation`` when it is none, or out of bounds)."""
    if text is None:  # a short row
        raise InvalidOperation
    net = Decimal(text)
    if not net.is_finite():
        raise InvalidOperation
    places = -int(net.as_tuple().exponent)
    if net.adjusted() >= MAX_NET_DIGITS or places > MAX_NET_PLACES:
        raise InvalidOperation
    return net


def _nets(reader: csv.DictReader[str]) -> dict[str, Decimal]:
    missing = [column for column in REQUIRED if column not in (reader.fieldnames or [])]
    if missing:
        raise BadLedger(f"line 1: not a PokerNow ledger (no column {', '.join(missing)})")
    nets: dict[str, Decimal] = {}
    for line, row in enumerate(reader, start=2):
        try:
            net = _net(row["net"])
        except InvalidOperation:
            raise BadLedger(
                f"line {line}: the net {row['net']!r} is not an amount (at most "
                f"{MAX_NET_DIGITS} digits and {MAX_NET_PLACES} decimals)"
            ) from None
        name = f"{row['player_nickname']} @ {row['player_id']}"
        nets[name] = nets.get(name, Decimal(0)) + net
    return nets


def read_ledger(text: str) -> Night:
    """The night of a PokerNow ledger CSV; ``BadLedger`` naming the first line it cannot read."""
    reader = csv.DictReader(io.StringIO(text.lstrip("\ufeff")))
    try:
        nets = _nets(reader)
    except csv.Error as error:  # a field over the reader's limit: not a PokerNow ledger
        raise BadLedger(f"line {reader.line_num}: not a PokerNow ledger ({error})") from None
    if sum(nets.values(), Decimal(0)) != 0:
        raise BadLedger("the ledger's nets do not sum to zero: chips were created or lost")
    # settle in whole units of the smallest amount the ledger uses
    places = max((-int(net.as_tuple().exponent) for net in nets.values()), default=0)
    scale = Decimal(10) ** max(places, 0)
    transfers = settle({name: int(net * scale) for name, net in nets.items()})
    return Night(nets, [(t.payer, t.payee, Decimal(t.amount) / scale) for t in transfers])
