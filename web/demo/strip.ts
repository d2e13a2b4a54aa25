// The sorted edge array under a canvas, in HTML: one "(" or ")" per edge in list order, named by its ball, each
// glyph kept across frames so a change of order slides it to its new place. Edges can be marked (the sweep's
// current edge, the two edges of a swap); the linked ball's two edges are boxed, and pointing at an edge links its
// ball. Chips list a set of balls (the sweep's touching set).
import type { Link } from './scene.js';
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
  readonly #glyphs = new Map<number, { glyph: HTMLElement; ball: Ball }>();

  constructor(
    parent: HTMLElement,
    title: string,
    readonly link: Link,
  ) {
    this.element = titled(parent, title, 'div', 'strip');
    this.element.setAttribute('role', 'list');
    // pointing at an edge links its ball, a click or a tap chooses it; leaving the strip with the mouse unlinks it
    const ballAt = (e: Event): Ball | undefined => {
      const span = (e.target as HTMLElement).closest('span[data-ref]') as HTMLElement | null;
      return span ? this.#glyphs.get(Number(span.dataset.ref))?.ball : undefined;
    };
    this.element.addEventListener('pointerover', (e) => e.pointerType === 'mouse' && link.set(ballAt(e)));
    this.element.addEventListener('pointerdown', (e) => link.pin(ballAt(e)));
    this.element.addEventListener('pointerleave', (e) => e.pointerType === 'mouse' && link.set(undefined));
  }

  /**
   * Lay out `edges` in order, each named by `name` of its ball; `marked` edges (by ref) get the class `mark` and
   * that colour; the linked ball's get the class `linked`. The order, the marked and the linked refs are published
   * as data-order, data-marked and data-linked.
   */
  update(
    edges: readonly StripEdge[],
    name: (b: Ball) => string,
    marked: ReadonlyMap<number, string> = new Map(),
  ): void {
    const n = edges.length;
    const linked: number[] = [];
    edges.forEach((e, i) => {
      let entry = this.#glyphs.get(e.ref);
      if (!entry || entry.ball !== e.ball) {
        entry?.glyph.remove();
        const glyph = document.createElement('span');
        glyph.setAttribute('role', 'listitem');
        glyph.dataset.ref = String(e.ref);
        const label = document.createElement('small');
        label.textContent = name(e.ball);
        glyph.append(e.ref & 1 ? ')' : '(', label);
        glyph.title = `${e.ref & 1 ? 'right' : 'left'} edge of ball ${name(e.ball)}`;
        entry = { glyph, ball: e.ball };
        this.#glyphs.set(e.ref, entry);
        this.element.append(glyph);
      }
      const g = entry.glyph;
      g.style.left = `${((i + 0.5) / n) * 100}%`;
      const mark = marked.get(e.ref);
      g.classList.toggle('mark', mark !== undefined);
      g.style.color = mark ?? e.color;
      g.style.setProperty('--mark', mark ?? 'transparent');
      const lit = e.ball === this.link.ball;
      g.classList.toggle('linked', lit);
      if (lit) linked.push(e.ref);
    });
    this.element.dataset.order = edges.map((e) => e.ref).join(',');
    this.element.dataset.marked = [...marked.keys()].join(',');
    this.element.dataset.linked = linked.join(',');
  }
}

/** Chips: one per ball of a set, labelled and in the ball's colour. */
export class Chips {
  readonly element: HTMLElement;

  constructor(parent: HTMLElement, title: string) {
    this.element = titled(parent, title, 'ul', 'chips');
  }

  /** The set's balls as chips, the `linked` one's marked. */
  update(balls: readonly Ball[], name: (b: Ball) => string, linked?: Ball): void {
    const text = `${balls.map(name).join(',')}|${linked && balls.includes(linked) ? name(linked) : ''}`;
    if (this.element.dataset.balls === text) return;
    this.element.dataset.balls = text;
    this.element.replaceChildren(
      ...balls.map((b) => {
        const li = document.createElement('li');
        li.textContent = name(b);
        li.classList.toggle('linked', b === linked);
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
