// Phaser in Node, for the tests and the benchmark: the real `phaser` package from npm on its HEADLESS renderer, with
// the few browser objects it touches at start-up stood in for (a document whose elements do nothing, a 2D context
// that draws nothing, images that load at once). Phaser's own code runs unchanged: physics, scenes, game objects.
// Games are stepped by hand (`step`), so two games given the same calls run the same frames.

const noop = () => {};

function context2d(canvas) {
  const pixels = (w, h) => ({ width: w, height: h, data: new Uint8ClampedArray(4 * Math.max(1, w * h)) });
  return {
    canvas,
    fillStyle: '',
    globalAlpha: 1,
    globalCompositeOperation: 'source-over',
    imageSmoothingEnabled: true,
    ...Object.fromEntries(
      ['fillRect', 'clearRect', 'drawImage', 'putImageData', 'save', 'restore', 'setTransform', 'transform']
        .concat(['translate', 'rotate', 'scale', 'beginPath', 'closePath', 'fill', 'stroke', 'rect', 'arc'])
        .concat(['moveTo', 'lineTo', 'fillText', 'strokeText', 'clip'])
        .map((name) => [name, noop]),
    ),
    getImageData: (x, y, w, h) => pixels(w, h),
    createImageData: (w, h) => pixels(w, h),
    measureText: (text) => ({
      width: 8 * String(text).length,
      actualBoundingBoxAscent: 8,
      actualBoundingBoxDescent: 2,
    }),
  };
}

function element(tagName) {
  const el = {
    tagName: String(tagName).toUpperCase(),
    style: {},
    width: 300,
    height: 150,
    children: [],
    childNodes: [],
    parentNode: null,
    parentElement: null,
    addEventListener: noop,
    removeEventListener: noop,
    appendChild: (child) => child,
    removeChild: (child) => child,
    setAttribute: noop,
    getAttribute: () => null,
    focus: noop,
    blur: noop,
    canPlayType: () => '',
    getBoundingClientRect: () => ({ left: 0, top: 0, right: 0, bottom: 0, width: 0, height: 0, x: 0, y: 0 }),
    getContext: (type) => (type === '2d' ? (el.context ??= context2d(el)) : null),
    toDataURL: () => 'data:,',
  };
  return el;
}

class HeadlessImage {
  width = 1;
  height = 1;
  onload = null;
  onerror = null;
  #src = '';
  get src() {
    return this.#src;
  }
  set src(value) {
    this.#src = value;
    setTimeout(() => this.onload?.(), 0);
  }
  addEventListener() {}
  removeEventListener() {}
}

/** Give Node the browser objects Phaser reads at import and start-up (once; globals already there are kept). */
export function installDom() {
  const g = globalThis;
  if (g.document !== undefined) return;
  const documentElement = element('html');
  const body = element('body');
  g.window = g;
  // Node 21+ has a read-only navigator; Node 20 has none
  if (g.navigator === undefined) g.navigator = { userAgent: 'node', maxTouchPoints: 0, language: 'en' };
  g.document = {
    readyState: 'complete',
    hidden: false,
    documentElement,
    body,
    createElement: element,
    createElementNS: (_, tag) => element(tag),
    getElementById: () => null,
    addEventListener: noop,
    removeEventListener: noop,
  };
  g.Image = HeadlessImage;
  g.HTMLCanvasElement ??= function HTMLCanvasElement() {};
  g.screen ??= { width: 1024, height: 768 };
  g.addEventListener ??= noop;
  g.removeEventListener ??= noop;
  g.focus ??= noop;
  g.requestAnimationFrame ??= (fn) => setTimeout(() => fn(performance.now()), 16);
  g.cancelAnimationFrame ??= (id) => clearTimeout(id);
}

/** The `phaser` module (its default export), with the DOM installed first; `specifier`: where it is, if not `phaser`. */
export async function loadPhaser(specifier = 'phaser') {
  installDom();
  const module = await import(/* @vite-ignore */ specifier);
  return module.default ?? module;
}

/**
 * A headless game running one scene: resolves once the scene's `create(scene)` ran, with the game's own loop
 * stopped. `physics` is the game's physics config (e.g. `{ default: 'arcade', arcade: { gravity: { y: 300 } } }`).
 */
export async function createGame(Phaser, { physics, create, width = 800, height = 600 }) {
  let game;
  const scene = await new Promise((resolve, reject) => {
    class Headless extends Phaser.Scene {
      constructor() {
        super({ key: 'headless' });
      }
      create() {
        try {
          create(this);
          resolve(this);
        } catch (error) {
          reject(error);
        }
      }
    }
    game = new Phaser.Game({
      type: Phaser.HEADLESS,
      width,
      height,
      banner: false,
      audio: { noAudio: true },
      physics,
      scene: Headless,
    });
  });
  game.loop.stop();
  return { game, scene, step: (time, delta = 1000 / 60) => game.headlessStep(time, delta) };
}
