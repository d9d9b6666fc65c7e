// Realistic objects of authentication.orch.io's kinds, as clients and controllers write them, keyed
// `<apiVersion>/<kind>`: test data (the schema model's round trips, the Table tests, the gateway's
// API tests, the fuzz), never read by a server.

// SelfSubjectReview as the gateway answers it.
const selfSubjectReview = (version: string): Record<string, unknown> => ({
  apiVersion: `authentication.orch.io/${version}`,
  kind: 'SelfSubjectReview',
  metadata: {},
  status: {
    userInfo: {
      username: 'jane',
      uid: 'b6c7d8e9-0000-4f00-8000-1234567890ab',
      groups: ['dev', 'system:authenticated'],
      extra: { 'scopes.example.com': ['read', 'write'] },
    },
  },
});

// A TokenReview as a client sends it, with the status the server answers.
function realisticTokenReview(version: string): Record<string, unknown> {
  return {
    apiVersion: `authentication.orch.io/${version}`,
    kind: 'TokenReview',
    metadata: {},
    spec: {
      token: 'eyJhbGciOiJSUzI1NiJ9.e30.c2ln',
      audiences: ['https://orch.default.svc', 'vault'],
    },
    status: {
      authenticated: true,
      user: {
        username: 'system:serviceaccount:default:web',
        uid: '6f1c2d3e-0000-4abc-9def-123456789abc',
        groups: [
          'system:serviceaccounts',
          'system:serviceaccounts:default',
          'system:authenticated',
        ],
        extra: {
          'authentication.orch.io/pod-name': ['web-7d9f8b6c5d-x2x4z'],
          'authentication.orch.io/credential-id': ['JTI=1'],
        },
      },
      audiences: ['vault'],
    },
  };
}

export const authenticationObjects: Record<string, Record<string, unknown>> = {
  // Virtual kinds: a request as a client sends it, with the status the server answers.
  'authentication.orch.io/v1/TokenReview': realisticTokenReview('v1'),
  'authentication.orch.io/v1/SelfSubjectReview': selfSubjectReview('v1'),
  'authentication.orch.io/v1beta1/SelfSubjectReview': selfSubjectReview('v1beta1'),
  'authentication.orch.io/v1beta1/TokenReview': realisticTokenReview('v1beta1'),
  'authentication.orch.io/v1/TokenRequest': {
    apiVersion: 'authentication.orch.io/v1',
    kind: 'TokenRequest',
    metadata: { name: 'builder', namespace: 'ci' },
    spec: {
      audiences: ['https://orch.example.com', 'vault'],
      expirationSeconds: 3600,
      boundObjectRef: {
        kind: 'Pod',
        apiVersion: 'v1',
        name: 'builder-7c9f',
        uid: '0f6d1c2e-8a4b-4c1d-9e2f-3a4b5c6d7e8f',
      },
    },
    status: {
      token: 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJzeXN0ZW06c2VydmljZWFjY291bnQ6Y2k6YnVpbGRlciJ9.c2ln',
      expirationTimestamp: '2026-11-23T22:00:00Z',
    },
  },
};
