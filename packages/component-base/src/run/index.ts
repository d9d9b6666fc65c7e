export type { Runnable, Started } from './runnable.js';
export { Deferred, aborted, runUntilSignal, startInBackground } from './runnable.js';
