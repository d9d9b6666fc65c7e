// Folders as layers. For each workspace listed, the folders under its src/ in order from the
// bottom: a folder imports only the folders before it, never one after it, so a folder cycle
// cannot form (import-x/no-cycle sees cycles of files only). The files directly in src/ (main,
// server, options, config) are the top: no folder imports them. A folder not listed is not
// checked, so the test beside this list (services/gateway/src/layers.test.ts) fails on one.
// `node scripts/folder-graph.mjs --depth 1 --edges <workspace>` shows the edges that place a new
// folder. Tests may reach across the layers to set things up; the layers are production code's.

/** Workspace source root -> its folders, bottom first. */
export const layers = {
  'services/gateway/src': [
    'http', // the request/response contract (upstream's http.Handler)
    'request', // request data in context accessors, request info
    'watch',
    'cache',
    'metrics',
    'groupalias',
    'negotiation',
    'fieldmanager',
    'resourceconfig',
    'health',
    'authn',
    'authz',
    'audit', // the audit policy, events and backends
    'registry', // the REST contract, the Store, and per group the strategies and REST objects
    'admission',
    'handlers',
    'endpoints',
    'flowcontrol', // API Priority and Fairness: classification, fair queuing, its config controller
    'filters',
    'aggregator', // the aggregation proxy to extension servers (a chain stage after authorization)
  ],
  'services/authorizer/src': ['rbac', 'modes', 'bootstrap', 'grpc'],
  'services/certificates/src': ['testing', 'request', 'admission', 'grpc', 'controllers'],
};

/** import-x/no-restricted-paths zones for `layers`, paths relative to the repository root. */
export function layerZones() {
  return Object.entries(layers).flatMap(([src, folders]) => [
    ...folders.slice(0, -1).map((folder, i) => ({
      target: `${src}/${folder}`,
      from: folders.slice(i + 1).map((above) => `${src}/${above}`),
      message: `${src}/${folder} imports only the folders below it in eslint.layers.mjs (${folders.slice(0, i).join(', ') || 'none'}): move the code to the layer of the concept it serves.`,
    })),
    {
      target: folders.map((folder) => `${src}/${folder}`),
      from: `${src}/*.ts`,
      message: `The files directly in ${src} are the top layer (eslint.layers.mjs): no folder imports them.`,
    },
  ]);
}
