import { randomBytes } from 'node:crypto';

/**
 * A random 128-bit certificate serial number as hex, positive and without a leading zero byte
 * (RFC 5280 §4.1.2.2 wants it positive and at most 20 octets).
 */
export function randomSerialNumber(): string {
  const bytes = randomBytes(16);
  bytes[0] = ((bytes[0] ?? 0) & 0x7f) | 0x40;
  return bytes.toString('hex');
}
