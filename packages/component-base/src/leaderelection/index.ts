export type { LeaderElectionConfig, LeaseClient } from './leader-elector.js';
export { LeaderElector, defaultIdentity } from './leader-elector.js';
export type { LeaderElectionOptions } from './leader-election-flags.js';
export {
  completeLeaderElection,
  leaderElectionFlags,
  validateLeaderElection,
} from './leader-election-flags.js';
