import { describeHostileSweep } from './sweep/hostile-sweep.ts';

// Issue 19's hostile-input sweep in every `npm test`, with the fixed seed and bounded runs of
// sweep/hostile-values.ts; `npm run fuzz` runs the same sweep long with a random seed.
describeHostileSweep();
