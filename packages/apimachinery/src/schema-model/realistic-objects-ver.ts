// Realistic objects of the ver branch's kinds: SelfSubjectReview as the gateway answers it.
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

export const realisticObjectsVer: Record<string, Record<string, unknown>> = {
  'authentication.orch.io/v1/SelfSubjectReview': selfSubjectReview('v1'),
  'authentication.orch.io/v1beta1/SelfSubjectReview': selfSubjectReview('v1beta1'),
};
