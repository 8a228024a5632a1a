"""The terminal client and bot kit: ``poker`` (see ``pokerclient.cli``)."""
