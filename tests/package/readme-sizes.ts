// The sizes the README states, each with what measures it. The package test measures them and checks every figure,
// and that the README states no size this list does not check (sizes are in kB, 1000 bytes, as npm and Vite print).

/** Sizes measured from the packed package and from Vite production builds, in bytes. */
export interface Measured {
  packed: number;
  unpacked: number;
  wasm: number;
  threadsWasm: number;
  /** A Vite build of a page that creates a World with `sweep-prune`, less a page without it: JS, and gzipped. */
  defaultJs: number;
  defaultGzip: number;
  /** The same for `sweep-prune/wasm`: its JS, and its `.wasm` asset gzipped. */
  wasmEntryJs: number;
  wasmGzip: number;
}

/** A README sentence (each space may be a line break), its figures in kB, and what each figure is. */
const CLAIMS: [RegExp, ...(keyof Measured | ((m: Measured) => number))[]][] = [
  [/the package ships the compiled engine \(an? ([\d.]+) kB `\.wasm`\)/, 'wasm'],
  [/`sweep-prune\/wasm` makes the JS about ([\d.]+) kB smaller/, (m) => m.defaultJs - m.wasmEntryJs],
  [/the package is about ([\d.]+) kB packed and ([\d.]+) kB unpacked/, 'packed', 'unpacked'],
  [/`sweep-prune\/threads` adds its ([\d.]+) kB module/, 'threadsWasm'],
  [/the default entry adds about ([\d.]+) kB of minified JS \(([\d.]+) kB gzipped\)/, 'defaultJs', 'defaultGzip'],
  [
    /`sweep-prune\/wasm` adds ([\d.]+) kB of JS plus the ([\d.]+) kB `\.wasm` \(([\d.]+) kB gzipped\)/,
    'wasmEntryJs',
    'wasm',
    'wasmGzip',
  ],
  [/`sweep_prune_threads\.wasm` \(([\d.]+) kB\)/, 'threadsWasm'],
];

export interface Figure {
  /** The README's words around the figure. */
  where: string;
  stated: number;
  measured: number;
}

/**
 * Every size figure of the README with its measurement (kB), and the size figures no claim covers (`unchecked`:
 * a size added to the README must get a line in CLAIMS). A claim the README no longer makes is in `missing`.
 */
export function readmeSizes(
  readme: string,
  measured: Measured,
): { figures: Figure[]; unchecked: string[]; missing: string[] } {
  const figures: Figure[] = [];
  const covered = new Set<number>();
  const missing: string[] = [];
  for (const [pattern, ...what] of CLAIMS) {
    const match = new RegExp(pattern.source.replaceAll(' ', '\\s+'), 'd').exec(readme);
    if (match === null) {
      missing.push(pattern.source);
      continue;
    }
    what.forEach((w, i) => {
      const [start] = match.indices![i + 1]!;
      covered.add(start);
      const bytes = typeof w === 'function' ? w(measured) : measured[w];
      figures.push({ where: match[0].replace(/\s+/g, ' '), stated: Number(match[i + 1]), measured: bytes / 1000 });
    });
  }
  const unchecked = [...readme.matchAll(/([\d.]+) ?[kK]i?B\b/g)]
    .filter((m) => !covered.has(m.index))
    .map((m) => readme.slice(Math.max(0, m.index - 40), m.index + m[0].length + 10).replace(/\s+/g, ' '));
  return { figures, unchecked, missing };
}
