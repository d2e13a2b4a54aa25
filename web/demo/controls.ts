// Controls that scenes put in their panels: a labelled slider whose label shows its value, and which can keep its
// value on the figure across Restart; a labelled drop-down.

export interface SliderOptions {
  min: number;
  max: number;
  value: number;
  step?: number;
  /** data-knob, for scripts. */
  knob: string;
  /** The label for a value. */
  say: (value: number) => string;
  /**
   * Where the value is kept across Restart (the figure's dataset, under the knob's name): the slider starts from
   * the value kept there, and keeps each value it is set to.
   */
  keep?: DOMStringMap;
}

/** The dataset of the figure a scene's panel is in: what its controls keep across Restart. */
export function figureData(panel: HTMLElement): DOMStringMap {
  return panel.closest<HTMLElement>('figure')?.dataset ?? {};
}

/** A range input in a label that shows `say(value)`; `onInput` runs on every move, `onChange` when it settles. */
export function slider(
  o: SliderOptions,
  onInput: (value: number) => void,
  onChange?: (value: number) => void,
): HTMLLabelElement {
  const label = document.createElement('label');
  label.className = 'bench-max scale-n';
  const text = document.createElement('span');
  const input = document.createElement('input');
  input.type = 'range';
  input.min = String(o.min);
  input.max = String(o.max);
  input.step = String(o.step ?? 1);
  const kept = o.keep?.[o.knob];
  input.value = String(kept !== undefined && Number.isFinite(Number(kept)) ? Number(kept) : o.value);
  input.dataset.knob = o.knob;
  const show = (): void => {
    text.textContent = o.say(Number(input.value));
  };
  input.addEventListener('input', () => {
    show();
    if (o.keep) o.keep[o.knob] = input.value;
    onInput(Number(input.value));
  });
  if (onChange) input.addEventListener('change', () => onChange(Number(input.value)));
  show();
  label.append(text, input);
  return label;
}

/** A labelled drop-down of `options` (value: text) with `value` chosen; data-knob names it for scripts. */
export function choice(
  text: string,
  options: Record<string, string>,
  value: string,
  knob: string,
): { label: HTMLLabelElement; select: HTMLSelectElement } {
  const label = document.createElement('label');
  label.className = 'bench-max';
  const select = document.createElement('select');
  select.dataset.knob = knob;
  for (const [v, t] of Object.entries(options)) select.add(new Option(t, v, false, v === value));
  label.append(`${text} `, select);
  return { label, select };
}
