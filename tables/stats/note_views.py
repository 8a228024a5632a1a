"""The note form (issue 51): a player's private note and label on another player, posted from
that player's profile page or from a hand's replayer; back to that page when saved."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from tables.http import AuthenticatedRequest
from tables.services.errors import ServiceError
from tables.services.notes import note_clear, note_set


@login_required
@require_POST
def player_note_page(request: AuthenticatedRequest, player_id: int) -> HttpResponse:
    """Save (POST ``text``, ``label``) or clear (POST ``clear=1``) your note on player
    ``player_id``; a refusal says why (400) and changes nothing."""
    author = getattr(request.user, "player", None)
    if author is None:
        raise Http404("You have no player profile.")
    try:
        if request.POST.get("clear") == "1":
            note_clear(author=author, subject_id=player_id)
        else:
            note_set(
                author=author,
                subject_id=player_id,
                text=request.POST.get("text", ""),
                label=request.POST.get("label", ""),
            )
    except ServiceError as error:
        return HttpResponse(str(error), status=400, content_type="text/plain")
    back = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(
        back, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        back = reverse("stats:player", args=[player_id])
    return redirect(back)
