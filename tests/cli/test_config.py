"""``twintable serve``'s settings from the environment and a TOML file: the order of the
sources, the refusals, docs/deploy.md's table, and passwords kept out of the banner, the
logs and every process's command line and environment."""

from __future__ import annotations

import logging
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
import typer.main
import uvicorn
from typer.testing import CliRunner

from tests.server.client import free_port, free_port_run
from tests.server.conftest import fresh_postgres, postgres_reachable, services_required
from twintable import cli
from twintable.cli import app
from twintable.cli.config import markdown_table, variables_of
from twintable.server import app as app_module
from twintable.server import settings as settings_module
from twintable.server.settings import Settings

SERVE = typer.main.get_command(app).commands["serve"]  # type: ignore[attr-defined]
DEPLOY_DOCS = Path(__file__).resolve().parents[2] / "docs" / "deploy.md"
runner = CliRunner()


#: The loggers ``serve`` sets up (``server/logs.py``).
SERVE_LOGGERS = ("", "twintable", "uvicorn", "uvicorn.error", "uvicorn.access")


@pytest.fixture(autouse=True)
def loggers_kept() -> Iterator[None]:
    """``serve`` run in this process points its loggers at the runner's output, which is
    closed once the command returns: every later test of this process that logged would
    fail writing to it. Each logger is put back as it was."""
    saved = [(logger, logger.handlers[:], logger.level, logger.propagate)
             for logger in map(logging.getLogger, SERVE_LOGGERS)]
    yield
    for logger, handlers, level, propagate in saved:
        logger.handlers[:] = handlers
        logger.setLevel(level)
        logger.propagate = propagate


@pytest.fixture(autouse=True)
def consoles_follow_each_calls_columns(monkeypatch: pytest.MonkeyPatch) -> None:
    """A long line (a path, a refusal) stays one line whatever width the console had."""
    monkeypatch.setattr(cli.console, "_width", 500)


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> list[Settings]:
    """``serve`` stopped where it would start uvicorn: the settings it would serve with."""
    made: list[Settings] = []
    monkeypatch.setattr(app_module, "create_app", made.append)
    monkeypatch.setattr(app_module, "tune_collector_for_serving", lambda: None)

    def started_at_once(server: uvicorn.Server, sockets: Any = None) -> None:
        server.started = True

    monkeypatch.setattr(uvicorn.Server, "run", started_at_once)
    # uvicorn's Config runs logging.config.dictConfig, which closes every handler there
    # is, pytest's own log capture included: the test then failed reading it, and every
    # later test of its process with it (the full suite's 1,800 errors).
    monkeypatch.setattr(uvicorn.Config, "configure_logging", lambda _: None)
    # The ports are not taken (another server of this machine may hold 8000).
    monkeypatch.setattr(settings_module, "_check_port_free", lambda host, port: None)
    return made


def serve(args: list[str], env: dict[str, str] | None = None) -> Any:
    """``twintable serve ARGS`` in this process, with none of serve's variables set but
    those of ``env`` (the ones of the shell running the tests must not count)."""
    clean: dict[str, str | None] = dict.fromkeys(variables_of(SERVE))
    return runner.invoke(app, ["serve", *args], env={**clean, **(env or {})})


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(("flag", "variable", "key", "expected"), [
    (None, None, None, 20),
    (None, None, 30, 30),
    (None, "40", 30, 40),
    ("50", "40", 30, 50),
    ("50", None, None, 50),
])
def test_the_command_line_goes_before_the_environment_before_the_file(
        served: list[Settings], tmp_path: Path, flag: str | None, variable: str | None,
        key: int | None, expected: int) -> None:
    config = write(tmp_path / "twintable.toml",
                   f"tables_per_address = {key}\n" if key is not None else "")
    args = ["--db", f"sqlite:///{tmp_path / 'tt.sqlite3'}", "--config", str(config)]
    if flag is not None:
        args += ["--tables-per-address", flag]
    env = {"TWINTABLE_TABLES_PER_ADDRESS": variable} if variable is not None else {}
    result = serve(args, env)
    assert result.exit_code == 0, result.output
    (settings,) = served
    assert settings.max_open_tables_per_client == expected


def test_every_kind_of_value_comes_from_the_file_or_the_environment(
        served: list[Settings], tmp_path: Path) -> None:
    database = tmp_path / "tt.sqlite3"
    config = write(tmp_path / "twintable.toml", f"""
db = "sqlite:///{database}"
ws_compression = true
realtime_bot_pace = 2
trusted_proxy = ["10.0.0.1", "192.168.0.0/16"]
bot_delay_ms = 5
""")
    result = serve([], {"TWINTABLE_CONFIG": str(config), "TWINTABLE_BOT_DELAY_MS": "7",
                        "TWINTABLE_API_DOCS": "true",
                        "TWINTABLE_PUBLIC_URL": "https://play.example.org"})
    assert result.exit_code == 0, result.output
    (settings,) = served
    assert settings.db_url == f"sqlite+aiosqlite:///{database}"
    assert settings.ws_compression is True and settings.api_docs is True
    assert settings.realtime_bot_pace == 2.0
    assert settings.trusted_proxies == ["10.0.0.1", "192.168.0.0/16"]
    assert settings.bot_delay_ms == 7
    assert settings.public_url == "https://play.example.org"
    # A list from the environment is split at spaces.
    served.clear()
    result = serve(["--db", f"sqlite:///{database}"],
                   {"TWINTABLE_TRUSTED_PROXY": "10.0.0.2 10.0.0.3"})
    assert result.exit_code == 0, result.output
    assert served[0].trusted_proxies == ["10.0.0.2", "10.0.0.3"]


@pytest.mark.parametrize(("text", "said"), [
    ("db_url = 'sqlite:///x'\n", "unknown key 'db_url' (did you mean 'db'?)"),
    ("tables-per-address = 40\n",
     "unknown key 'tables-per-address' (did you mean 'tables_per_address'?)"),
    ("colour = 'blue'\n", "unknown key 'colour'; the keys are the flags' names"),
    ("config = 'other.toml'\n", "unknown key 'config' (a configuration file cannot"),
    ("port = '8000'\n", "'port' takes an integer, not a string ('8000')"),
    ("port = 80.5\n", "'port' takes an integer, not a number (80.5)"),
    ("api_docs = 'yes'\n", "'api_docs' takes true or false, not a string ('yes')"),
    ("messages_per_address = true\n",
     "'messages_per_address' takes a number, not a boolean (True)"),
    ("trusted_proxy = '10.0.0.1'\n", "'trusted_proxy' takes a list of strings"),
    ("trusted_proxy = [10]\n", "'trusted_proxy' takes a list of strings, not a list"),
    ("[serve]\nport = 8000\n", "unknown key 'serve'"),
    ("port = \n", "is not TOML: "),
])
def test_a_bad_file_is_refused_in_one_line(served: list[Settings], tmp_path: Path,
                                           text: str, said: str) -> None:
    config = write(tmp_path / "twintable.toml", text)
    result = serve(["--config", str(config)])
    assert result.exit_code == 1, result.output
    assert result.output.startswith(f"error: {config}"), result.output
    assert said in result.output, result.output
    assert len(result.output.strip().splitlines()) == 1, result.output
    assert served == []


def test_a_missing_file_or_a_bad_variable_is_refused_in_one_line(
        served: list[Settings], tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.toml"
    result = serve([], {"TWINTABLE_CONFIG": str(missing)})
    assert result.exit_code == 1, result.output
    assert result.output.strip() == (f"error: cannot read the configuration file "
                                     f"{missing}: No such file or directory")
    result = serve([], {"TWINTABLE_PORT": "eighty"})
    assert result.exit_code == 2, result.output
    first, pointer = result.output.strip().splitlines()
    assert first.startswith("error: invalid value for '--port' (env var: 'TWINTABLE_PORT')")
    assert "--help" in pointer
    assert served == []


def test_the_banner_hides_the_passwords(served: list[Settings]) -> None:
    secret = secrets.token_hex(8)
    result = serve(["--db", f"postgresql://postgres:{secret}@db.example:5432/tt"])
    assert result.exit_code == 0, result.output
    assert "database: postgresql+asyncpg://postgres:***@db.example:5432/tt)" in result.output
    assert secret not in result.output
    assert served[0].db_url.endswith(f":{secret}@db.example:5432/tt")
    # Redis's refusal names its URL, also without the password.
    result = serve(["--workers", "2", "--db", "postgresql://db.example/tt"],
                   {"TWINTABLE_REDIS_URL": f"redis://:{secret}@127.0.0.1:1/0"})
    assert result.exit_code == 2, result.output
    assert "Redis at redis://:***@127.0.0.1:1/0 is unreachable" in result.output
    assert secret not in result.output


def test_the_deployment_docs_list_every_flag() -> None:
    table = markdown_table(SERVE)
    assert table in DEPLOY_DOCS.read_text(encoding="utf-8"), (
        "docs/deploy.md's table of serve's flags is out of date; put this one in its "
        f"place:\n{table}")


# -- a real server, its workers, and what `ps` and /proc show of them -----------------

def _reachable(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
    except OSError:
        return False


@pytest.fixture
def database() -> Iterator[str]:
    """A fresh PostgreSQL database, and Redis beside it for the workers."""
    missing = [name for name, reachable in (("PostgreSQL", postgres_reachable()),
                                            ("Redis", _reachable(6379))) if not reachable]
    if missing:
        reason = f"{' and '.join(missing)} at 127.0.0.1 unreachable"
        if services_required():
            pytest.fail(f"{reason} (TWINTABLE_REQUIRE_SERVICES=1)")
        pytest.skip(reason)
    with fresh_postgres() as url:
        yield url


def family(pid: int) -> list[int]:
    """``pid`` and every process below it."""
    found = [pid]
    for thread in Path(f"/proc/{pid}/task").iterdir():
        for child in (thread / "children").read_text().split():
            found += family(int(child))
    return found


def environment(pid: int) -> list[str]:
    return Path(f"/proc/{pid}/environ").read_bytes().decode(errors="replace").split("\0")


def wait_ready(port: int, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 30
    while True:
        assert process.poll() is None, log.read_text()[-2000:]
        assert time.monotonic() < deadline, "the server did not start"
        try:
            if httpx2.get(f"http://127.0.0.1:{port}/readyz", timeout=5).status_code == 200:
                return
        except httpx2.HTTPError:
            pass
        time.sleep(0.1)


def wait_for_workers(process: subprocess.Popen[bytes], log: Path, count: int) -> list[int]:
    """The worker processes of ``serve --workers``, once ``count`` of them run: their
    command line and environment are set by then, whether or not they are ready."""
    deadline = time.monotonic() + 30
    while True:
        assert process.poll() is None, log.read_text()[-2000:]
        assert time.monotonic() < deadline, "the workers did not start"
        workers = [pid for pid in family(process.pid)[1:]
                   if b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes()]
        if len(workers) >= count:
            return workers
        time.sleep(0.05)


@pytest.mark.services
@pytest.mark.parametrize("source", ["environment", "file"])
def test_no_process_shows_the_password(database: str, tmp_path: Path, source: str) -> None:
    secret = secrets.token_hex(12)
    url = database.replace("://postgres@", f"://postgres:{secret}@")
    port = free_port_run(3)
    args = ["--workers", "2", "--port", str(port), "--redis", "redis://127.0.0.1:6379/13",
            "--redis-prefix", f"tt-test-{secrets.token_hex(4)}:", "--log-level", "info"]
    env = {name: value for name, value in os.environ.items()
           if name not in variables_of(SERVE)}
    if source == "environment":
        env["TWINTABLE_DB_URL"] = url
    else:
        config = write(tmp_path / "twintable.toml", f'db = "{url}"\n')
        config.chmod(0o600)
        args += ["--config", str(config)]
    log = tmp_path / "serve.log"
    process = subprocess.Popen([sys.executable, "-m", "twintable.cli", "serve", *args],
                               env=env, stdout=log.open("wb"), stderr=subprocess.STDOUT)
    try:
        workers = wait_for_workers(process, log, 2)
        processes = family(process.pid)
        for pid in processes:
            assert secret not in Path(f"/proc/{pid}/cmdline").read_text(errors="replace")
            shown = [entry for entry in environment(pid) if secret in entry]
            # The one copy allowed is the variable the operator gave the parent itself.
            allowed = ([f"TWINTABLE_DB_URL={url}"]
                       if source == "environment" and pid == process.pid else [])
            assert shown == allowed, (pid, shown)
        ps = subprocess.run(["ps", "-eww", "-o", "args"], capture_output=True, text=True,
                            check=True).stdout
        assert secret not in ps
        # The workers' settings are in a file only this user may read.
        (named,) = {entry.split("=", 1)[1] for pid in workers
                    for entry in environment(pid)
                    if entry.startswith("TWINTABLE_SETTINGS_FILE=")}
        settings_file = Path(named)
        assert settings_file.stat().st_mode & 0o777 == 0o600
        assert settings_file.parent.stat().st_mode & 0o777 == 0o700
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    assert not settings_file.exists()
    text = log.read_text()
    assert "postgres:***@127.0.0.1:5432" in text.splitlines()[0], text[:500]
    assert secret not in text


@pytest.mark.services
def test_one_process_with_a_password_in_its_file(database: str, tmp_path: Path) -> None:
    secret = secrets.token_hex(12)
    url = database.replace("://postgres@", f"://postgres:{secret}@")
    config = write(tmp_path / "twintable.toml", f'db = "{url}"\nlog_level = "info"\n')
    port = free_port()
    log = tmp_path / "serve.log"
    env = {name: value for name, value in os.environ.items()
           if name not in variables_of(SERVE)}
    process = subprocess.Popen([sys.executable, "-m", "twintable.cli", "serve", "--port",
                                str(port), "--config", str(config)],
                               env=env, stdout=log.open("wb"), stderr=subprocess.STDOUT)
    try:
        wait_ready(port, process, log)
        assert secret not in Path(f"/proc/{process.pid}/cmdline").read_text()
        assert not [entry for entry in environment(process.pid) if secret in entry]
    finally:
        process.terminate()
        process.wait(timeout=20)
    text = log.read_text()
    assert f"(database: {url.replace(secret, '***')})" in text.splitlines()[0], text[:500]
    assert secret not in text


@pytest.mark.parametrize("url", ["nonsense://x", "mysql://u:hunter2@h/db", "not a url"])
def test_a_database_url_it_cannot_serve_on_is_one_line(served: list[Settings],
                                                        url: str) -> None:
    """Issue #39: ``serve --db nonsense://x`` printed a 95-line traceback."""
    result = serve(["--db", url])
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: --db takes a SQLite or "
                                                   "PostgreSQL URL"), result.output
    assert "hunter2" not in result.output
    assert served == []


def test_a_taken_port_is_one_line_before_anything_starts(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Issue #39: ``serve`` on a busy port opened and migrated its database, then failed."""
    made: list[Settings] = []
    monkeypatch.setattr(app_module, "create_app", made.append)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        database = tmp_path / "never.sqlite3"
        result = serve(["--port", str(port), "--db", f"sqlite:///{database}"])
    assert result.exit_code == 2, result.output
    assert result.output.strip() == (f"error: cannot listen on 127.0.0.1:{port}: Address "
                                     "already in use (another server there? choose another "
                                     "with --port)")
    assert made == [] and not database.exists()


def test_the_train_help_names_its_extra() -> None:
    """The help formatter took ``[rl]`` for markup and printed "needs the  extra"."""
    result = runner.invoke(app, ["train", "--help"])
    assert "needs the [rl] extra" in result.output
