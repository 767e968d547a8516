"""The Twin It deck: 90 pictures in 18 families of look-alikes, printed on 135 two-faced cards.

A picture id is ``family * 5 + variant``. Variant 0 is a family's plain picture; each
other variant changes one detail of it (see :data:`VARIANT_DETAILS`), so near twins share
a family and telling them apart takes a second look. The deck is built by code from a
fixed seed: every picture on exactly three faces, never twice on one card, and never two
pictures of one family on one card (a flip should always show something new).
"""

from __future__ import annotations

import random

FAMILIES = (
    "fish", "cat", "bird", "house", "tree", "flower", "sun", "moon", "boat",
    "car", "cup", "key", "bell", "mushroom", "rocket", "balloon", "snail", "kite",
)
VARIANTS = 5
PICTURES = len(FAMILIES) * VARIANTS
FACES_PER_PICTURE = 3
CARDS = PICTURES * FACES_PER_PICTURE // 2
#: What sets each variant apart from the family's plain picture (variant 0). None of them
#: is a change of hue alone, so a colour-blind player can tell every picture apart.
VARIANT_DETAILS = (
    "plain",
    "two spots instead of three",
    "facing the other way",
    "wearing a little crown",
    "striped, in the family's second colour",
)
DECK_SEED = 135_270


def family_of(picture: int) -> int:
    return picture // VARIANTS


def variant_of(picture: int) -> int:
    return picture % VARIANTS


def picture_name(picture: int) -> str:
    return f"{FAMILIES[family_of(picture)]} ({VARIANT_DETAILS[variant_of(picture)]})"


def build_deck(seed: int = DECK_SEED) -> tuple[tuple[int, int], ...]:
    """The 135 cards as (face 0, face 1) picture pairs; the same seed gives the same deck."""
    rng = random.Random(seed)
    faces = [picture for picture in range(PICTURES) for _ in range(FACES_PER_PICTURE)]
    rng.shuffle(faces)
    fronts, backs = faces[:CARDS], faces[CARDS:]

    def clash(index: int) -> bool:
        return family_of(fronts[index]) == family_of(backs[index])

    # Repair the few clashes by swapping backs with a card where the swap clashes nowhere.
    for index in range(CARDS):
        while clash(index):
            other = rng.randrange(CARDS)
            backs[index], backs[other] = backs[other], backs[index]
            if clash(other):
                backs[index], backs[other] = backs[other], backs[index]
    return tuple(zip(fronts, backs, strict=True))


DECK = build_deck()
