// The one place that builds the order of admission (k8s chainAdmissionHandler over the plugin
// order of AllOrderedPlugins, which `@orch/apimachinery/admission` owns with the default set and
// each plugin's placement): the chain is built from the enabled plugins in that order, runs
// every plugin's admit in that order (mutating phase), then every plugin's validate in that
// order (validating phase). The first denial fails the request; later plugins do not run.
// Plugins of the admission service are members too: each run of consecutive enabled service
// plugins is one member (admission/service/), one gRPC call per phase naming them in order.
import { allOrderedPlugins, isPlacedIn, pluginsPlacedIn } from '@orch/apimachinery/admission';
import type {
  AdmissionServicePluginName,
  CertificatePluginName,
  GatewayPluginName,
  PluginName,
} from '@orch/apimachinery/admission';
import type { Admission, AdmissionAttributes, AdmissionPlugin, Operation } from './interfaces.js';

export type ServicePluginName = AdmissionServicePluginName;
export type { CertificatePluginName, GatewayPluginName, PluginName };

/** The chain over plugins already in order (k8s chainAdmissionHandler). */
export class AdmissionChain implements Admission {
  /** The members for every write but those of CertificateSigningRequests. */
  readonly plugins: readonly AdmissionPlugin[];
  /** The members for writes of CertificateSigningRequests: the certificates member among them. */
  readonly csrPlugins: readonly AdmissionPlugin[];

  constructor(
    plugins: readonly AdmissionPlugin[],
    csrPlugins: readonly AdmissionPlugin[] = plugins
  ) {
    this.plugins = plugins;
    this.csrPlugins = csrPlugins;
  }

  /** The members a write goes through. */
  pluginsFor(attrs: Pick<AdmissionAttributes, 'resource'>): readonly AdmissionPlugin[] {
    return isCertificateSigningRequests(attrs) ? this.csrPlugins : this.plugins;
  }

  /** Does any plugin handle the operation? */
  handles(operation: Operation): boolean {
    return [...this.plugins, ...this.csrPlugins].some((p) => p.handles(operation));
  }

  async admit(attrs: AdmissionAttributes): Promise<void> {
    for (const p of this.pluginsFor(attrs)) {
      if (p.admit && p.handles(attrs.operation)) await p.admit(attrs);
    }
  }

  async validate(attrs: AdmissionAttributes): Promise<void> {
    for (const p of this.pluginsFor(attrs)) {
      if (p.validate && p.handles(attrs.operation)) await p.validate(attrs);
    }
  }
}

/** Whether a write is one of a CertificateSigningRequest (or its subresources). */
export function isCertificateSigningRequests(
  attrs: Pick<AdmissionAttributes, 'resource'>
): boolean {
  return (
    attrs.resource.group === 'certificates.orch.io' &&
    attrs.resource.resource === 'certificatesigningrequests'
  );
}

/** How to build each enabled in-gateway plugin (from the registered ones, with their deps). */
export type PluginFactories = (name: GatewayPluginName) => AdmissionPlugin;

/**
 * How to build the chain member of a run of consecutive enabled service plugins: one call to
 * the admission service per phase, naming them in order (admission/service/).
 */
export type ServicePluginsFactory = (names: ServicePluginName[]) => AdmissionPlugin;

/**
 * How to build the member of the certificates service: one call per CSR write naming the
 * enabled certificate plugins (possibly none: the service still checks the request).
 */
export type CertificatePluginsFactory = (names: CertificatePluginName[]) => AdmissionPlugin;

/**
 * The chain of the enabled plugins, in the fixed order whatever the order of `enabled`; each
 * run of consecutive service plugins is one member built by `service` (which is required when
 * any service plugin is enabled). When `certificates` is given, writes of
 * CertificateSigningRequests get its member at the place of the certificate plugins, naming the
 * enabled ones, even when none is (the request check); other writes, which it would not touch,
 * go through the chain without it, so that it does not split a run of service plugins into two
 * calls.
 */
export function newAdmissionChain(
  factories: PluginFactories,
  enabled: readonly PluginName[],
  service?: ServicePluginsFactory,
  certificates?: CertificatePluginsFactory
): AdmissionChain {
  const gateway = new Map<string, AdmissionPlugin>();
  const certificatePluginNames = pluginsPlacedIn('certificates');
  const build = (withCertificates: boolean): AdmissionPlugin[] => {
    const members: AdmissionPlugin[] = [];
    let run: ServicePluginName[] = [];
    const flush = (): void => {
      if (run.length === 0) return;
      if (!service) {
        throw new Error(
          `admission plugins ${run.join(', ')} run in the admission service, and none is configured`
        );
      }
      members.push(service(run));
      run = [];
    };
    let certificatesPlaced = false;
    for (const name of allOrderedPlugins) {
      if (isPlacedIn(name, 'certificates')) {
        if (certificatesPlaced || !certificates || !withCertificates) continue;
        flush();
        members.push(certificates(certificatePluginNames.filter((n) => enabled.includes(n))));
        certificatesPlaced = true;
        continue;
      }
      if (!enabled.includes(name)) continue;
      if (isPlacedIn(name, 'admission')) {
        run.push(name);
      } else if (isPlacedIn(name, 'gateway')) {
        flush();
        // one instance of each gateway plugin, shared by both chains
        let plugin = gateway.get(name);
        if (!plugin) gateway.set(name, (plugin = factories(name)));
        members.push(plugin);
      }
    }
    flush();
    return members;
  };
  const plugins = build(false);
  return new AdmissionChain(plugins, certificates ? build(true) : plugins);
}
