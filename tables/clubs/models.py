"""A club, its members, its games (linked, not owned: the core knows nothing of clubs), its
schedule, its seasons and its logged events."""

from __future__ import annotations

from django.db import models

from tables.models import Player, Table
from tables.names import validate_name
from tables.tournaments.models import Tournament


class Club(models.Model):
    name = models.CharField(max_length=60, unique=True, validators=[validate_name])
    description = models.TextField(blank=True, default="")
    owner = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="clubs_owned")
    invite_code = models.CharField(max_length=32, unique=True)
    needs_approval = models.BooleanField(
        default=True, help_text="Joining by the code waits for an admin's approval."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    class Role(models.TextChoices):
        OWNER = "owner", "Owner"
        ADMIN = "admin", "Admin"
        MEMBER = "member", "Member"

    class Status(models.TextChoices):
        PENDING = "pending", "Awaiting approval"
        ACTIVE = "active", "Member"
        REMOVED = "removed", "Removed"
        LEFT = "left", "Left"

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=8, choices=Role.choices, default=Role.MEMBER)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["club", "player"], name="membership_player_unique")
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.club} ({self.role}, {self.status})"


class RetiredInviteCode(models.Model):
    """A code replaced by a reset: kept so it is refused with its own error, never reused."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="retired_codes")
    code = models.CharField(max_length=32, unique=True)
    retired_at = models.DateTimeField(auto_now_add=True)


class ClubTable(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="tables")
    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="club_link")


class ClubTournament(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="tournaments")
    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, related_name="club_link"
    )


class ScheduledGame(models.Model):
    """A game an admin set for a time: a tournament (made at once, starting itself at the time)
    or a cash game (its table opened by the croupier's pass at the time)."""

    class Kind(models.TextChoices):
        CASH = "cash", "Cash game"
        TOURNAMENT = "tournament", "Tournament"

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="scheduled")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    name = models.CharField(max_length=60, validators=[validate_name])
    starts_at = models.DateTimeField(db_index=True)
    settings = models.JSONField(default=dict, blank=True)
    created_by = models.ForeignKey(Player, null=True, on_delete=models.SET_NULL, related_name="+")
    table = models.ForeignKey(Table, null=True, blank=True, on_delete=models.SET_NULL)
    tournament = models.ForeignKey(Tournament, null=True, blank=True, on_delete=models.SET_NULL)
    opened_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.name} at {self.starts_at:%Y-%m-%d %H:%M}"


class Attendance(models.Model):
    game = models.ForeignKey(ScheduledGame, on_delete=models.CASCADE, related_name="answers")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    going = models.BooleanField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "player"], name="attendance_player_unique")
        ]


class Season(models.Model):
    class Rule(models.TextChoices):
        FIXED = "fixed", "A fixed table of points by place"
        SQRT = "sqrt", "10 × √entrants ÷ √place"

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(max_length=60, validators=[validate_name])
    starts_on = models.DateField()
    ends_on = models.DateField()
    rule = models.CharField(max_length=8, choices=Rule.choices, default=Rule.SQRT)
    points_table = models.JSONField(default=list, blank=True)
    closed = models.BooleanField(default=False)

    class Meta:
        ordering = ["-starts_on"]

    def __str__(self) -> str:
        return f"{self.club}: {self.name}"


class ClubEvent(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="events")
    kind = models.CharField(max_length=32)
    actor = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    detail = models.JSONField(default=dict, blank=True)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-at", "-pk"]
