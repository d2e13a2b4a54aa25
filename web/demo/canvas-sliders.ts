// A figure whose canvas has nothing to pick up but sliders under it (chapter 16's) is driven on the canvas too, like
// the figures with balls: the arrow keys move its sliders (left and right the first, up and down the second, Shift
// ten steps at a time, Home and End the first one's ends), and a drag across the canvas does the same (across: the
// first slider; up and down: the second, or the first where there is one). A finger's vertical drag scrolls the page.

/** Keys move a slider this many of its steps at a time, with Shift. */
const BIG = 10;

/** The sliders' names, for the keys' hint: the text of each one's label, without its value. */
function nameOf(input: HTMLInputElement): string {
  return input.dataset.knob ?? input.closest('label')?.querySelector('span')?.textContent ?? 'slider';
}

/** Set a slider as its own thumb would, so that the figure reacts as it does to the slider. */
function set(input: HTMLInputElement, value: number, settle: boolean): void {
  const min = Number(input.min);
  const max = Number(input.max);
  const step = Number(input.step) || 1;
  const v = Math.min(max, Math.max(min, min + Math.round((value - min) / step) * step));
  if (String(v) !== input.value) {
    input.value = String(v);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  }
  if (settle) input.dispatchEvent(new Event('change', { bubbles: true }));
}

export interface SliderDrive {
  /** The keys' hint, as the canvas's description. */
  hint: string;
  /** The sliders driven. */
  sliders: HTMLInputElement[];
  /** Stop listening. */
  stop(): void;
}

/**
 * Drive the range inputs of `panel` from `canvas` (focusable, described by the hint); `say` is told what changed,
 * for a live region. Returns undefined when the panel has no slider.
 */
export function driveSliders(
  canvas: HTMLCanvasElement,
  panel: HTMLElement,
  say: (text: string) => void,
): SliderDrive | undefined {
  const sliders = [...panel.querySelectorAll<HTMLInputElement>('input[type=range]')];
  if (!sliders.length) return undefined;
  const [first, second = first] = sliders as [HTMLInputElement, HTMLInputElement?];
  const listening = new AbortController();
  const { signal } = listening;
  const tell = (input: HTMLInputElement): void =>
    say(input.closest('label')?.textContent ?? `${nameOf(input)} ${input.value}`);
  canvas.addEventListener(
    'keydown',
    (e) => {
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      const by = (input: HTMLInputElement, steps: number): void => {
        set(input, Number(input.value) + steps * (Number(input.step) || 1) * (e.shiftKey ? BIG : 1), true);
        tell(input);
      };
      if (e.key === 'ArrowRight') by(first, 1);
      else if (e.key === 'ArrowLeft') by(first, -1);
      else if (e.key === 'ArrowUp') by(second, 1);
      else if (e.key === 'ArrowDown') by(second, -1);
      else if (e.key === 'Home' || e.key === 'End') {
        set(first, Number(e.key === 'Home' ? first.min : first.max), true);
        tell(first);
      } else return;
      e.preventDefault();
    },
    { signal },
  );
  // a drag: the sliders follow the pointer from where they were when it was pressed, a canvas width or height
  // for a slider's whole range
  let drag: { id: number; x: number; y: number; a: number; b: number } | undefined;
  canvas.addEventListener(
    'pointerdown',
    (e) => {
      if (drag || e.button > 0) return;
      drag = { id: e.pointerId, x: e.clientX, y: e.clientY, a: Number(first.value), b: Number(second.value) };
      canvas.setPointerCapture(e.pointerId);
    },
    { signal },
  );
  canvas.addEventListener(
    'pointermove',
    (e) => {
      if (!drag || e.pointerId !== drag.id) return;
      const box = canvas.getBoundingClientRect();
      const span = (input: HTMLInputElement): number => Number(input.max) - Number(input.min);
      const across = ((e.clientX - drag.x) / box.width) * span(first);
      const up = ((drag.y - e.clientY) / box.height) * span(second);
      const touch = e.pointerType === 'touch'; // a finger's vertical drag scrolls the page instead
      if (second === first) set(first, drag.a + across + (touch ? 0 : up), false);
      else {
        set(first, drag.a + across, false);
        if (!touch) set(second, drag.b + up, false);
      }
    },
    { signal },
  );
  const end = (e: PointerEvent): void => {
    if (!drag || e.pointerId !== drag.id) return;
    drag = undefined;
    for (const input of new Set([first, second])) set(input, Number(input.value), true);
    tell(first);
  };
  canvas.addEventListener('pointerup', end, { signal });
  canvas.addEventListener('pointercancel', end, { signal });
  const names = sliders.slice(0, 2).map((s) => `“${nameOf(s)}”`);
  const hint =
    sliders.length > 1
      ? `Keys: left and right move the ${names[0]} slider, up and down the ${names[1]} one; Shift moves them ten steps, Home and End go to the first one's ends. Dragging across the figure moves the first, up and down the second.`
      : `Keys: the arrow keys move the ${names[0]} slider (Shift: ten steps), Home and End go to its ends. Dragging across the figure, or up and down, moves it too.`;
  return { hint, sliders, stop: () => listening.abort() };
}
