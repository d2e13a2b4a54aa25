// The arena of the game chapter: its level (walls and a sliding door), the teams' collision categories, and the
// physics of a ball against a block. No drawing and no engine calls: game.ts makes the scene from these.
import type { BoxId } from 'sweep-prune';
import type { Ball } from '../sim.js';

// '#' a wall block, 'g' a door block, '.' floor; one character per TILE x TILE square
export const LEVEL = [
  '########################################',
  '#......................................#',
  '#......................................#',
  '#..######.......#......#.......######..#',
  '#..#............#......#............#..#',
  '#..#............#......#............#..#',
  '#...............#......#...............#',
  '#.......###..................###.......#',
  '#.......###........##........###.......#',
  '#..................##..................#',
  '#....#.............##.............#....#',
  '#....#.............gg.............#....#',
  '#....#####.........gg.........#####....#',
  '#..................gg..................#',
  '#..................gg..................#',
  '#....#####.........##.........#####....#',
  '#....#.............##.............#....#',
  '#....#......###....##....###......#....#',
  '#...........###..........###...........#',
  '#...#..............................#...#',
  '#...#...........#......#...........#...#',
  '#...#...........#......#...........#...#',
  '#...#######.....#......#.....#######...#',
  '#......................................#',
  '#......................................#',
  '########################################',
];
export const TILE = 15;

// collision categories: a ball pairs with the other team and with walls, never with its own team
export const RED = 1;
export const BLUE = 2;
export const WALL = 4;
export const TEAMS = [
  { name: 'red', category: RED, mask: BLUE | WALL, color: 'hsl(0 85% 68%)' },
  { name: 'blue', category: BLUE, mask: RED | WALL, color: 'hsl(205 85% 65%)' },
] as const;

export const BALL_R = 7;
export const SPEED = 2.6;
// the door: closed, then opening (its halves slide 2 tiles into the wall above and below), open, closing
export const DOOR_HOLD = 150;
export const DOOR_MOVE = 2 * TILE;

export interface Block {
  kind: 'wall' | 'door';
  col: number;
  row: number;
  /** The door's halves slide up (-1) or down (+1) when it opens; 0 for walls. */
  dir: number;
  id: BoxId;
  flash: number;
}

export interface Runner {
  kind: 'ball';
  ball: Ball;
  team: 0 | 1;
}

export type Entity = Block | Runner;

export const nameOf = (e: Entity | undefined): string =>
  !e ? '?' : e.kind === 'ball' ? e.ball.label! : `${e.kind} (${e.col}, ${e.row})`;

/** Push a ball out of an axis-aligned block and reflect its velocity; false if they do not touch. */
export function bounceOffBlock(b: Ball, x0: number, y0: number, x1: number, y1: number): boolean {
  let nx = b.x - Math.min(x1, Math.max(x0, b.x));
  let ny = b.y - Math.min(y1, Math.max(y0, b.y));
  const d = Math.hypot(nx, ny);
  if (d >= b.r) return false;
  let push: number;
  if (d > 0) {
    nx /= d;
    ny /= d;
    push = b.r - d;
  } else {
    // the centre is inside (the door slid onto the ball): leave through the nearest side
    const sides: Array<[number, number, number]> = [
      [b.x - x0, -1, 0],
      [x1 - b.x, 1, 0],
      [b.y - y0, 0, -1],
      [y1 - b.y, 0, 1],
    ];
    const [depth, sx, sy] = sides.reduce((m, s) => (s[0] < m[0] ? s : m));
    nx = sx;
    ny = sy;
    push = depth + b.r;
  }
  b.x += nx * push;
  b.y += ny * push;
  const vn = b.vx * nx + b.vy * ny;
  if (vn < 0) {
    b.vx -= 2 * vn * nx;
    b.vy -= 2 * vn * ny;
  }
  return true;
}

/** The door's offset at frame `clock` of its cycle: closed for DOOR_HOLD frames, slides open a pixel per frame, open
 * for DOOR_HOLD, slides shut. */
export function doorOffsetAt(clock: number): number {
  const cycle = 2 * (DOOR_HOLD + DOOR_MOVE);
  const t = clock % cycle;
  return t < DOOR_HOLD
    ? 0
    : t < DOOR_HOLD + DOOR_MOVE
      ? t - DOOR_HOLD
      : t < 2 * DOOR_HOLD + DOOR_MOVE
        ? DOOR_MOVE
        : cycle - t;
}
