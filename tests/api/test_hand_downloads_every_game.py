"""Every game the site deals, against every hand download (PHH, pkstate YAML, PokerStars text):
never a 500. A format that holds the game gives a file that reads back; one that cannot hold
it answers 422 with a code naming the format and the game, and the replayer does not link it."""

from __future__ import annotations

import pytest

from engine import phh, pkstate
from tests.api.helpers import store_played_hand
from tests.engine.played_games import GAMES, played_hand

#: What each format cannot hold, by (game, betting): PHH has no variant for these, pkstate
#: has the hold'em and Omaha games only.
NO_PHH = {
    ("holdem", "pot-limit"),
    ("omaha", "no-limit"),
    ("omaha", "fixed-limit"),
    ("omaha-hilo", "no-limit"),
    ("five-card-draw", "no-limit"),
    ("five-card-draw", "pot-limit"),
}
YAML_GAMES = {"holdem", "omaha"}


@pytest.mark.django_db
@pytest.mark.parametrize(("game", "betting"), GAMES)
def test_each_download_is_a_file_or_a_422_naming_the_format_and_game(
    client_for, players, table, game, betting
):
    state = played_hand(game, betting)
    hand = store_played_hand(table, players, state)
    client = client_for(players[0])
    page = client.get(f"/hands/{hand.pk}/").content.decode()
    expected = {
        "phh": (game, betting) not in NO_PHH,
        "yaml": game in YAML_GAMES,
    }
    for file_format, holds in expected.items():
        url = f"/api/hands/{hand.pk}/{file_format}/"
        response = client.get(url)
        if holds:
            assert response.status_code == 200, response.content
            text = response.content.decode()
            if file_format == "phh":
                history = phh.loads(text)
                assert (history.config().game, history.config().betting) == (game, betting)
                assert history.players is not None and history.finishing_stacks is not None
                finals = dict(zip(history.players, history.finishing_stacks, strict=True))
            else:
                replayed = pkstate.loads(text).replay()
                finals = dict(zip(replayed.players, replayed.stacks, strict=True))
            assert finals == {p.name: chips for p, chips in zip(players, state.stacks, strict=True)}
            assert f'href="{url}"' in page
        else:
            assert response.status_code == 422, response.content
            body = response.json()
            assert body["code"] == f"no_{file_format}_for_{game}_{betting}"
            assert game in body["message"] and betting in body["message"]
            assert f'href="{url}"' not in page
    text = client.get(f"/api/hands/{hand.pk}/pokerstars/").content.decode()
    assert text.startswith(f"PokerStars Hand #{hand.pk}:")
    assert f'href="/api/hands/{hand.pk}/pokerstars/"' in page


def test_the_schema_documents_the_422_of_both_downloads(api):
    paths = api.get("/api/schema/?format=json").json()["paths"]
    for file_format in ("phh", "yaml"):
        refusal = paths[f"/api/hands/{{id}}/{file_format}/"]["get"]["responses"]["422"]
        assert f"no_{file_format}_for_<game>_<betting>" in refusal["description"]
