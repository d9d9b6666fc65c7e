export type { GrpcServer } from './grpc-server.js';
export { startGrpcServer } from './grpc-server.js';
export type { TlsFiles } from './tls.js';
export { clientCredentials, serverCredentials } from './tls.js';
