export { newRegistry, serveMetrics } from './metrics-server.js';
