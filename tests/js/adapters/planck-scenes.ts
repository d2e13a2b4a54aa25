// Scenes for the planck adapter's tests, of the kinds planck's own examples show (example/*.ts): each builds into an
// empty world with a seeded PRNG and returns a driver called before every step, so two calls on two worlds build and
// drive identical simulations.
import {
  Body,
  Box,
  Chain,
  Circle,
  Edge,
  Polygon,
  PrismaticJoint,
  RevoluteJoint,
  Vec2,
  type Fixture,
  type Joint,
  type World,
} from 'planck';

/** Called before step `s` (mid-run changes: bodies added and removed, joints, filters, types, origin). */
export type Driver = (s: number) => void;
export type Scene = (world: World, random: () => number) => Driver;

const nothing: Driver = () => {};

function ground(world: World, half = 40): Body {
  const g = world.createBody();
  g.createFixture(new Edge(new Vec2(-half, 0), new Vec2(half, 0)), 0);
  return g;
}

// planck's Pyramid example: rows of boxes on an edge ground
function pyramid(world: World, rows: number, x0: number): void {
  const box = new Box(0.5, 0.5);
  const x = new Vec2(x0, 0.75);
  for (let i = 0; i < rows; i++) {
    const y = x.clone();
    for (let j = i; j < rows; j++) {
      world.createBody({ type: 'dynamic', position: y }).createFixture(box, 5);
      y.x += 1.125;
    }
    x.x += 0.5625;
    x.y += 1.0;
  }
}

export const scenes: Record<string, Scene> = {
  pyramid: (world) => {
    world.setGravity(new Vec2(0, -10));
    ground(world);
    pyramid(world, 20, -7);
    return nothing;
  },

  pyramids: (world) => {
    world.setGravity(new Vec2(0, -10));
    ground(world, 80);
    for (let k = 0; k < 5; k++) pyramid(world, 8, -60 + k * 25);
    return nothing;
  },

  // planck's Tiles example: a static ground of box tiles in rows (one body, a fixture per tile) under a pyramid, and
  // boxes dropped on it; mid-run one row of tiles is moved by hand (its body set elsewhere and back)
  tiles: (world, random) => {
    world.setGravity(new Vec2(0, -10));
    const rows: Body[] = [];
    for (let j = 0; j < 4; j++) {
      const row = world.createBody({ position: new Vec2(0, -0.5 - j) });
      for (let i = 0; i < 80; i++) row.createFixture(new Box(0.5, 0.5, new Vec2(-40 + i + 0.5, 0), 0), 0);
      rows.push(row);
    }
    pyramid(world, 10, -7);
    const drops: Body[] = [];
    return (s) => {
      if (s % 4 === 0 && drops.length < 40) {
        const b = world.createBody({ type: 'dynamic', position: new Vec2(-35 + random() * 70, 8 + random() * 4) });
        b.createFixture(random() < 0.5 ? new Circle(0.3) : new Box(0.4, 0.25), 1);
        drops.push(b);
      }
      if (s === 150) rows[0]!.setTransform(new Vec2(0.25, -0.6), 0);
    };
  },

  // Box2D's Tumbler: a rotating box container (a motor joint on the ground) filling with one small box per step
  tumbler: (world, random) => {
    world.setGravity(new Vec2(0, -10));
    const g = world.createBody();
    const container = world.createBody({ type: 'dynamic', position: new Vec2(0, 10), allowSleep: false });
    container.createFixture(new Box(0.5, 10, new Vec2(10, 0), 0), 5);
    container.createFixture(new Box(0.5, 10, new Vec2(-10, 0), 0), 5);
    container.createFixture(new Box(10, 0.5, new Vec2(0, 10), 0), 5);
    container.createFixture(new Box(10, 0.5, new Vec2(0, -10), 0), 5);
    world.createJoint(
      new RevoluteJoint(
        { motorSpeed: 0.05 * Math.PI, maxMotorTorque: 1e8, enableMotor: true },
        g,
        container,
        new Vec2(0, 10),
      ),
    );
    const small = new Box(0.125, 0.125);
    return (s) => {
      if (s < 160) {
        const b = world.createBody({ type: 'dynamic', position: new Vec2(random() - 0.5, 10 + random() - 0.5) });
        b.createFixture(small, 1);
      }
    };
  },

  // Box2D's AddPair (a bullet box through a cloud of circles) and BulletTest (bullets dropped on boxes)
  bullets: (world, random) => {
    const circle = new Circle(0.1);
    for (let i = 0; i < 150; i++) {
      world
        .createBody({ type: 'dynamic', position: new Vec2(-6 + random() * 6, 4 + random() * 2) })
        .createFixture(circle, 0.01);
    }
    const box = world.createBody({ type: 'dynamic', bullet: true, position: new Vec2(-40, 5) });
    box.createFixture(new Box(1.5, 1.5), 1);
    box.setLinearVelocity(new Vec2(150, 0));
    const floor = world.createBody({ position: new Vec2(0, -20) });
    floor.createFixture(new Edge(new Vec2(-10, 0), new Vec2(10, 0)), 0);
    floor.createFixture(new Box(0.2, 1, new Vec2(0.5, 1), 0), 0);
    return (s) => {
      if (s % 25 === 0) {
        const bullet = world.createBody({ type: 'dynamic', bullet: true, position: new Vec2(random() - 0.5, -10) });
        bullet.createFixture(new Box(0.25, 0.25), 100);
        bullet.setLinearVelocity(new Vec2(0, -50));
      }
    };
  },

  // planck's SensorTest: a sensor circle on the ground, bodies falling through it and pulled to it while touching
  sensors: (world, random) => {
    world.setGravity(new Vec2(0, -10));
    const g = ground(world);
    const sensor = g.createFixture({ shape: new Circle(new Vec2(0, 10), 5), isSensor: true });
    const touching = new Set<Body>();
    world.on('begin-contact', (c) => {
      if (c.getFixtureA() === sensor) touching.add(c.getFixtureB().getBody());
      if (c.getFixtureB() === sensor) touching.add(c.getFixtureA().getBody());
    });
    world.on('end-contact', (c) => {
      if (c.getFixtureA() === sensor) touching.delete(c.getFixtureB().getBody());
      if (c.getFixtureB() === sensor) touching.delete(c.getFixtureA().getBody());
    });
    const bodies: Body[] = [];
    for (let i = 0; i < 30; i++) {
      const b = world.createBody({ type: 'dynamic', position: new Vec2(-12 + random() * 24, 16 + random() * 10) });
      b.createFixture({ shape: new Circle(0.5 + random() * 0.5), density: 1, isSensor: i % 7 === 0 });
      bodies.push(b);
    }
    return () => {
      for (const b of bodies) {
        if (!touching.has(b)) continue;
        const d = Vec2.sub(new Vec2(0, 10), b.getPosition());
        d.normalize();
        b.applyForce(Vec2.mul(d, 100), b.getPosition(), false);
      }
    };
  },

  // chains (a loop and an open chain) and edges as ground, polygons and circles falling on them
  chains: (world, random) => {
    world.setGravity(new Vec2(0, -10));
    const g = world.createBody();
    const loop: Vec2[] = [];
    for (let i = 0; i < 24; i++) {
      const a = (i / 24) * 2 * Math.PI;
      loop.push(new Vec2(14 * Math.cos(a), 14 + 10 * Math.sin(a)));
    }
    g.createFixture(new Chain(loop, true), 0);
    const wave: Vec2[] = [];
    for (let i = 0; i <= 40; i++) wave.push(new Vec2(-20 + i, -8 + Math.sin(i * 0.7)));
    g.createFixture(new Chain(wave, false), 0);
    g.createFixture(new Edge(new Vec2(-6, 6), new Vec2(6, 4)), 0);
    for (let i = 0; i < 60; i++) {
      const b = world.createBody({
        type: 'dynamic',
        position: new Vec2(-9 + random() * 18, 12 + random() * 14),
        angle: random() * Math.PI,
      });
      const k = i % 3;
      if (k === 0) b.createFixture(new Circle(0.3 + random() * 0.4), 1);
      else if (k === 1) b.createFixture(new Box(0.2 + random() * 0.5, 0.2 + random() * 0.3), 1);
      else b.createFixture(new Polygon([new Vec2(-0.5, 0), new Vec2(0.5, 0), new Vec2(0, 0.7)]), 1);
    }
    return nothing;
  },

  // a bridge of planks joined by revolute joints (collideConnected false), a chain of links that do collide, a
  // prismatic slider; mid-run a joint that forbids a touching pair's collision is created and later destroyed
  joints: (world, random) => {
    world.setGravity(new Vec2(0, -10));
    const g = ground(world);
    let prev = g;
    for (let i = 0; i < 20; i++) {
      const plank = world.createBody({ type: 'dynamic', position: new Vec2(-14.5 + i, 5) });
      plank.createFixture(new Box(0.5, 0.125), 20);
      world.createJoint(new RevoluteJoint({}, prev, plank, new Vec2(-15 + i, 5)));
      prev = plank;
    }
    world.createJoint(new RevoluteJoint({}, prev, g, new Vec2(5, 5)));
    let link = g;
    for (let i = 0; i < 12; i++) {
      const b = world.createBody({ type: 'dynamic', position: new Vec2(10.5 + i * 0.9, 12) });
      b.createFixture(new Box(0.6, 0.1), 20);
      world.createJoint(new RevoluteJoint({ collideConnected: true }, link, b, new Vec2(10 + i * 0.9, 12)));
      link = b;
    }
    const slider = world.createBody({ type: 'dynamic', position: new Vec2(-20, 2) });
    slider.createFixture(new Box(1, 0.5), 2);
    world.createJoint(
      new PrismaticJoint(
        { enableMotor: true, motorSpeed: 3, maxMotorForce: 1000, collideConnected: true },
        g,
        slider,
        slider.getPosition(),
        new Vec2(1, 0),
      ),
    );
    const drops: Body[] = [];
    for (let i = 0; i < 30; i++) {
      const b = world.createBody({ type: 'dynamic', position: new Vec2(-14 + random() * 19, 7 + random() * 8) });
      b.createFixture(new Box(0.3, 0.3), 1);
      drops.push(b);
    }
    let blocker: Joint | null = null;
    return (s) => {
      if (s === 120) {
        // two drops that touch something: a joint between them (and between the first and the bridge's body it
        // rests on, if any) flags their contacts for filtering
        const a = drops[0]!;
        const b = drops[1]!;
        blocker = world.createJoint(new RevoluteJoint({ collideConnected: false }, a, b, a.getPosition()));
      }
      if (s === 200 && blocker !== null) {
        world.destroyJoint(blocker);
        blocker = null;
      }
    };
  },

  // bodies created and destroyed during the run (destroyed from a contact callback through queueUpdate, as planck
  // allows after the step), a body switched off and on, a body made static and dynamic again, collision filters
  // changed, a kinematic body sweeping through, a static body moved by hand, and the world origin shifted
  churn: (world, random) => {
    world.setGravity(new Vec2(0, -10));
    const g = ground(world, 30);
    const kinematic = world.createBody({ type: 'kinematic', position: new Vec2(-20, 3) });
    kinematic.createFixture(new Box(2, 0.25), 1);
    kinematic.setLinearVelocity(new Vec2(4, 0));
    const wall = world.createBody({ position: new Vec2(12, 2) });
    wall.createFixture(new Box(0.25, 2), 0);
    // a ball resting on the ground that grows in place (planck's Fixture._reset: new proxies under live contacts)
    const ball = world.createBody({ type: 'dynamic', position: new Vec2(20, 0.5) });
    const ballFixture = ball.createFixture(new Circle(0.5), 1);
    let extra: Fixture | null = null;
    const live: Body[] = [];
    const doomed = new Set<Body>();
    world.on('begin-contact', (c) => {
      for (const f of [c.getFixtureA(), c.getFixtureB()]) {
        const b = f.getBody();
        if ((b.getUserData() as { fragile?: boolean } | null)?.fragile && !doomed.has(b)) {
          doomed.add(b);
          world.queueUpdate((w) => {
            w.destroyBody(b);
            live.splice(live.indexOf(b), 1);
          });
        }
      }
    });
    const spawn = (): void => {
      const fragile = random() < 0.3;
      const b = world.createBody({
        type: 'dynamic',
        position: new Vec2(-10 + random() * 20, 8 + random() * 6),
        userData: { fragile },
      });
      const fixture: Fixture = b.createFixture(random() < 0.5 ? new Circle(0.4) : new Box(0.4, 0.3), 1);
      if (random() < 0.3) fixture.setFilterData({ groupIndex: -1, categoryBits: 2, maskBits: 0xffff });
      live.push(b);
    };
    for (let i = 0; i < 40; i++) spawn();
    return (s) => {
      if (s % 3 === 0) spawn();
      if (s % 11 === 0 && live.length > 10) {
        const b = live[Math.floor(random() * live.length)]!;
        if (!doomed.has(b)) {
          world.destroyBody(b);
          live.splice(live.indexOf(b), 1);
        }
      }
      const some = live[s % live.length];
      if (some !== undefined && !doomed.has(some)) {
        if (s % 37 === 5) some.setActive(false);
        if (s % 37 === 9) some.setActive(true);
        if (s % 53 === 7) some.setType(Body.STATIC);
        if (s % 53 === 19) some.setType(Body.DYNAMIC);
        if (s % 29 === 3) {
          const f = some.getFixtureList();
          f?.setFilterData({ groupIndex: 0, categoryBits: 1 << (s % 3), maskBits: 0xffff ^ (1 << ((s + 1) % 3)) });
        }
      }
      if (s === 60) {
        (ballFixture.getShape() as Circle).m_radius = 0.8;
        (ballFixture as unknown as { _reset(): void })._reset();
      }
      // shape editing (planck's ShapeEditing example): a fixture added to and removed from a body in contact
      if (s % 41 === 13 && extra === null) extra = ball.createFixture(new Box(0.3, 0.3, new Vec2(0.8, 0), 0), 1);
      if (s % 41 === 30 && extra !== null) {
        ball.destroyFixture(extra);
        extra = null;
      }
      if (s === 90) wall.setTransform(new Vec2(-4, 2), 0.3);
      if (s === 150) world.shiftOrigin(new Vec2(3.5, -1.25));
      if (s === 170) g.setActive(false);
      if (s === 175) g.setActive(true);
    };
  },
};
