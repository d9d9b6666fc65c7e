export { newResourceQuota, QuotaAdmission } from './resource-quota.js';
export type { QuotaStorage, ResourceQuotaDeps } from './resource-quota.js';
export {
  parseResourceQuotaConfiguration,
  ResourceQuotaConfigurationError,
} from './resource-quota-configuration.js';
export type {
  LimitedResource,
  ResourceQuotaConfiguration,
} from './resource-quota-configuration.js';
