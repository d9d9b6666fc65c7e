// Realistic objects of certificates.orch.io's kinds, as clients and controllers write them, keyed
// `<apiVersion>/<kind>`: test data (the schema model's round trips, the Table tests, the gateway's
// API tests, the fuzz), never read by a server.
export const certificatesObjects: Record<string, Record<string, unknown>> = {
  'certificates.orch.io/v1/CertificateSigningRequest': {
    apiVersion: 'certificates.orch.io/v1',
    kind: 'CertificateSigningRequest',
    metadata: { name: 'node-csr-worker-1' },
    spec: {
      // openssl req -new -newkey ec -subj "/O=system:nodes/CN=system:node:worker-1"
      request:
        'LS0tLS1CRUdJTiBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0KTUlIeU1JR1lBZ0VBTURZeEZUQVRCZ05W' +
        'QkFvTURITjVjM1JsYlRwdWIyUmxjekVkTUJzR0ExVUVBd3dVYzNsegpkR1Z0T201dlpHVTZkMjl5YTJW' +
        'eUxURXdXVEFUQmdjcWhrak9QUUlCQmdncWhrak9QUU1CQndOQ0FBUVJURnZyClpMa3ZwSWpKM1R6c0M3' +
        'RFI4aGV0elQzVndXcGg1WE0zak9LVWgrZUdjNkNPTlVaTU1pR2JVWXJTN290NEcwMC8KbkRRdktFdlNV' +
        'UkpqcFMxam9BQXdDZ1lJS29aSXpqMEVBd0lEU1FBd1JnSWhBSUE2UlQzeG8xS0RyZ2Q4ZTRuQgpJenRy' +
        'OFRJVmNSRkQ5c3EvVWJUNHA4QnVBaUVBaHdtcmQvaFBOTU1vVVZHVDgrcjlhalZHaXJ0WUM1YnlTejJR' +
        'ClJsK3JqelE9Ci0tLS0tRU5EIENFUlRJRklDQVRFIFJFUVVFU1QtLS0tLQo=',
      signerName: 'orch.io/apiserver-client-node-agent',
      expirationSeconds: 86400,
      usages: ['digital signature', 'client auth'],
      username: 'system:bootstrap:abcdef',
      groups: ['system:bootstrappers', 'system:authenticated'],
    },
    status: {
      conditions: [
        {
          type: 'Approved',
          status: 'True',
          reason: 'AutoApproved',
          message: 'Auto approving node-agent client certificate after SubjectAccessReview.',
          lastUpdateTime: '2024-05-01T10:00:00Z',
          lastTransitionTime: '2024-05-01T10:00:00Z',
        },
      ],
    },
  },
};
