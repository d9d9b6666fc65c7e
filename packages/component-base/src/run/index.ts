export type { Runnable } from './runnable.js';
export { Deferred, aborted, runUntilSignal, startInBackground } from './runnable.js';
