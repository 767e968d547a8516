"""The game server: every table this process runs, backed by the store.

It makes tables (and rematches), finds them (in memory, in the database, or, with
several workers, on the worker that runs them), takes over tables no worker holds,
recovers them at a start, lets finished and abandoned ones leave memory, and keeps
profiles. Whether this process may run a table, and who else runs it, is its
:class:`~twintable.server.hosting.TableHost`'s to say (one process, or workers sharing
tables through Redis). What happens at one table is ``server/tables.py``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from twintable.core.errors import OptionError, RuleError
from twintable.core.game import Outcome
from twintable.core.registry import GameRegistry
from twintable.core.replay import Replay
from twintable.core.types import Action
from twintable.server.clock import now_ms
from twintable.server.errors import LobbyError
from twintable.server.extension import ServerGame
from twintable.server.hosting import TableHost
from twintable.server.metrics import Metrics, ServerFigures
from twintable.server.moves import stored_payload
from twintable.server.presence import DEFAULT_GRACE_S
from twintable.server.protocol import Moved
from twintable.server.public import table_socket
from twintable.server.seating import bot_name, hash_token, new_token, seated_bot
from twintable.server.settings import Settings
from twintable.server.stopping import cancel_within
from twintable.server.storage.archive import (
    ArchiveError,
    default_archive_dir,
    read_archived_moves,
)
from twintable.server.storage.models import ProfileRow, SeatRow, TableRow
from twintable.server.storage.moves import StoredAction
from twintable.server.storage.store import Store
from twintable.server.tables import MOVED_CLOSE_CODE, Table
from twintable.server.tutorials import guided_seed

log = logging.getLogger("twintable.server")


@dataclass
class HandOver:
    """What a drain did: the tables it stopped, those in play, and those another
    worker took over (with their sockets there)."""

    tables: list[str]
    in_play: list[str]
    taken: dict[str, str | None]


def _moved_to(socket: str | None) -> str | None:
    """The last frame of a drained table's clients: where it runs now, when known."""
    return Moved(url=socket).model_dump_json() if socket else None


class GameServer:
    """The lobby: tables in memory, backed by the store."""

    def __init__(self, store: Store, registry: GameRegistry, settings: Settings,
                 metrics: Metrics, host: TableHost):
        self.store = store
        self.registry = registry
        self.settings = settings
        self.metrics = metrics
        self.records: dict[str, list[dict[str, Any]]] = {}  # finished rounds by game
        self.tables: dict[str, Table] = {}
        self.accepting = True
        self.host = host
        """Who may run which table (``server/app.py`` picks it from the settings)."""
        metrics.watch(self.figures)
        self._retiring: set[asyncio.Task[None]] = set()
        self._sweeper: asyncio.Task[None] | None = None
        self._taking: dict[str, asyncio.Task[Table | None]] = {}

    async def _store_new(self, row: TableRow, seats: list[SeatRow]) -> Table:
        """Save a new table and run it here."""
        fence = await self.host.hold_new(row.id)
        if fence is not None:
            row.fence = fence
        await self.store.create_table(row, seats)
        table = Table(self, row, seats)
        table.fence = fence
        self.tables[row.id] = table
        if not self.host.alone:
            table.announce()  # in the shared lobby at once, not at its first change
        return table

    async def locate(self, table_id: str) -> Table | str | None:
        """Where a table runs: here (the table), on another worker (that worker's id), or
        nowhere (None: no such table). A table in the database that no worker holds is
        taken over here."""
        table = self.tables.get(table_id)
        if table is not None or self.host.alone:
            return table
        for _ in range(3):
            taking = self._taking.get(table_id)
            if taking is not None:
                await asyncio.shield(taking)
            if table_id in self.tables:
                return self.tables[table_id]
            owner = await self.host.owner(table_id)
            if owner is not None and owner != self.host.worker:
                return owner
            if owner is None:
                table = await self.take_over(table_id)
                if table is not None:
                    return table
                if await self.store.fence(table_id) is None:
                    return None
            await asyncio.sleep(0.05)
        raise LobbyError(503, "table.moving", "the table is moving between servers; retry")

    async def take_over(self, table_id: str) -> Table | None:
        """Run a table that no worker holds: held from the host first, then its state from the log
        (its bots and timers re-armed). None when another worker got it first."""
        if not self.accepting:
            return None
        taking = self._taking.get(table_id)
        if taking is None:
            taking = asyncio.create_task(self._take_over(table_id))
            self._taking[table_id] = taking
            taking.add_done_callback(lambda _: self._taking.pop(table_id, None))
        return await asyncio.shield(taking)

    async def _take_over(self, table_id: str) -> Table | None:
        if await self.store.fence(table_id) is None:
            return None  # no such table
        owned, fence = await self.host.acquire(table_id)
        if not owned:
            return None
        try:
            # Read after the claim: no older owner can change the table any more.
            loaded = await self.store.load_table(table_id)
            assert loaded is not None
            table = Table(self, *loaded)
            table.fence = fence
            if table.status == "running":
                table.recover(await self.store.load_actions(table_id))
        except Exception:
            await self.host.release(table_id)
            raise
        self.tables[table_id] = table
        # A table whose last move the old owner had made is taken over only to be closed.
        in_play = table.status == "running" and not table.game.is_over(table.state)
        if table.status == "running":
            if in_play:
                table.automation.wake()
            else:
                await table.finish()
        elif table.status != "open":
            self.retire_later(table_id)
        table.announce()
        log.info("table taken over", extra={"table": table_id, "fence": fence,
                                            "seq": table.seq, "in_play": in_play})
        return table

    async def lose(self, table_id: str) -> None:
        """This worker no longer holds the table: forget it, stop its bots and timers and
        send its clients to the new owner (they reconnect), then give the table up to the
        host. In that order: the host may be out of reach (Redis cut off) for seconds,
        and the table must not play on meanwhile."""
        table = self.tables.pop(table_id, None)
        if table is not None:
            await table.stop(MOVED_CLOSE_CODE)
            log.warning("table given up: another worker runs it", extra={"table": table_id})
        await self.host.release(table_id)

    def lose_later(self, table_id: str) -> None:
        """:meth:`lose` from inside the table's own lock."""
        task = asyncio.get_running_loop().create_task(self.lose(table_id))
        self._retiring.add(task)
        task.add_done_callback(self._retiring.discard)

    async def sweep_abandoned(self) -> None:
        """Tables nobody started and nobody looks at, and running ones nobody has looked
        at for longer than their grace (see ``Settings.unattended_after_s``), leave
        memory: each is marked abandoned in the database and given up, so they
        never fill the server."""
        limit = self.settings.abandoned_after_s
        floor = self.settings.unattended_after_s
        while True:
            await asyncio.sleep(min(60.0, max(min(limit, floor) / 4, 0.05)))
            now = time.monotonic()
            for table in list(self.tables.values()):
                grace = (table.row.settings or {}).get("grace_s", DEFAULT_GRACE_S)
                presence = table.presence
                if not presence.connections and (
                        (table.status == "open" and now - presence.last_seen > limit)
                        or (table.status == "running"
                            and now - presence.last_seen > max(grace, floor))):
                    if table.status == "running":
                        await table.stop()  # no move in flight when it is marked
                        if table.status != "running":
                            continue  # it ended meanwhile
                    table.row.status = "abandoned"
                    await self.store.set_status(table.id, "abandoned", fence=table.fence)
                    self.tables.pop(table.id, None)
                    await table.stop()
                    await self.host.release(table.id, listed=True)
                    log.info("table abandoned", extra={"table": table.id})

    async def recover(self) -> None:
        self._sweeper = asyncio.create_task(self.sweep_abandoned())
        # Rounds of finished games, for bots that learn from people (Twinz word bots).
        for row, _ in await self.store.load_tables(["finished"]):
            if row.game not in self.registry:
                continue
            entry = self.registry.entry(row.game)
            round_records = entry.extension(ServerGame).round_records
            if round_records is None:
                continue
            actions = await self.store.load_actions(row.id)
            if not actions:
                # Archived (twintable archive): reading every archive file at each start
                # would undo what archiving saves; those rounds are no longer learned from.
                continue
            replay = Replay(row.game, row.players, row.seed, dict(row.options),
                            [Action(a.seat, a.kind, a.payload, a.t_ms) for a in actions])
            with contextlib.suppress(Exception):  # an old log must never stop a start
                records = round_records(replay.final_state(entry.rules))
                self.records.setdefault(row.game, []).extend(records)
        await self.host.start(self)
        if not self.host.alone:
            return  # the host's scans take the free tables over
        for row, seats in await self.store.load_tables(["open", "running"]):
            owned, _ = await self.host.acquire(row.id)
            if not owned:
                continue  # another server on this PostgreSQL database runs this table
            table = Table(self, row, seats)
            self.tables[row.id] = table
            if row.status == "running":
                table.recover(await self.store.load_actions(row.id))
                if table.game.is_over(table.state):
                    # The last move was logged but the server stopped before it marked the
                    # game finished: the log says it is over, so finish it now (rated once).
                    await table.finish()
                else:
                    table.automation.wake()
        log.info("tables recovered", extra={"tables": len(self.tables)})

    async def create(self, game_id: str, players: int, options: dict[str, Any],
                     seat_kinds: list[tuple[str, str | None]], name: str | None,
                     display_name: str, player_id: str | None,
                     turn_limit_s: int | None = None,
                     grace_s: int = DEFAULT_GRACE_S,
                     invite_hash: str | None = None,
                     created_by: str | None = None, *, token_hash: str,
                     counted_profile: str | None = None, tutorial: bool = False) -> Table:
        """A new open table with its creator in seat 0, held by the token whose hash is
        ``token_hash``; ``invite_hash``: the hash of a private table's invite secret
        (none: a public table); ``created_by``: the address that asked for it, whose
        share of unfinished tables it counts in; ``counted_profile``: the creator's
        checked profile, whose share it counts in too; ``tutorial``: the game's guided
        game, dealt from its declared seed."""
        try:
            game = self.registry.get(game_id)
            resolved = game.resolve_options(options)
            game.check_players(players, resolved)
            # A game refuses options that do not fit the player count (a taboo seat past
            # the last) when it deals: deal once now, so the table is refused here and
            # never fails at its start.
            game.new_state(resolved, players, 0)
        except (OptionError, RuleError) as error:
            raise LobbyError(422, error.code, error.message) from None
        except (ValueError, TypeError, KeyError, IndexError) as error:
            raise LobbyError(422, "options.invalid",
                             f"these options do not make a game: {error}") from None
        if len(seat_kinds) != players or seat_kinds[0][0] != "human":
            raise LobbyError(422, "seats.invalid",
                             "give one entry per seat; seat 0 is the creator's")
        entry = self.registry.entry(game_id)
        seat_kinds = [(kind, seated_bot(entry, bot) if kind == "bot" else bot)
                      for kind, bot in seat_kinds]
        table_id = secrets.token_hex(8)
        row = TableRow(id=table_id, game=game_id, name=name or f"{display_name}'s table",
                       options={k: list(v) if isinstance(v, tuple) else v
                                for k, v in resolved.items()},
                       seed=guided_seed(self.registry.entry(game_id)) if tutorial
                       else secrets.randbits(62), players=players, status="open",
                       creator_hash=token_hash, created_ms=now_ms(), result=None,
                       settings={"turn_limit_s": turn_limit_s, "grace_s": grace_s,
                                 **({"tutorial": True} if tutorial else {}),
                                 # Clients name an unnamed table in their own language.
                                 **({"host_name": display_name} if name is None else {}),
                                 **({"invite_hash": invite_hash} if invite_hash else {}),
                                 **({"created_by": created_by} if created_by else {}),
                                 **({"created_by_profile": counted_profile}
                                    if counted_profile else {})})
        seats = []
        for seat, (kind, bot) in enumerate(seat_kinds):
            if seat == 0:
                seats.append(SeatRow(table_id=table_id, seat=0, kind="human",
                                     display_name=display_name, player_id=player_id,
                                     token_hash=token_hash))
            else:
                seats.append(SeatRow(table_id=table_id, seat=seat,
                                     kind="bot" if kind == "bot" else "empty",
                                     bot=bot if kind == "bot" else None,
                                     display_name=bot_name(
                                         table_id, seat, {s.display_name for s in seats
                                                          if s.display_name})
                                     if kind == "bot" else None))
        table = await self._store_new(row, seats)
        log.info("table created", extra={"table": table_id, "game": game_id})
        return table

    async def rematch(self, table: Table, seat: int, token_hash: str,
                      client: str | None,
                      admitted: Callable[[], AbstractAsyncContextManager[
                          Callable[[str], None]]]) -> Table:
        """The rematch of a finished table for the player in ``seat``: the first call makes
        it (same game, options, seats and bots; the other people's seats are kept for
        them), every later one seats its caller there, held by the token whose hash is
        ``token_hash``. ``client``: the caller's address; the new table counts in its
        share of unfinished tables and in the caller's profile's, like any other table
        made: ``admitted`` holds that room (or refuses) while it is made, and only then:
        taking a kept seat at a rematch made already makes nothing."""
        async with table.lock:
            if table.row.status != "finished":
                raise LobbyError(409, "table.not_finished", "the game is not over yet")
            made = (table.row.settings or {}).get("rematch")
            if made is None:
                async with admitted() as counted:
                    new = await self._make_rematch(table, seat, token_hash, client)
                    counted(new.id)
                table.row.settings = {**(table.row.settings or {}), "rematch": new.id}
                await self.store.save_settings(table.id, table.row.settings, table.fence)
                table.announce()
                return new
        new = await self.load(made)
        await new.seating.claim(seat, token_hash)
        return new

    async def _make_rematch(self, old: Table, seat: int, token_hash: str,
                            client: str | None) -> Table:
        options = dict(old.row.options)
        result = old.row.result or {}
        rematch_options = old.entry.extension(ServerGame).rematch_options
        if rematch_options is not None:
            options = rematch_options(options, Outcome(
                tuple(result.get("scores", ())), frozenset(result.get("winners", ()))))
        try:
            resolved = old.game.resolve_options(options)
            old.game.check_players(old.row.players, resolved)
        except OptionError as error:
            raise LobbyError(422, error.code, error.message) from None
        table_id = secrets.token_hex(8)
        seats: list[SeatRow] = []
        reserved: list[int] = []
        for previous in old.seats:
            kept = SeatRow(table_id=table_id, seat=previous.seat, kind=previous.kind,
                           bot=previous.bot, display_name=previous.display_name,
                           player_id=previous.player_id)
            if previous.kind == "human" and previous.seat == seat:
                kept.token_hash = token_hash
            elif previous.kind == "human":
                kept.kind = "empty"
                reserved.append(previous.seat)
            seats.append(kept)
        settings = {**(old.row.settings or {}), "creator_seat": seat, "reserved": reserved,
                    "rematch_of": old.id}
        settings.pop("rematch", None)
        settings.pop("created_by", None)
        settings.pop("tutorial", None)  # a rematch is a game of its own, freshly dealt
        # A rematch counts for who asked for it: their address and their profile.
        settings.pop("created_by_profile", None)
        if client is not None:
            settings["created_by"] = client
        asker = old.seats[seat].player_id
        if asker is not None:
            settings["created_by_profile"] = asker
        row = TableRow(id=table_id, game=old.row.game, name=old.row.name,
                       options={k: list(v) if isinstance(v, tuple) else v
                                for k, v in resolved.items()},
                       seed=secrets.randbits(62), players=old.row.players, status="open",
                       creator_hash=token_hash, created_ms=now_ms(), result=None,
                       settings=settings)
        table = await self._store_new(row, seats)
        log.info("rematch created", extra={"table": table_id, "rematch_of": old.id})
        return table

    async def load(self, table_id: str) -> Table:
        """A table in memory, or a finished one read back from the store."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        if not self.host.alone:
            found = await self.locate(table_id)
            if found is None:
                raise LobbyError(404, "table.unknown", "no such table")
            if isinstance(found, str):
                raise LobbyError(503, "table.moving", "the table is on another server; retry")
            return found
        loaded = await self.store.load_table(table_id)
        if loaded is None:
            raise LobbyError(404, "table.unknown", "no such table")
        table = self.tables.get(table_id)
        if table is None:
            table = self.tables[table_id] = Table(self, *loaded)
            if table.status not in ("open", "running"):
                # Read back for its rematch: it leaves memory again, or every finished
                # table asked about would stay, counted against the server's bound.
                self.retire_later(table_id)
        return table

    async def create_profile(self, display_name: str) -> tuple[str, str]:
        """A new profile: its public id and its secret (only the hash is kept)."""
        player_id, secret = f"p-{secrets.token_hex(8)}", new_token()
        await self.store.create_profile(ProfileRow(
            id=player_id, secret_hash=hash_token(secret), display_name=display_name,
            created_ms=now_ms()))
        return player_id, secret

    async def check_profile(self, player_id: str | None, secret: str | None) -> None:
        """A player id is an identity only with its secret: anyone may read the public id
        off the leaderboard, nobody else may play, be rated or renamed under it."""
        if player_id is None:
            return
        row = await self.store.profile(player_id)
        if row is None or not secret or not secrets.compare_digest(
                row.secret_hash, hash_token(secret)):
            raise LobbyError(403, "profile.invalid",
                             "that player id needs its secret key (make a profile first)")

    def tables_in_play(self) -> int:
        """Tables open or running here (finished ones only wait to leave memory)."""
        return sum(1 for table in self.tables.values() if table.status != "finished")

    def figures(self) -> ServerFigures:
        """What ``/metrics`` reports of the tables here, their clients and its host."""
        tables: dict[str, int] = {}
        connections = 0
        for table in self.tables.values():
            tables[table.status] = tables.get(table.status, 0) + 1
            connections += len(table.presence.connections)
        return ServerFigures(tables, connections, draining=not self.accepting,
                             leases=self.host.leases())

    def check_capacity(self) -> None:
        """Refuse a new table past the server's bound (each address's share of it:
        ``server/guards.py``'s ``TableQuota``)."""
        if len(self.tables) >= self.settings.max_tables:
            raise LobbyError(503, "server.full", "this server has no room for another table")

    def retire_later(self, table_id: str) -> None:
        """A finished table leaves memory after a while (the database keeps it): long
        enough for its players' last frames and a rematch."""
        asyncio.get_running_loop().call_later(self.settings.finished_linger_s,
                                              self._start_retiring, table_id)

    def _start_retiring(self, table_id: str) -> None:
        task = asyncio.get_running_loop().create_task(self._retire(table_id))
        self._retiring.add(task)  # held until done: the loop keeps only weak references
        task.add_done_callback(self._retiring.discard)

    async def _retire(self, table_id: str) -> None:
        table = self.tables.get(table_id)
        if table is None or table.status not in ("finished", "abandoned"):
            return
        del self.tables[table_id]
        await table.stop()
        await self.host.release(table_id, listed=True)

    def get(self, table_id: str) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise LobbyError(404, "table.unknown", "no such table")
        return table

    async def stored_replay(self, table_id: str) -> Replay:
        loaded = await self.store.load_table(table_id)
        if loaded is None:
            raise LobbyError(404, "table.unknown", "no such table")
        row, _ = loaded
        if row.status != "finished":
            # The seed and the log of a running game would reveal every hidden card.
            raise LobbyError(409, "table.not_finished", "replays open when the game is over")
        actions = await self.store.load_actions(table_id)
        if not actions:
            actions = await self._archived_actions(table_id)
        game = self.registry.get(row.game)
        return Replay(row.game, row.players, row.seed, dict(row.options),
                      [Action(a.seat, a.kind, stored_payload(game, a.kind, a.payload), a.t_ms)
                       for a in actions])

    async def _archived_actions(self, table_id: str) -> list[StoredAction]:
        """A finished game's moves from the archive, when ``twintable archive`` moved
        them there (none when it did not: a game with no moves)."""
        archived = await self.store.archived(table_id)
        if archived is None:
            return []
        folder = (Path(self.settings.archive_dir) if self.settings.archive_dir
                  else default_archive_dir(self.settings.db_url))
        if folder is None:
            raise LobbyError(503, "storage.down", "this game's moves are archived and this "
                             "server is given no archive folder (TWINTABLE_ARCHIVE_DIR)")
        try:
            return await asyncio.to_thread(read_archived_moves, folder, archived.archive,
                                           table_id)
        except ArchiveError as error:
            log.error("archived game unreadable", extra={"table": table_id,
                                                         "error": str(error)})
            raise LobbyError(503, "storage.down",
                             "this game's archived moves are out of reach") from None

    # -- leaving ----------------------------------------------------------------------
    async def drain(self, within_s: float) -> None:
        """Leave gracefully (SIGTERM, before the connections are closed): take no more
        tables, stop every table here between two moves, and send its clients on. With
        several workers each table is given up to the host, which asks another live
        worker to run it at once (not when its lease expires); its clients get ``moved``
        naming the table's new address, then the close 1012. Alone, the clients are
        closed with 1012 and come back when the server is up again (their tables are
        recovered from the log). Bounded by ``within_s``: what is left then, the
        shutdown that follows closes."""
        self.accepting = False
        started = time.monotonic()
        log.info("draining", extra={"tables": len(self.tables)})
        await cancel_within([self._sweeper] if self._sweeper else [], 1.0, "table sweeps")
        await self.host.stop_scanning()
        try:
            async with asyncio.timeout(within_s):
                handed = await self._hand_over()
        except TimeoutError:
            self.metrics.drains.observe(("timed_out",), time.monotonic() - started)
            log.warning("the drain ran out of time; the rest is closed as it is",
                        extra={"within_s": within_s})
            return
        self.metrics.drains.observe(("done",), time.monotonic() - started)
        log.info("drained", extra={"tables": len(handed.tables),
                                   "in_play": len(handed.in_play),
                                   "taken_over": len(handed.taken),
                                   "ms": round((time.monotonic() - started) * 1000)})

    async def _hand_over(self) -> HandOver:
        """Every table here stopped, given up and its clients sent on."""
        tables = list(self.tables.values())
        await asyncio.gather(*(table.halt() for table in tables))
        in_play = [t.id for t in tables if t.status in ("open", "running")]
        if self.host.alone:
            await asyncio.gather(*(table.presence.send_away(MOVED_CLOSE_CODE)
                                   for table in tables))
            return HandOver([t.id for t in tables], in_play, {})
        for table in tables:
            self.tables.pop(table.id, None)
        sockets = await self.host.hand_over(
            {t.id: t.status not in ("open", "running") for t in tables}, in_play)
        await asyncio.gather(*(
            table.presence.send_away(MOVED_CLOSE_CODE, _moved_to(sockets.get(table.id)))
            for table in tables))
        return HandOver([t.id for t in tables], in_play, sockets)

    async def take_over_now(self, table_ids: list[str]) -> dict[str, str | None]:
        """Run tables a draining worker gave up (``TakeOverCall``): each one taken here,
        with its socket at this worker's own address (None: it has none)."""
        taken: dict[str, str | None] = {}
        for table_id in table_ids:
            with contextlib.suppress(Exception):  # the scans take what fails here
                if await self.take_over(table_id) is not None:
                    taken[table_id] = table_socket(self.host.address, table_id)
        return taken

    async def shutdown(self) -> None:
        self.accepting = False
        if self._sweeper is not None:
            self._sweeper.cancel()
        # Several workers: clients reconnect to whichever takes the tables over.
        code = 1001 if self.host.alone else MOVED_CLOSE_CODE
        await asyncio.gather(*(table.stop(code) for table in self.tables.values()))
        await self.host.close()  # gives every table back
