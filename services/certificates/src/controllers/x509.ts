// Loads @peculiar/x509 for this service: the reflect-metadata polyfill its decorators need,
// and Node's WebCrypto as its provider (as @orch/component-base/pki does for its own use).
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto);
