// Realistic objects of networking.orch.io's kinds, as clients and controllers write them, keyed
// `<apiVersion>/<kind>`: test data (the schema model's round trips, the Table tests, the gateway's
// API tests, the fuzz), never read by a server.
import { meta } from './helpers.js';

export const networkingObjects: Record<string, Record<string, unknown>> = {
  'networking.orch.io/v1/Ingress': {
    apiVersion: 'networking.orch.io/v1',
    kind: 'Ingress',
    metadata: {
      ...meta('web', 'default'),
      annotations: { 'nginx.ingress.kubernetes.io/rewrite-target': '/' },
    },
    spec: {
      ingressClassName: 'nginx',
      defaultBackend: { service: { name: 'default-http', port: { number: 80 } } },
      tls: [{ hosts: ['web.example.com'], secretName: 'web-tls' }],
      rules: [
        {
          host: 'web.example.com',
          http: {
            paths: [
              {
                path: '/',
                pathType: 'Prefix',
                backend: { service: { name: 'web', port: { name: 'http' } } },
              },
              {
                path: '/static',
                pathType: 'ImplementationSpecific',
                backend: {
                  resource: { apiGroup: 'storage.example.com', kind: 'Bucket', name: 'assets' },
                },
              },
            ],
          },
        },
        {
          host: 'api.example.com',
          http: {
            paths: [
              {
                path: '/v1',
                pathType: 'Exact',
                backend: { service: { name: 'api', port: { number: 8080 } } },
              },
            ],
          },
        },
      ],
    },
    status: {
      loadBalancer: {
        ingress: [{ ip: '203.0.113.20', ports: [{ port: 443, protocol: 'TCP' }] }],
      },
    },
  },
  'networking.orch.io/v1/IngressClass': {
    apiVersion: 'networking.orch.io/v1',
    kind: 'IngressClass',
    metadata: {
      ...meta('nginx'),
      annotations: { 'ingressclass.orch.io/is-default-class': 'true' },
    },
    spec: {
      controller: 'k8s.io/ingress-nginx',
      parameters: {
        apiGroup: 'k8s.example.com',
        kind: 'IngressParameters',
        name: 'external-lb',
        scope: 'Namespace',
        namespace: 'ingress-nginx',
      },
    },
  },
  'networking.orch.io/v1/NetworkPolicy': {
    apiVersion: 'networking.orch.io/v1',
    kind: 'NetworkPolicy',
    metadata: meta('web-allow', 'default'),
    spec: {
      podSelector: { matchLabels: { app: 'web' } },
      ingress: [
        {
          from: [
            { ipBlock: { cidr: '172.17.0.0/16', except: ['172.17.1.0/24'] } },
            { namespaceSelector: { matchLabels: { project: 'myproject' } } },
            { podSelector: { matchLabels: { role: 'frontend' } } },
          ],
          ports: [{ protocol: 'TCP', port: 6379 }],
        },
      ],
      egress: [
        {
          to: [{ ipBlock: { cidr: '10.0.0.0/24' } }],
          ports: [{ protocol: 'TCP', port: 5978, endPort: 6000 }],
        },
      ],
      policyTypes: ['Ingress', 'Egress'],
    },
  },
};
