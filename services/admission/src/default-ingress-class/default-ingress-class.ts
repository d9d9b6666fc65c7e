// DefaultIngressClass (k8s.io/kubernetes plugin/pkg/admission/network/defaultingressclass,
// admission.go). Mutating, for new Ingresses: one that names no class (no
// `spec.ingressClassName` and no legacy annotation `kubernetes.io/ingress.class`, spelled
// `orch.io/ingress.class` here) gets the default IngressClass, the one annotated
// `ingressclass.orch.io/is-default-class: "true"`. When several are, the create is refused (403,
// `<n> default IngressClasses were found, only 1 allowed`), as the spec says and upstream did
// before it chose the newest; when none is, the Ingress is left without a class.
import type { ApiObject } from '@orch/apimachinery/meta';
import type { Ingress } from '@orch/api/networking/v1';
import { theOneDefault } from '../default-storage-class/default-storage-class.js';
import type {
  AdmissionRequest,
  ObjectLister,
  PluginDeps,
  ServicePlugin,
  ServicePluginName,
  ServicePlugins,
} from '../interfaces.js';

/** The plugin's name, as the admission flags spell it. */
export const pluginName = 'DefaultIngressClass' satisfies ServicePluginName;

export const isDefaultIngressClassAnnotation = 'ingressclass.orch.io/is-default-class';
/** The class before `spec.ingressClassName` (networking v1beta1 AnnotationIngressClass). */
export const ingressClassAnnotation = 'orch.io/ingress.class';

const isIngresses = (req: AdmissionRequest): boolean =>
  req.resource.group === 'networking.orch.io' &&
  req.resource.resource === 'ingresses' &&
  req.subResource === '';

/** getDefaultClass: the one class annotated as the default, undefined when none; several refuse. */
export const defaultIngressClass = (
  req: AdmissionRequest,
  classes: readonly ApiObject[]
): ApiObject | undefined =>
  theOneDefault(
    req,
    classes.filter((c) => c.metadata.annotations?.[isDefaultIngressClassAnnotation] === 'true'),
    'IngressClasses',
    ', only 1 allowed'
  );

export function newDefaultIngressClass(deps: PluginDeps): ServicePlugin {
  let lister: Promise<ObjectLister> | undefined;
  return {
    name: pluginName,
    handles: (op) => op === 'CREATE',
    mayValidate: async () => false,
    async admit(req) {
      if (!isIngresses(req) || !req.object) return;
      const current: Ingress = req.object;
      const spec = current.spec;
      if (spec?.ingressClassName !== undefined && spec.ingressClassName !== null) return;
      if (req.object.metadata.annotations?.[ingressClassAnnotation] !== undefined) return;
      lister ??= deps.listers.forResource('networking.orch.io', 'ingressclasses');
      const def = defaultIngressClass(req, (await lister).list());
      if (!def) return;
      const ingress = structuredClone(req.object) as ApiObject & Ingress;
      (ingress.spec ??= {}).ingressClassName = def.metadata.name;
      req.object = ingress;
    },
  };
}

/** Registers the plugin (upstream's Register). */
export function register(plugins: ServicePlugins): void {
  plugins.register(pluginName, newDefaultIngressClass);
}
