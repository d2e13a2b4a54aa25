// Preloaded with --import (tests/package/threads-start.test.ts), as TypeScript and coverage loaders are: registers
// module hooks for the program (hooks.mjs).
import { register } from 'node:module';

register('./hooks.mjs', import.meta.url);
