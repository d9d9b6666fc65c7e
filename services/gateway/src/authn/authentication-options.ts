// The authentication flags of the gateway (k8s BuiltInAuthenticationOptions) → AuthenticationConfig.
// Spread into gatewayFlags by options.ts.
import { parseDuration } from '@orch/component-base/flags';

export const authenticationFlags = {
  'anonymous-auth': {
    type: 'string',
    default: 'true',
    description:
      'Requests without credentials are system:anonymous (true) or 401 (false). Off under --authorization-mode=AlwaysAllow.',
  },
  'token-auth-file': {
    type: 'string',
    description: 'Static tokens: CSV rows token,user,uid,"group1,group2". Read at start.',
  },
  'enable-bootstrap-token-auth': {
    type: 'boolean',
    description: 'Bootstrap tokens from secrets of type bootstrap.orch.io/token in orch-system.',
  },
  'service-account-key-file': {
    type: 'string',
    multiple: true,
    description:
      'PEM keys (RSA or ECDSA, private or public) verifying service-account tokens. Repeatable. Default: --tls-private-key-file.',
  },
  'service-account-signing-key-file': {
    type: 'string',
    description:
      'Private key signing service-account tokens (TokenRequest). Default: --tls-private-key-file.',
  },
  'service-account-issuer': {
    type: 'string',
    default: 'https://orch.default.svc',
    description: 'The iss of service-account tokens, also their default audience.',
  },
  'service-account-lookup': {
    type: 'string',
    default: 'true',
    description: 'Reject service-account tokens whose account or bound object was deleted.',
  },
  'service-account-max-token-expiration': {
    type: 'string',
    default: '24h',
    description: 'Longest lifetime of a requested service-account token.',
  },
  'oidc-issuer-url': {
    type: 'string',
    description: 'https URL of the OpenID provider (discovery base).',
  },
  'oidc-client-id': {
    type: 'string',
    description: 'Client id that every id_token must be issued for (aud).',
  },
  'oidc-username-claim': {
    type: 'string',
    default: 'sub',
    description: 'Claim holding the user name.',
  },
  'oidc-username-prefix': {
    type: 'string',
    description:
      'Prefix of user names; "-" disables it. Default: "<issuer>#" unless the claim is email.',
  },
  'oidc-groups-claim': {
    type: 'string',
    description: 'Claim holding the groups (an array of strings).',
  },
  'oidc-groups-prefix': { type: 'string', description: 'Prefix of group names.' },
  'oidc-required-claim': {
    type: 'string',
    multiple: true,
    description: 'key=value a token must carry. Repeatable.',
  },
  'oidc-ca-file': {
    type: 'string',
    description: 'CA of the OpenID provider. Default: host roots.',
  },
  'oidc-signing-algs': {
    type: 'string',
    default: 'RS256',
    description: 'Accepted JOSE signing algorithms, comma-separated.',
  },
  'authentication-token-webhook-config-file': {
    type: 'string',
    description:
      'kubeconfig-format file: the TokenReview webhook (clusters) and the credentials for it (users).',
  },
  'authentication-token-webhook-cache-ttl': {
    type: 'string',
    default: '2m',
    description: 'How long webhook decisions are cached.',
  },
  'authentication-token-webhook-version': {
    type: 'string',
    default: 'v1beta1',
    description: 'TokenReview version sent to the webhook: v1 or v1beta1.',
  },
  'requestheader-client-ca-file': {
    type: 'string',
    description: 'CA the authenticating proxy client certificate must chain to.',
  },
  'requestheader-allowed-names': {
    type: 'string',
    multiple: true,
    description:
      'Allowed common names of the proxy certificate (comma-separated or repeated; empty: any).',
  },
  'requestheader-username-headers': {
    type: 'string',
    multiple: true,
    description: 'Headers holding the user name; the first with a value wins.',
  },
  'requestheader-uid-headers': {
    type: 'string',
    multiple: true,
    description: 'Headers holding the user uid; the first with a value wins.',
  },
  'requestheader-group-headers': {
    type: 'string',
    multiple: true,
    description: 'Headers whose values are all groups.',
  },
  'requestheader-extra-headers-prefix': {
    type: 'string',
    multiple: true,
    description:
      'Header prefixes of extras (the rest of the name, lowercased and percent-decoded, is the key).',
  },
} as const;

export interface OidcConfig {
  issuerUrl: string;
  clientId: string;
  usernameClaim: string;
  usernamePrefix: string | undefined;
  groupsClaim: string | undefined;
  groupsPrefix: string;
  requiredClaims: Record<string, string>;
  caFile: string | undefined;
  signingAlgs: string[];
}

export interface RequestHeaderConfig {
  clientCaFile: string;
  allowedNames: string[];
  usernameHeaders: string[];
  uidHeaders: string[];
  groupHeaders: string[];
  extraHeaderPrefixes: string[];
}

export interface AuthenticationConfig {
  clientCaFile: string;
  anonymous: boolean;
  tokenAuthFile: string | undefined;
  bootstrapTokens: boolean;
  serviceAccounts: {
    keyFiles: string[];
    signingKeyFile: string;
    issuer: string;
    lookup: boolean;
    maxExpirationSeconds: number;
  };
  oidc: OidcConfig | undefined;
  webhook: { configFile: string; cacheTtlMs: number; version: 'v1' | 'v1beta1' } | undefined;
  requestHeader: RequestHeaderConfig | undefined;
}

type Values = {
  [K in keyof typeof authenticationFlags]: (typeof authenticationFlags)[K] extends {
    multiple: true;
  }
    ? string[] | undefined
    : (typeof authenticationFlags)[K] extends { type: 'boolean' }
      ? boolean | undefined
      : string | undefined;
};

export function parseBool(flag: string, v: string | undefined, dflt: boolean): boolean {
  if (v === undefined || v === '') return dflt;
  if (/^(true|1|t)$/i.test(v)) return true;
  if (/^(false|0|f)$/i.test(v)) return false;
  throw new Error(`--${flag}: want true or false, got ${JSON.stringify(v)}`);
}

const list = (v: string[] | undefined): string[] =>
  (v ?? [])
    .flatMap((s) => s.split(','))
    .map((s) => s.trim())
    .filter(Boolean);

export function authenticationConfig(
  f: Values & { 'client-ca-file'?: string | undefined; 'tls-private-key-file'?: string | undefined }
): AuthenticationConfig {
  const tlsKey = f['tls-private-key-file'] ?? '';
  let oidc: OidcConfig | undefined;
  if (f['oidc-issuer-url'] || f['oidc-client-id']) {
    if (!f['oidc-issuer-url'] || !f['oidc-client-id'])
      throw new Error('--oidc-issuer-url and --oidc-client-id go together');
    if (!f['oidc-issuer-url'].startsWith('https://'))
      throw new Error('--oidc-issuer-url must be an https URL');
    const requiredClaims: Record<string, string> = {};
    for (const kv of f['oidc-required-claim'] ?? []) {
      const i = kv.indexOf('=');
      if (i <= 0)
        throw new Error(`--oidc-required-claim: want key=value, got ${JSON.stringify(kv)}`);
      requiredClaims[kv.slice(0, i)] = kv.slice(i + 1);
    }
    oidc = {
      issuerUrl: f['oidc-issuer-url'],
      clientId: f['oidc-client-id'],
      usernameClaim: f['oidc-username-claim'] ?? 'sub',
      usernamePrefix: f['oidc-username-prefix'],
      groupsClaim: f['oidc-groups-claim'],
      groupsPrefix: f['oidc-groups-prefix'] ?? '',
      requiredClaims,
      caFile: f['oidc-ca-file'],
      signingAlgs: list([f['oidc-signing-algs'] ?? 'RS256']),
    };
  }
  const version = f['authentication-token-webhook-version'] ?? 'v1beta1';
  if (version !== 'v1' && version !== 'v1beta1')
    throw new Error('--authentication-token-webhook-version: want v1 or v1beta1');
  let requestHeader: RequestHeaderConfig | undefined;
  if (f['requestheader-client-ca-file']) {
    const usernameHeaders = list(f['requestheader-username-headers']);
    if (usernameHeaders.length === 0)
      throw new Error(
        '--requestheader-username-headers is required with --requestheader-client-ca-file'
      );
    requestHeader = {
      clientCaFile: f['requestheader-client-ca-file'],
      allowedNames: list(f['requestheader-allowed-names']),
      usernameHeaders,
      uidHeaders: list(f['requestheader-uid-headers']),
      groupHeaders: list(f['requestheader-group-headers']),
      extraHeaderPrefixes: list(f['requestheader-extra-headers-prefix']),
    };
  }
  const keyFiles = f['service-account-key-file'] ?? [];
  return {
    clientCaFile: f['client-ca-file'] ?? '',
    anonymous: parseBool('anonymous-auth', f['anonymous-auth'], true),
    tokenAuthFile: f['token-auth-file'],
    bootstrapTokens: f['enable-bootstrap-token-auth'] ?? false,
    serviceAccounts: {
      keyFiles: keyFiles.length > 0 ? keyFiles : tlsKey ? [tlsKey] : [],
      signingKeyFile: f['service-account-signing-key-file'] ?? tlsKey,
      issuer: f['service-account-issuer'] ?? 'https://orch.default.svc',
      lookup: parseBool('service-account-lookup', f['service-account-lookup'], true),
      maxExpirationSeconds: Math.floor(
        parseDuration(f['service-account-max-token-expiration'] ?? '24h') / 1000
      ),
    },
    oidc,
    webhook: f['authentication-token-webhook-config-file']
      ? {
          configFile: f['authentication-token-webhook-config-file'],
          cacheTtlMs: parseDuration(f['authentication-token-webhook-cache-ttl'] ?? '2m'),
          version,
        }
      : undefined,
    requestHeader,
  };
}

/**
 * Anonymous requests are never let in by AlwaysAllow: the mode turns --anonymous-auth off, with a
 * warning when it was on (k8s BuiltInAuthenticationOptions.ApplyAuthorization; the spec:
 * anonymous is enabled by default when the authorization mode is not AlwaysAllow).
 */
export function applyAuthorization(
  authn: AuthenticationConfig,
  authorizationMode: string
): { authn: AuthenticationConfig; warnings: string[] } {
  if (!authn.anonymous || authorizationMode !== 'AlwaysAllow') return { authn, warnings: [] };
  return {
    authn: { ...authn, anonymous: false },
    warnings: [
      'AnonymousAuth is not allowed with the AlwaysAllow authorizer. Resetting AnonymousAuth to false. You should use a different authorizer',
    ],
  };
}
