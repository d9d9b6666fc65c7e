import type { IncomingMessage } from 'node:http';
import type { UserInfo } from '../request/context.js';

/** Answers who made a request, undefined when this method does not apply, or throws (401). */
export interface Authenticator {
  authenticate(req: IncomingMessage): Promise<UserInfo | undefined> | UserInfo | undefined;
}
