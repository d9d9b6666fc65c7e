export type { GrpcServer } from './grpc-server.js';
export { grpcServingChecker, startGrpcServer } from './grpc-server.js';
export type { TlsFiles } from './tls.js';
export { clientCredentials, serverCredentials } from './tls.js';
export type { UnaryFn, UnaryHandlerOptions } from './unary-handler.js';
export { unaryHandlers } from './unary-handler.js';
export { HealthClient, bootstrapPolicyHealthService } from './health-client.js';
export type { CallsOptions, RoutedCall } from './streams.js';
export { onHalfClose, serveCalls } from './streams.js';
