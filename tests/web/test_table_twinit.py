"""Twin It at the table, in Debian's Chromium against a real `twintable serve`: a touch
racing a change, the end of the game, the phone, team play (issue 13)."""

from __future__ import annotations

import json
import time
import urllib.request
from typing import Any

import pytest

from tests.web.conftest import Tab
from tests.web.play import FIND_TWINS, create_table, finished, play_to_results, tap

pytestmark = pytest.mark.browser


def frames(tab: Tab, direction: str = "framereceived") -> list[dict[str, Any]]:
    """Every frame the page's socket receives (or, with ``"framesent"``, sends), parsed,
    from now on (hook before the table opens)."""
    seen: list[dict[str, Any]] = []

    def on_socket(socket: Any) -> None:
        socket.on(direction, lambda payload: seen.append(json.loads(payload)))

    tab.page.on("websocket", on_socket)
    return seen


def events_of(seen: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [event for frame in seen if frame.get("type") == "event"
            for event in frame.get("events", []) if event["kind"] == kind]


def table_info(tab: Tab) -> dict[str, Any]:
    table_id = tab.page.url.rsplit("/", 1)[1]
    with urllib.request.urlopen(f"{tab.base}/api/tables/{table_id}", timeout=5) as answer:
        return json.loads(answer.read())  # type: ignore[no-any-return]


def watch(tab: Tab, script: str, seconds: float) -> Any:
    """Poll a page function until it returns something (wait_for_function would evaluate
    a string, which the page's Content Security Policy forbids)."""
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        found = tab.page.evaluate(script)
        if found:
            return found
        time.sleep(0.005)
    return None


# Watches the other seats' pile tops while one of our hands is down; the first time one
# shows a new picture, notes where it is and when it changed.
WATCH = """() => {
  const last = {};
  window.__change = null;
  window.__down = null;
  document.addEventListener('pointerdown', (e) => { window.__down = e.timeStamp; }, true);
  const look = () => {
    for (const ref of ['p1', 'p2']) {
      const card = document.querySelector(`.tw-card[data-ref="${ref}"]`);
      const picture = card ? card.dataset.picture : null;
      const holding = document.querySelector('.tw-card[aria-pressed="true"]');
      if (holding && last[ref] && picture && picture !== last[ref] && !window.__change
          && !card.disabled) {
        const r = card.getBoundingClientRect();
        window.__change = { ref, before: last[ref], after: picture, at: performance.now(),
                            x: r.left + r.width / 2, y: r.top + r.height / 2 };
      }
      last[ref] = picture;
    }
  };
  new MutationObserver(look).observe(document.querySelector('main'),
                                     { childList: true, subtree: true });
  look();
}"""


# Draws two views of one table into the page with the real renderer, one after the other,
# and presses cards with pointerdown at chosen moments: what each touch names. The page's
# clock is the test's (performance.now and each touch's timeStamp): beside a CPU load, a
# real 400 ms could pass between drawing the board and a press made in the next line.
NAMED = """async () => {
  const root = new URL('.', document.querySelector('script[src$="app.js"]').src).pathname;
  const { renderTwinIt } = await import(`${root}games/twinit/board.js`);
  const { el } = await import(`${root}lib/dom.js`);
  const assets = await (await fetch('/api/games/twinit/assets')).json();
  const sent = [];
  const ctx = { t: (key) => key, el, local: {}, assets, me: 0, names: ['Ann', 'Bo'],
                act: (kind, payload) => sent.push([payload.card, payload.picture]),
                flash() {}, redraw() {} };
  const touches = (cards) => cards.map((ref) => ({ kind: 'touch', payload: { card: ref } }));
  const view = (centre, top) => ({ game: 'twinit', mode: 'competitive', phase: 'play',
    options: { sets_to_win: 5 }, players: 2, turn: 1, sides: [0, 1], now_ms: 0, round: 1,
    centre, piles: [{ cards: 5, top: 1 }, { cards: 5, top }], sets: [[], []], taboo: [[], []],
    hands: [], scores: [0, 0], winners: [], ends_ms: null,
    legal: touches([...centre.map((p, i) => (p === null ? null : `c${i}`)).filter(Boolean),
                    'p0', 'p1']) });
  const board = document.createElement('div');
  document.body.append(board);
  let clock = 10_000;
  const realNow = performance.now;
  performance.now = () => clock;
  const press = (ref) => {
    const down = new PointerEvent('pointerdown', { bubbles: true, button: 0, isPrimary: true });
    Object.defineProperty(down, 'timeStamp', { value: clock });
    board.querySelector(`[data-ref="${ref}"]`).dispatchEvent(down);
  };
  try {
    board.replaceChildren(renderTwinIt(view([20, null], 30), ctx));
    clock += 600;
    // A bot took the card in c0 and a new one landed there; p1's owner flipped; c1 filled.
    board.replaceChildren(renderTwinIt(view([21, 22], 31), ctx));
    clock += 10;
    press('c0'); press('p1'); press('c1');
    clock += 450;
    press('c0'); press('p1');
  } finally {
    performance.now = realNow;
    board.remove();
  }
  return sent;
}"""



def test_a_touch_just_after_a_change_names_the_picture_shown_before(tab: Tab) -> None:
    """Bug 6, by the clock: within REACTION_MS (400 ms) of a slot's change, a touch names
    the picture the slot showed before it (the server will refuse it, without a penalty);
    later, what it shows now. A card that landed in an empty slot is what the finger was
    aimed at. The touch fires on pointerdown, so a redraw before the release cannot
    swallow it."""
    tab.go("/")
    tab.page.wait_for_selector("#create")
    sent = tab.page.evaluate(NAMED)
    assert sent == [["c0", 20], ["p1", 30], ["c1", 22], ["c0", 21], ["p1", 31]]


def test_a_click_racing_a_change_of_its_card_is_refused_without_a_penalty(tab: Tab) -> None:
    """Bug 6: a pile top changes (its owner flipped, a bot took it) a moment before the
    person's click lands on it: the touch names the picture the person saw, the server
    refuses it as stale, and nobody counts an error."""
    seen = frames(tab)
    sent = frames(tab, "framesent")  # each move carries the id its one answer names
    create_table(tab, "twinit", 3, {"hold_ms": "10", "sets_to_win": "20"})
    tab.page.click("#start")
    tab.page.wait_for_selector('.tw-card[data-ref="p1"]')
    tab.page.evaluate(WATCH)
    deadline = time.monotonic() + 25
    change = None
    while change is None:
        assert time.monotonic() < deadline, "no pile top changed while a hand was down"
        if tab.page.locator("#flip").count():
            tap(tab.page.locator("#flip"))
        held = tab.page.locator('.tw-card[aria-pressed="true"]').count()
        centre = tab.page.locator(".tw-centre .tw-card:not([disabled])")
        if not held and centre.count():
            tab.page.wait_for_timeout(450)  # look at the card first, like a person
            tap(centre.first)
        change = watch(tab, "() => window.__change", 0.4)
        if change is None:
            continue
        # The finger lands on the card that just changed, as the change is drawn.
        moves_before = len(sent)
        tab.page.mouse.click(change["x"], change["y"])
        landed = tab.page.evaluate("window.__down - window.__change.at")
        if landed is None or landed > 350:
            # Too slow to be a race: that touch named the new picture, a real try that
            # may cost a penalty as any wrong pair does. Watch for another change.
            change = None
            tab.page.evaluate("window.__change = null")
    # The racing touch and the server's one answer to it: a refusal as stale, so it
    # changed nothing and cost nothing (a slower touch before it may have: it was a
    # real try on the card as it then was).
    until = time.monotonic() + 10
    touch = None
    while touch is None:
        assert time.monotonic() < until, f"the racing click sent no touch: {sent}"
        # Taps just before it may reach the socket after the count was read.
        touch = next((move for move in sent[moves_before:] if move.get("type") == "action"
                      and move["kind"] == "touch" and move["payload"]["card"] == change["ref"]),
                     None)
        tab.page.wait_for_timeout(20)
    answer = None
    while answer is None:
        assert time.monotonic() < until + 10, f"no answer to the racing touch {touch}"
        answer = next((frame for frame in seen if frame.get("type") in ("ack", "error")
                       and frame.get("id") == touch["id"]), None)
        tab.page.wait_for_timeout(20)
    assert answer["type"] == "error" and answer["code"] == "card.changed", answer


def test_after_the_end_nobody_is_asked_to_flip(tab: Tab) -> None:
    """Bug 2: the board shows the game over, with no prompt and no flip."""
    create_table(tab, "twinit", 2, {"sets_to_win": "1"})
    tab.page.click("#start")
    tab.page.wait_for_selector("#board > *")
    play_to_results(tab, "twinit", limit_s=25)
    tab.page.wait_for_timeout(300)  # the last frames
    board = tab.page.locator("#board").inner_text()
    assert "Your turn to flip" not in board and "to play" not in board, board
    assert tab.page.locator("#turn").count() == 0
    assert tab.page.locator("#flip").count() == 0
    assert tab.page.locator(".seat.turn, .ti-seat.ti-turn").count() == 0
    board = tab.page.locator("#ti-over").inner_text()
    winners = table_info(tab)["result"]["winners"]
    assert ("Ann wins!" if winners == [0] else "wins!") in board


def test_on_a_wide_screen_the_centre_cards_lie_on_the_felt(tab: Tab) -> None:
    tab.page.set_viewport_size({"width": 1280, "height": 800})
    create_table(tab, "twinit", 3, {"sets_to_win": "20"})
    tab.page.click("#start")
    deadline = time.monotonic() + 15
    while tab.page.locator(".tw-centre .tw-card").count() < 4:
        assert time.monotonic() < deadline, "the centre did not fill"
        if tab.page.locator("#flip").count():
            tap(tab.page.locator("#flip"))
        tab.page.wait_for_timeout(150)
    placed = tab.page.evaluate("""() => {
      const felt = document.querySelector('.felt').getBoundingClientRect();
      // The centre's box, not its cards' (a card may be mid-flip, turned in 3D).
      const c = document.querySelector('.tw-centre').getBoundingClientRect();
      return { inFelt: !!document.querySelector('.felt .tw-centre'),
        inside: c.left >= felt.left && c.right <= felt.right && c.top >= felt.top
          && c.bottom <= felt.bottom, felt: [felt.left, felt.top, felt.right, felt.bottom],
        centre: [c.left, c.top, c.right, c.bottom], bottom: c.bottom }; }""")
    assert placed["inFelt"] and placed["inside"], placed
    assert placed["bottom"] <= 800, placed


def test_on_a_phone_the_centre_fills_the_width_with_large_enough_cards(
        second_tab: Tab) -> None:
    """Twin It at the size of the screen: every card at least 44 px, the centre as wide
    as the screen allows and no wider, its cards as large as fit."""
    tab = second_tab
    create_table(tab, "twinit", 4, {"sets_to_win": "20"})
    tab.page.click("#start")
    tab.page.wait_for_selector('.tw-card[data-ref="p1"]')
    deadline = time.monotonic() + 15
    while tab.page.locator(".tw-centre .tw-card").count() < 6:
        assert time.monotonic() < deadline, "the centre did not fill"
        if tab.page.locator("#flip").count():
            tap(tab.page.locator("#flip"))
        tab.page.wait_for_timeout(150)
    # Layout sizes (offsetWidth), not the drawn ones: a card may be mid-flip.
    sizes = tab.page.evaluate("""() => [...document.querySelectorAll('.tw-card')].map(
        (c) => [c.dataset.ref, c.offsetWidth, c.offsetHeight])""")
    assert all(width >= 44 and height >= 44 for _, width, height in sizes), sizes
    centre = tab.page.evaluate("""() => { const r = document.querySelector('.tw-centre')
        .getBoundingClientRect(); return [r.left, r.right, r.width]; }""")
    assert centre[0] >= 0 and centre[1] <= 390
    assert tab.page.evaluate("document.documentElement.scrollWidth") <= 390
    # As large as fits: a dozen cards or fewer are drawn well above the smallest tap
    # target, unless the centre already reaches the bottom of the screen.
    centre_cards = [width for ref, width, _ in sizes if ref.startswith("c")]
    bottom = tab.page.evaluate("""() => document.querySelector('.tw-centre')
        .getBoundingClientRect().bottom - window.innerHeight + window.scrollY""")
    assert min(centre_cards) >= 60 or bottom >= -40, (centre_cards, bottom)


def team_move(tab: Tab) -> None:
    """One hand per player: flip on your turn; put your hand on the twin of a card your
    teammate holds, or on one card of a pair and let a teammate take the other."""
    page = tab.page
    if page.locator("#flip").count():
        tap(page.locator("#flip"))
        return
    if page.locator('.tw-card[aria-pressed="true"]').count():
        return
    twin = page.evaluate("""() => {
      const mate = document.querySelector('.tw-card.held-mate');
      if (!mate) return null;
      const free = [...document.querySelectorAll('.tw-card:not([disabled])')]
        .find((c) => c.dataset.picture === mate.dataset.picture);
      return free ? free.dataset.ref : null; }""")
    pair = page.evaluate(FIND_TWINS)
    ref = twin or (pair[0] if pair else None)
    if ref:
        try:
            page.click(f'[data-ref="{ref}"]', timeout=500)
        except Exception:
            return


def test_a_team_game_chosen_in_the_lobby_plays_to_the_end(tab: Tab) -> None:
    seen = frames(tab)
    tab.go("/")
    tab.page.fill("#name", "Ann")
    tab.page.select_option("#game", "twinit")
    tab.page.fill("#players", "4")
    tab.page.select_option("#opt-mode", "team")
    tab.page.fill("#opt-teams", "1, 2, 2, 2")
    tab.page.click("#create")
    tab.page.locator("main .error", has_text="at least 2 players in each team").wait_for()
    # The browser logs the refused request itself; that line is the refusal we asked for.
    tab.errors[:] = [error for error in tab.errors if "422" not in error]
    create_table(tab, "twinit", 4, {"mode": "team", "teams": "1, 1, 2, 2", "sets_to_win": "2"})
    assert table_info(tab)["options"]["teams"] == [1, 1, 2, 2]
    tab.page.click("#start")
    tab.page.wait_for_selector(".ti-teams")
    panels = tab.page.locator(".ti-team").all_inner_texts()
    assert "Ann" in panels[0] and "Ann" not in panels[1]
    deadline = time.monotonic() + 28
    while not finished(tab):
        assert time.monotonic() < deadline, "the team game did not end"
        team_move(tab)
        tab.page.wait_for_timeout(120)
    winners = table_info(tab)["result"]["winners"]
    assert winners in ([0, 1], [2, 3])
    taken = events_of(seen, "taken")
    assert taken and all(e["data"]["side"] == (0 if e["data"]["seat"] < 2 else 1) for e in taken)
    assert tab.page.locator("#ti-over").inner_text() == f"Team {winners[0] // 2 + 1} wins!"


def test_the_log_opens_with_the_round_under_way_before_anything_is_taken(tab: Tab) -> None:
    """Flips are not told in the log (one every few seconds would push the takes out of
    sight), so a competitive round, which starts with the deal, is told by the game's
    opening line; once, even after a reload."""
    create_table(tab, "twinit", 3, {"sets_to_win": "5"})
    tab.page.click("#start")
    tab.page.wait_for_selector("#log li")
    lines = tab.page.locator("#log li").all_inner_texts()
    assert lines[-1].startswith("Round 1"), lines
    tab.page.reload()
    tab.page.wait_for_selector("#log li")
    again = tab.page.locator("#log li").all_inner_texts()
    assert sum(line.startswith("Round 1") for line in again) == 1, again


#: The Twin It pile counts whose text runs past their seat's inner edge.
CUT_COUNTS = """() => [...document.querySelectorAll('.seat .ti-count')].filter((count) => {
  const seat = count.closest('.seat'); const style = getComputedStyle(seat);
  const edge = seat.getBoundingClientRect().right - parseFloat(style.paddingRight)
    - parseFloat(style.borderRightWidth);
  const text = document.createRange(); text.selectNodeContents(count);
  return text.getBoundingClientRect().right > edge + 0.5; }).map((count) => count.textContent)"""


def test_a_phones_six_seats_show_their_pile_counts_whole(second_tab: Tab) -> None:
    """Issue #39: on a phone, three seats a row, Dutch pile counts were cut ("37 kaarter")."""
    create_table(second_tab, "twinit", 6, {}, lang="nl")
    second_tab.page.click("#start")
    second_tab.page.wait_for_selector(".seat .ti-count")
    assert second_tab.page.evaluate(CUT_COUNTS) == []
