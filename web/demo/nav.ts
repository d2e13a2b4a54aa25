// Links within the page that land: a figure grows when it is first built (its counters, strips and panels appear),
// and a smooth scroll passes many figures on its way, so a destination computed once at the click is stale by the
// time the scroll ends. Here the scroll aims at the target's live position every frame, then holds it there until
// the page has stopped moving under it (or the reader scrolls). It also lands a link that opens the page (#party).
import { reducedMotion } from './ui.js';

/** Scrolls of this many CSS px or less take SHORT_MS; longer ones up to LONG_MS. */
const SHORT_MS = 250;
const LONG_MS = 700;
/** After arriving, the target is held in place until the layout has been still this long (at most HOLD_MAX_MS). */
const STILL_MS = 600;
const HOLD_MAX_MS = 6000;

let flight = 0;

/** The scroll position that puts `target` at the top of the window, less its scroll-margin-top. */
function destination(target: Element): number {
  const margin = parseFloat(getComputedStyle(target).scrollMarginTop) || 0;
  const top = target.getBoundingClientRect().top + window.scrollY - margin;
  const max = document.documentElement.scrollHeight - window.innerHeight;
  return Math.max(0, Math.min(max, Math.round(top)));
}

const jump = (y: number): void => window.scrollTo({ top: y, behavior: 'instant' });

/**
 * Scroll until `target` is at the top, and keep it there while the figures around it are built. Returns a promise
 * that settles when it has landed (or the reader took over). `animate`: glide there, else jump.
 */
export function land(target: Element, animate = !reducedMotion.matches): Promise<void> {
  const id = ++flight;
  const from = window.scrollY;
  const distance = Math.abs(destination(target) - from);
  const duration = animate ? Math.min(LONG_MS, SHORT_MS + distance / 20) : 0;
  const start = performance.now();
  let last = NaN;
  let stillSince = 0;
  document.documentElement.dataset.landing = 'true';
  return new Promise((resolve) => {
    const done = (): void => {
      if (id === flight) delete document.documentElement.dataset.landing;
      stop.abort();
      resolve();
    };
    // the reader's own scrolling ends the flight and the hold at once
    const stop = new AbortController();
    const takeOver = (): void => {
      flight++;
      done();
    };
    for (const type of ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const)
      window.addEventListener(type, takeOver, { passive: true, once: true, signal: stop.signal });
    const frame = (now: number): void => {
      if (id !== flight) return done();
      const t = duration ? Math.min(1, (now - start) / duration) : 1;
      const to = destination(target);
      if (t < 1) {
        const ease = t < 0.5 ? 2 * t * t : 1 - (-2 * t + 2) ** 2 / 2;
        jump(from + (to - from) * ease);
      } else {
        if (to !== last) {
          jump(to);
          last = to;
          stillSince = now;
        } else if (Math.abs(window.scrollY - to) > 1) return takeOver(); // scrolled by someone else: theirs now
        if (now - stillSince >= STILL_MS || now - start >= HOLD_MAX_MS) return done();
      }
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
}

/** Every link to a place on this page lands there; so does the address the page was opened at. */
export function landLinks(): void {
  document.addEventListener('click', (e) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    const a = (e.target as Element).closest?.('a[href^="#"]');
    const id = a ? decodeURIComponent(a.getAttribute('href')!.slice(1)) : '';
    const target = id && document.getElementById(id);
    if (!target) return;
    e.preventDefault();
    if (location.hash !== `#${id}`) history.pushState(null, '', `#${id}`);
    focusWithoutScroll(target);
    void land(target);
  });
  // back and forward between places on the page
  window.addEventListener('popstate', () => {
    const target = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1)));
    if (target) void land(target, false);
  });
  const opened = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1)));
  if (opened) void land(opened, false);
}

/** The next Tab continues from the place landed at, and a screen reader reads from there. */
function focusWithoutScroll(target: HTMLElement): void {
  if (!target.hasAttribute('tabindex') && !target.matches('a[href], button, input, select, textarea'))
    target.tabIndex = -1;
  target.focus({ preventScroll: true });
}
