"""Fixed decks for a browser test's server: on the server's ``PYTHONPATH`` (this folder) with
``POKER_TEST_FIRST_SEED=<n>``, hand k of the server is dealt from seed n + k (hex), as the
service tests fix their decks; without that variable nothing changes.

Python imports ``sitecustomize`` at start-up, before Django: ``engine.deck.new_seed`` is
replaced before ``tables.services.hands`` imports it.
"""

from __future__ import annotations

import itertools
import os

_first = os.environ.get("POKER_TEST_FIRST_SEED")
if _first is not None:
    import engine.deck

    _seeds = itertools.count(int(_first))
    engine.deck.new_seed = lambda: f"{next(_seeds):064x}"
