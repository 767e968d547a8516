"""Where a command finds its settings besides its command line: an environment variable
for each flag and an optional TOML file, with the command line first, then the
environment, then the file, then the flag's default.

Typer does the reading: a flag's ``envvar`` and the context's ``default_map`` are its
own mechanisms, and they already rank the sources in that order. This module names the
variables (one rule for every flag, so a flag added later has its variable and its key
with no code), checks a file before its values become defaults, and writes the table of
flags, variables and keys that docs/deploy.md shows.
"""

from __future__ import annotations

import difflib
import tomllib
from pathlib import Path
from typing import Any, get_args, get_origin

import typer
from typer.core import TyperCommand, TyperOption

#: Every variable's name starts with this; the rest is the flag's name in capitals.
ENV_PREFIX = "TWINTABLE_"
#: The option naming the file, which a file cannot name in turn.
CONFIG_OPTION = "config"


class ConfigError(Exception):
    """A configuration file that cannot be used, told in one line."""


def env_name(option: TyperOption) -> str:
    """``--tables-per-address`` reads ``TWINTABLE_TABLES_PER_ADDRESS``."""
    return ENV_PREFIX + option.name.upper()


class ConfigurableCommand(TyperCommand):
    """A command whose every option may also come from the environment and from a TOML
    file. An option that names its variable (``envvar=``) keeps it; every other gets
    :func:`env_name`'s."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for param in self.params:
            if isinstance(param, TyperOption) and param.envvar is None:
                param.envvar = env_name(param)


def options_of(command: Any) -> list[TyperOption]:
    """The options a file or the environment may set: every one but ``--config``."""
    return [param for param in command.params
            if isinstance(param, TyperOption) and param.name != CONFIG_OPTION]


def variables_of(command: Any) -> list[str]:
    """The environment variables ``command`` reads, ``--config``'s included."""
    names = []
    for param in command.params:
        if isinstance(param, TyperOption) and param.envvar is not None:
            names += [param.envvar] if isinstance(param.envvar, str) else list(param.envvar)
    return names


def read_config_file(ctx: typer.Context, path: Path | None) -> Path | None:
    """``--config``'s callback (an eager one: it runs before the other options are read):
    the file's values become the defaults of this run, below the command line and the
    environment."""
    if path is None or ctx.resilient_parsing:
        return path
    try:
        with path.open("rb") as file:
            table = tomllib.load(file)
    except OSError as error:
        raise ConfigError(f"cannot read the configuration file {path}: "
                          f"{error.strerror or error}") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path} is not TOML: {error}") from None
    ctx.default_map = {**(ctx.default_map or {}), **checked(table, ctx.command, path)}
    return path


def checked(table: dict[str, Any], command: Any, path: Path) -> dict[str, Any]:
    """``table`` as read from ``path``, once every key names an option of ``command``
    and every value is of that option's type; ConfigError names the first that is not.
    Types are strict: a port written ``"8000"`` is a mistake the file should show, not
    one Typer should quietly mend."""
    options = {option.name: option for option in options_of(command)}
    for key, value in table.items():
        option = options.get(key)
        if option is None:
            raise ConfigError(f"{path}: unknown key {key!r}{_hint(key, options)}")
        wanted: Any = option.type_descriptor.annotation
        if not _fits(value, wanted):
            raise ConfigError(f"{path}: {key!r} takes {toml_type(option)}, not "
                              f"{_toml_value(value)}")
    return table


def _hint(key: str, names: dict[str, TyperOption]) -> str:
    if key == CONFIG_OPTION:
        return " (a configuration file cannot name another)"
    # db_url for db: the key written after its variable's name (TWINTABLE_DB_URL).
    by_variable = {option.envvar[len(ENV_PREFIX):].lower(): name
                   for name, option in names.items() if isinstance(option.envvar, str)
                   and option.envvar.startswith(ENV_PREFIX)}
    if key in by_variable:
        return f" (did you mean {by_variable[key]!r}?)"
    close = difflib.get_close_matches(key.replace("-", "_"), list(names), n=1)
    if close:
        return f" (did you mean {close[0]!r}?)"
    return "; the keys are the flags' names with underscores, as --help lists them"


def _fits(value: Any, wanted: Any) -> bool:
    if get_origin(wanted) is list:
        (item,) = get_args(wanted) or (str,)
        return isinstance(value, list) and all(_fits(each, item) for each in value)
    if wanted is bool:
        return isinstance(value, bool)
    if wanted is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if wanted is float:  # TOML writes 60 for 60.0
        return isinstance(value, int | float) and not isinstance(value, bool)
    return isinstance(value, str)  # strings, paths, choices: Typer checks the rest


def toml_type(option: TyperOption) -> str:
    """What a file writes for ``option``, in words."""
    wanted: Any = option.type_descriptor.annotation
    if get_origin(wanted) is list:
        return "a list of strings"
    return {bool: "true or false", int: "an integer", float: "a number"}.get(
        wanted, "a string")


def _toml_value(value: Any) -> str:
    kind = {bool: "a boolean", int: "an integer", float: "a number", str: "a string",
            list: "a list", dict: "a table"}.get(type(value), "a date or time")
    return f"{kind} ({value!r})" if not isinstance(value, dict | list) else kind


def markdown_table(command: Any) -> str:
    """The flags of ``command`` with their variables, TOML keys and defaults, as a
    Markdown table (docs/deploy.md holds this one; a test keeps them equal)."""
    rows = ["| flag | environment variable | TOML key | TOML value | default |",
            "|---|---|---|---|---|"]
    for param in command.params:
        if not isinstance(param, TyperOption):
            continue
        flags = " ".join(f"`{flag}`" for flag in [*param.opts, *param.secondary_opts])
        variable = param.envvar if isinstance(param.envvar, str) else "—"
        key = "—" if param.name == CONFIG_OPTION else f"`{param.name}`"
        value = "—" if param.name == CONFIG_OPTION else toml_type(param)
        rows.append(f"| {flags} | `{variable}` | {key} | {value} | {_default(param)} |")
    return "\n".join(rows) + "\n"


def _default(option: TyperOption) -> str:
    if option.default is None or option.default == []:
        return "—"
    if isinstance(option.default, bool):
        return f"`{str(option.default).lower()}`"
    return f"`{option.default}`"
