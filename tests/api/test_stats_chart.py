"""The net-chips chart on a player's page has axes, a zero line and labelled ends."""

import re

import pytest

from tables.stats.views import net_chart
from tests.api.test_played_hands import play_hands


def test_the_zero_line_sits_between_the_highest_and_lowest_net():
    chart = net_chart([50, -120, 30])
    assert (chart["high"], chart["low"]) == (50, -120)
    assert chart["pad"] < chart["zero_y"] < chart["bottom"]
    # zero is 50/170 of the way down the plot
    plot = chart["bottom"] - chart["pad"]
    assert chart["zero_y"] == pytest.approx(chart["pad"] + plot * 50 / 170, abs=0.1)
    assert chart["label_x"] < chart["pad"], "the chip labels sit left of the y axis"


def test_an_all_winning_curve_puts_zero_on_the_bottom_axis():
    chart = net_chart([10, 25])
    assert chart["zero_y"] == chart["bottom"] and chart["low"] == 0


@pytest.mark.django_db
def test_the_page_draws_both_axes_the_zero_line_and_labels(table, players, client_for):
    play_hands(table, players, 6, seed=3)
    html = client_for(players[0]).get(f"/players/{players[0].pk}/stats/").content.decode()
    svg = re.search(r'<svg class="net-chart".*?</svg>', html, re.S)[0]
    assert len(re.findall(r'<line class="axis"', svg)) == 2
    assert '<line class="zero"' in svg
    labels = re.findall(r'<text[^>]*class="label[^"]*"[^>]*>([^<]*)</text>', svg)
    assert "0" in labels and "net chips" in labels and "start" in labels
    assert any(re.fullmatch(r"after \d+ hands?", label) for label in labels)
