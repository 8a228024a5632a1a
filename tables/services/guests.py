"""Guests: a friend without an account joins a game from its invite link with a name alone.

``guest_join`` makes a guest account for that game's night: a user without a password (its
cookie session is the way in), a player with the starting grant like anyone's (a ledger
line), the game seen as by anyone who opened the link. The name is checked as a sign-up's
(``tables.names``, Django's username rules, not taken in any case, no look-alike of a taken
name: ``tables.usernames``). ``guest_keep``: the guest chooses a password and the account is
theirs like any other. Limits per address: ``RATELIMIT_RULES`` (``tables.ratelimit``).
"""

from __future__ import annotations

import unicodedata

from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from tables.models import Player
from tables.names import name_problem
from tables.selectors.hosting import invite_table
from tables.selectors.players import name_like_taken
from tables.services.errors import InvalidName, InvalidPassword, NoSuchInvite, NotAGuest
from tables.services.hosting import table_guest_join
from tables.services.players import player_create
from tables.usernames import MAX_LENGTH

LOOKALIKE = "This name looks like an existing player's name: please choose another."
TAKEN = "That name is taken: choose another, or log in if it is yours."
INVITE_GONE = "That invite link does not work (it may have been replaced)."


def guest_name_problem(name: str) -> str | None:
    """Why ``name`` (NFKC, trimmed) cannot be a new guest's name, in words (None: it can)."""
    if not name:
        return "Type the name the table will know you by."
    problem = name_problem(name)
    if problem:
        return problem
    if len(name) > MAX_LENGTH:
        return f"A name has at most {MAX_LENGTH} characters."
    try:
        UnicodeUsernameValidator()(name)
    except ValidationError:
        return "A name is letters, digits and @ . + - _ only (no spaces)."
    if get_user_model().objects.filter(username__iexact=name).exists():
        return TAKEN
    if name_like_taken(name):
        return LOOKALIKE
    return None


def guest_join(*, name: str, token: str) -> Player:
    """A guest account named ``name`` for the game of the invite link ``token``, which it may
    see from now on. ``InvalidName`` (the name's problem) or ``NoSuchInvite``; nothing made."""
    name = unicodedata.normalize("NFKC", name if isinstance(name, str) else "").strip()
    problem = guest_name_problem(name)
    if problem:
        raise InvalidName(problem)
    table = invite_table(token)
    if table is None:
        raise NoSuchInvite(INVITE_GONE)
    with transaction.atomic():
        try:
            with transaction.atomic():  # the same name taken meanwhile: refused, not a 500
                user = get_user_model().objects.create_user(username=name)  # no password
        except IntegrityError:
            raise InvalidName(TAKEN) from None
        player = player_create(user=user)
        player.guest_table = table
        player.save(update_fields=["guest_table"])
        table_guest_join(token=token, player=player)  # the link replaced meanwhile: undone
    return player


def guest_keep(*, player: Player, password: str) -> Player:
    """The guest keeps their account by choosing ``password`` (Django's validators): from now
    on they log in with their name and it. ``NotAGuest``, ``InvalidPassword``; nothing done.

    Lock: the player row. The password change closes the account's other sockets
    (``tables.live.sessions``); the caller keeps its own session (``update_session_auth_hash``).
    """
    with transaction.atomic():
        player = Player.objects.select_for_update().select_related("user").get(pk=player.pk)
        if not player.is_guest:
            raise NotAGuest("This account is kept already: change its password on your profile.")
        try:
            password_validation.validate_password(password, player.user)
        except ValidationError as error:
            raise InvalidPassword(" ".join(error.messages)) from None
        player.user.set_password(password)
        player.user.save(update_fields=["password"])
        player.guest_table = None
        player.save(update_fields=["guest_table"])
    return player
