"""Player statistics: ``figures`` (one player's part in one hand, from the engine's typed
events, and their totals), ``views`` and ``urls`` (the stats pages, the replayer and the
leaderboard). The reads are in ``tables.selectors.stats``; the API's in ``tables.api``."""
