"""``/api/notes/``: your private notes on other players (issue 51), and nobody else's.

``GET /api/notes/`` lists them all, ``{"notes": [...]}``: it is also their export, which
``POST /api/notes/import/`` takes back (all of it or nothing: the first bad note is named and
nothing is written). ``GET``, ``PUT`` and ``DELETE /api/notes/<player id>/``: one note.
A note is seen by its author alone: no other answer of the API holds one.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import exceptions, serializers
from rest_framework.parsers import JSONParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tables.api.exceptions import ErrorSerializer
from tables.api.hosting import ServiceRefused
from tables.api.permissions import IsAuthenticated
from tables.api.strict import StrictCharField, StrictWholeNumberField
from tables.api.views import ID, _id
from tables.models import Player, PlayerNote
from tables.selectors.notes import author_notes, note_on, player_ids_by_name
from tables.services.errors import ServiceError
from tables.services.notes import COLOURS, note_clear, note_set, notes_import

#: The most notes one import may hold.
MAX_IMPORTED = 5000
LABEL_HELP = f"One of {', '.join(COLOURS)}, or empty for none."


class NoteSerializer(serializers.Serializer[Any]):
    """One of your notes, as listed, exported and imported."""

    player_id = serializers.IntegerField(source="subject_id", help_text="Who the note is on.")
    player = serializers.CharField(source="subject.name", help_text="Their name.")
    # the metaclass moves declared fields out of the class: ``Field.label`` stays
    label = serializers.CharField(help_text=LABEL_HELP)  # type: ignore[assignment]
    text = serializers.CharField(help_text=f"At most {PlayerNote.MAX_TEXT} characters.")
    updated_at = serializers.DateTimeField()


class NotesSerializer(serializers.Serializer[Any]):
    notes = NoteSerializer(many=True)


class NoteBodySerializer(serializers.Serializer[Any]):
    """A note as set: its text and label (both empty: the note is cleared)."""

    text = StrictCharField(
        allow_blank=True,
        trim_whitespace=False,
        default="",
        max_length=PlayerNote.MAX_TEXT,
        help_text="Plain text (line breaks kept, control characters made spaces), trimmed.",
    )
    label = serializers.ChoiceField(  # type: ignore[assignment]
        choices=["", *COLOURS], allow_blank=True, default="", help_text=LABEL_HELP
    )


class ImportedNoteSerializer(NoteBodySerializer):
    """A note of an import: on ``player_id``, or (without it) on the player named ``player``."""

    player_id = StrictWholeNumberField(required=False)
    player = StrictCharField(required=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if "player_id" not in attrs and "player" not in attrs:
            raise serializers.ValidationError("Say who the note is on: player_id or player.")
        return attrs


class NotesImportSerializer(serializers.Serializer[Any]):
    notes = serializers.ListField(child=ImportedNoteSerializer(), max_length=MAX_IMPORTED)


class NotesImportedSerializer(serializers.Serializer[Any]):
    imported = serializers.IntegerField(help_text="How many notes were set (or cleared).")


def _author(request: Request) -> Player:
    player: Player | None = getattr(request.user, "player", None)
    if player is None:
        raise exceptions.NotFound("You have no player profile.")
    return player


def _refused(error: ServiceError) -> exceptions.APIException:
    """A note refused: 404 for no such player, else 400; nothing was written."""
    if error.code == "no_such_player":
        return exceptions.NotFound(str(error))
    refusal = ServiceRefused(error)
    refusal.status_code = 400
    return refusal


REFUSED = OpenApiResponse(ErrorSerializer, "Refused (the reason in `message`): nothing changed.")


@extend_schema(tags=["notes"])
class NoteList(APIView):
    """Your notes on other players, by their names: only you ever see them."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="Your notes (and their export)",
        responses=NotesSerializer,
        operation_id="notes_list",
    )
    def get(self, request: Request) -> Response:
        notes = author_notes(_author(request))
        return Response(NotesSerializer({"notes": notes}).data)


@extend_schema(tags=["notes"])
class NotesImport(APIView):
    """Set the notes of an export (``GET /api/notes/``'s body), all or none."""

    permission_classes = [IsAuthenticated]
    parser_classes = [JSONParser]

    @extend_schema(
        summary="Import notes",
        request=NotesImportSerializer,
        responses={200: NotesImportedSerializer, 400: REFUSED, 404: REFUSED},
    )
    def post(self, request: Request) -> Response:
        author = _author(request)
        body = NotesImportSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        rows = body.validated_data["notes"]
        names = player_ids_by_name(row["player"] for row in rows if "player_id" not in row)
        notes = []
        for at, row in enumerate(rows, start=1):
            subject = row.get("player_id", names.get(row.get("player", "")))
            if subject is None:
                raise exceptions.NotFound(f"Note {at}: there is no player {row['player']!r}.")
            notes.append((subject, row["text"], row["label"]))
        try:
            count = notes_import(author=author, notes=notes)
        except ServiceError as error:
            raise _refused(error) from None
        return Response({"imported": count})


@extend_schema(tags=["notes"], parameters=[ID])
class NoteDetail(APIView):
    """Your note on player ``id``: read, set (``PUT``) or clear (``DELETE``)."""

    permission_classes = [IsAuthenticated]
    parser_classes = [JSONParser]

    @extend_schema(summary="Your note on a player", responses={200: NoteSerializer, 404: REFUSED})
    def get(self, request: Request, pk: str) -> Response:
        note = note_on(_author(request).pk, _id(pk))
        if note is None:
            raise exceptions.NotFound("You have no note on this player.")
        return Response(NoteSerializer(note).data)

    @extend_schema(
        summary="Set your note on a player",
        request=NoteBodySerializer,
        responses={200: NoteSerializer, 204: None, 400: REFUSED, 404: REFUSED},
    )
    def put(self, request: Request, pk: str) -> Response:
        body = NoteBodySerializer(data=request.data)
        body.is_valid(raise_exception=True)
        try:
            note = note_set(author=_author(request), subject_id=_id(pk), **body.validated_data)
        except ServiceError as error:
            raise _refused(error) from None
        if note is None:  # neither text nor label: no note
            return Response(status=204)
        return Response(NoteSerializer(note).data)

    @extend_schema(
        summary="Clear your note on a player", responses={204: None, 400: REFUSED, 404: REFUSED}
    )
    def delete(self, request: Request, pk: str) -> Response:
        try:
            note_clear(author=_author(request), subject_id=_id(pk))
        except ServiceError as error:
            raise _refused(error) from None
        return Response(status=204)
