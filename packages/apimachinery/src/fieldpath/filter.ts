// Field-set filters (structured-merge-diff fieldpath/set.go, Filter and NewExcludeSetFilter):
// what a manager is never recorded to own, e.g. the status of an object applied through its
// main resource (the API server's reset fields).
import type { Set } from './set.js';

/** Filter: a set without the fields a manager may not own. */
export type Filter = (set: Set) => Set;

/** NewExcludeSetFilter: drops the excluded paths and everything below them. */
export function newExcludeSetFilter(excludeSet: Set): Filter {
  return (set) => set.recursiveDifference(excludeSet);
}
