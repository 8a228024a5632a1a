"""Why an upload was refused: each a ``ValueError`` with a stable ``code`` (the API sends it)."""

from __future__ import annotations


class ImportRefused(ValueError):
    """Nothing was imported; ``str(error)`` says why, for a person."""

    code = "import_refused"


class NotPokerNowLog(ImportRefused):
    """The file is not a PokerNow log: the message names the first line it cannot read."""

    code = "not_pokernow_log"


class ImportTooLarge(ImportRefused):
    """The file is over the size or row limit (``tables.imports.services.LIMITS``)."""

    code = "import_too_large"


class NameNotInLog(ImportRefused):
    """The PokerNow name the player picked is not seated in any hand of the log."""

    code = "name_not_in_log"


class BadLedger(ImportRefused):
    """The ledger CSV is not PokerNow's, or its nets do not sum to zero."""

    code = "bad_ledger"


class AlreadyImported(ImportRefused):
    """Every hand of the player's in the log was imported before: nothing new to import."""

    code = "already_imported"
