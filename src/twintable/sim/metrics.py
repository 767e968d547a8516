"""Custom metrics of a run (``--metric``): a per-game number a designer chooses, named or
written as an expression, reported per cell with its interval and ranked across cells.

A metric is read from one finished game and its cell: the expression's names are the
game's length in every unit (``length``, ``moves``, ``rounds``, ``turns``,
``virtual_s``), ``margin``, the first player's and the dealer's win share (``first``,
``dealer``), the win shares of the cell's weakest and strongest bot (``weakest``,
``strongest``: the bots with the lowest and highest win rate in the cell), ``even`` (the
even line), and every figure the game reports (``hands``, ``ended_by_bankruptcy``,
``points``); ``share("heuristic")`` is one bot's share. Expressions take numbers,
``+ - * / // % **``, comparisons, ``and or not``, ``x if c else y`` and ``min``,
``max``, ``abs``: nothing else is evaluated. A game adds named metrics of its own as
expressions in its ``"sim"`` extension (``SimGame.metrics``); the names below hold for
every game.
"""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from twintable.core.stats import mean_interval
from twintable.sim.report import even_chance, game_length, margin, win_shares
from twintable.sim.runner import GameResult

#: Named metrics every game has, as expressions.
COMMON_METRICS: Mapping[str, str] = {
    "first": "first",
    "dealer": "dealer",
    "weakest": "weakest",
    "strongest": "strongest",
    "first_edge": "first - even",
    "length": "length",
    "margin": "margin",
}

_BINARY: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
    ast.Div: operator.truediv, ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod,
    ast.Pow: operator.pow}
_COMPARE: dict[type, Callable[[Any, Any], Any]] = {
    ast.Lt: operator.lt, ast.LtE: operator.le, ast.Gt: operator.gt, ast.GtE: operator.ge,
    ast.Eq: operator.eq, ast.NotEq: operator.ne}
_FUNCTIONS: dict[str, Callable[..., Any]] = {"min": min, "max": max, "abs": abs}


class MetricError(ValueError):
    """A metric that cannot be read: an unknown name, a forbidden construct."""


class _Missing(Exception):
    """A name this game has no value for (no first player in a game without turns)."""


@dataclass(frozen=True)
class Metric:
    """A metric as the command line named it (``name``) and the expression it reads."""

    name: str
    expression: str
    tree: ast.Expression

    def value(self, result: GameResult, cell: CellContext) -> float | None:
        """This game's value, or None where a name it reads has none here."""
        names = game_names(result, cell)
        try:
            value = _evaluate(self.tree.body, names, result)
        except _Missing:
            return None
        except (ArithmeticError, TypeError) as error:  # 1/0 in one game: no value there
            if isinstance(error, ZeroDivisionError):
                return None
            raise MetricError(f"metric {self.name!r}: {error}") from None
        return float(value)


@dataclass(frozen=True)
class CellContext:
    """What a metric needs of the cell a game belongs to: its even line, and its weakest
    and strongest bots (by win rate over the cell's games)."""

    even: float
    weakest: str | None
    strongest: str | None


def cell_context(players: int, results: Sequence[GameResult]) -> CellContext:
    wins: dict[str, float] = {}
    games: dict[str, int] = {}
    for result in results:
        shares = win_shares(result)
        for seat, name in enumerate(result.bots):
            games[name] = games.get(name, 0) + 1
            wins[name] = wins.get(name, 0.0) + shares.get(seat, 0.0)
    rates = {name: wins[name] / games[name] for name in games}
    ranked = sorted(rates, key=lambda name: (rates[name], name))
    return CellContext(even_chance(players, results), ranked[0] if ranked else None,
                       ranked[-1] if ranked else None)


def bot_share(result: GameResult, name: str) -> float | None:
    seats = [seat for seat, bot in enumerate(result.bots) if bot == name]
    if not seats:
        return None
    shares = win_shares(result)
    return sum(shares.get(seat, 0.0) for seat in seats) / len(seats)


def game_names(result: GameResult, cell: CellContext) -> dict[str, float | None]:
    shares = win_shares(result)
    names: dict[str, float | None] = {key: float(value) for key, value in result.stats.items()}
    lengths = game_length(result)
    names.update(lengths)
    unit = next((unit for unit in ("rounds", "turns", "virtual_s") if unit in lengths),
                "moves")
    names["length"] = lengths[unit]
    gap = margin(result)
    names["margin"] = float(gap) if gap is not None else None
    names["first"] = shares.get(result.first, 0.0) if result.first is not None else None
    names["dealer"] = shares.get(result.dealer, 0.0) if result.dealer is not None else None
    names["weakest"] = bot_share(result, cell.weakest) if cell.weakest else None
    names["strongest"] = bot_share(result, cell.strongest) if cell.strongest else None
    names["even"] = cell.even
    return names


def parse_metric(text: str, named: Mapping[str, str] | None = None) -> Metric:
    """A metric by name (:data:`COMMON_METRICS`, then the game's ``named``) or as an
    expression; a MetricError says what is wrong before any game is played."""
    known = {**COMMON_METRICS, **(named or {})}
    expression = known.get(text, text)
    try:
        tree = ast.parse(expression, mode="eval")
    except SyntaxError:
        raise MetricError(f"--metric {text!r} is neither a metric ({', '.join(known)}) "
                          "nor an expression") from None
    for node in ast.walk(tree):
        allowed = (ast.Expression, ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.Compare,
                   ast.IfExp, ast.Name, ast.Constant, ast.Call, ast.Load, ast.operator,
                   ast.unaryop, ast.boolop, ast.cmpop)
        if not isinstance(node, allowed):
            raise MetricError(f"--metric {text!r}: {type(node).__name__} is not allowed")
        if isinstance(node, ast.Call) and not (
                isinstance(node.func, ast.Name) and node.func.id in (*_FUNCTIONS, "share")):
            raise MetricError(f"--metric {text!r}: only min, max, abs and share() may be "
                              "called")
        if isinstance(node, ast.Constant) and not isinstance(node.value, int | float | str):
            raise MetricError(f"--metric {text!r}: {node.value!r} is not a number")
    return Metric(text, expression, tree)


def check_names(metric: Metric, available: set[str]) -> None:
    """Refuse a name no game of the run has (a typo), with the names it could use."""
    called = {node.func.id for node in ast.walk(metric.tree)
              if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)}
    unknown = sorted({node.id for node in ast.walk(metric.tree) if isinstance(node, ast.Name)}
                     - available - called)
    if unknown:
        raise MetricError(f"--metric {metric.name!r}: unknown name{'s' * (len(unknown) > 1)} "
                          f"{', '.join(unknown)} (this run has {', '.join(sorted(available))})")


def _evaluate(node: ast.expr, names: Mapping[str, float | None], result: GameResult) -> Any:
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        if node.id not in names:
            # A figure a game reports only when it happens (a payout) counts 0 when absent,
            # as in the report's stats.
            return 0.0
        value = names[node.id]
        if value is None:
            raise _Missing
        return value
    if isinstance(node, ast.BinOp):
        return _BINARY[type(node.op)](_evaluate(node.left, names, result),
                                      _evaluate(node.right, names, result))
    if isinstance(node, ast.UnaryOp):
        operand = _evaluate(node.operand, names, result)
        return not operand if isinstance(node.op, ast.Not) else (
            -operand if isinstance(node.op, ast.USub) else +operand)
    if isinstance(node, ast.BoolOp):
        values = [_evaluate(value, names, result) for value in node.values]
        return all(values) if isinstance(node.op, ast.And) else any(values)
    if isinstance(node, ast.Compare):
        left = _evaluate(node.left, names, result)
        for op, right_node in zip(node.ops, node.comparators, strict=True):
            right = _evaluate(right_node, names, result)
            if not _COMPARE[type(op)](left, right):
                return False
            left = right
        return True
    if isinstance(node, ast.IfExp):
        return _evaluate(node.body if _evaluate(node.test, names, result) else node.orelse,
                         names, result)
    if isinstance(node, ast.Call):
        assert isinstance(node.func, ast.Name)
        if node.func.id == "share":
            (argument,) = node.args
            bot = _evaluate(argument, names, result)
            share = bot_share(result, str(bot))
            if share is None:
                raise _Missing
            return share
        return _FUNCTIONS[node.func.id](*(_evaluate(arg, names, result) for arg in node.args))
    raise MetricError(f"cannot evaluate {ast.dump(node)}")


def metric_summary(metric: Metric, players: int,
                   results: Sequence[GameResult]) -> dict[str, Any]:
    """The metric over a cell's games: mean, its 95% interval and the games it had a value
    in (a first-player metric has none in a game without turns)."""
    context = cell_context(players, results)
    values = [value for result in results
              if (value := metric.value(result, context)) is not None]
    mean, low, high = mean_interval(values)
    # A share or an edge (every value within -1 to 1) is on the scale of a win rate, so
    # --precision holds it to the same ± points; a count or a length is on its own.
    share = bool(values) and min(values) >= -1 and max(values) <= 1
    return {"name": metric.name, "expression": metric.expression, "games": len(values),
            "mean": mean, "ci95": [low, high], "share": share}


def metric_values(metric: Metric, players: int,
                  results: Sequence[GameResult]) -> dict[int, float]:
    """Per seed, the metric's value in that game (paired comparisons between cells)."""
    context = cell_context(players, results)
    return {result.seed: value for result in results
            if (value := metric.value(result, context)) is not None}

