export type { LogLevel, Logger } from './logger.js';
export { createLogger } from './logger.js';
