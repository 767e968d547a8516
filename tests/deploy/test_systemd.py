"""deploy/systemd: the units pass ``systemd-analyze verify`` and its offline security
review, their command lines and example environment files are read by the real
``twintable serve`` as the settings they mean, their stop and descriptor bounds fit the
server's, and the SQLite service's command and environment start a server that its
readiness check finds and that stops well within the unit's stop timeout.

systemd is not process 1 here, so nothing is started by systemd itself: what the units
do when systemd runs them (the user, the sandbox, the restarts) is checked by reading,
as ``systemd-analyze`` reads them offline, not by running them.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx2
import pytest
import typer

from tests.server.client import free_port
from twintable.cli import app
from twintable.cli.config import variables_of
from twintable.server.supervisor import AFTER_DRAIN_S
from twintable.server.transport import WANTED_DESCRIPTORS

ROOT = Path(__file__).resolve().parents[2]
UNITS = ROOT / "deploy" / "systemd"
SERVE = typer.main.get_command(app).commands["serve"]  # type: ignore[attr-defined]
#: Where the units expect the package's virtual environment (docs/deploy.md).
INSTALLED = "/opt/twintable/venv/bin/twintable"
ENV_FILE = "/etc/twintable/env"
#: Variables the server reads besides serve's flags.
SERVER_VARIABLES = {"TWINTABLE_ARCHIVE_DIR"}
#: The services, each with the environment file it is shown with and its instance.
SERVICES = [("twintable.service", "env.sqlite", None),
            ("twintable.service", "env.workers", None),
            ("twintable@.service", "env.workers", "1"),
            ("twintable@.service", "env.workers", "3")]


def unit(name: str) -> dict[str, list[str]]:
    """A unit file's ``Section.Key`` entries, each with its values in order (a key may be
    given several times); a line that is neither a section, a comment nor ``Key=value``
    fails, as it would be a mistake systemd only warns about."""
    entries: dict[str, list[str]] = {}
    section = None
    for number, line in enumerate((UNITS / name).read_text().splitlines(), 1):
        if not line.strip() or line.startswith(("#", ";")):
            continue
        if re.fullmatch(r"\[[A-Za-z]+\]", line):
            section = line[1:-1]
            continue
        key, equals, value = line.partition("=")
        assert section and equals and re.fullmatch(r"[A-Za-z]+", key), (name, number, line)
        entries.setdefault(f"{section}.{key}", []).append(value)
    return entries


def environment_file(name: str) -> dict[str, str]:
    """An example environment file's variables (``KEY=value`` lines, as systemd reads)."""
    found = {}
    for line in (UNITS / name).read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            key, equals, value = line.partition("=")
            assert equals and re.fullmatch(r"TWINTABLE_[A-Z_]+", key), line
            found[key] = value
    return found


def service_environment(name: str, env: str) -> dict[str, str]:
    """What the service's process starts with: the unit's Environment= lines, then the
    file, which wins (systemd.exec: EnvironmentFile= overrides Environment=)."""
    values: dict[str, str] = {}
    for line in unit(name).get("Service.Environment", []):
        values.update(word.split("=", 1) for word in shlex.split(line))  # type: ignore[misc]
    return {**values, **environment_file(env)}


def expanded(line: str, environment: dict[str, str], instance: str | None) -> list[str]:
    """A command line as systemd runs it: ``%i`` the instance, ``${NAME}`` one word from
    the environment; any other ``$`` or ``%`` would be a form this test does not know."""
    line = line.replace("%i", instance or "")
    line = re.sub(r"\$\{([A-Z_]+)\}", lambda match: environment[match[1]], line)
    assert "$" not in line and "%" not in line, line
    return shlex.split(line)


def serve_arguments(name: str, instance: str | None) -> list[str]:
    """ExecStart's arguments after ``twintable serve``."""
    (line,) = unit(name)["Service.ExecStart"]
    words = expanded(line, {}, instance)
    assert words[:2] == [INSTALLED, "serve"], words
    return words[2:]


def parsed(arguments: list[str], environment: dict[str, str],
           monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """serve's settings from ``arguments`` and ``environment`` alone, read by its own
    parser (types converted, unknown flags refused), without running it."""
    for variable in list(os.environ):
        if variable.startswith("TWINTABLE_"):
            monkeypatch.delenv(variable)
    for variable, value in environment.items():
        monkeypatch.setenv(variable, value)
    with SERVE.make_context("serve", list(arguments)) as context:
        return dict(context.params)


def analyze() -> str:
    found = shutil.which("systemd-analyze")
    if found is None:
        pytest.skip("systemd-analyze is not installed (Debian's systemd package); the "
                    "units are still read by the other tests")
    return found


def installable_copy(folder: Path, name: str, env: str) -> Path:
    """The unit as installed, but with this machine's twintable and environment file
    (verify checks that the command exists)."""
    installed = Path(sys.executable).with_name("twintable")
    if not os.access(installed, os.X_OK):
        pytest.skip(f"no twintable script beside {sys.executable} (pip install -e .)")
    text = (UNITS / name).read_text()
    environment_line = f"EnvironmentFile={ENV_FILE}"
    assert text.count(INSTALLED) == 1 and text.count(environment_line) == 1, name
    shutil.copy(UNITS / env, folder / "env")
    copy = folder / name
    copy.write_text(text.replace(INSTALLED, str(installed))
                    .replace(environment_line, f"EnvironmentFile={folder / 'env'}"))
    return copy


@pytest.mark.parametrize(("name", "instance"), [
    ("twintable.service", None), ("twintable@.service", "2"),
    ("twintable-workers.target", None)])
def test_units_pass_systemd_analyze_verify(tmp_path: Path, name: str,
                                           instance: str | None) -> None:
    tool = analyze()
    copy = installable_copy(tmp_path, name, "env.workers") if name.endswith(".service") \
        else shutil.copy(UNITS / name, tmp_path / name)
    target = Path(copy).with_name(name.replace("@.", f"@{instance}.")) if instance \
        else Path(copy)
    result = subprocess.run([tool, "verify", "--man=no", str(target)],
                            capture_output=True, text=True, timeout=60)
    # verify only warns about an unknown key or a bad value: any word from it is a fault.
    assert (result.returncode, result.stderr.strip(), result.stdout.strip()) == (0, "", "")


@pytest.mark.parametrize("name", ["twintable.service", "twintable@.service"])
def test_services_are_sandboxed(tmp_path: Path, name: str) -> None:
    """systemd's own review of the sandbox scores at most 2.0 of 10 ("OK")."""
    tool = analyze()
    copy = installable_copy(tmp_path, name, "env.workers")
    target = copy.with_name(name.replace("@.", "@1.")) if "@" in name else copy
    result = subprocess.run([tool, "security", "--offline=yes", "--threshold=20",
                             "--no-pager", str(target)],
                            capture_output=True, text=True, timeout=60)
    score = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", result.stdout)
    assert score, result.stdout[-2000:] + result.stderr
    assert result.returncode == 0 and float(score[1]) <= 2.0, result.stdout[-3000:]


@pytest.mark.parametrize("name", ["twintable.service", "twintable@.service"])
def test_stop_and_limits_fit_the_server(name: str) -> None:
    entries = unit(name)
    drains = [float(environment_file(env).get("TWINTABLE_DRAIN_TIMEOUT", 10))
              for env in ("env.sqlite", "env.workers")]
    # serve --workers waits for each drain, then AFTER_DRAIN_S, then 3 s, before it
    # kills a worker (supervisor.join_all): systemd must not kill first.
    assert float(entries["Service.TimeoutStopSec"][0]) > max(drains) + AFTER_DRAIN_S + 3
    # Only serve gets the SIGTERM: as supervisor it stops its workers itself.
    assert entries["Service.KillMode"] == ["mixed"]
    assert entries["Service.KillSignal"] == ["SIGTERM"]
    assert entries["Service.Restart"] == ["on-failure"]
    assert int(entries["Service.LimitNOFILE"][0]) >= WANTED_DESCRIPTORS
    for key, value in (("ProtectSystem", "strict"), ("NoNewPrivileges", "yes"),
                       ("PrivateTmp", "yes"), ("StateDirectory", "twintable"),
                       ("User", "twintable"), ("EnvironmentFile", ENV_FILE)):
        assert entries[f"Service.{key}"] == [value], key


@pytest.mark.parametrize(("name", "env", "instance"), SERVICES)
def test_command_lines_mean_what_they_say(name: str, env: str, instance: str | None,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    environment = service_environment(name, env)
    unknown = set(environment_file(env)) - set(variables_of(SERVE)) - SERVER_VARIABLES
    assert not unknown, f"{env}: no such setting: {unknown}"
    settings = parsed(serve_arguments(name, instance), environment, monkeypatch)
    file = environment_file(env)
    assert settings["db"] == file["TWINTABLE_DB_URL"]
    assert settings["public_url"] == "https://play.example.org"
    assert settings["trusted_proxy"] == ["127.0.0.1"]
    assert settings["host"] == "127.0.0.1"
    if instance is None:
        assert settings["port"] == int(file["TWINTABLE_PORT"])
        assert settings["advertise_url"] is None
    else:
        # The template's own command line wins over the shared file.
        assert (settings["workers"], settings["port"], settings["advertise_url"]) == (
            1, 8100 + int(instance), f"/w{instance}")
    if settings["workers"] > 1:
        assert settings["redis"] == file["TWINTABLE_REDIS_URL"]
        assert settings["db"].startswith("postgresql")
        assert settings["worker_ports"] == "off"  # behind nginx: one public port
    # The readiness check asks the port the server listens on.
    (check,) = unit(name)["Service.ExecStartPost"]
    words = expanded(check, environment, instance)
    assert words[0] == "/usr/bin/curl"
    assert words[-1] == f"http://127.0.0.1:{settings['port']}/readyz"


def test_sqlite_service_starts_is_found_ready_and_stops_in_time(tmp_path: Path) -> None:
    """The service's command, with its environment (the database and the port moved to
    this test's), as systemd would run it: its ExecStartPost finds it ready, SIGTERM
    stops it within TimeoutStopSec."""
    environment = service_environment("twintable.service", "env.sqlite")
    port = free_port()
    environment.update(TWINTABLE_PORT=str(port),
                       TWINTABLE_DB_URL=f"sqlite:///{tmp_path / 'twintable.sqlite3'}",
                       XDG_CACHE_HOME=str(tmp_path / "cache"),
                       XDG_DATA_HOME=str(tmp_path / "data"))
    process_environment = {variable: value for variable, value in os.environ.items()
                           if not variable.startswith("TWINTABLE_")} | environment
    process = subprocess.Popen(
        [sys.executable, "-m", "twintable.cli", "serve",
         *serve_arguments("twintable.service", None)],
        env=process_environment, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        curl = shutil.which("curl")
        (check,) = unit("twintable.service")["Service.ExecStartPost"]
        if curl is not None:
            words = expanded(check, environment, None)
            ready = subprocess.run([curl, *words[1:]], timeout=90, env=process_environment)
            assert ready.returncode == 0
        else:  # the same question without curl
            deadline = time.monotonic() + 60
            while not _ready(port):
                assert process.poll() is None and time.monotonic() < deadline
                time.sleep(0.1)
        assert httpx2.get(f"http://127.0.0.1:{port}/metrics", trust_env=False).status_code \
            == 200
        stopping = time.monotonic()
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=30)
        took = time.monotonic() - stopping
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    output = process.stdout.read().decode() if process.stdout else ""
    # uvicorn raises the signal again once it has shut down; systemd counts an end by
    # SIGTERM as a clean stop, like exit code 0.
    assert process.returncode in (0, -signal.SIGTERM), output[-3000:]
    assert "drained" in output, output[-3000:]
    assert took < float(unit("twintable.service")["Service.TimeoutStopSec"][0])
    # The banner names the database the environment gave, and the address.
    assert f"Twin Table on http://127.0.0.1:{port}" in output, output[-3000:]


def _ready(port: int) -> bool:
    try:
        return httpx2.get(f"http://127.0.0.1:{port}/readyz", timeout=1,
                          trust_env=False).status_code == 200
    except httpx2.HTTPError:
        return False
