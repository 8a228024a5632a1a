"""The REST API (``/api/...``): tables, hand histories (JSON and PHH) and player statistics.

Views are thin: they read through ``tables.selectors`` and never
see a raw hand: a hand goes out only through the engine's viewer filter (``Hand.view``), and
only once it is finished.
"""
