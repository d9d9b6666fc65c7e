export type {
  AdmissionServicePluginName,
  CertificatePluginName,
  GatewayPluginName,
  Placement,
  PluginName,
  PluginNameIn,
  PluginRole,
  PluginSpec,
} from './plugins.js';
export {
  admissionPlugins,
  allOrderedPlugins,
  defaultOffPlugins,
  defaultOnPlugins,
  deprecatedPlugins,
  enabledPluginNames,
  isPlacedIn,
  isPluginName,
  pluginSpec,
  pluginsPlacedIn,
  servedPluginsMismatch,
} from './plugins.js';
export type {
  AdmissionInterface,
  AdmissionOperation,
  AdmissionPluginInterface,
  MutationInterface,
  ValidationInterface,
} from './interfaces.js';
export type { RegisterOptions } from './registry.js';
export { Plugins } from './registry.js';
export type { DynamicScopeSource, PluginScope, PodSecurityScope } from './plugin-scope.js';
export {
  dynamicScopeSources,
  mayActOn,
  podSecurityLabelPrefix,
  podSecurityTemplateResources,
  scopeResource,
  servicePluginScopes,
} from './plugin-scope.js';
