// The controllers this service runs and the `--controllers` selection (k8s
// cmd/kube-controller-manager/names: each controller's name and its aliases; app
// IsControllerEnabled: `*` all on by default, `foo` on, `-foo` off, the first match wins).

export interface ControllerName {
  /** Canonical name (k8s names.go), e.g. `garbage-collector-controller`. */
  name: string;
  /** Short names accepted the same (k8s aliases), e.g. `garbagecollector`. */
  aliases: readonly string[];
  /** Off unless named (k8s ControllersDisabledByDefault). */
  disabledByDefault?: boolean;
  /**
   * Its ServiceAccount in the controllers' namespace with --use-service-account-credentials,
   * bound to `system:controller:<serviceAccount>` by the authorizer's bootstrap policy.
   */
  serviceAccount: string;
}

export const knownControllers: readonly ControllerName[] = [
  { name: 'namespace-controller', aliases: ['namespace'], serviceAccount: 'namespace-controller' },
  {
    name: 'garbage-collector-controller',
    aliases: ['garbagecollector'],
    serviceAccount: 'garbage-collector',
  },
  {
    name: 'serviceaccount-controller',
    aliases: ['serviceaccount'],
    serviceAccount: 'service-account-controller',
  },
  {
    name: 'serviceaccount-token-controller',
    aliases: ['serviceaccount-token'],
    serviceAccount: 'tokens-controller',
  },
  {
    name: 'resourcequota-controller',
    aliases: ['resourcequota'],
    serviceAccount: 'resourcequota-controller',
  },
  {
    name: 'persistentvolumeclaim-protection-controller',
    aliases: ['pvc-protection'],
    serviceAccount: 'pvc-protection-controller',
  },
  {
    name: 'persistentvolume-protection-controller',
    aliases: ['pv-protection'],
    serviceAccount: 'pv-protection-controller',
  },
  {
    name: 'disruption-controller',
    aliases: ['disruption'],
    serviceAccount: 'disruption-controller',
  },
  {
    name: 'root-ca-certificate-publisher-controller',
    aliases: ['root-ca-cert-publisher'],
    serviceAccount: 'root-ca-cert-publisher',
  },
  // The apiextensions controllers (upstream runs them inside kube-apiserver, unnamed there).
  {
    name: 'crd-naming-controller',
    aliases: ['crdnaming'],
    serviceAccount: 'crd-naming-controller',
  },
  {
    name: 'crd-establishing-controller',
    aliases: ['crdestablishing'],
    serviceAccount: 'crd-establishing-controller',
  },
  { name: 'crd-finalizer-controller', aliases: ['crdfinalizer'], serviceAccount: 'crd-finalizer' },
];

/** The canonical name for a name or alias, or undefined when no controller has it. */
export function canonicalControllerName(name: string): string | undefined {
  return knownControllers.find((c) => c.name === name || c.aliases.includes(name))?.name;
}

/** Errors for names in `--controllers` that no controller has (k8s KubeControllerManagerOptions.Validate). */
export function validateControllerNames(selection: readonly string[]): string[] {
  const errs: string[] = [];
  for (const entry of selection) {
    if (entry === '*') continue;
    const name = entry.startsWith('-') ? entry.slice(1) : entry;
    if (!canonicalControllerName(name))
      errs.push(`--controllers: ${JSON.stringify(name)} is not in the list of known controllers`);
  }
  return errs;
}

/** k8s IsControllerEnabled over canonical names. */
export function isControllerEnabled(name: string, selection: readonly string[]): boolean {
  const known = knownControllers.find((c) => c.name === name);
  let star = false;
  for (const entry of selection) {
    const negated = entry.startsWith('-');
    const n = negated ? entry.slice(1) : entry;
    if (n !== '*' && canonicalControllerName(n) === name) return !negated;
    if (entry === '*') star = true;
  }
  return star && !known?.disabledByDefault;
}
