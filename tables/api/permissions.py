"""Who may read what (every view names its permission classes; the default is
``IsAuthenticated``)."""

from rest_framework.permissions import SAFE_METHODS, AllowAny, BasePermission, IsAuthenticated

__all__ = ["AllowAny", "IsAuthenticated", "ReadOnly", "PublicRead"]


class ReadOnly(BasePermission):
    """Only GET, HEAD and OPTIONS."""

    message = "This resource is read-only."

    def has_permission(self, request, view):
        return request.method in SAFE_METHODS


#: Public information (tables, leaderboard): anyone may read it, nobody may change it here.
PublicRead = [ReadOnly]
