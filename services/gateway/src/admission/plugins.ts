// The gateway's own plugins (kube-apiserver's RegisterAllAdmissionPlugins, for the plugins the
// one list of `@orch/apimachinery/admission` places in the gateway): each plugin module exports
// its name and registers its factory; this file registers them all.
import { Plugins } from '@orch/apimachinery/admission';
import type { GatewayPlugins } from './interfaces.js';
import * as namespaceAutoProvision from './namespace-auto-provision/plugin.js';
import * as namespaceExists from './namespace-exists/plugin.js';
import * as namespaceLifecycle from './namespace-lifecycle/plugin.js';
import * as ownerReferencesPermissionEnforcement from './owner-references-permission-enforcement/plugin.js';
import * as rbacEscalationPrevention from './rbac-escalation/plugin.js';

/** Registers every plugin of the gateway (upstream's RegisterAllAdmissionPlugins). */
export function registerAllAdmissionPlugins(plugins: GatewayPlugins): void {
  namespaceAutoProvision.register(plugins);
  namespaceLifecycle.register(plugins);
  namespaceExists.register(plugins);
  rbacEscalationPrevention.register(plugins);
  ownerReferencesPermissionEnforcement.register(plugins);
}

/** A registry of every plugin of the gateway. */
export function newGatewayPlugins(): GatewayPlugins {
  const plugins: GatewayPlugins = new Plugins('gateway');
  registerAllAdmissionPlugins(plugins);
  return plugins;
}
