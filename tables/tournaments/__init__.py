"""Tournaments: sit & go, multi-table and the fixed-hands game, on ordinary tables.

A tournament's tables are ``tables.Table`` rows (same engine, clock, bots, hidden-card rules and
hand histories as cash games) linked by ``TournamentTable``. The cash game calls in through
``tables.services.hooks`` (registered in ``apps``): the level's stakes before each hand,
eliminations, places, prizes and balancing after each hand, scheduled starts on the croupier's
pass. Chips at its tables are the tournament's, never a bankroll's: the entry fee goes into the
prize pool through the ledger and prizes come out of it.
"""
