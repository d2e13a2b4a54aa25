// require('sweep-prune/rbush') is the class itself, as require('rbush') was before rbush 4: it can be extended.
const RBush = require('sweep-prune/rbush');

class System extends RBush {
  checkOne(body) {
    return this.search(body).filter((other) => other !== body).length;
  }
}

void RBush.init().then(() => {
  const system = new System();
  const a = { minX: 0, minY: 0, maxX: 2, maxY: 2 };
  system.insert(a).insert({ minX: 1, minY: 1, maxX: 3, maxY: 3 });
  console.log(
    JSON.stringify({
      type: typeof RBush,
      same: RBush.default === RBush,
      subclass: system instanceof RBush,
      hits: system.checkOne(a),
      resolved: require.resolve('sweep-prune/rbush'),
    }),
  );
});
