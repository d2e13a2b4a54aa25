// Module hooks (register-hooks.mjs registers them): resolve every specifier as Node would, and count them, as a
// loader does its work on each.
export let resolved = 0;

export async function resolve(specifier, context, nextResolve) {
  resolved++;
  return nextResolve(specifier, context);
}
