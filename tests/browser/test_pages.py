"""Every page at a laptop and a phone size: no serious accessibility violation, nothing wider
than the screen, no seat drawn over another, and a screenshot of each in ``test-artifacts/``.

axe-core (through ``axe-playwright-python``) checks each page as Chromium renders it; only
``serious`` and ``critical`` findings fail a test, each named with the elements it found.
"""

from __future__ import annotations

import pytest

from tests.browser import steps
from tests.browser.conftest import ARTIFACTS
from tests.browser.steps import axe_violations

pytestmark = pytest.mark.browser

SIZES = {"laptop": (1280, 800), "phone": (390, 844)}
PASSWORD = "pw-{}-Secret1"

# Six players (alice, bob and four more) play one hand to its end (for the replayer and the
# stats), then the croupier deals the next one, which waits on a long clock; Carol watches.
SETUP = """
import json
from tables.models import Table
from tables.selectors.hands import running_hand
from tables.services import hand_start, player_sign_up, seat_take, table_save
from tests.tables.helpers import play_out
t = table_save(table=Table(name="Pages table", max_seats=6, bots_allowed=False,
    action_seconds=600, time_bank_seconds=0, max_buy_in=5000))
alice, bob, carol = (player_sign_up(username=n, password="pw-%s-Secret1" % n)
                     for n in ("alice", "bob", "carol"))
seat_take(table=t, player=alice, buy_in=100)
seat_take(table=t, player=bob, buy_in=100)
for name in ("maximiliana", "dan", "erin", "bartholomew"):  # a full table, long names too
    seat_take(table=t, player=player_sign_up(username=name, password="x-Secret-9"), buy_in=2500)
if running_hand(t) is None:
    try:
        hand_start(table=t)
    except Exception:
        pass  # the croupier dealt it first
hand = play_out(t)
# A private sit & go of alice, bob and two bots, running: its page (with the invite link) and
# its table, where the hand waits on a long clock whenever a human is to act.
from tables.tournaments.services import tournament_register, tournament_start
from tables.tournaments.services.organise import tournament_organise
cup = tournament_organise(organiser=alice, private=True, name="Pages cup: a long name to wrap",
    seats_per_table=4, entry_fee=20, bot_entrants=2, action_seconds=600,
    levels=[{"small_blind": 10, "big_blind": 20, "hands": 50}])
tournament_register(tournament=cup, player=alice)
tournament_register(tournament=cup, player=bob)
tournament_start(tournament=cup, by=alice)
print(json.dumps({"table": t.pk, "hand": hand.pk, "alice": alice.pk, "tournament": cup.pk,
    "tournament_table": cup.tables.get().table_id}))
"""


@pytest.fixture(scope="module")
def site(server):
    return server.shell(SETUP)


@pytest.fixture(scope="module")
def logged_in(browser, server):
    """One browser context per person (and one for nobody), created on first use."""
    contexts = {}

    def context_of(name: str | None, size: str):
        key = (name, size)
        if key not in contexts:
            width, height = SIZES[size]
            context = browser.new_context(
                viewport={"width": width, "height": height},
                has_touch=size == "phone",
                is_mobile=size == "phone",
            )
            if name is not None:
                page = context.new_page()
                page.goto(server.url + "/accounts/login/")
                page.fill("#id_username", name)
                page.fill("#id_password", PASSWORD.format(name))
                page.click("form button[type=submit]")
                page.wait_for_load_state()
                page.close()
            contexts[key] = context
        return contexts[key]

    yield context_of
    for context in contexts.values():
        context.close()


def pages(site):
    """(name, viewer, path, selector to wait for) for every page a player sees."""
    return [
        ("lobby", "alice", "/", "table.lobby"),
        ("table-player", "alice", f"/tables/{site['table']}/", "#conn[data-state=open]"),
        ("table-spectator", "carol", f"/tables/{site['table']}/", "#conn[data-state=open]"),
        ("table-anonymous", None, f"/tables/{site['table']}/", "#table-seats"),
        ("replayer", "alice", f"/hands/{site['hand']}/", "#replayer"),
        ("stats", "alice", f"/players/{site['alice']}/stats/", "main"),
        ("leaderboard", "alice", "/leaderboard/", "main"),
        ("leaderboard-tournaments", "alice", "/leaderboard/?view=tournaments", "main"),
        ("tournament-lobby", "alice", "/tournaments/", "main"),
        ("tournament-new", "alice", "/tournaments/new/", "#id_name"),
        ("tournament", "alice", f"/tournaments/{site['tournament']}/", "#standings"),
        (
            "tournament-table",
            "alice",
            f"/tables/{site['tournament_table']}/",
            "#conn[data-state=open]",
        ),
        ("profile", "alice", "/accounts/profile/", "main"),
        ("preferences", "alice", "/accounts/preferences/", "#preferences-form"),
        ("signup", None, "/accounts/signup/", "#id_username"),
        ("login", None, "/accounts/login/", "#id_username"),
    ]


PAGE_NAMES = [
    "lobby",
    "table-player",
    "table-spectator",
    "table-anonymous",
    "replayer",
    "stats",
    "leaderboard",
    "leaderboard-tournaments",
    "tournament-lobby",
    "tournament-new",
    "tournament",
    "tournament-table",
    "profile",
    "preferences",
    "signup",
    "login",
]


def open_page(logged_in, server, site, name, size, failed_loads: list[str] | None = None):
    """The page ``name`` at ``size``, loaded; every response of its load that failed (an icon,
    a script, a stylesheet: 400 or above) is added to ``failed_loads``."""
    (entry,) = [p for p in pages(site) if p[0] == name]
    _, viewer, path, ready = entry
    page = steps.count_frames(logged_in(viewer, size).new_page())
    if failed_loads is not None:
        page.on(
            "response",
            lambda response: (
                failed_loads.append(f"{response.status} {response.url}")
                if response.status >= 400
                else None
            ),
        )
    page.goto(server.url + path)
    page.wait_for_selector(ready)
    page.wait_for_load_state("networkidle")
    return page


LAYOUT = """() => {
  const box = (el) => el.getBoundingClientRect();
  const overlap = (a, b) =>
    Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left)) *
    Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));
  const problems = [];
  const doc = document.documentElement;
  if (doc.scrollWidth > doc.clientWidth) {
    const wide = [...document.querySelectorAll("body *")]
      .filter((el) => box(el).right > doc.clientWidth + 0.5)
      .slice(0, 3).map((el) => el.tagName.toLowerCase() + "." + el.className);
    problems.push(`page is ${doc.scrollWidth}px wide in ${doc.clientWidth}px: ${wide}`);
  }
  const seats = [...document.querySelectorAll(".seat")];
  seats.forEach((a, i) => seats.slice(i + 1).forEach((b) => {
    const area = overlap(box(a), box(b));
    if (area > 1) problems.push(`${a.id} and ${b.id} overlap (${Math.round(area)}px²)`);
  }));
  seats.forEach((seat) => {
    const hole = seat.querySelector(".hole"), plate = seat.querySelector(".plate");
    if (hole && plate && hole.children.length && overlap(box(hole), box(plate)) > 1)
      problems.push(`${seat.id}: hole cards cover the name plate`);
    const b = box(seat);
    if (b.left < 0 || b.right > doc.clientWidth) problems.push(`${seat.id} is off screen`);
  });
  return problems;
}"""


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("name", PAGE_NAMES)
def test_page_has_no_serious_accessibility_violation_and_fits_the_screen(
    logged_in, server, site, name, size
):
    failed_loads: list[str] = []
    page = open_page(logged_in, server, site, name, size, failed_loads)
    try:
        page.screenshot(path=str(ARTIFACTS / f"page-{name}-{size}.png"), full_page=True)
        assert axe_violations(page) + page.evaluate(LAYOUT) == []
        assert failed_loads == []
        assert page.evaluate(ICONS_LINKED) == ICONS_WANTED
    finally:
        page.close()


#: What every page links in its head: the icons and the web app manifest (installable).
ICONS_LINKED = """() => [...document.head.querySelectorAll(
    "link[rel=icon], link[rel=apple-touch-icon], link[rel=manifest]")]
  .map((link) => link.rel + " " + new URL(link.href).pathname).sort()"""
ICONS_WANTED = [
    "apple-touch-icon /static/icons/apple-touch-icon.png",
    "icon /static/icons/favicon-32.png",
    "icon /static/icons/icon.svg",
    "manifest /static/site.webmanifest",
]


def test_the_site_installs_to_a_home_screen_its_manifest_and_icons_load(browser, server):
    """The manifest is the JSON a phone reads to install the site; each icon it and the pages
    name is an image; ``/favicon.ico`` (asked for by browsers whatever a page links) leads to
    one too, as it does on Django admin's pages."""
    context = browser.new_context()
    try:
        manifest = context.request.get(server.url + "/static/site.webmanifest")
        assert manifest.status == 200
        assert manifest.headers["content-type"].startswith("application/manifest+json")
        body = manifest.json()
        assert body["start_url"] == "/" and body["display"] == "standalone"
        sizes = {icon["sizes"] for icon in body["icons"]}
        assert {"192x192", "512x512"} <= sizes
        paths = [icon["src"] for icon in body["icons"]] + [
            "/static/icons/favicon-32.png",
            "/static/icons/apple-touch-icon.png",
            "/favicon.ico",
        ]
        for path in paths:
            response = context.request.get(server.url + path)
            assert response.status == 200, path
            assert response.headers["content-type"].startswith("image/"), path
        admin = context.new_page()
        admin.goto(server.url + "/admin/login/")
        assert admin.evaluate(ICONS_LINKED) == ICONS_WANTED
    finally:
        context.close()


ALICE_TO_ACT = """
import json
from tables.models import Table
from tests.tables.helpers import actor, play_until
t = Table.objects.get(pk=%d)
hand = play_until(t, lambda hand: actor(hand).name == "alice", limit=60)
print(json.dumps(hand.pk))
"""

ALICE_DECISIONS = """
import json
from tables.models import Hand
hand = Hand.objects.get(pk=%d)
print(json.dumps(hand.actions.filter(seat=hand.seat_index_of(%d)).count()))
"""

FITS = """() => {
  const box = (sel) => document.querySelector(sel).getBoundingClientRect();
  const felt = box(".felt-wrap"), bar = box("form.act"), log = box("#table-log");
  return {felt: felt.bottom, bar: bar.bottom, log: log.bottom, logLeft: log.left,
          feltRight: felt.right, height: innerHeight};
}"""


def test_at_1280x800_the_table_its_action_bar_and_log_fit_one_screen_and_keys_work(
    logged_in, server, site
):
    hand = server.shell(ALICE_TO_ACT % site["table"])
    page = open_page(logged_in, server, site, "table-player", "laptop")
    try:
        page.wait_for_selector("form.act")
        fit = page.evaluate(FITS)
        page.screenshot(path=str(ARTIFACTS / "table-your-turn-laptop.png"))
        assert max(fit["felt"], fit["bar"], fit["log"]) <= fit["height"], fit
        assert fit["logLeft"] >= fit["feltRight"], "the log is beside the table"

        # announced to screen readers: the turn and what it costs
        announced = page.text_content("#turn-announcer")
        assert announced.startswith("Your turn: ") and (
            "to call" in announced or "check" in announced
        )
        assert page.get_attribute("#turn-announcer", "aria-live") == "assertive"

        # the acting seat carries the clock, a bar that runs down over the turn
        page.wait_for_function(
            "() => parseFloat(document.querySelector('.seat.actor .turn-left').style.width) > 0"
        )
        width = page.evaluate(
            "() => parseFloat(document.querySelector('.seat.actor .turn-left').style.width)"
        )
        assert 0 < width <= 100
        assert page.is_visible(".keys"), "a laptop shows the keyboard hints"

        # every action is reachable with the keyboard alone
        for _ in range(40):
            page.keyboard.press("Tab")
            if page.evaluate("() => !!document.activeElement.closest('form.act')"):
                break
        else:
            pytest.fail("Tab never reached the action buttons")
        page.keyboard.press("Escape")
        page.evaluate("() => document.activeElement.blur()")
        decided = server.shell(ALICE_DECISIONS % (hand, site["alice"]))
        seen = steps.frames_seen(page)
        page.keyboard.press("c")  # check or call, by its key
        for _ in range(10):  # the action reaches the server over the socket: a frame comes
            steps.next_frame(page, seen)
            seen = steps.frames_seen(page)
            if server.shell(ALICE_DECISIONS % (hand, site["alice"])) == decided + 1:
                break
        else:
            pytest.fail("the C key did not act for alice")
    finally:
        page.close()


def test_a_phone_has_a_compact_header_and_no_keyboard_hints(logged_in, server, site):
    page = open_page(logged_in, server, site, "table-player", "phone")
    try:
        header = page.evaluate("() => document.querySelector('.site-header').offsetHeight")
        assert header <= 64, f"the header takes {header}px of a 844px phone screen"
        assert page.query_selector(".keys") is not None
        assert not page.is_visible(".keys")
    finally:
        page.close()


def felt_step(page) -> dict:
    return page.evaluate("""() => ({
        step: Number(document.getElementById("replayer").dataset.step),
        board: document.querySelectorAll("#replay-felt #table-board .pc").length,
        label: document.querySelector(".replay-label").textContent,
        address: location.search,
        nextDisabled: document.querySelector('[data-step="next"]').getAttribute("aria-disabled"),
    })""")


def test_the_replayer_steps_by_keys_slider_play_and_links(logged_in, server, site):
    page = logged_in("alice", "laptop").new_page()
    try:
        page.goto(f"{server.url}/hands/{site['hand']}/#step-2")
        page.wait_for_selector("#replayer[data-step='2']")
        last = int(page.get_attribute("#replayer", "data-last"))
        assert felt_step(page)["address"] == "?step=2", "#step-N opens that step"

        page.keyboard.press("ArrowRight")
        now = felt_step(page)
        assert now["step"] == 3 and now["address"] == "?step=3"
        assert now["label"] == page.text_content("#step-3 a")
        page.keyboard.press("ArrowLeft")
        assert felt_step(page)["step"] == 2

        page.fill(".replay-slider", str(last - 1))  # the slider
        assert felt_step(page)["step"] == last - 1
        page.click('[data-step="next"]')
        end = felt_step(page)
        assert end["step"] == last and end["nextDisabled"] == "true"
        assert end["board"] == 5, "checked down to the river (SETUP plays passively)"
        assert "win" in end["label"] or "split" in end["label"]
        assert page.locator(".seat .won").count() >= 1, "the award is on the table"
        page.screenshot(path=str(ARTIFACTS / "replayer-award-laptop.png"))

        page.keyboard.press("Home")
        assert felt_step(page)["step"] == 0 and felt_step(page)["board"] == 0
        page.click("button.replay-play")  # plays to the end by itself, then stops
        page.wait_for_function(
            f"() => document.getElementById('replayer').dataset.step == '{last}'",
            timeout=2000 * (last + 2),
        )
        assert page.get_attribute("button.replay-play", "aria-label") == "Play"

        page.goto(f"{server.url}/hands/{site['hand']}/?step=1")  # the address of a step
        assert felt_step(page)["step"] == 1
    finally:
        page.close()


def test_the_layout_check_fails_on_overlapping_seats_and_a_too_wide_page(logged_in, server, site):
    """The check above can fail: two seats drawn on one spot, and a page wider than the
    screen, are both reported."""
    page = open_page(logged_in, server, site, "table-spectator", "phone")
    try:
        assert page.evaluate(LAYOUT) == []
        page.add_style_tag(
            content="#seat-2, #seat-3 { left: 50% !important; top: 50% !important; }"
            " body { min-width: 600px; }"
        )
        problems = page.evaluate(LAYOUT)
        assert any("seat-2 and seat-3 overlap" in p for p in problems), problems
        assert any(p.startswith("page is 600px wide") for p in problems), problems
    finally:
        page.close()


BANK_TABLE = """
import json
from tables.models import Table
from tables.services import player_sign_up, seat_take, table_save
t = table_save(table=Table(name="Bank table", max_seats=6, bots_allowed=False,
    action_seconds=ACTION_SECONDS, time_bank_seconds=30))
for name in ("gina", "hank"):
    seat_take(table=t, player=player_sign_up(username=name, password="pw-%s-Secret1" % name),
              buy_in=100)
print(json.dumps(t.pk))
"""


#: The seat clock bar's glide between the clock's ticks (none where less motion is asked for).
BAR_GLIDE = (
    "() => getComputedStyle(document.querySelector('.seat.actor .turn-left')).transitionDuration"
)


def test_the_seat_clock_turns_to_the_time_bank_colour_when_the_bank_runs(logged_in, server):
    # a 15 s clock on a usual machine (the page must load before it runs out)
    table_id = server.shell(BANK_TABLE.replace("ACTION_SECONDS", str(round(steps.bound(15)))))
    page = logged_in("gina", "laptop").new_page()
    try:
        page.goto(f"{server.url}/tables/{table_id}/")
        # (bounds for a slow machine: the deal comes at the croupier's next pass)
        page.wait_for_selector(".seat.actor .turn-clock:not(.bank)", timeout=steps.ms(60_000))
        # nobody acts: the clock runs out and the server draws on the actor's time bank
        # (15 s: on a slow, loaded machine the page could load after a short clock had run out)
        page.wait_for_selector(".seat.actor .turn-clock.bank", timeout=steps.ms(60_000))
        colour = page.evaluate(
            "() => getComputedStyle(document.querySelector('.seat.actor .turn-left'))"
            ".backgroundColor"
        )
        assert colour == "rgb(79, 195, 247)", "the time bank has its own colour"
        # the suite's pages ask for reduced motion (tests/browser/conftest.py): the bar steps
        assert page.evaluate(BAR_GLIDE) == "0s", "who asks for less motion sees no glide"
        # a page opened while the bank runs (a visitor's) shows it at once: the server says so,
        # where the page never saw the deadline move
        late = logged_in(None, "laptop").new_page()
        try:
            late.emulate_media(reduced_motion="no-preference")
            late.goto(f"{server.url}/tables/{table_id}/")
            late.wait_for_selector(".seat.actor .turn-clock", timeout=steps.ms(10_000))
            assert late.evaluate(BAR_GLIDE) == "0.25s", "the bar glides between the clock's ticks"
            opened_with = late.get_attribute(".clock[data-deadline]", "data-deadline")
            late.wait_for_selector(".seat.actor .turn-clock.bank", timeout=steps.ms(3_000))
            seen = late.get_attribute(".clock[data-deadline]", "data-deadline")
            assert seen == opened_with, "drawn from the server's word, not from a deadline moved"
        finally:
            late.close()
    finally:
        page.close()


def choose_display(page, server, deck: str, large: bool, felt: str) -> None:
    """Save alice's cards and felt through the preferences form."""
    page.goto(server.url + "/accounts/preferences/")
    page.check(f"input[name=deck_colours][value={deck}]")
    page.set_checked("#id_large_cards", large)
    page.check(f"input[name=felt][value={felt}]")
    page.click("#preferences-form button[type=submit]")
    page.wait_for_load_state()


@pytest.mark.parametrize("size", list(SIZES))
def test_larger_cards_and_another_felt_keep_the_table_in_shape(logged_in, server, site, size):
    """Cards and felt your way (issue 50): the table still fits, nothing overlaps, and axe
    finds nothing, with larger cards, two colours and each felt that is not the default."""
    chooser = logged_in("alice", size).new_page()
    try:
        for felt in ("blue", "red", "grey"):
            choose_display(chooser, server, "two", True, felt)
            page = open_page(logged_in, server, site, "table-player", size)
            try:
                assert page.get_attribute("body", "data-felt") == felt
                page.screenshot(path=str(ARTIFACTS / f"page-large-cards-{felt}-{size}.png"))
                assert axe_violations(page) + page.evaluate(LAYOUT) == []
            finally:
                page.close()
    finally:
        choose_display(chooser, server, "four", False, "green")
        chooser.close()
