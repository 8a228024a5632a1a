"""Player statistics, a feature on the core (an app: ``StatsConfig``): ``figures`` (one
player's part in one hand, from the engine's typed events, and their totals),
``player_hands`` (the rows the figures are summed from, written at each hand's end through the
core's ``hand_finished`` hook), ``selectors`` (statistics and finished hands' histories),
``views`` and ``urls`` (the stats pages, the replayer and the leaderboard). The API's are in
``tables.api``."""
