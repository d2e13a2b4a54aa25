// The README's code blocks as programs run against the installed package, so that the examples users copy cannot
// drift from the API. Each block is run as it is written, inside what it leaves to the reader (the game's level
// and entities, a physics world, a Phaser scene), and checked with what its comments claim or against an oracle.
import { transformWithOxc } from 'vite';

export interface Example {
  /** What the test is called. */
  name: string;
  /** The program, an ES module printing one JSON line. */
  program: string;
}

/** The fenced `js` and `ts` blocks of a markdown text, in order. */
export function codeBlocks(markdown: string): { lang: string; code: string }[] {
  return [...markdown.matchAll(/^```(js|ts)\n([\s\S]*?)^```$/gm)].map((m) => ({ lang: m[1]!, code: m[2]! }));
}

async function javascript(code: string, lang: string): Promise<string> {
  // top-level await stays as it is; types go
  return lang === 'ts' ? (await transformWithOxc(code, 'example.ts')).code : code;
}

// `world.pairs;   // Uint32Array [a, b]: ...` becomes a check that world.pairs holds exactly [a, b]
function checkedClaims(code: string): { code: string; claims: number } {
  let claims = 0;
  const out = code.replace(
    /^(\w+(?:\.\w+)+);\s*\/\/ Uint32Array \[([^\]]*)\].*$/gm,
    (_, expr: string, list: string) => {
      claims++;
      return `claim(${JSON.stringify(expr)}, Array.from(${expr}), [${list}]);`;
    },
  );
  return { code: out, claims };
}

const CLAIM = `const claims = [];
function claim(expr, got, want) {
  claims.push({ expr, got, want, same: JSON.stringify(got) === JSON.stringify(want) });
}
`;

// The game loop: a level, enemies and a player, each with min/max; startContact and endContact record the began and
// ended pairs by the entities' names. The oracle: every pair of entities that overlap (closed intervals) and pass
// the filters the example sets, walls never with walls.
const GAME_PRELUDE = `import { init, World } from 'sweep-prune';
await init();
const box = (name, kind, x, y, w, h) => ({ name, kind, min: [x, y], max: [x + w, y + h] });
const level = [box('floor', 'wall', -10, -2, 40, 2), box('pillar', 'wall', 4, -2, 1, 8)];
const enemies = [box('crab', 'enemy', 0.5, 0.5, 1, 1), box('bat', 'enemy', 4.5, 3, 1, 1), box('far', 'enemy', 20, 20, 1, 1)];
const player = box('player', 'player', 0, 0, 1, 1);
const began = [];
const ended = [];
const startContact = (a, b) => began.push([a.name, b.name].sort().join('+'));
const endContact = (a, b) => ended.push([a.name, b.name].sort().join('+'));
const moveEverything = () => {};
const gun = [0.5, 0.5], aim = [1, 0], x = 0, y = 0;
`;
const GAME_EPILOGUE = `frame();
const meets = { wall: ['player', 'enemy'], player: ['enemy', 'wall'], enemy: ['player', 'wall'] };
const all = [...level, player, ...enemies];
const oracle = [];
for (let i = 0; i < all.length; i++)
  for (let j = i + 1; j < all.length; j++) {
    const [p, q] = [all[i], all[j]];
    const overlap = [0, 1].every((a) => p.min[a] <= q.max[a] && q.min[a] <= p.max[a]);
    if (overlap && meets[p.kind].includes(q.kind) && meets[q.kind].includes(p.kind))
      oracle.push([p.name, q.name].sort().join('+'));
  }
console.log(JSON.stringify({ began: began.sort(), oracle: oracle.sort(), ended, boxes: world.boxCount }));
`;

// One engine per snippet of the adapters' block: what the snippet leaves out before it, and after it two bodies that
// overlap, stepped once, with the contacts the engine reports.
const ADAPTERS: Record<string, { prelude: string; epilogue: string }> = {
  'sweep-prune/matter': {
    prelude: `import Matter from 'matter-js';\n`,
    epilogue: `const box = (x) => Matter.Bodies.rectangle(x, 0, 10, 10);
Matter.Composite.add(engine.world, [box(0), box(8), box(100)]);
Matter.Engine.update(engine, 1000 / 60);
console.log(JSON.stringify({ ours: engine.detector instanceof SweepPruneDetector, contacts: engine.pairs.list.length }));
`,
  },
  'sweep-prune/p2': {
    prelude: `import * as p2 from 'p2-es';\n`,
    epilogue: `for (const x of [0, 1.5, 10]) {
  const body = new p2.Body({ mass: 1, position: [x, 0] });
  body.addShape(new p2.Circle({ radius: 1 }));
  world.addBody(body);
}
world.step(1 / 60);
console.log(JSON.stringify({ ours: world.broadphase instanceof SweepPruneBroadphase, contacts: world.narrowphase.contactEquations.length }));
`,
  },
  'sweep-prune/cannon': {
    prelude: `import * as CANNON from 'cannon-es';\nconst world = new CANNON.World();\n`,
    epilogue: `for (const x of [0, 1.5, 10]) world.addBody(new CANNON.Body({ mass: 1, position: new CANNON.Vec3(x, 0, 0), shape: new CANNON.Sphere(1) }));
world.step(1 / 60);
console.log(JSON.stringify({ ours: world.broadphase instanceof SweepPruneBroadphase, contacts: world.contacts.length }));
`,
  },
  'sweep-prune/phaser': {
    // the snippet runs in the scene's create(), as its comment says; argv[2] is the repo's headless runner
    prelude: `import { pathToFileURL } from 'node:url';
const { createGame, loadPhaser } = await import(pathToFileURL(process.argv[2]).href);
const Phaser = await loadPhaser();
let arcade;
const { scene, step } = await createGame(Phaser, { physics: { default: 'arcade' }, create(scene) { (function () {
`,
    epilogue: `scene.arcadeOfExample = arcade; }).call(scene); } });
arcade = scene.arcadeOfExample;
const sprite = (x) => scene.physics.add.sprite(x, 100, '__DEFAULT').setSize(10, 10);
const met = new Set();
scene.physics.add.overlap(sprite(100), [sprite(105), sprite(300)], (a, b) => met.add(b));
step(0);
step(17);
const useTreeOfOurs = scene.physics.world.useTree;
arcade.stop();
const stopped = useTreeOfOurs === false && scene.physics.world.useTree === true && arcade.stopped;
console.log(JSON.stringify({ ours: typeof arcade.stop === 'function', contacts: met.size, stopped }));
process.exit(0);
`,
  },
  'sweep-prune/planck': {
    prelude: `import * as planck from 'planck';\nconst world = new planck.World();\n`,
    epilogue: `for (const x of [0, 1.5, 10]) world.createBody({ type: 'dynamic', position: { x, y: 0 } }).createFixture(new planck.Circle(1), 1);
world.step(1 / 60);
const { SweepPruneBroadPhase } = await import('sweep-prune/planck');
const ours = world.m_broadPhase instanceof SweepPruneBroadPhase;
const contacts = world.getContactCount();
stopSweepPrune(world);
console.log(JSON.stringify({ ours, contacts, stopped: world.m_broadPhase instanceof planck.BroadPhase }));
`,
  },
};

/** The README's examples as programs; every `js`/`ts` block is one or more of them, or this throws. */
export async function readmeExamples(readme: string): Promise<Example[]> {
  const examples: Example[] = [];
  for (const { lang, code } of codeBlocks(readme)) {
    if (code.startsWith("import { init, World } from 'sweep-prune';")) {
      const { code: checked, claims } = checkedClaims(await javascript(code, lang));
      if (claims === 0) throw new Error('the Usage example states no pairs to check');
      examples.push({
        name: 'Usage',
        program: CLAIM + checked + 'console.log(JSON.stringify({ claims }));\n',
      });
    } else if (code.includes('function frame()')) {
      examples.push({ name: 'the game loop', program: GAME_PRELUDE + (await javascript(code, lang)) + GAME_EPILOGUE });
    } else if (code.includes("from 'sweep-prune/matter'")) {
      // one snippet per engine, each starting at its import
      const snippets = code.split(/\n+(?=import )/).map((s) => s.trim());
      for (const snippet of snippets) {
        const entry = /from '(sweep-prune\/\w+)'/.exec(snippet)?.[1];
        const adapter = entry === undefined ? undefined : ADAPTERS[entry];
        if (adapter === undefined)
          throw new Error(`the README's adapters block has a snippet for no known engine:\n${snippet}`);
        const imports = snippet.match(/^import .*$/gm)!.join('\n');
        const body = snippet.replace(/^import .*$/gm, '');
        examples.push({
          name: entry!,
          program: `${imports}\nimport { init } from 'sweep-prune';\nawait init();\n${adapter.prelude}${await javascript(body, lang)}\n${adapter.epilogue}`,
        });
      }
    } else {
      throw new Error(`a README code block that no test runs:\n${code}`);
    }
  }
  return examples;
}
