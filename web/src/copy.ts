// SPDX-License-Identifier: MIT
// Which copy of the package this is: the ES modules, or the CommonJS copy in dist/cjs (web/scripts/build.mjs sets
// it there). Each copy loads its own engine; messages use this to say which one a program has not initialised.
export const COPY: 'ES module' | 'CommonJS' = 'ES module';
