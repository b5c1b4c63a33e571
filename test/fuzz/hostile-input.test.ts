import { describeHostileSweep } from '../api/sweep/hostile-sweep.ts';

// The long run of the sweep in test/api/hostile-input.test.ts: `npm run fuzz` sets a random
// SWEEP_SEED and more SWEEP_RUNS, prints the seed, and a failure names it again.
describeHostileSweep();
