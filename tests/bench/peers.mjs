// Every library as the same two calls: `create(boxes, d)` builds whatever persists (not timed), and
// `run(boxes)` is one frame (timed): bring the library up to date with `boxes` and return the number of
// overlapping pairs. Stateless libraries rebuild everything in `run`; persistent ones (ours, physics engines) set
// every box's position and query. Box layout: see scenes.mjs.
import boxIntersect from 'box-intersect';
import Flatbush from 'flatbush';
import RBush from 'rbush';
import * as p2 from 'p2-es';
import * as CANNON from 'cannon-es';
import Matter from 'matter-js';
import RAPIER from '@dimforge/rapier2d-compat';

let sink = 0;
export const consume = (x) => (sink = (sink + x) | 0);
export const getSink = () => sink;

export function peers(sp, PruneJuiceOriginal) {
  const pruneJuice = (name, PruneJuiceClass, ours) => ({
    name,
    ours,
    maxOneShot: ours ? Infinity : 1000, // a teleport costs prune-juice O(n^2) marker moves: minutes at 10k
    dims: [2, 3],
    create(boxes, d) {
      // the same user code for both classes: objects with extractors, positions read on every call
      const n = boxes.length / (2 * d);
      const objs = Array.from({ length: n }, () => ({ lo: new Float64Array(d), hi: new Float64Array(d) }));
      const extractors = Array.from({ length: d }, (_, a) => ({ getStart: (o) => o.lo[a], getEnd: (o) => o.hi[a] }));
      const load = (b) => {
        for (let i = 0; i < n; i++)
          for (let a = 0; a < d; a++) {
            objs[i].lo[a] = b[i * 2 * d + a];
            objs[i].hi[a] = b[i * 2 * d + d + a];
          }
      };
      load(boxes);
      // registered in order of min x, the same for both classes: prune-juice's first call insertion-sorts its
      // markers from registration order, O(n^2) on a random order (minutes at 10k), seconds from this one
      const pj = new PruneJuiceClass(extractors);
      for (const o of [...objs].sort((p, q) => p.lo[0] - q.lo[0])) pj.register(o);
      return {
        run(b) {
          load(b);
          return pj.getCollisionCandidates().length;
        },
        dispose: () => pj.dispose?.(),
      };
    },
  });
  return [
    {
      name: 'sweep-prune',
      ours: true,
      dims: [2, 3],
      create(boxes, d) {
        const n = boxes.length / (2 * d);
        const world = new sp.World({ dimensions: d, capacity: n });
        for (let i = 0; i < n; i++) {
          const o = i * 2 * d;
          const id = world.addBox(boxes.subarray(o, o + d), boxes.subarray(o + d, o + 2 * d));
          if (world.offsetOf(id) !== o) throw new Error('expected consecutive slots');
        }
        world.update();
        return {
          world,
          run(b) {
            world.bounds.set(b); // slots are consecutive: one copy moves every box
            world.update();
            consume(world.began.length + world.ended.length); // events are part of the frame
            return world.pairCount;
          },
          dispose: () => world.dispose(),
        };
      },
    },
    {
      name: 'box-intersect',
      dims: [2, 3],
      create(boxes, d) {
        const n = boxes.length / (2 * d);
        const arrays = Array.from({ length: n }, () => new Array(2 * d).fill(0));
        return {
          run(b) {
            for (let i = 0; i < n; i++) for (let k = 0; k < 2 * d; k++) arrays[i][k] = b[i * 2 * d + k];
            let count = 0;
            boxIntersect(arrays, () => void count++);
            return count;
          },
        };
      },
    },
    {
      name: 'flatbush',
      dims: [2],
      create(boxes) {
        const n = boxes.length / 4;
        return {
          run(b) {
            const index = new Flatbush(n);
            for (let i = 0; i < n; i++) index.add(b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3]);
            index.finish();
            let count = 0;
            for (let i = 0; i < n; i++) {
              count += index.search(b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3], (j) => j > i).length;
            }
            return count;
          },
        };
      },
    },
    {
      name: 'rbush',
      dims: [2],
      create(boxes) {
        const n = boxes.length / 4;
        const items = Array.from({ length: n }, (_, i) => ({ minX: 0, minY: 0, maxX: 0, maxY: 0, i }));
        const tree = new RBush();
        return {
          run(b) {
            for (let i = 0; i < n; i++) {
              const it = items[i];
              it.minX = b[4 * i];
              it.minY = b[4 * i + 1];
              it.maxX = b[4 * i + 2];
              it.maxY = b[4 * i + 3];
            }
            tree.clear().load(items);
            let count = 0;
            for (let i = 0; i < n; i++) {
              const found = tree.search(items[i]);
              for (let k = 0; k < found.length; k++) if (found[k].i > i) count++;
            }
            return count;
          },
        };
      },
    },
    pruneJuice('prune-juice', PruneJuiceOriginal, false),
    pruneJuice('sweep-prune PruneJuice', sp.PruneJuice, true),
    {
      name: 'p2-es SAP',
      dims: [2],
      create(boxes) {
        const n = boxes.length / 4;
        const world = new p2.World({ gravity: [0, 0], broadphase: new p2.SAPBroadphase() });
        const bodies = [];
        for (let i = 0; i < n; i++) {
          const w = boxes[4 * i + 2] - boxes[4 * i];
          const h = boxes[4 * i + 3] - boxes[4 * i + 1];
          const body = new p2.Body({ mass: 1, position: [boxes[4 * i] + w / 2, boxes[4 * i + 1] + h / 2] });
          body.addShape(new p2.Box({ width: w, height: h }));
          world.addBody(body);
          bodies.push(body);
        }
        return {
          run(b) {
            for (let i = 0; i < n; i++) {
              const body = bodies[i];
              body.position[0] = (b[4 * i] + b[4 * i + 2]) / 2;
              body.position[1] = (b[4 * i + 1] + b[4 * i + 3]) / 2;
              body.aabbNeedsUpdate = true;
            }
            return world.broadphase.getCollisionPairs(world).length / 2;
          },
        };
      },
    },
    {
      name: 'cannon-es SAP',
      dims: [2, 3],
      create(boxes, d) {
        const n = boxes.length / (2 * d);
        const world = new CANNON.World();
        const broadphase = new CANNON.SAPBroadphase(world);
        broadphase.useBoundingBoxes = true;
        world.broadphase = broadphase;
        const bodies = [];
        const at = (b, i, a) => (a < d ? (b[i * 2 * d + a] + b[i * 2 * d + d + a]) / 2 : 0);
        for (let i = 0; i < n; i++) {
          const half = (a) => (a < d ? (boxes[i * 2 * d + d + a] - boxes[i * 2 * d + a]) / 2 : 0.5);
          const body = new CANNON.Body({ mass: 1, shape: new CANNON.Box(new CANNON.Vec3(half(0), half(1), half(2))) });
          body.position.set(at(boxes, i, 0), at(boxes, i, 1), at(boxes, i, 2));
          world.addBody(body);
          bodies.push(body);
        }
        broadphase.autoDetectAxis();
        const p1 = [];
        const p2s = [];
        return {
          run(b) {
            for (let i = 0; i < n; i++) {
              bodies[i].position.set(at(b, i, 0), at(b, i, 1), at(b, i, 2));
              bodies[i].aabbNeedsUpdate = true;
            }
            p1.length = p2s.length = 0;
            broadphase.dirty = true; // as world.step() does
            broadphase.collisionPairs(world, p1, p2s);
            return p1.length;
          },
        };
      },
    },
    {
      name: 'matter-js Detector',
      dims: [2],
      create(boxes) {
        const n = boxes.length / 4;
        const bodies = [];
        for (let i = 0; i < n; i++) {
          const w = boxes[4 * i + 2] - boxes[4 * i];
          const h = boxes[4 * i + 3] - boxes[4 * i + 1];
          bodies.push(Matter.Bodies.rectangle(boxes[4 * i] + w / 2, boxes[4 * i + 1] + h / 2, w, h));
        }
        const detector = Matter.Detector.create({ bodies: bodies.slice() }); // it sorts its array in place
        const p = { x: 0, y: 0 };
        return {
          run(b) {
            for (let i = 0; i < n; i++) {
              p.x = (b[4 * i] + b[4 * i + 2]) / 2;
              p.y = (b[4 * i + 1] + b[4 * i + 3]) / 2;
              Matter.Body.setPosition(bodies[i], p);
            }
            return Matter.Detector.collisions(detector).length;
          },
        };
      },
    },
    {
      name: 'rapier2d',
      dims: [2],
      create(boxes) {
        const n = boxes.length / 4;
        const world = new RAPIER.World({ x: 0, y: 0 });
        const colliders = [];
        const index = new Map();
        for (let i = 0; i < n; i++) {
          const hw = (boxes[4 * i + 2] - boxes[4 * i]) / 2;
          const hh = (boxes[4 * i + 3] - boxes[4 * i + 1]) / 2;
          const c = world.createCollider(
            RAPIER.ColliderDesc.cuboid(hw, hh).setTranslation(boxes[4 * i] + hw, boxes[4 * i + 1] + hh),
          );
          colliders.push(c);
          index.set(c.handle, i);
        }
        const center = { x: 0, y: 0 };
        const half = { x: 0, y: 0 };
        return {
          run(b) {
            for (let i = 0; i < n; i++) {
              center.x = (b[4 * i] + b[4 * i + 2]) / 2;
              center.y = (b[4 * i + 1] + b[4 * i + 3]) / 2;
              colliders[i].setTranslation(center);
            }
            world.step(); // updates the broad-phase BVH
            let count = 0;
            for (let i = 0; i < n; i++) {
              center.x = (b[4 * i] + b[4 * i + 2]) / 2;
              center.y = (b[4 * i + 1] + b[4 * i + 3]) / 2;
              half.x = (b[4 * i + 2] - b[4 * i]) / 2;
              half.y = (b[4 * i + 3] - b[4 * i + 1]) / 2;
              world.collidersWithAabbIntersectingAabb(center, half, (c) => {
                // the BVH may hold enlarged boxes: keep exact overlaps only, each pair once
                const j = index.get(c.handle);
                if (
                  j > i &&
                  !(
                    b[4 * i] > b[4 * j + 2] ||
                    b[4 * j] > b[4 * i + 2] ||
                    b[4 * i + 1] > b[4 * j + 3] ||
                    b[4 * j + 1] > b[4 * i + 3]
                  )
                )
                  count++;
                return true;
              });
            }
            return count;
          },
          dispose: () => world.free(),
        };
      },
    },
    {
      name: 'plain JS sort-and-sweep',
      dims: [2, 3],
      create(boxes, d) {
        const n = boxes.length / (2 * d);
        const order = Array.from({ length: n }, (_, i) => i); // kept between frames: TimSort is fast on coherent input
        return {
          run(b) {
            const s = 2 * d;
            order.sort((x, y) => b[x * s] - b[y * s]);
            let count = 0;
            for (let x = 0; x < n; x++) {
              const i = order[x];
              const maxI = b[i * s + d];
              for (let y = x + 1; y < n; y++) {
                const j = order[y];
                if (b[j * s] > maxI) break;
                let hit = true;
                for (let a = 1; a < d; a++)
                  if (b[i * s + a] > b[j * s + d + a] || b[j * s + a] > b[i * s + d + a]) hit = false;
                if (hit) count++;
              }
            }
            return count;
          },
        };
      },
    },
  ];
}

export async function initPeers() {
  await RAPIER.init();
}
