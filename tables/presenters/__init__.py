"""Pure: what one viewer sees of a table, as typed view models, and their HTML.

- ``models``: the view models (frozen dataclasses): one per region of the table screen
  (seats, board, actions, controls, log) and their parts, and the ``Screen`` of one viewer.
- ``screen``: a ``Screen`` built from a ``tables.selectors.snapshot.Snapshot`` and the
  engine's view of it for one viewer (``table_screen``); no ORM, no database read.
- ``log``: the hand's log in words, from the engine's typed events.
- ``render``: the Jinja partials (``templates/jinja2/tables/``) and their HTML caches, each
  keyed on the view model it renders.
"""
