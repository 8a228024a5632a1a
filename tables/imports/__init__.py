"""Games played elsewhere, brought here: PokerNow logs (and their ledgers) uploaded by a player.

Imported hands live in this app's own tables (``ImportedHand``), never in ``tables.Hand``: no
play-chip figure, bankroll, chip-conservation check or leaderboard reads them, so none of
those selectors needs a filter.
"""
