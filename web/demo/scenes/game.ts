// Chapter 13: the engine's game features in a small top-down arena. The level is 250 static wall blocks (a door in
// the middle slides open and shut: the only static boxes that ever move); two teams of balls pair only across teams
// and with walls (collision filters); began/ended events carry each box's own object; and a ray from a draggable
// eye toward the pointer (castRay), the gun's shot along it that walls stop (firstHit), the ball nearest to the eye
// (nearest), a rectangle at the pointer (queryBox) and the point under it (queryPoint) are answered from the sorted
// data of the last update().
import { World, type BoxId } from 'sweep-prune';
import type { Surface } from '../draw.js';
import type { CreateScene, Scene, SceneSetup, Stat } from '../scene.js';
import { collide, makeBalls, rng, type Ball } from '../sim.js';
import {
  BALL_R,
  BLUE,
  bounceOffBlock,
  doorOffsetAt,
  LEVEL,
  nameOf,
  RED,
  SPEED,
  TEAMS,
  TILE,
  WALL,
  type Block,
  type Entity,
  type Runner,
} from './arena.js';
import {
  BEGAN,
  BEGAN_GLYPH,
  DOOR_FILL,
  ENDED,
  ENDED_GLYPH,
  LIT_FILL,
  NEAREST,
  QUERY,
  RAY,
  WALL_FILL,
} from '../palette.js';

const EYE_R = 12;
const QUERY_W = 100;
const QUERY_H = 70;
const LISTED_HITS = 4;
const FLASH_FRAMES = 18;
interface Ring {
  x: number;
  y: number;
  color: string;
  age: number;
}

class Arena implements Scene {
  readonly balls: Ball[];
  readonly draggable: boolean;
  readonly still = false;
  readonly world = new World<Entity>({ dimensions: 2 });
  readonly blocks: Block[] = [];
  readonly runners: Runner[];
  readonly eye: Ball;
  /** Where the ray points and the queries are made: the pointer, or moved with the keyboard. */
  readonly aim: Ball = { x: 120, y: 300, r: 0, vx: 0, vy: 0, color: QUERY, held: false, id: 0, label: 'aim' };
  readonly handles: Ball[];
  step = 0;
  /** Frames since the door last started to move; its offset follows from this. */
  doorClock = 0;
  doorOffset = 0;
  doorMoved = false;
  doorOpening = false;
  rings: Ring[] = [];
  lastContact = '';
  sameTeam = 0;
  rayIds: BoxId[] = [];
  rayDistances: number[] = [];
  /** The gun's shot: the first ball or wall on the ray (walls block it); the ball nearest to the eye. */
  shot: { id: BoxId; distance: number } | undefined;
  nearestBall: { id: BoxId; distance: number } | undefined;
  inside = new Set<BoxId>();
  under: BoxId[] = [];
  readonly #out: HTMLPreElement;
  readonly #summary: HTMLElement;
  readonly #listeners = new AbortController();

  constructor(
    readonly surface: Surface,
    setup: SceneSetup,
  ) {
    const { options } = setup;
    const random = rng(options.seed);
    const world = this.world;
    LEVEL.forEach((line, row) => {
      [...line].forEach((c, col) => {
        if (c === '.') return;
        const door = c === 'g';
        const block: Block = {
          kind: door ? 'door' : 'wall',
          col,
          row,
          dir: door ? (row < 13 ? -1 : 1) : 0,
          id: 0,
          flash: 0,
        };
        block.id = world.addBox([col * TILE, row * TILE], [(col + 1) * TILE, (row + 1) * TILE], block);
        world.setBoxStatic(block.id, true);
        world.setBoxFilter(block.id, WALL, RED | BLUE);
        this.blocks.push(block);
      });
    });
    this.blocks.sort((p, q) => Number(p.kind === 'door') - Number(q.kind === 'door')); // the door slides over walls
    // balls start on floor squares whose eight neighbours are floor too, red on the left, blue on the right
    const count = typeof options.balls === 'number' ? options.balls : options.balls.length;
    const open = (col: number, row: number): boolean =>
      [-1, 0, 1].every((dr) => [-1, 0, 1].every((dc) => LEVEL[row + dr]?.[col + dc] === '.'));
    const spots: Array<Array<[number, number, number]>> = [[], []];
    LEVEL.forEach((line, row) => {
      for (let col = 0; col < line.length; col++) {
        if (open(col, row))
          spots[col < line.length / 2 ? 0 : 1]!.push([(col + 0.5) * TILE, (row + 0.5) * TILE, BALL_R]);
      }
    });
    this.runners = [];
    for (const team of [0, 1] as const) {
      const free = spots[team]!;
      const picks: Array<[number, number, number]> = [];
      const n = Math.min(free.length, Math.ceil((count - team) / 2));
      for (let i = 0; i < n; i++) picks.push(free.splice(Math.floor(random() * free.length), 1)[0]!);
      makeBalls(picks, surface.width, surface.height, random, TEAMS[team].color).forEach((ball, i) => {
        const heading = random() * Math.PI * 2;
        ball.vx = Math.cos(heading) * SPEED;
        ball.vy = Math.sin(heading) * SPEED;
        ball.label = `${TEAMS[team].name} ${i + 1}`;
        const runner: Runner = { kind: 'ball', ball, team };
        ball.id = world.addBox([ball.x - ball.r, ball.y - ball.r], [ball.x + ball.r, ball.y + ball.r], runner);
        world.setBoxFilter(ball.id, TEAMS[team].category, TEAMS[team].mask);
        this.runners.push(runner);
      });
    }
    world.update();
    this.eye = { x: 300, y: 60, r: EYE_R, vx: 0, vy: 0, color: '#fff', held: false, id: 0, label: 'eye' };
    this.balls = [this.eye];
    this.handles = [this.eye, this.aim];
    this.draggable = options.draggable;

    const title = document.createElement('div');
    title.className = 'panel-title';
    title.textContent = 'Live output: events, ray and queries';
    this.#summary = document.createElement('div');
    this.#summary.className = 'event-summary';
    this.#out = document.createElement('pre');
    this.#out.className = 'live-output';
    setup.panel.append(title, this.#summary, this.#out);
    this.#listen();
    this.#probe();
  }

  /** Mouse: the pointer aims. Touch: touching aims. Dragging the eye (the view moves it) keeps the aim. */
  #listen(): void {
    const canvas = this.surface.canvas;
    const move = (e: PointerEvent): void => {
      if (!this.eye.held) {
        const p = this.surface.toLocal(e.clientX, e.clientY);
        this.aim.x = Math.min(this.surface.width, Math.max(0, p.x));
        this.aim.y = Math.min(this.surface.height, Math.max(0, p.y));
      }
      this.#probe();
      this.draw();
      this.panel();
    };
    const { signal } = this.#listeners;
    canvas.addEventListener('pointerdown', move, { signal });
    canvas.addEventListener('pointermove', move, { signal });
  }

  *frame(): Generator<number, void, void> {
    this.step++;
    const world = this.world;
    for (const { ball } of this.runners) {
      ball.x += ball.vx;
      ball.y += ball.vy;
    }
    const bounds = world.bounds;
    for (const { ball } of this.runners) {
      const o = world.offsetOf(ball.id);
      bounds[o] = ball.x - ball.r;
      bounds[o + 1] = ball.y - ball.r;
      bounds[o + 2] = ball.x + ball.r;
      bounds[o + 3] = ball.y + ball.r;
    }
    this.#moveDoor();
    world.update();
    // the narrow phase, on the pairs the filters let through
    world.forEachPair((_a, _b, p, q) => {
      if (p?.kind === 'ball' && q?.kind === 'ball') collide(p.ball, q.ball);
      else if (p?.kind === 'ball' && q && q.kind !== 'ball') this.#hitBlock(p.ball, q);
      else if (q?.kind === 'ball' && p && p.kind !== 'ball') this.#hitBlock(q.ball, p);
    });
    for (const ring of this.rings) ring.age++;
    this.rings = this.rings.filter((r) => r.age < FLASH_FRAMES);
    for (const b of this.blocks) if (b.flash > 0) b.flash--;
    world.forEachBegan((_a, _b, p, q) => this.#event(p, q, true));
    world.forEachEnded((_a, _b, p, q) => this.#event(p, q, false));
    this.sameTeam = this.#sameTeamOverlaps();
    this.#probe();
  }

  #hitBlock(ball: Ball, block: Block): void {
    const x = block.col * TILE;
    const y = block.row * TILE + block.dir * this.doorOffset;
    bounceOffBlock(ball, x, y, x + TILE, y + TILE);
  }

  /** The door's halves follow its schedule (doorOffsetAt); the static index is rebuilt only on frames it moves. */
  #moveDoor(): void {
    const offset = doorOffsetAt(this.doorClock++);
    this.doorMoved = offset !== this.doorOffset;
    if (!this.doorMoved) return; // still: the static index is left alone
    this.doorOpening = offset > this.doorOffset;
    this.doorOffset = offset;
    for (const b of this.blocks) {
      if (b.kind !== 'door') continue;
      const y = b.row * TILE + b.dir * offset;
      this.world.setBox(b.id, [b.col * TILE, y], [(b.col + 1) * TILE, y + TILE]);
    }
  }

  /** 'opening' or 'closing' exactly on the frames the door moved (and the static index was rebuilt). */
  get doorState(): string {
    if (this.doorMoved) return this.doorOpening ? 'opening' : 'closing';
    return this.doorOffset === 0 ? 'closed' : 'open';
  }

  /** Began/ended pairs arrive with the objects given to addBox. */
  #event(p: Entity | undefined, q: Entity | undefined, began: boolean): void {
    if (p?.kind === 'ball' && q?.kind === 'ball') {
      this.rings.push({
        x: (p.ball.x + q.ball.x) / 2,
        y: (p.ball.y + q.ball.y) / 2,
        color: began ? BEGAN : ENDED,
        age: 0,
      });
      const [r, b] = p.team === 0 ? [p, q] : [q, p];
      this.lastContact = `${nameOf(r)} ${began ? 'met' : 'left'} ${nameOf(b)} (frame ${this.step})`;
    } else if (began) {
      const block = p?.kind === 'ball' ? q : p;
      if (block && block.kind !== 'ball') block.flash = FLASH_FRAMES;
    }
  }

  /** Same-team balls whose boxes overlap: pairs the filters kept out of the engine's pair list. */
  #sameTeamOverlaps(): number {
    let n = 0;
    const rs = this.runners;
    for (let i = 0; i < rs.length; i++) {
      for (let j = i + 1; j < rs.length; j++) {
        const a = rs[i]!.ball;
        const b = rs[j]!.ball;
        if (rs[i]!.team === rs[j]!.team && Math.abs(a.x - b.x) <= a.r + b.r && Math.abs(a.y - b.y) <= a.r + b.r) n++;
      }
    }
    return n;
  }

  /** The ray, the rectangle and the point, against the sorted data of the last update(). */
  #probe(): void {
    const { world, eye, aim } = this;
    const dx = aim.x - eye.x;
    const dy = aim.y - eye.y;
    if (dx !== 0 || dy !== 0) {
      const hits = world.castRay([eye.x, eye.y], [dx, dy]); // views: copy before the next query
      this.rayIds = Array.from(hits.ids);
      this.rayDistances = Array.from(hits.distances);
      this.shot = world.firstHit([eye.x, eye.y], [dx, dy], { blockMask: WALL });
    }
    const near = world.nearest([eye.x, eye.y], 1, Infinity, RED | BLUE);
    this.nearestBall = near.ids.length > 0 ? { id: near.ids[0]!, distance: near.distances[0]! } : undefined;
    const hx = QUERY_W / 2;
    const hy = QUERY_H / 2;
    this.inside = new Set(world.queryBox([aim.x - hx, aim.y - hy], [aim.x + hx, aim.y + hy]));
    this.under = Array.from(world.queryPoint([aim.x, aim.y]));
  }

  draw(): void {
    const g = this.surface;
    const ctx = g.clear();
    const firstHit = this.rayIds[0];
    const onRay = new Set(this.rayIds);
    for (const b of this.blocks) {
      const x = b.col * TILE;
      const y = b.row * TILE + b.dir * this.doorOffset;
      ctx.fillStyle = b.flash > 0 ? LIT_FILL : b.kind === 'door' ? DOOR_FILL : WALL_FILL;
      ctx.fillRect(x + 0.5, y + 0.5, TILE - 1, TILE - 1);
      if (this.inside.has(b.id)) {
        ctx.fillStyle = 'rgba(204,136,255,0.45)';
        ctx.fillRect(x + 0.5, y + 0.5, TILE - 1, TILE - 1);
      }
      if (onRay.has(b.id)) {
        ctx.strokeStyle = b.id === firstHit ? '#fff' : RAY;
        ctx.lineWidth = b.id === firstHit ? 2.5 : 1;
        ctx.strokeRect(x + 1, y + 1, TILE - 2, TILE - 2);
      }
    }
    this.#drawRay();
    const nearest = this.nearestBall?.id;
    for (const { ball } of this.runners) {
      g.disc(ball.x, ball.y, ball.r, ball.color);
      if (ball.id === nearest) {
        ctx.beginPath();
        ctx.arc(ball.x, ball.y, ball.r + 5, 0, Math.PI * 2);
        ctx.strokeStyle = NEAREST;
        ctx.lineWidth = 2;
        ctx.stroke();
        g.line(this.eye.x, this.eye.y, ball.x, ball.y, NEAREST, 1, [2, 4]);
      }
      const ring = ball.id === firstHit ? '#fff' : onRay.has(ball.id) ? RAY : this.inside.has(ball.id) ? QUERY : '';
      if (ring) {
        ctx.beginPath();
        ctx.arc(ball.x, ball.y, ball.r + 2.5, 0, Math.PI * 2);
        ctx.strokeStyle = ring;
        ctx.lineWidth = ball.id === firstHit ? 2.5 : 1.5;
        ctx.stroke();
      }
    }
    for (const r of this.rings) {
      // began: a solid ring; ended: a dashed one (a shape cue as well as the colour)
      ctx.globalAlpha = 1 - r.age / FLASH_FRAMES;
      g.ring(r.x, r.y, 6 + r.age, r.color, 2.5, r.color === ENDED ? [4, 4] : undefined);
    }
    ctx.globalAlpha = 1;
    // the query rectangle and the point at the pointer
    ctx.save();
    ctx.setLineDash([6, 4]);
    ctx.strokeStyle = QUERY;
    ctx.lineWidth = 1.5;
    ctx.strokeRect(this.aim.x - QUERY_W / 2, this.aim.y - QUERY_H / 2, QUERY_W, QUERY_H);
    ctx.restore();
    g.line(this.aim.x - 6, this.aim.y, this.aim.x + 6, this.aim.y, QUERY, 1.5);
    g.line(this.aim.x, this.aim.y - 6, this.aim.x, this.aim.y + 6, QUERY, 1.5);
    g.disc(this.eye.x, this.eye.y, this.eye.r, this.eye.color);
    if (this.draggable) g.grabRing(this.eye.x, this.eye.y, this.eye.r);
  }

  /** The ray to the edge of the arena: solid up to the first hit, dashed beyond; a dot where it enters each box. */
  #drawRay(): void {
    const g = this.surface;
    const { eye, aim } = this;
    const len = Math.hypot(aim.x - eye.x, aim.y - eye.y);
    if (len === 0) return;
    const ux = (aim.x - eye.x) / len;
    const uy = (aim.y - eye.y) / len;
    const far = Math.hypot(g.width, g.height);
    const first = this.rayDistances[0] ?? far;
    g.line(eye.x, eye.y, eye.x + ux * first, eye.y + uy * first, RAY, 2.5);
    g.line(eye.x + ux * first, eye.y + uy * first, eye.x + ux * far, eye.y + uy * far, RAY, 1, [4, 5]);
    this.rayDistances.forEach((d, i) => {
      const x = eye.x + ux * d;
      const y = eye.y + uy * d;
      g.disc(x, y, i === 0 ? 4 : 2.5, i === 0 ? '#fff' : RAY);
      if (i < LISTED_HITS) g.text(String(i + 1), x + 9 * uy, y - 9 * ux, i === 0 ? '#fff' : RAY, 11, 'center', '700');
    });
  }

  moved(): void {
    this.#probe();
  }

  panel(): void {
    const { world } = this;
    const c = world.counters;
    this.#summary.dataset.door = this.doorState;
    this.#summary.innerHTML =
      `frame ${this.step}: <b class="began">${BEGAN_GLYPH} ${c.began} began</b> <b class="ended">${ENDED_GLYPH} ${c.ended} ended</b>` +
      ` · door ${this.doorState}` +
      (this.lastContact ? ` · last: ${this.lastContact}` : '');
    const f = (v: number): string => v.toFixed(1).padStart(6);
    const lines = [
      `castRay from (${this.eye.x.toFixed(0)}, ${this.eye.y.toFixed(0)}) toward the pointer: ${this.rayIds.length} hits, nearest first`,
    ];
    this.rayIds.slice(0, LISTED_HITS).forEach((id, i) => {
      lines.push(`  ${i + 1}  ${f(this.rayDistances[i]!)}  ${nameOf(world.dataOf(id))}`);
    });
    if (this.rayIds.length > LISTED_HITS) lines.push(`     … ${this.rayIds.length - LISTED_HITS} more`);
    const shot = this.shot && `${nameOf(world.dataOf(this.shot.id))} at ${this.shot.distance.toFixed(1)}`;
    lines.push(`firstHit, walls block (the gun): ${shot ?? 'nothing'}`);
    const near =
      this.nearestBall && `${nameOf(world.dataOf(this.nearestBall.id))} at ${this.nearestBall.distance.toFixed(1)}`;
    lines.push(`nearest ball to the eye: ${near ?? 'none'}`);
    const kinds = new Map<string, number>();
    for (const id of this.inside) {
      const e = world.dataOf(id);
      const k = e?.kind === 'ball' ? TEAMS[e.team].name : (e?.kind ?? '?');
      kinds.set(k, (kinds.get(k) ?? 0) + 1);
    }
    const breakdown = [...kinds].map(([k, n]) => `${n} ${k}`).join(', ');
    lines.push(
      `queryBox ${QUERY_W} × ${QUERY_H} at the pointer: ${this.inside.size} boxes${breakdown ? ` (${breakdown})` : ''}`,
    );
    lines.push(
      `queryPoint at the pointer: ${this.under.map((id) => nameOf(world.dataOf(id))).join(', ') || 'nothing'}`,
    );
    const text = lines.join('\n');
    if (this.#out.textContent !== text) this.#out.textContent = text;
    const o = this.#out.dataset;
    o.rayHits = String(this.rayIds.length);
    o.firstHit = nameOf(this.rayIds[0] === undefined ? undefined : world.dataOf(this.rayIds[0]));
    o.queryHits = String(this.inside.size);
    o.shot = this.shot ? nameOf(world.dataOf(this.shot.id)) : '';
    o.nearest = this.nearestBall ? nameOf(world.dataOf(this.nearestBall.id)) : '';
    o.point = this.under.map((id) => nameOf(world.dataOf(id))).join(', ');
  }

  stats(): Stat[] {
    const c = this.world.counters;
    return [
      { key: 'frame', label: 'frame', value: this.step },
      { key: 'pairs', label: 'engine pairs', value: c.pairs },
      { key: 'began', label: 'began', value: c.began },
      { key: 'ended', label: 'ended', value: c.ended },
      { key: 'staticBoxes', label: 'static boxes', value: c.staticBoxes },
      { key: 'staticRebuilt', label: 'static rebuilt', value: c.staticRebuilt },
      { key: 'sameTeam', label: 'same-team overlaps filtered', value: this.sameTeam },
      { key: 'rayHits', label: 'ray hits', value: this.rayIds.length },
      { key: 'queryHits', label: 'query hits', value: this.inside.size },
    ];
  }

  dispose(): void {
    this.#listeners.abort();
    this.world.dispose();
  }
}

export const createScene: CreateScene = (canvas, setup) => new Arena(canvas, setup);
