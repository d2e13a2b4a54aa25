// The recurring ball simulation: gravity, bouncy walls, equal-mass ball-to-ball bounces. The broadphase is not
// here: each scene decides which pairs reach `collide()` (that is what the page is about).

export interface Ball {
  x: number;
  y: number;
  r: number;
  vx: number;
  vy: number;
  /** Base colour. */
  color: string;
  label?: string;
  /** Held by the pointer: not integrated, not pushed by other balls. */
  held: boolean;
  /** The ball's box id in the scene's World, when it has one. */
  id: number;
}

export const GRAVITY = 0.4; // px per step^2
export const WALL_RESTITUTION = 0.96;

/** mulberry32: a small seeded PRNG, so side-by-side demos start from the same scene. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type BallSpec = number | Array<[number, number, number]>;

/** `n` random balls sized for a w x h box (radius ~ min(w,h)(0.06 + 0.2/n)), or balls at fixed [x, y, r]. */
export function makeBalls(spec: BallSpec, w: number, h: number, random: () => number, color = '#ccc'): Ball[] {
  const ball = (x: number, y: number, r: number): Ball => ({
    x,
    y,
    r,
    vx: (random() * 2 - 1) * 6,
    vy: (random() * 2 - 1) * 2,
    color,
    held: false,
    id: 0,
  });
  if (typeof spec !== 'number') return spec.map(([x, y, r]) => ball(x, y, r));
  const balls: Ball[] = [];
  for (let i = 0; i < spec; i++) {
    const r = Math.min(w, h) * (0.06 + 0.2 / spec) * (0.9 + random() * 0.2);
    balls.push(ball(r + random() * (w - 2 * r), r + random() * (h - 2 * r), r));
  }
  return balls;
}

/**
 * Put the balls in a column (one x, spread over the height: every pair overlaps on x) or spread out on a grid
 * (few overlap on either axis), at rest.
 */
export function arrange(balls: Ball[], kind: string, w: number, h: number): void {
  const n = balls.length;
  const cols = kind === 'column' ? 1 : Math.ceil(Math.sqrt((n * w) / h));
  const rows = Math.ceil(n / cols);
  balls.forEach((b, i) => {
    const col = i % cols;
    const row = Math.floor(i / cols);
    b.x = kind === 'column' ? w / 2 : ((col + 0.5) * w) / cols;
    b.y = Math.min(h - b.r, Math.max(b.r, ((row + 0.5) * h) / rows));
    b.vx = b.vy = 0;
  });
}

/** One step of motion: gravity, then the walls. */
export function integrate(balls: Ball[], w: number, h: number): void {
  for (const b of balls) {
    if (b.held) continue;
    b.vy += GRAVITY;
    b.x += b.vx;
    b.y += b.vy;
    if (b.x < b.r) {
      b.x = b.r;
      b.vx = Math.abs(b.vx) * WALL_RESTITUTION;
    }
    if (b.x > w - b.r) {
      b.x = w - b.r;
      b.vx = -Math.abs(b.vx) * WALL_RESTITUTION;
    }
    if (b.y < b.r) {
      b.y = b.r;
      b.vy = Math.abs(b.vy) * WALL_RESTITUTION;
    }
    if (b.y > h - b.r) {
      b.y = h - b.r;
      b.vy = -Math.abs(b.vy) * WALL_RESTITUTION;
    }
  }
}

/** The narrow phase: do two circles intersect? */
export function intersects(a: Ball, b: Ball): boolean {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const r = a.r + b.r;
  return dx * dx + dy * dy < r * r;
}

/** Test one pair exactly and, if the circles intersect, push them apart and exchange their normal velocities. */
export function collide(a: Ball, b: Ball, bounce = true): boolean {
  if (!intersects(a, b)) return false;
  if (!bounce) return true;
  let dx = b.x - a.x;
  let dy = b.y - a.y;
  let d = Math.hypot(dx, dy);
  if (d === 0) {
    dx = 1;
    dy = 0;
    d = 1;
  }
  const nx = dx / d;
  const ny = dy / d;
  const overlap = a.r + b.r - d;
  // a held ball is an immovable wall for the other one
  const shareA = a.held ? 0 : b.held ? 1 : 0.5;
  const shareB = 1 - shareA;
  a.x -= nx * overlap * shareA;
  a.y -= ny * overlap * shareA;
  b.x += nx * overlap * shareB;
  b.y += ny * overlap * shareB;
  const closing = (b.vx - a.vx) * nx + (b.vy - a.vy) * ny;
  if (closing < 0) {
    // equal masses: the normal components swap; a held ball reflects the other like a wall
    if (a.held) {
      b.vx -= 2 * nx * closing;
      b.vy -= 2 * ny * closing;
    } else if (b.held) {
      a.vx += 2 * nx * closing;
      a.vy += 2 * ny * closing;
    } else {
      a.vx += nx * closing;
      a.vy += ny * closing;
      b.vx -= nx * closing;
      b.vy -= ny * closing;
    }
  }
  return true;
}

/** Resolve every touching pair once, in index order: the physics side-by-side views share, whatever their broadphase. */
export function resolveAll(balls: Ball[], bounce = true): void {
  for (let i = 0; i < balls.length; i++) {
    for (let j = i + 1; j < balls.length; j++) collide(balls[i]!, balls[j]!, bounce);
  }
}

/** Push overlapping balls apart once (for still scenes), without velocities. */
export function settle(balls: Ball[], rounds = 20): void {
  for (let k = 0; k < rounds; k++) {
    for (let i = 0; i < balls.length; i++) {
      for (let j = i + 1; j < balls.length; j++) collide(balls[i]!, balls[j]!);
    }
  }
  for (const b of balls) {
    b.vx = 0;
    b.vy = 0;
  }
}
