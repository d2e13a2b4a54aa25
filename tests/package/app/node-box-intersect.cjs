// require('sweep-prune/box-intersect') is the function itself, as require('box-intersect') is.
const boxIntersect = require('sweep-prune/box-intersect');

void boxIntersect.init().then(() => {
  const red = [
    [0, 0, 0, 8, 1, 1],
    [0, 0, 0, 1, 8, 1],
    [0, 0, 0, 1, 1, 8],
  ];
  const blue = [
    [5, 0, 0, 6, 10, 10],
    [0, 5, 0, 10, 6, 10],
    [0, 0, 5, 10, 10, 10],
  ];
  console.log(
    JSON.stringify({
      type: typeof boxIntersect,
      pairs: boxIntersect(red, blue).sort((a, b) => a[0] - b[0] || a[1] - b[1]),
      resolved: require.resolve('sweep-prune/box-intersect'),
    }),
  );
});
