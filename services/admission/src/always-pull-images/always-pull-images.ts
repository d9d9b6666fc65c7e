// AlwaysPullImages (k8s.io/kubernetes plugin/pkg/admission/alwayspullimages): every new pod's
// images are pulled with the pod's credentials, so a pod cannot use an image it could not pull.
// Admit sets imagePullPolicy Always on every container, init container and ephemeral container
// of a pod being created or updated; validate refuses a pod where one is not Always. Updates
// that change no image are left alone (upstream's isUpdateWithNoNewImages), as are
// subresources other than ephemeralcontainers and every other resource.
import {
  fieldErrorMessage,
  fieldNotSupported,
  newBadRequest,
  newForbidden,
  newPath,
} from '@orch/apimachinery/errors';
import type { FieldError } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import type {
  AdmissionRequest,
  Operation,
  PluginDeps,
  ServicePlugin,
  ServicePluginName,
  ServicePlugins,
} from '../interfaces.js';

/** The plugin's name, as the admission flags spell it. */
export const pluginName = 'AlwaysPullImages' satisfies ServicePluginName;

interface Container {
  name?: string;
  image?: string;
  imagePullPolicy?: string;
}

const lists = ['initContainers', 'containers', 'ephemeralContainers'] as const;

function spec(pod: ApiObject | undefined): Record<string, unknown> | undefined {
  const s = (pod as { spec?: unknown } | undefined)?.spec;
  return s && typeof s === 'object' ? (s as Record<string, unknown>) : undefined;
}

/** Every container of the pod with the path of its list (upstream's VisitContainersWithPath). */
function visitContainers(
  pod: ApiObject | undefined,
  visit: (c: Container, list: (typeof lists)[number], index: number) => void
): void {
  const s = spec(pod);
  if (!s) return;
  for (const list of lists) {
    const cs = s[list];
    if (!Array.isArray(cs)) continue;
    cs.forEach((c, i) => {
      if (c && typeof c === 'object') visit(c as Container, list, i);
    });
  }
}

function images(pod: ApiObject | undefined): Set<string> {
  const out = new Set<string>();
  visitContainers(pod, (c) => {
    if (c.image !== undefined) out.add(c.image);
  });
  return out;
}

/** The pod writes the plugin looks at (upstream's shouldIgnore, less the update check). */
function shouldIgnore(req: AdmissionRequest): boolean {
  if (req.resource.group !== '' || req.resource.resource !== 'pods') return true;
  if (req.subResource !== '' && req.subResource !== 'ephemeralcontainers') return true;
  return false;
}

/** Upstream's type assertion on the object: a pods write must carry a Pod. */
function podOf(req: AdmissionRequest): ApiObject {
  if (!req.object || req.object.kind !== 'Pod') {
    throw newBadRequest('Resource was marked with kind Pod but was unable to be converted');
  }
  return req.object;
}

/** An update that brings no image the old pod did not have (upstream's isUpdateWithNoNewImages). */
function isUpdateWithNoNewImages(req: AdmissionRequest): boolean {
  if (req.operation !== 'UPDATE' || !req.oldObject) return false;
  const old = images(req.oldObject);
  for (const image of images(req.object)) if (!old.has(image)) return false;
  return true;
}

export function newAlwaysPullImages(_deps: PluginDeps): ServicePlugin {
  return {
    name: pluginName,
    handles: (op: Operation) => op === 'CREATE' || op === 'UPDATE',
    async admit(req) {
      if (shouldIgnore(req) || isUpdateWithNoNewImages(req)) return;
      const pod = structuredClone(podOf(req));
      visitContainers(pod, (c) => {
        c.imagePullPolicy = 'Always';
      });
      req.object = pod;
    },
    mayValidate: async (req) => req.resource.group === '' && req.resource.resource === 'pods',
    async validate(req) {
      if (shouldIgnore(req) || isUpdateWithNoNewImages(req)) return;
      const pod = podOf(req);
      // Upstream answers Forbidden with the first container whose policy is not Always.
      let first: FieldError | undefined;
      visitContainers(pod, (c, list, i) => {
        if (first || c.imagePullPolicy === 'Always') return;
        first = fieldNotSupported(
          newPath('spec', list).index(i).child('imagePullPolicy'),
          c.imagePullPolicy ?? '',
          ['Always']
        );
      });
      if (first) {
        throw newForbidden(
          { group: '', resource: 'pods' },
          pod.metadata.name || req.name,
          fieldErrorMessage(first)
        );
      }
    },
  };
}

/** Registers the plugin (upstream's Register). */
export function register(plugins: ServicePlugins): void {
  plugins.register(pluginName, newAlwaysPullImages);
}
