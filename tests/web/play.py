"""How a test person plays each game in the browser: by clicks and keys, from the page."""

from __future__ import annotations

import time
from typing import Any

from tests.web.conftest import Tab

FIND_TWINS = """() => { const seen = {};
  for (const b of document.querySelectorAll('.tw-card:not([disabled])')) {
    const p = b.dataset.picture;
    if (seen[p] && !b.dataset.ref.startsWith('s')) return [seen[p], b.dataset.ref];
    seen[p] = b.dataset.ref; }
  return null; }"""


def create_table(tab: Tab, game: str, players: int, options: dict[str, str],
                 open_seats: tuple[int, ...] = (), bot: str | None = None,
                 lang: str = "en", private: bool = False) -> str:
    """Ann creates a table from the lobby (in ``lang``; ``bot`` in every other seat, or the
    game's default bots; ``open_seats`` left for people); returns the table's id."""
    tab.go("/")
    if lang != "en":
        tab.page.wait_for_selector("#create")
        tab.page.select_option("#language", lang)
        tab.page.wait_for_function(f"() => document.documentElement.lang === '{lang}'")
    tab.page.fill("#name", "Ann")
    tab.page.select_option("#game", game)
    tab.page.fill("#players", str(players))
    for name, value in options.items():
        field = tab.page.locator(f"#opt-{name}")
        typed = tab.page.locator(f'[data-option-field="{name}"] .lb-typed')
        if typed.count() and not field.locator(f'option[value="{value}"]').count():
            # A list that also takes words: a list is typed in the field "typed" shows.
            field.select_option("typed")
            typed.fill(value)
        elif field.evaluate("e => e.tagName") == "SELECT":
            field.select_option(value)
        elif field.get_attribute("type") == "checkbox":
            field.set_checked(value == "true")
        else:
            field.fill(value)
    for seat in range(1, players) if bot else ():
        tab.page.select_option(f'[data-seat="{seat}"]', bot)
    for seat in open_seats:
        tab.page.select_option(f'[data-seat="{seat}"]', "")
    if private:
        tab.page.check("#private")
    tab.page.click("#create")
    tab.page.wait_for_selector("#invite")
    return str(tab.page.url.rsplit("/", 1)[1])


def join_as(tab: Tab, table_id: str, name: str) -> None:
    """Another person opens the invite, sits down under ``name`` and waits for the start."""
    tab.go(f"/#/join/{table_id}")
    tab.page.fill("#join-name", name)
    tab.page.click("#join")
    tab.page.wait_for_selector("#waiting")


TAP = """(el) => {
  // The game has ended: a person makes no more moves (and the results are on their way
  // into view, which a click scrolling to the hand would undo).
  const results = document.getElementById('results');
  if (results && !results.hidden) return false;
  if (!el.isConnected || el.disabled) return false;
  const r = el.getBoundingClientRect();
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) return null;
  // A finger lands on a part of the control in sight: its middle, else another point of
  // it (in a fanned hand a lifted or hovered neighbour may lie over a card's middle; the
  // mouse rests where the last click left it, so a hover can last the whole game).
  const spots = [.5, .3, .7, .15, .85];
  for (const fy of spots) for (const fx of spots) {
    const px = r.left + r.width * fx, py = r.top + r.height * fy;
    if (px < 0 || py < 0 || px >= innerWidth || py >= innerHeight) continue;
    const hit = document.elementFromPoint(px, py);
    if (hit && (hit === el || el.contains(hit))) { el.click(); return true; }
  }
  return false;  // covered: the table is changing under the finger; look again
}"""


def tap(target: Any, timeout: float = 1000) -> bool:
    """Tap a control, as a person would, unless the table changed under the finger first
    (bots move on their own): then the control is gone and the person just looks again.
    A control on screen is tapped where it lies, in one step in the page (checked, hit
    and clicked between two frames, never scrolling: a Playwright click scrolls to its
    target, and one landing as the game ended took the page from the results back to
    the hand); one off screen is scrolled to first, as a person would."""
    try:
        done = target.element_handle(timeout=timeout).evaluate(TAP)
        if done is None:
            target.click(timeout=timeout)
            return True
        return bool(done)
    except Exception:
        return False


# Scrolled to "start", a box rests at a whole scroll offset while its own top may lie at a
# fraction of a pixel: the results then stop at top -0.2, which is in view. (Asking for
# top >= 0 passed only when a look fell in the middle of the smooth scroll: rarely, on a
# loaded machine with fewer frames.)
IN_VIEW = """(selector) => { const r = document.querySelector(selector).getBoundingClientRect();
  return r.top > -1 && r.top < innerHeight; }"""


def in_view(tab: Tab, selector: str) -> bool:
    """Whether the top of ``selector``'s box is on screen."""
    return bool(tab.page.evaluate(IN_VIEW, selector))


def wait_in_view(tab: Tab, selector: str, timeout: float = 30_000) -> None:
    tab.page.wait_for_function(IN_VIEW, arg=selector, timeout=timeout)


def finished(tab: Tab) -> bool:
    return bool(tab.page.locator("#results:not([hidden])").count())


#: What a Timo player taps, first things first: a colour being chosen, a card that can be
#: played, a shout, passing, drawing.
TIMO_CHOICES = ("[data-colour]", ".hand button.card.legal:not([disabled])", "#call-timo",
                "[data-catch]", "#pass", "#draw")


def timo_move(tab: Tab, keep: int = 0) -> None:
    """A card when one can be played, else whatever the turn asks. With ``keep``, never
    fewer than ``keep`` cards in hand: at that many, draw and keep the card drawn (on a
    table with ``draw_when_able``, where drawing is always allowed): a person who must not
    go out. Only one's own moves take cards out of one's hand, so the count cannot change
    between the look and the tap."""
    if keep and tab.page.locator(".hand .card").count() <= keep \
            and tap_first(tab, ("[data-colour]", "#pass", "#draw")):
        return
    tap_first(tab, TIMO_CHOICES)


TAP_FIRST = f"""(selectors) => {{ const tap = {TAP};
  for (const selector of selectors) {{
    const el = document.querySelector(selector);
    if (el) return [selector, tap(el)];
  }}
  return null; }}"""


def tap_first(tab: Tab, selectors: tuple[str, ...]) -> bool:
    """Tap the first control found of ``selectors``, looked for and tapped in one step in
    the page (one look per decision: two looks could see two different tables), as
    :func:`tap` taps; one off screen is scrolled to first."""
    try:
        found = tab.page.evaluate(TAP_FIRST, list(selectors))
    except Exception:
        return False  # the page was being replaced (a redirect, the results): look again
    if found is None:
        return False
    selector, done = found
    if done is None:
        return tap(tab.page.locator(selector).first)
    return bool(done)


def twins_move(tab: Tab) -> None:
    page = tab.page
    if page.locator("[data-buy]").count():
        tap(page.locator("[data-buy]").first)
        return
    cards = page.locator(".hand button.card:not([disabled])")
    if page.locator("#commit").count() and cards.count() >= 2:
        # Tap only cards not picked yet: tapping a picked one puts it back, and on a slow
        # machine a redraw between two taps used to leave one card picked for ever.
        for _ in range(2 - page.locator(".hand button.card.picked").count()):
            tap(page.locator(".hand button.card:not([disabled]):not(.picked)").first)
        tap(page.locator("#commit"))


def twinit_move(tab: Tab, use_keyboard: bool = False) -> None:
    page = tab.page
    if page.locator("#flip").count():
        if use_keyboard:
            page.keyboard.press("f")
        else:
            tap(page.locator("#flip"))
        return
    pair = page.evaluate(FIND_TWINS)
    if pair:
        try:
            for ref in pair:
                if use_keyboard:
                    page.focus(f'[data-ref="{ref}"]', timeout=500)
                    page.keyboard.press("Enter")
                elif not tap(page.locator(f'[data-ref="{ref}"]'), timeout=500):
                    return
        except Exception:  # the table changed under the hand: a person would look again
            return


def twinz_move(tab: Tab) -> None:
    page = tab.page
    try:
        if page.locator("#draw-card").count():
            page.click("#draw-card", timeout=500)
        elif page.locator("#clue-word").count():
            tab.clues = getattr(tab, "clues", 0) + 1
            page.fill("#clue-word", f"indice{chr(97 + tab.clues % 26)}{chr(97 + tab.clues // 26)}",
                      timeout=500)
            page.press("#clue-word", "Enter", timeout=500)
        elif page.locator("#guess-word").count():
            page.fill("#guess-word", "maison", timeout=500)
            page.click("#guess-send", timeout=500)
    except Exception:  # the bots moved the table on first: look again
        return


MOVES: dict[str, Any] = {"timo": timo_move, "twins": twins_move, "twinit": twinit_move,
                         "twinz": twinz_move}


LOG_TEXT = "() => document.getElementById('log')?.textContent ?? ''"


class Progress:
    """Whether a game in the browser still moves: :meth:`check` fails once the table's log
    has not changed for ``stall_s`` seconds in any of ``tabs``, or after ``limit_s`` in
    all. A long game on a loaded machine (people drawing card after card) is no failure;
    a table that stands still is."""

    def __init__(self, *tabs: Tab, stall_s: float = 45, limit_s: float = 360):
        self.tabs, self.stall_s, self.limit_s = tabs, stall_s, limit_s
        self.started = self.moved = time.monotonic()
        self.seen: tuple[str, ...] = ()

    def check(self) -> None:
        now = time.monotonic()
        seen = tuple(str(tab.page.evaluate(LOG_TEXT)) for tab in self.tabs)
        if seen != self.seen:
            self.seen, self.moved = seen, now
        assert now - self.moved < self.stall_s, \
            f"the table stood still for {self.stall_s:.0f} s: {seen[0][:300]!r}"
        assert now - self.started < self.limit_s, \
            f"the game did not reach its results in {self.limit_s:.0f} s"


def play_to_results(tab: Tab, game: str, limit_s: float = 360, **kwargs: Any) -> None:
    progress = Progress(tab, limit_s=limit_s)
    while not finished(tab):
        progress.check()
        MOVES[game](tab, **kwargs)
        time.sleep(0.12)


def seek(tab: Tab, step: int) -> None:
    """Move the replay's slider to a step and wait for its frame (its page of steps may
    still be on its way)."""
    tab.page.locator("#seek").fill(str(step))
    tab.page.wait_for_selector(f"#board[data-move='{step}']:not([aria-busy])")


def open_replay(tab: Tab) -> None:
    """From the results, open the replay and wait for its first frame. The page draws it
    from the first page of steps (25 moves, every seat's view), however long the game:
    the usual wait (it once loaded every move at once and needed 120 s beside stress-ng;
    bench/replay_first_frame.py times it)."""
    tab.page.click("#replay-link")
    tab.page.wait_for_selector("#board[data-move]:not([aria-busy])")


def skip_guided_offer(tab: Tab, game: str) -> None:
    """After "Play now" on this browser's first table of ``game``: skip the guided game
    offered, where the game has one (a game without goes straight to its table)."""
    skip = tab.page.locator(f"#guided-skip-{game}")
    skip.or_(tab.page.locator("#board > *")).first.wait_for(timeout=30_000)
    if skip.count():
        skip.click()
