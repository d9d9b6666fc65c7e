export { derive, deriveDuration, optionsOrExit, InvalidOptionsError } from './derive.js';
export { parseDuration } from './duration.js';
export { mustParseGoBool, parseGoBool } from './parse-go-bool.js';
export type { FlagSpec, FlagSpecs, FlagValues } from './parse-flags.js';
export { deprecatedFlagWarnings, flagsHelp, parseFlags } from './parse-flags.js';
export type { SecureServingDefaults, SecureServingOptions } from './secure-serving.js';
export {
  secureServingFlags,
  secureServingOptions,
  servingAddress,
  validateSecureServing,
} from './secure-serving.js';
export {
  authorizerClientFlags,
  grpcClientTls,
  grpcClientTlsFlags,
  logLevel,
  loggingFlags,
  metricsFlags,
  metricsPort,
  natsFlags,
  natsUrls,
  splitList,
  storageClientFlags,
  validateGrpcClientTls,
  validateLogLevel,
  validateNatsUrls,
} from './service-flags.js';
