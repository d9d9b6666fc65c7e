export type { Consistency, ListOptions, ListResult, Preconditions } from './list-options.js';
