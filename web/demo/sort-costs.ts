// Chapter 10's cost table: quicksort's and insertion sort's comparisons and swaps (sorts.ts, the code the figure
// animates, only counting) as the input grows from this figure's 12 edges to 10 000, in the input order the reader
// chooses. Rows are computed one per task, so the page never waits on the largest.
import { choice } from './controls.js';
import { inputKeys, sortCosts, type InputOrder } from './sorts.js';
import { rng } from './sim.js';

const SIZES = [12, 100, 1_000, 10_000];
/** Insertion sort on these orders is quadratic: beyond this size a row would hold up the page (and says why). */
const QUADRATIC_MAX = 1_000;
const ORDERS: Record<InputOrder, string> = {
  frame: 'last frame’s, a little moved',
  sorted: 'already sorted',
  shuffled: 'shuffled',
  reversed: 'reversed',
};

const fmt = (x: number): string => x.toLocaleString('en-US');

/** The table and its order chooser, in a box; `dispose()` stops a computation under way. */
export function costTable(
  initial: InputOrder,
  onOrder: (order: InputOrder) => void,
): { box: HTMLElement; dispose(): void } {
  const box = document.createElement('div');
  box.className = 'sort-costs';
  const { label, select } = choice('Input order', ORDERS, initial, 'order');
  const table = document.createElement('table');
  table.className = 'bench-table sort-costs-table';
  box.append(label, table);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const fill = (order: InputOrder): void => {
    clearTimeout(timer);
    table.dataset.order = order;
    table.dataset.done = 'false';
    table.innerHTML =
      '<caption>Comparisons and swaps to sort n edges</caption><thead><tr><th scope="col">n</th>' +
      '<th scope="col">quicksort: comparisons</th><th scope="col">swaps</th>' +
      '<th scope="col">insertion sort: comparisons</th><th scope="col">swaps</th></tr></thead><tbody></tbody>';
    const body = table.tBodies[0]!;
    const random = rng(101);
    const row = (k: number): void => {
      const n = SIZES[k];
      if (n === undefined) {
        table.dataset.done = 'true';
        return;
      }
      const tr = body.insertRow();
      tr.dataset.n = String(n);
      const cells = [fmt(n)];
      if (n > QUADRATIC_MAX && (order === 'shuffled' || order === 'reversed')) {
        const about = order === 'reversed' ? (n * (n - 1)) / 2 : (n * (n - 1)) / 4;
        cells.push('–', '–', `about ${fmt(about)} (not run)`, '–');
      } else {
        const c = sortCosts(inputKeys(order, n, random));
        cells.push(fmt(c.quick.comparisons), fmt(c.quick.swaps), fmt(c.insertion.comparisons), fmt(c.insertion.swaps));
        Object.assign(tr.dataset, {
          quickComparisons: String(c.quick.comparisons),
          quickSwaps: String(c.quick.swaps),
          insertionComparisons: String(c.insertion.comparisons),
          insertionSwaps: String(c.insertion.swaps),
        });
      }
      cells.forEach((text, i) => {
        const cell = i === 0 ? document.createElement('th') : tr.insertCell();
        if (i === 0) {
          (cell as HTMLTableCellElement).scope = 'row';
          tr.append(cell);
        }
        cell.textContent = text;
      });
      timer = setTimeout(() => row(k + 1), 0);
    };
    row(0);
  };
  select.addEventListener('change', () => {
    onOrder(select.value as InputOrder);
    fill(select.value as InputOrder);
  });
  fill(initial);
  return { box, dispose: () => clearTimeout(timer) };
}
