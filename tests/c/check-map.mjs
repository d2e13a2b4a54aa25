// The map of the C files (docs/design.md, "The engine's files") checked against the code: no file reaches itself
// through includes and calls, each file calls only files listed below it, every C file of c/include, c/src and c/wasm
// is listed (and every listed file exists), and c/sources.txt names every source of c/src. Calls are read from the
// text: a file calls another when it names a function that the other defines and does not make static.
//   node tests/c/check-map.mjs [--print]     (--print: every file with what it includes and calls)
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dirs = ['c/include/sweep_prune', 'c/src', 'c/wasm'];
const files = dirs.flatMap((dir) =>
  readdirSync(join(root, dir))
    .filter((name) => /\.[ch]$/.test(name))
    .map((name) => `${dir}/${name}`),
);
const problems = [];

// The text without comments, string and character literals (kept as empty quotes), and C++ alone (extern "C").
function strip(text) {
  return text
    .replace(/^#ifdef __cplusplus\n[\s\S]*?^#endif/gm, '')
    .replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'/g, (m) =>
      m.startsWith('/') ? m.replace(/[^\n]/g, ' ') : m[0] + m[0],
    );
}

// The preprocessor lines (continuations joined) blanked out: what is left is the code the compiler parses.
function withoutDirectives(text) {
  return text.replace(/^[ \t]*#(?:[^\n]*\\\n)*[^\n]*/gm, (m) => m.replace(/[^\n]/g, ' '));
}

// The functions a file defines: a name and its parameters at brace depth 0, followed by a body. `local`: static.
function definitions(code) {
  const found = [];
  let depth = 0;
  let statementStart = 0;
  for (let i = 0; i < code.length; i++) {
    const ch = code[i];
    if (ch === '{') depth++;
    else if (ch === '}') {
      depth--;
      if (depth === 0) statementStart = i + 1;
    } else if (ch === ';' && depth === 0) statementStart = i + 1;
    else if (depth === 0 && /[A-Za-z_]/.test(ch) && !/\w/.test(code[i - 1] ?? ' ')) {
      const m = /^([A-Za-z_]\w*)\s*\(/.exec(code.slice(i, i + 200));
      if (!m) continue;
      // the matching parenthesis, then the body
      let j = i + m[0].length;
      for (let open = 1; j < code.length && open > 0; j++) open += code[j] === '(' ? 1 : code[j] === ')' ? -1 : 0;
      const next = /^\s*(\S)/.exec(code.slice(j));
      if (next && next[1] === '{') {
        const head = code.slice(statementStart, i);
        found.push({ name: m[1], local: /\b(static|SP_FORCE_INLINE)\b/.test(head) });
      }
      i += m[1].length - 1;
    }
  }
  return found;
}

const includes = new Map();
const code = new Map();
const definedIn = new Map(); // function name -> the files that define it (not static)
for (const file of files) {
  const text = readFileSync(join(root, file), 'utf8');
  const dir = file.slice(0, file.lastIndexOf('/'));
  const targets = [...text.matchAll(/^[ \t]*#[ \t]*include[ \t]+"([^"]+)"/gm)]
    .map(([, name]) => [`${dir}/${name}`, `c/include/${name}`, `c/src/${name}`].find((f) => files.includes(f)))
    .filter(Boolean);
  includes.set(file, new Set(targets));
  const stripped = strip(text);
  code.set(file, stripped);
  for (const { name, local } of definitions(withoutDirectives(stripped))) {
    if (!local) definedIn.set(name, (definedIn.get(name) ?? new Set()).add(file));
  }
}
for (const [name, where] of definedIn) {
  if (where.size > 1) problems.push(`${name} is defined in ${[...where].join(' and ')}`);
}

// The text a file names functions in to call them: a source's code, a header's function bodies (its other names at
// depth 0 are declarations), and the bodies of both's macros (a macro's calls are its file's).
function callingText(file, text) {
  const macros = [...text.matchAll(/^[ \t]*#[ \t]*define[ \t]+\w+((?:[^\n]*\\\n)*[^\n]*)/gm)].map((m) => m[1]);
  let body = withoutDirectives(text);
  if (file.endsWith('.h')) {
    let depth = 0;
    body = body.replace(/[{}]|[^{}]+/g, (m) => {
      if (m === '{' || m === '}') {
        depth += m === '{' ? 1 : -1;
        return ' ';
      }
      return depth > 0 ? m : ' ';
    });
  }
  return [body, ...macros].join('\n');
}

// A file's calls: the files defining the functions it names.
const calls = new Map();
for (const file of files) {
  const names = new Set(callingText(file, code.get(file)).match(/\b[A-Za-z_]\w*\b/g) ?? []);
  const callees = new Set();
  for (const name of names) for (const f of definedIn.get(name) ?? []) if (f !== file) callees.add(f);
  calls.set(file, callees);
}

// Cycles through includes and calls: a depth-first search, each cycle reported once by its first file.
const state = new Map();
const reported = new Set();
function visit(file, path) {
  state.set(file, 'open');
  for (const next of [...includes.get(file), ...calls.get(file)]) {
    if (state.get(next) === 'open') {
      const cycle = [...path.slice(path.indexOf(next)), next];
      const key = [...cycle.slice(0, -1)].sort((a, b) => a.localeCompare(b)).join(' ');
      if (!reported.has(key)) {
        reported.add(key);
        problems.push(`cycle: ${cycle.join(' -> ')}`);
      }
    } else if (!state.has(next)) visit(next, [...path, next]);
  }
  state.set(file, 'done');
}
for (const file of files) if (!state.has(file)) visit(file, [file]);

// The map in docs/design.md: the code block under "## The engine's files", a folder per unindented line ending in
// "/", then one line per module whose first words name its files ("a.c / a.h", "types.h, id.h").
const design = readFileSync(join(root, 'docs/design.md'), 'utf8');
const block = /## The engine's files[\s\S]*?```\n([\s\S]*?)```/.exec(design);
const rank = new Map();
if (!block) problems.push('docs/design.md: no code block under "## The engine\'s files"');
else {
  let dir = '';
  block[1].split('\n').forEach((line, k) => {
    const folder = /^(\S+\/)\s*/.exec(line);
    if (folder) {
      dir = folder[1];
      return;
    }
    const names = /^\s+((?:[\w.]+\.[ch](?:\s*[/,]\s*)?)+)/.exec(line);
    for (const name of names ? names[1].split(/\s*[/,]\s*/).filter(Boolean) : []) {
      const path = `${dir}${name}`;
      if (!files.includes(path) && dir.startsWith('c/'))
        problems.push(`docs/design.md lists ${path}, which is not there`);
      rank.set(path, k);
    }
  });
  for (const file of files) if (!rank.has(file)) problems.push(`docs/design.md does not list ${file}`);
  for (const [file, callees] of calls) {
    for (const callee of callees) {
      if (rank.has(file) && rank.has(callee) && rank.get(callee) < rank.get(file)) {
        problems.push(`docs/design.md lists ${callee} above ${file}, which calls it`);
      }
    }
  }
}

// The one source list of the builds (CMakeLists.txt and c/wasm/build-threads.sh read it).
const listed = readFileSync(join(root, 'c/sources.txt'), 'utf8')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line && !line.startsWith('#'));
for (const file of listed)
  if (!existsSync(join(root, file))) problems.push(`c/sources.txt lists ${file}, which is not there`);
for (const file of files) {
  if (file.startsWith('c/src/') && file.endsWith('.c') && !listed.includes(file)) {
    problems.push(`c/sources.txt does not list ${file}`);
  }
}

if (process.argv.includes('--print')) {
  for (const file of files) {
    const out = (set) => [...set].map((f) => f.replace(/^c\/(src|wasm|include\/sweep_prune)\//, '')).join(' ');
    console.log(`${file}\n  includes: ${out(includes.get(file))}\n  calls: ${out(calls.get(file))}`);
  }
}
if (problems.length > 0) {
  console.error(problems.map((p) => `check-map: ${p}`).join('\n'));
  process.exit(1);
}
const edges = files.reduce((n, f) => n + includes.get(f).size + calls.get(f).size, 0);
console.log(
  `check-map: ${files.length} C files, ${edges} includes and calls, no cycle; docs/design.md and c/sources.txt agree`,
);
