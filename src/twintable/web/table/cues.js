// What a game declares beyond its lines (README.md, "Sounds, banners and the end"): which
// of its events sound, which make a banner line above the board, and when it is over.
// The shell asks here and names no event of any game. No DOM (tests/web/js runs it).

// The blips a game may name (lib/sound.js draws them). The shell itself plays `turn`
// when the move comes to you and `end` when the results show.
export const SOUNDS = ["turn", "card", "take", "reveal", "end", "error"];

// Whether the game is over for this view: a table whose view has not come yet is not
// being played either.
export const isOver = (game, view) => !view || Boolean(game.isOver(view));

// The blip this event makes (one of SOUNDS), or null.
export function soundOf(game, event) {
  const sound = game.sounds?.[event.kind];
  return SOUNDS.includes(sound) ? sound : null;
}

// The banner for an event the log told as `told`: undefined when the event makes none,
// null when the game shows it on its board itself (the shell then clears an older
// banner rather than repeat it), else the line (by default the log's own).
export function bannerOf(game, event, use, told) {
  const banner = game.banners?.[event.kind];
  if (!banner) return undefined;
  if (banner === true) return told;
  return banner(event, use, told) ?? null;
}
