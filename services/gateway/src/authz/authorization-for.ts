// The authorizer of --authorization-mode: the authorizer service over gRPC, its decisions cached
// (every decision of the gateway, reviews included, goes through the cache, as k8s's webhook
// authorizer does), or a fixed answer; in every mode `system:masters` is allowed first, as
// upstream's privileged groups authorizer.
import type { ChannelCredentials } from '@grpc/grpc-js';
import { AuthorizerClient } from '@orch/apimachinery/grpc';
import { HealthClient } from '@orch/component-base/grpc-server';
import type { GatewayMetrics } from '../metrics/gateway-metrics.js';
import { alwaysAllow, alwaysDeny } from './authorizer.js';
import type { Authorizer } from './authorizer.js';
import { CachingAuthorizer } from './caching-authorizer.js';
import { GrpcAuthorizer } from './grpc-authorizer.js';
import { PrivilegedGroupsAuthorizer, systemPrivilegedGroup } from './privileged-groups.js';
import type { RuleReviewer } from './grpc-authorizer.js';

export interface Authorization {
  authorizer: Authorizer;
  reviewer: RuleReviewer;
  cache?: CachingAuthorizer;
  /** RBAC mode: the authorizer service's grpc.health.v1 (it answering, and its bootstrap policy, for /readyz). */
  health?: HealthClient;
  close(): void;
}

export function authorizationFor(
  mode: 'RBAC' | 'AlwaysAllow' | 'AlwaysDeny',
  opts: {
    address: string;
    credentials: () => ChannelCredentials;
    cache: { authorizedTtlMs: number; unauthorizedTtlMs: number };
    metrics: GatewayMetrics;
  }
): Authorization {
  if (mode === 'RBAC') {
    const client = new AuthorizerClient({ address: opts.address, credentials: opts.credentials() });
    // Readiness asks over the decisions' own connection (see health/service-check.ts).
    const health = new HealthClient(opts.address, opts.credentials(), {
      channelOverride: client.channel,
    });
    const grpc = new GrpcAuthorizer(client);
    const cache = new CachingAuthorizer(grpc, {
      ...opts.cache,
      onHit: () => opts.metrics.authorizationCache.inc({ result: 'hit' }),
      onMiss: () => opts.metrics.authorizationCache.inc({ result: 'miss' }),
    });
    return {
      authorizer: new PrivilegedGroupsAuthorizer([systemPrivilegedGroup], cache),
      reviewer: grpc,
      cache,
      health,
      close: () => {
        client.close();
        health.close();
      },
    };
  }
  const allow = mode === 'AlwaysAllow';
  const everything = {
    resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], resourceNames: [] }],
    nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
    incomplete: false,
    evaluationError: '',
  };
  const nothing = {
    resourceRules: [],
    nonResourceRules: [],
    incomplete: false,
    evaluationError: '',
  };
  return {
    authorizer: new PrivilegedGroupsAuthorizer(
      [systemPrivilegedGroup],
      allow ? alwaysAllow : alwaysDeny
    ),
    reviewer: { rulesReview: async () => (allow ? everything : nothing) },
    close: () => undefined,
  };
}
