// The sorted edge array under a canvas, in HTML: one "(" or ")" per edge in list order, each glyph kept across
// frames so a change of order slides it to its new place. Edges can be marked (the sweep's current edge, the two
// edges of a swap); chips list a set of balls (the sweep's touching set).
import type { Ball } from './sim.js';

/** An edge: `ref` is `slot << 1 | 1 for a max`, as in `world.endpoints().refs`. */
export interface StripEdge {
  ref: number;
  ball: Ball;
  /** Its colour in the strip. */
  color: string;
}

/** A panel title, then `element` (with its class), appended to `parent`. */
function titled<K extends keyof HTMLElementTagNameMap>(
  parent: HTMLElement,
  title: string,
  tag: K,
  cls: string,
): HTMLElementTagNameMap[K] {
  const head = document.createElement('div');
  head.className = 'panel-title';
  head.textContent = title;
  const element = document.createElement(tag);
  element.className = cls;
  parent.append(head, element);
  return element;
}

export class EdgeStrip {
  readonly element: HTMLElement;
  readonly #glyphs = new Map<number, HTMLElement>();

  constructor(parent: HTMLElement, title: string) {
    this.element = titled(parent, title, 'div', 'strip');
    this.element.setAttribute('role', 'list');
  }

  /** Lay out `edges` in order; `marked` edges (by ref) get the class `mark` and that colour. */
  update(
    edges: readonly StripEdge[],
    name: (b: Ball) => string,
    marked: ReadonlyMap<number, string> = new Map(),
  ): void {
    const n = edges.length;
    edges.forEach((e, i) => {
      let g = this.#glyphs.get(e.ref);
      if (!g) {
        g = document.createElement('span');
        g.setAttribute('role', 'listitem');
        g.textContent = e.ref & 1 ? ')' : '(';
        g.title = `${e.ref & 1 ? 'right' : 'left'} edge of ball ${name(e.ball)}`;
        this.#glyphs.set(e.ref, g);
        this.element.append(g);
      }
      g.style.left = `${((i + 0.5) / n) * 100}%`;
      const mark = marked.get(e.ref);
      g.classList.toggle('mark', mark !== undefined);
      g.style.color = mark ?? e.color;
      g.style.setProperty('--mark', mark ?? 'transparent');
    });
    this.element.dataset.order = edges.map((e) => e.ref).join(',');
    this.element.dataset.marked = [...marked.keys()].join(',');
  }
}

/** Chips: one per ball of a set, labelled and in the ball's colour. */
export class Chips {
  readonly element: HTMLElement;

  constructor(parent: HTMLElement, title: string) {
    this.element = titled(parent, title, 'ul', 'chips');
  }

  update(balls: readonly Ball[], name: (b: Ball) => string): void {
    const text = balls.map(name).join(',');
    if (this.element.dataset.balls === text) return;
    this.element.dataset.balls = text;
    this.element.replaceChildren(
      ...balls.map((b) => {
        const li = document.createElement('li');
        li.textContent = name(b);
        return li;
      }),
    );
    if (!balls.length) {
      const li = document.createElement('li');
      li.className = 'empty';
      li.textContent = 'none';
      this.element.append(li);
    }
  }
}
