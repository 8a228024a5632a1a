"""Who may read what. Every API view names its permission classes; the project default
(``REST_FRAMEWORK["DEFAULT_PERMISSION_CLASSES"]``) is ``IsAuthenticated``, so nothing is open
by accident.

- public (``AllowAny``, read-only views: other methods are 405): tables, leaderboard, the
  schema and its docs, the token exchange;
- logged in (``IsAuthenticated``): hand histories, hand lists, profiles and statistics;
  starting a game and everything about hosted games (``tables.api.hosting``: reading tables
  stays public, private games filtered; a host control is 403 for anyone but the host and
  staff);
- staff only: another player's hand list (checked in the view).
"""

from django.contrib.auth.models import User
from rest_framework.permissions import SAFE_METHODS, AllowAny, BasePermission, IsAuthenticated
from rest_framework.request import Request
from rest_framework.views import APIView

__all__ = ["AllowAny", "AuthenticatedApiRequest", "IsAuthenticated", "ReadOrLoggedIn"]


class ReadOrLoggedIn(BasePermission):
    """Reading is public (private games are filtered), writing needs a log-in."""

    def has_permission(self, request: Request, view: APIView) -> bool:
        return request.method in SAFE_METHODS or bool(
            request.user and request.user.is_authenticated
        )


class AuthenticatedApiRequest(Request):
    """The request of an API view (or method) behind ``IsAuthenticated``: its ``user`` is a
    ``User``, never the anonymous one (the DRF twin of ``tables.http.AuthenticatedRequest``)."""

    user: User
