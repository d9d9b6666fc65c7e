/**
 * The one place `@peculiar/x509` is loaded: loads the reflect-metadata polyfill it needs first and points
 * it at Node's WebCrypto. Every other module of the PKI imports `x509` from here.
 */
import 'reflect-metadata'; // @peculiar/x509's tsyringe needs the Reflect metadata API
import * as x509 from '@peculiar/x509';
import { webcrypto } from 'node:crypto';

x509.cryptoProvider.set(webcrypto);

export { x509 };
