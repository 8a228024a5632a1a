"""Clubs: a home for a regular game (members, a schedule, seasons and standings).

A feature app: it imports the core (and the tournaments app) and plugs into them through the
registries they define (``tables.selectors.access``, ``tables.services.hooks``,
``tables.tournaments.access``); neither imports it.
"""
