"""The poker site's Django app: persistent tables, seats, hands and the chip ledger."""
