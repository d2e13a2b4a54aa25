// The package as its registry page shows it: package.json names the repository, its page and its issues as one
// GitHub URL; the docs shipped in the package ("files": docs/*.md) name only files the package ships, and link every
// other path of the repository (tests/, web/, c/, ...) to that URL, where a reader of the page can follow it; no doc
// links to itself; the README's first list of drop-ins names every engine an entry of the package plugs into.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const repo = /^git\+(https:\/\/github\.com\/[\w.-]+\/[\w.-]+)\.git$/.exec(pkg.repository?.url ?? '')?.[1];
const docs = readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md'));

// A path of the repository outside the package: the top folders the package does not ship, and top-level files
const REPO_PATH = /(?<![\w/.`[@-])`?((?:tests|web|c|\.github)\/[\w./*@-]*[\w/*]|CMakeLists\.txt)`?(?![\w/])/g;

/** The lines of a doc that are prose: fenced blocks (commands run in a clone) left out, and inline commands. */
function prose(text: string): string[] {
  let fenced = false;
  return text.split('\n').map((line) => {
    if (line.trimStart().startsWith('```')) fenced = !fenced;
    if (fenced || line.trimStart().startsWith('```')) return '';
    return line.replace(/`[^`]*`/g, (code) => (/\s/.test(code) ? ' ' : code));
  });
}

describe('the package page', () => {
  test('package.json names the repository, its homepage and its issues, all at one GitHub URL', () => {
    expect(pkg.repository?.type).toBe('git');
    expect(repo, `repository.url ${pkg.repository?.url}: git+https://github.com/<owner>/<name>.git`).toBeDefined();
    expect(pkg.homepage).toBe(`${repo}#readme`);
    expect(pkg.bugs).toEqual({ url: `${repo}/issues` });
  });

  test('the shipped docs link every repository path they name to the repository, at a path that exists', () => {
    const bare: string[] = [];
    const wrong: string[] = [];
    let linked = 0;
    for (const doc of docs) {
      prose(readFileSync(join(root, 'docs', doc), 'utf8')).forEach((line, i) => {
        // links first: their text may be the path, their target must be the repository's copy of it
        const rest = line.replace(/\[([^\]]*)\]\(([^)\s]*)\)/g, (_, label: string, target: string) => {
          const path = /^`?((?:tests|web|c|\.github)\/\S*?|CMakeLists\.txt)`?$/.exec(label)?.[1];
          if (path !== undefined) {
            linked++;
            const want = new RegExp(`^${repo}/(blob|tree)/main/(.+)$`).exec(target);
            const at = want?.[2] ?? '';
            if (want === null || !existsSync(join(root, at)) || !path.startsWith(at.replace(/\/$/, ''))) {
              wrong.push(`docs/${doc}:${i + 1}: [${label}](${target})`);
            }
          }
          return ' ';
        });
        for (const m of rest.replace(/<?https?:\/\/\S+/g, ' ').matchAll(REPO_PATH)) {
          bare.push(`docs/${doc}:${i + 1}: ${m[0]}`);
        }
      });
    }
    expect(bare, 'repository paths named without a link to the repository').toEqual([]);
    expect(wrong, 'links to the repository that do not lead to the path named').toEqual([]);
    expect(linked).toBeGreaterThan(20);
  });

  test('no shipped doc links to itself', () => {
    const self = docs.filter((doc) =>
      [...readFileSync(join(root, 'docs', doc), 'utf8').matchAll(/\]\(([^)#\s]+)(#[^)]*)?\)/g)].some(
        ([, target]) => target === doc || target === `./${doc}` || target === `../docs/${doc}`,
      ),
    );
    expect(self).toEqual([]);
  });

  test("the README's first list of drop-ins names the engine of every adapter entry", () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const list = /^- Drop-ins: ([\s\S]*?)\n(?!  )/m.exec(readme)?.[1]?.replace(/\s+/g, ' ');
    expect(list).toBeDefined();
    // the entries of package.json that are adapters, by the engine their module imports
    const engines: Record<string, RegExp> = {
      './p2': /p2-es/,
      './cannon': /cannon-es/,
      './matter': /matter-js/,
      './phaser': /Phaser/,
      './planck': /planck/,
      './box-intersect': /`box-intersect`/,
      './rbush': /`rbush`/,
    };
    const adapters = Object.keys(pkg.exports).filter((e) =>
      existsSync(join(root, 'web', 'src', 'adapters', e.slice(2), 'index.ts')),
    );
    expect(adapters.length).toBeGreaterThanOrEqual(5);
    for (const entry of [...adapters, './box-intersect', './rbush']) {
      expect(engines[entry], `an engine name for ${entry}`).toBeDefined();
      expect(list, `${entry} in the first list of drop-ins`).toMatch(engines[entry]!);
    }
  });
});
