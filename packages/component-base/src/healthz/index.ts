export type {
  HealthAnswer,
  HealthCheckSet,
  HealthChecker,
  HealthLog,
  HealthPath,
} from './health-checks.js';
export {
  healthCheckSet,
  healthCheckerFunc,
  healthHeaders,
  pingHealthChecker,
} from './health-checks.js';
