export type { LogLevel, Logger } from './logger.js';
export {
  createLogger,
  isLogLevel,
  logLevels,
  runtimeLogLevel,
  setRuntimeLogLevel,
} from './logger.js';
