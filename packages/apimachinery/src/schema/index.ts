export type { GroupVersion, GroupVersionKind, GroupVersionResource } from './group-version.js';
export { formatApiVersion, parseApiVersion } from './group-version.js';
export {
  canonicalGroup,
  isUpstreamGroupAlias,
  mapApiVersionGroup,
  upstreamGroup,
  upstreamGroupAliases,
} from './upstream-group-aliases.js';
