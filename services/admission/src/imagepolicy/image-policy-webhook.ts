// ImagePolicyWebhook (k8s.io/kubernetes plugin/pkg/admission/imagepolicy/admission.go): a
// validating plugin that asks a backend, named by a kubeconfig, whether a pod's images may run.
// It sees pods on create and update, the pod itself (containers and init containers) and its
// ephemeralcontainers subresource (ephemeral containers). Answers are cached by the review's
// spec for allowTTL or denyTTL. When the backend fails, defaultAllow decides: true admits and
// records the audit annotation `imagepolicywebhook.image-policy.orch.io/failed-open: true`.
// Upstream also sets the pod annotation `alpha.image-policy.orch.io/failed-open`; this plugin runs
// in the validating phase, which may not change the object, so only the audit annotation is set.
import type { GroupResource } from '@orch/apimachinery/errors';
import { newBadRequest, newForbidden } from '@orch/apimachinery/errors';

import type {
  AdmissionContext,
  AdmissionRequest,
  Operation,
  PluginDeps,
  ServicePlugin,
  ServicePluginName,
  ServicePlugins,
} from '../interfaces.js';
import { ExpireCache } from './expire-cache.js';
import type { ImagePolicyConfig } from './image-policy-config.js';
import { ImagePolicyConfigError, parseImagePolicyConfig } from './image-policy-config.js';
import type { ImageReviewStatus } from './image-review.js';
import {
  imagePolicyAnnotations,
  imageReviewSpec,
  newImageReview,
  readImageReviewStatus,
} from './image-review.js';
import { WebhookClient } from './webhook-client.js';
import { loadWebhookKubeconfig } from './webhook-kubeconfig.js';

/** The plugin's name, as the admission flags spell it. */
export const pluginName = 'ImagePolicyWebhook' satisfies ServicePluginName;

/** Prefix of this plugin's audit annotations (upstream AuditKeyPrefix). */
export const imagePolicyAuditKeyPrefix = 'imagepolicywebhook.image-policy.orch.io/';
export const imagePolicyFailedOpenKey = `${imagePolicyAuditKeyPrefix}failed-open`;

const pods: GroupResource = { group: '', resource: 'pods' };
const ephemeralContainers = 'ephemeralcontainers';
/** Upstream's LRUExpireCache size. */
const responseCacheSize = 1024;

export interface ImagePolicyWebhookOptions {
  /** Per backend call; default 30 s as upstream's webhook client. */
  requestTimeoutMs?: number;
}

/** The plugin; `close()` drops the backend connections. */
export interface ImagePolicyWebhook extends ServicePlugin {
  readonly config: ImagePolicyConfig;
  close(): void;
}

function images(list: unknown): string[] {
  if (!Array.isArray(list)) return [];
  return (list as unknown[]).map((c) =>
    typeof c === 'object' && c !== null && typeof (c as { image?: unknown }).image === 'string'
      ? (c as { image: string }).image
      : ''
  );
}

/**
 * The factory (`(deps: PluginDeps) => ServicePlugin`): reads `deps.config` and the kubeconfig it
 * names, throwing {@link ImagePolicyConfigError} naming the field when either is unusable, so a
 * bad configuration stops the service at start instead of failing requests.
 */
export function newImagePolicyWebhook(
  deps: Pick<PluginDeps, 'config' | 'log'>,
  options: ImagePolicyWebhookOptions = {}
): ImagePolicyWebhook {
  const config = parseImagePolicyConfig(deps.config);
  let client: WebhookClient;
  try {
    client = new WebhookClient(loadWebhookKubeconfig(config.kubeConfigFile), {
      retryBackoffMs: config.retryBackoffMs,
      ...(options.requestTimeoutMs !== undefined
        ? { requestTimeoutMs: options.requestTimeoutMs }
        : {}),
    });
  } catch (err) {
    throw new ImagePolicyConfigError(`imagePolicy.kubeConfigFile: ${(err as Error).message}`);
  }
  const log = deps.log.child({ plugin: pluginName });
  const cache = new ExpireCache<ImageReviewStatus>(responseCacheSize);

  const forbidden = (req: AdmissionRequest, why: string): Error => {
    const name = req.name || (req.object?.metadata.name ?? '');
    return newForbidden(pods, name, why);
  };

  const review = async (
    req: AdmissionRequest,
    ctx: AdmissionContext,
    spec: ReturnType<typeof imageReviewSpec>
  ): Promise<ImageReviewStatus | undefined> => {
    const key = JSON.stringify(spec);
    const cached = cache.get(key);
    if (cached) return cached;
    let status: ImageReviewStatus;
    try {
      status = readImageReviewStatus(await client.post(newImageReview(spec), ctx.signal));
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      log.info('error contacting webhook backend', { err: message });
      if (config.defaultAllow) {
        ctx.annotate(imagePolicyFailedOpenKey, 'true');
        log.info('resource allowed in spite of webhook backend failure', { name: req.name });
        return undefined;
      }
      throw forbidden(req, message);
    }
    cache.add(key, status, status.allowed ? config.allowTtlMs : config.denyTtlMs);
    return status;
  };

  return {
    name: pluginName,
    config,
    handles: (operation: Operation) => operation === 'CREATE' || operation === 'UPDATE',
    mayValidate: async (req: AdmissionRequest) =>
      req.resource.group === '' && req.resource.resource === 'pods',
    async validate(req: AdmissionRequest, ctx: AdmissionContext): Promise<void> {
      if (req.resource.group !== '' || req.resource.resource !== 'pods') return;
      if (req.subResource !== '' && req.subResource !== ephemeralContainers) return;
      const pod = req.object;
      if (typeof pod !== 'object' || pod === null) {
        throw newBadRequest('Resource was marked with kind Pod but was unable to be converted');
      }
      const podSpec = (pod['spec'] ?? {}) as Record<string, unknown>;
      const list =
        req.subResource === ''
          ? [...images(podSpec['containers']), ...images(podSpec['initContainers'])]
          : images(podSpec['ephemeralContainers']);
      const spec = imageReviewSpec(
        list,
        imagePolicyAnnotations(pod.metadata?.annotations as Record<string, unknown> | undefined),
        req.namespace
      );
      const status = await review(req, ctx, spec);
      if (!status) return;
      for (const [k, v] of Object.entries(status.auditAnnotations ?? {})) {
        ctx.annotate(imagePolicyAuditKeyPrefix + k, v);
      }
      if (!status.allowed) {
        throw forbidden(
          req,
          status.reason
            ? `image policy webhook backend denied one or more images: ${status.reason}`
            : 'one or more images rejected by webhook backend'
        );
      }
    },
    close: () => client.close(),
  };
}

/** Registers the plugin (upstream's Register). */
export function register(plugins: ServicePlugins): void {
  plugins.register(pluginName, (deps) => newImagePolicyWebhook(deps), { needsConfiguration: true });
}
