"""python -m engine verify SEED COMMITMENT: the check the ledger page offers for each hand."""

import subprocess
import sys

import pytest

from engine.cards import format_cards
from engine.deck import commitment, seeded_deck

# Each call is a Python process of its own (make check leaves these for the whole suite).
pytestmark = pytest.mark.cli


def run(*args):
    return subprocess.run(
        [sys.executable, "-m", "engine", *args], capture_output=True, text=True, timeout=120
    )


def test_a_seed_that_hashes_to_the_commitment_checks_and_prints_its_deck():
    seed = "a3" * 32
    out = run("verify", seed, commitment(seed).upper())
    assert out.returncode == 0, out.stderr
    assert format_cards(seeded_deck(seed), " ") in out.stdout
    assert out.stdout.splitlines()[-1] == "OK: the seed hashes to the commitment"


def test_a_wrong_seed_is_a_mismatch_with_status_one():
    out = run("verify", "not-the-seed", commitment("the-seed"))
    assert out.returncode == 1
    assert "MISMATCH: the seed does not hash to the commitment" in out.stdout


def test_the_deck_dealt_can_be_checked_too():
    seed = "kitchen"
    dealt = format_cards(seeded_deck(seed), " ")
    assert run("verify", seed, commitment(seed), "--deck", dealt).returncode == 0
    swapped = " ".join([*dealt.split()[1::-1], *dealt.split()[2:]])  # first two cards swapped
    out = run("verify", seed, commitment(seed), "--deck", swapped)
    assert out.returncode == 1 and "not the deck the seed stands for" in out.stdout
