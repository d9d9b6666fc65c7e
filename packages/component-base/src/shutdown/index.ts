export type { ShutdownStep } from './shutdown.js';
export { onShutdown } from './shutdown.js';
