"""Benchmark: how often the Twinz clue bots say nonsense (issue 40: English words, brands,
names, rare words, clues that point nowhere), on a reviewed sample of 120 clues per level.

The sample is fixed: 30 mystery words of each deck (``evaluate.mystery_words``, seed
40), each given by a bot duo of one level (members 0 and 1, fresh game, nothing used
yet): 120 clues per level. Each (target, clue) was read by a French-speaking reviewer and
given a verdict in ``tests/games/twinz/data/clue_review.tsv``:

- ``good``: a clue a French player would give for that word;
- ``weak``: a French word tied to the target, but loosely (a player would still accept it);
- ``nonsense``: no sense for that word (a neighbour by spelling, a word of another sense
  than any of the target's), or forbidden (an English word, a brand, a proper name,
  a word most players do not know).

The rate is ``nonsense`` over the sample, with its Wilson 95% interval. A clue the review
has not read yet is listed (``--missing`` writes them as review lines to fill in) and
counted apart: the rate is final only when none is missing.
Usage: python bench/twinz_clue_review.py [--missing FILE]
"""

from __future__ import annotations

import argparse
import csv
import random
from pathlib import Path

from twintable.core.stats import wilson_interval

REVIEW = Path(__file__).resolve().parents[1] / "tests/games/twinz/data/clue_review.tsv"
WORDS_PER_DECK = 30
SEED = 40
VERDICTS = ("good", "weak", "nonsense")


def read_review(path: Path = REVIEW) -> dict[tuple[str, str], tuple[str, str]]:
    """(folded target, folded clue) -> (verdict, note)."""
    from twintable.games.twinz.decks import fold

    found: dict[tuple[str, str], tuple[str, str]] = {}
    if not path.exists():
        return found
    with path.open(encoding="utf-8") as handle:
        for row in csv.DictReader(handle, delimiter="\t"):
            if row["verdict"] not in VERDICTS:
                raise SystemExit(f"{path}: unknown verdict {row['verdict']!r} for {row}")
            found[fold(row["target"]), fold(row["clue"])] = (row["verdict"], row["note"])
    return found


def sample(level: str, bot: object) -> list[tuple[str, str]]:
    """The level's 120 (target, clue) of the fixed sample."""
    from twintable.games.twinz.evaluate import mystery_words

    words = [word for deck in ("yellow", "blue")
             for word in mystery_words(deck, WORDS_PER_DECK, SEED)]
    clues = []
    for index, word in enumerate(words):
        for member in (0, 1):
            clue = bot.give_clue(word, set(), member,  # type: ignore[attr-defined]
                                 random.Random(SEED * 1000 + 2 * index + member))
            clues.append((word, clue))
    return clues


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--missing", type=Path,
                        help="write the clues the review lacks here (TSV lines to review)")
    args = parser.parse_args()

    from twintable.games.twinz.decks import fold
    from twintable.games.twinz.evaluate import bots_by_level

    review = read_review()
    missing: dict[tuple[str, str], str] = {}
    for level, bot in bots_by_level().items():
        clues = sample(level, bot)
        counts = dict.fromkeys(VERDICTS, 0)
        unread = 0
        bad: list[str] = []
        for target, clue in clues:
            verdict = review.get((fold(target), fold(clue)))
            if verdict is None:
                unread += 1
                missing[fold(target), fold(clue)] = f"{target}\t{clue}"
                continue
            counts[verdict[0]] += 1
            if verdict[0] == "nonsense":
                bad.append(f"{clue.upper()} for {target.upper()}")
        low, high = wilson_interval(counts["nonsense"], len(clues))
        print(f"{level}: {len(clues)} clues, nonsense {counts['nonsense']} "
              f"({counts['nonsense'] / len(clues):.1%}, 95% {low:.1%}-{high:.1%}), "
              f"weak {counts['weak']}, good {counts['good']}, not reviewed {unread}")
        if bad:
            print("  nonsense: " + ", ".join(bad))
    if args.missing is not None:
        args.missing.write_text("".join(f"{line}\t\t\n" for line in missing.values()),
                                encoding="utf-8")
        print(f"{len(missing)} clues to review written to {args.missing}")


if __name__ == "__main__":
    main()
