export type { RestConfig } from './rest-client.js';
export { RestClient, loadKubeconfig } from './rest-client.js';
