// Upstream group names as aliases (--upstream-group-aliases): the chain's stage that lets clients
// with compiled-in upstream groups (kubectl's `create role`, `auth can-i`, `create token`, ...)
// reach the groups served here under `orch.io` names. Two steps of one stage:
//  - withGroupAlias, right after request info: a path under an upstream group
//    (`/apis/rbac.authorization.k8s.io/v1/...`) is resolved to the group served here, so that
//    authentication, audit, authorization (RBAC rules name the spec's groups) and routing all see
//    the canonical request; the request is marked as speaking upstream names;
//  - withAliasedBody, once the body is read: a body under an aliased path, or one whose apiVersion
//    names an upstream group (`kubectl create token` posts `authentication.k8s.io/v1` TokenRequest
//    to the core path), is rewritten in the served names (groupalias/translate-groups.ts), JSON,
//    YAML and the binary envelope alike.
// The answers go back in upstream names in the response writers (negotiation/response-writers.ts
// and the watch handler), which read the mark. Discovery never lists the aliases.
import { stringify as toYaml, parse as parseYaml } from 'yaml';
import {
  decodeEnvelope,
  encodeEnvelope,
  hasProtobufMagic,
  protobufMediaTypes,
} from '@orch/apimachinery/protobuf';
import { canonicalGroup, isUpstreamGroupAlias, parseApiVersion } from '@orch/apimachinery/schema';
import { builtinResources } from '@orch/apimachinery/registry';
import type { Handler, HttpRequest } from '../http/handler.js';
import { toServedGroups } from '../groupalias/translate-groups.js';
import { maxYamlTextDepth, yamlTextDepth } from '../handlers/decode.js';
import {
  bodyFrom,
  requestInfoFrom,
  upstreamGroupNamesFrom,
  withBody,
  withUpstreamGroupNames,
} from '../request/context.js';

/**
 * kubectl commands that read an object through discovery (so under the served group) and then
 * refuse it unless its apiVersion names upstream's group: `kubectl certificate approve|deny`
 * checks `CertificateSigningRequest.certificates.k8s.io` before its typed approval update
 * (kubectl pkg/cmd/certificates). kubectl names its command in the `Kubectl-Command` header
 * (KUBECTL_COMMAND_HEADERS, on by default); their answers are written in upstream names.
 */
export const upstreamNamedCommands: readonly string[] = [
  'kubectl certificate approve',
  'kubectl certificate deny',
];

/** Resolves a path under an upstream group to the group served here (k8s has no such filter). */
export const withGroupAlias =
  (next: Handler): Handler =>
  (req, res) => {
    const info = requestInfoFrom(req);
    if (info && info.apiPrefix === 'apis' && isUpstreamGroupAlias(info.apiGroup)) {
      info.apiGroup = canonicalGroup(info.apiGroup);
      withUpstreamGroupNames(req);
    } else if (upstreamNamedCommands.includes(String(req.headers['kubectl-command'] ?? ''))) {
      withUpstreamGroupNames(req);
    }
    return next(req, res);
  };

type Json = Record<string, unknown>;

const yamlTypes = new Set(['application/yaml', 'application/apply-patch+yaml']);
const jsonTypes = new Set([
  'application/json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
]);
const upstreamMarker = Buffer.from('.k8s.io');

const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const namesUpstreamGroup = (obj: Json): boolean =>
  typeof obj['apiVersion'] === 'string' &&
  isUpstreamGroupAlias(parseApiVersion(obj['apiVersion'])?.group ?? '');

/**
 * The body in the names served here, or undefined when it is left as sent: not aliased, or not a
 * body this stage can read (the decoder then reports what is wrong with it).
 */
export function servedBody(
  body: Buffer,
  contentType: string,
  aliasedPath: boolean,
  kind = ''
): Buffer | undefined {
  if (body.length === 0) return undefined;
  if (protobufMediaTypes.includes(contentType)) {
    if (!hasProtobufMagic(body)) return undefined;
    let obj: Json;
    try {
      obj = decodeEnvelope(body);
    } catch {
      return undefined;
    }
    if (!aliasedPath && !namesUpstreamGroup(obj)) return undefined;
    return encodeEnvelope(toServedGroups(obj, kind));
  }
  const yaml = yamlTypes.has(contentType);
  if (!yaml && !jsonTypes.has(contentType)) return undefined;
  if (!aliasedPath && body.indexOf(upstreamMarker) < 0) return undefined;
  let value: unknown;
  try {
    const text = body.toString('utf8');
    // Too deep for the YAML composer's recursion: left as it is, for decoding to refuse.
    if (yaml && yamlTextDepth(text, maxYamlTextDepth) > maxYamlTextDepth) return undefined;
    value = yaml ? parseYaml(text, { schema: 'core' }) : JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(value) || (!aliasedPath && !namesUpstreamGroup(value))) return undefined;
  const served = toServedGroups(value, kind);
  return Buffer.from(yaml ? toYaml(served) : JSON.stringify(served));
}

/** The body's media type, JSON when unsaid (as the decoder reads it, negotiate.ts bodyMediaType). */
function contentTypeOf(req: HttpRequest): string {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  return type === '' ? 'application/json' : type;
}

/** The kind of each built-in resource: the kind of a body that does not say it (a patch). */
const kindOfResource = new Map(builtinResources.map((d) => [`${d.group}/${d.resource}`, d.kind]));

/** Rewrites an aliased request's body in the names served here (after the body is read). */
export const withAliasedBody =
  (next: Handler): Handler =>
  (req, res) => {
    const body = bodyFrom(req);
    const info = requestInfoFrom(req);
    if (body && info?.isResourceRequest) {
      const aliasedPath = upstreamGroupNamesFrom(req);
      const kind = kindOfResource.get(`${info.apiGroup}/${info.resource}`) ?? '';
      const served = servedBody(body, contentTypeOf(req), aliasedPath, kind);
      if (served) {
        withBody(req, served);
        withUpstreamGroupNames(req);
      }
    }
    return next(req, res);
  };
