// The benchmarks' one statistic of a list of times: its median (the upper one of an even count).
export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}
