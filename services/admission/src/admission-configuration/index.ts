// The --admission-control-config-file reader.
export type { AdmissionPluginConfiguration } from './admission-configuration.js';
export {
  AdmissionConfigurationError,
  admissionConfigurationApiVersion,
  admissionConfigurationKind,
  pluginConfigurations,
  readAdmissionConfiguration,
} from './admission-configuration.js';
