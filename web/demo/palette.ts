// Every colour that carries meaning on the page, in one place: the canvases draw with these and the stylesheet's
// custom properties are set from them, so a test can compute their contrast. State colours are blue against orange
// (told apart with red-green colour vision deficiency) and come with a shape cue as well (dashed misses, "▲" on
// began, "▼" on ended, dashed rings for ended contacts). Hex only: contrast is computed from these strings.

/** Canvas background. */
export const BACKGROUND = '#000';
/** A ball in no particular state. */
export const BALL = '#ccc';

/** A tested pair (the line between the centres) and the two balls of the pair being tested: 3:1 on both. */
export const CHECK = '#2563eb';
/** Balls inside a span or under the sweep line: orange, 3:1 against BALL and BACKGROUND. */
export const INSIDE = '#c2410c';
/** The highlighted ball of the focus view and its edges: blue, 3:1 against BALL and BACKGROUND. */
export const FOCUS = '#2563eb';
/** Edges of balls that are not the point of a figure. */
export const MUTED = '#888';
/** The sweep line. */
export const SWEEP = '#f33';
/** A pair that began (light blue) or ended (orange): lines, rings and text on dark backgrounds. */
export const BEGAN = '#4da3ff';
export const ENDED = '#ff9f1a';
/** The glyphs that go with began and ended wherever they are shown. */
export const BEGAN_GLYPH = '▲';
export const ENDED_GLYPH = '▼';
/** The game: wall and door blocks, a block lit by a contact (3:1 against a wall), the ray, the query. */
export const WALL_FILL = '#2a2f3b';
export const DOOR_FILL = '#4d4330';
export const LIT_FILL = '#7d8aa8';
export const RAY = '#fd7';
export const QUERY = '#c8f';
/** The game: the ball nearest the eye (ringed, and joined to the eye by a dashed line: a shape cue as well). */
export const NEAREST = '#6f9';
/** The linked ball (hovered, tapped or selected) and every mark of it: its ring, its edges, its bars. */
export const LINK = '#fff';
/** Sort visualisation: a comparison and a swap. */
export const COMPARE = '#0ff';
export const SWAP = '#f33';

/**
 * Chapter 14: a box by the number of pairs it is in: none (blue-grey), then 1 to 8 or more along a perceptual ramp
 * (matplotlib's plasma from 0.34 to 0.96: lightness rises evenly, 1.27:1 from one level to the next, 5.4:1 end to
 * end, the first 3:1 on black).
 */
export const PAIR_RAMP = [
  '#4a6078',
  '#9e179f',
  '#ba318d',
  '#d14c78',
  '#e46763',
  '#f3824f',
  '#fca03c',
  '#ffc32a',
  '#f7e922',
] as const;
/** The magnifier: its rim, a candidate the broadphase compared with the chosen box, the chosen box. */
export const LENS = '#fff';
export const CANDIDATE = '#0ff';

/** The page (CSS): backgrounds that state colours sit on, and control borders. */
export const PAGE = '#0d0e12';
export const PANEL = '#15171d';
export const CONTROL_BORDER = '#6b7280';

/** Colours a figure may name in data-checks="name[:delay]". */
export const NAMED: Readonly<Record<string, string>> = { check: CHECK, began: BEGAN, ended: ENDED };

/** Canvas colours and what they are drawn on, for contrast checks: [name, colour, background]. */
export const STATE_PAIRS: ReadonlyArray<readonly [string, string, string]> = [
  ['check on canvas', CHECK, BACKGROUND],
  ['check on a ball', CHECK, BALL],
  ['inside on canvas', INSIDE, BACKGROUND],
  ['inside against a ball', INSIDE, BALL],
  ['focus on canvas', FOCUS, BACKGROUND],
  ['focus on a ball', FOCUS, BALL],
  ['began on canvas', BEGAN, BACKGROUND],
  ['ended on canvas', ENDED, BACKGROUND],
  ['sweep line on canvas', SWEEP, BACKGROUND],
  ['muted edge on canvas', MUTED, BACKGROUND],
  ['lit block against a wall block', LIT_FILL, WALL_FILL],
  ['ray on the floor', RAY, BACKGROUND],
  ['ray outline on a wall block', RAY, WALL_FILL],
  ['query rectangle on the floor', QUERY, BACKGROUND],
  ['nearest ring on the floor', NEAREST, BACKGROUND],
  ['comparison on canvas', COMPARE, BACKGROUND],
  ['swap on canvas', SWAP, BACKGROUND],
  ['candidate on canvas', CANDIDATE, BACKGROUND],
  ['a box in no pair on canvas', PAIR_RAMP[0], BACKGROUND],
  ['a box in one pair on canvas', PAIR_RAMP[1], BACKGROUND],
];

/** Set the stylesheet's colour properties from the constants above. */
export function applyPalette(root: HTMLElement): void {
  const set = (name: string, value: string): void => root.style.setProperty(name, value);
  set('--bg', PAGE);
  set('--panel', PANEL);
  set('--began', BEGAN);
  set('--ended', ENDED);
  set('--inside', INSIDE);
  set('--control-border', CONTROL_BORDER);
}
