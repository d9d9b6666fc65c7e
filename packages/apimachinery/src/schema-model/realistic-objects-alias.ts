// Realistic objects of the alias branch's kinds: TokenRequest as `kubectl create token` sends it
// and the ServiceAccount token subresource answers it. The v1beta1 ValidatingAdmissionPolicy
// kinds are v1's objects at v1beta1 (realistic-objects.ts).
export const realisticObjectsAlias: Record<string, Record<string, unknown>> = {
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
