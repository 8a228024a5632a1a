"""The REST hand history's steps: the replayer's steps with each one's odds, filtered for
the caller as the replayer page is (``tables.selectors.replay_odds``)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers


class HandChanceSerializer(serializers.Serializer[Any]):
    seat = serializers.IntegerField(help_text="Engine seat.")
    name = serializers.CharField()
    win = serializers.FloatField(help_text="Chance of winning alone, 0..1.")
    tie = serializers.FloatField(help_text="Chance of tying for best (hi-lo: part of the pot).")
    share = serializers.FloatField(help_text="The pot expected (equity), 0..1.")


class StepEquitySerializer(serializers.Serializer[Any]):
    basis = serializers.ChoiceField(
        choices=["shown", "random"],
        help_text="shown: between the hands known to you (shown at the end, and yours), a "
        "hand never shown left out; random: your hand against ``opponents`` random hands.",
    )
    exact = serializers.BooleanField(
        help_text="Every deal counted; false: a seeded sample (the same on every request)."
    )
    opponents = serializers.IntegerField(help_text="Random hands (basis random), else 0.")
    hands = HandChanceSerializer(many=True)


class PotOddsSerializer(serializers.Serializer[Any]):
    to_call = serializers.IntegerField()
    pot = serializers.IntegerField(help_text="Every chip in the middle before the call.")
    percent = serializers.FloatField(help_text="to_call / (pot + to_call), in percent.")
    ratio = serializers.FloatField(help_text='pot / to_call: "ratio to 1".')


class ReplayStepSerializer(serializers.Serializer[Any]):
    index = serializers.IntegerField()
    text = serializers.CharField(help_text='What the step shows: "bob calls 4", "Flop".')
    equity = StepEquitySerializer(
        allow_null=True,
        help_text="Null where nothing is known to compute (fewer than two known hands and "
        "not your own against others), on the award, and in stud and draw games.",
    )
    pot_odds = PotOddsSerializer(allow_null=True, help_text="A call's step only.")
