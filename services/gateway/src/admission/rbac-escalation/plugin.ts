// RBAC escalation prevention (k8s pkg/registry/rbac/{role,clusterrole,rolebinding,
// clusterrolebinding}/policybased and validation.ConfirmNoEscalation): a user may write a role
// only with rules they already hold, or with the `escalate` verb on it; and a binding only to a
// role whose rules they hold, or with the `bind` verb on it. Upstream does this in the RBAC
// registry strategies, not in admission; here it is the validating admission plugin
// RBACEscalationPrevention, so it sees the final object of a create, update, patch or apply
// through the write's attributes.
import { isNotFound, newForbidden } from '@orch/apimachinery/errors';
import type {
  NonResourceRuleInfo,
  PolicyRule,
  ResourceRuleInfo,
  RoleRef,
  UserInfo,
} from '@orch/apimachinery/auth';
import type { Authorizer } from '../../authz/authorizer.js';
import type { RuleReviewer } from '../../authz/grpc-authorizer.js';
import type { Getter } from '../../registry/rest.js';
import type {
  AdmissionAttributes,
  AdmissionPlugin,
  GatewayPluginName,
  GatewayPlugins,
} from '../interfaces.js';

/** The plugin's name, as the admission flags spell it. */
export const pluginName = 'RBACEscalationPrevention' satisfies GatewayPluginName;

export const rbacGroup = 'rbac.authorization.orch.io';

const has = (list: readonly string[] | undefined, v: string): boolean => (list ?? []).includes(v);

/** Does one rule the user holds cover one atomic rule (k8s validation.ruleCovers)? */
function covers(
  owner: ResourceRuleInfo,
  verb: string,
  group: string,
  resource: string,
  name: string | undefined
): boolean {
  if (!has(owner.verbs, '*') && !has(owner.verbs, verb)) return false;
  if (!has(owner.apiGroups, '*') && !has(owner.apiGroups, group)) return false;
  const slash = resource.indexOf('/');
  const resourceOk =
    has(owner.resources, '*') ||
    has(owner.resources, resource) ||
    (slash > 0 && has(owner.resources, `*/${resource.slice(slash + 1)}`));
  if (!resourceOk) return false;
  if (owner.resourceNames.length === 0) return true;
  return name !== undefined && owner.resourceNames.includes(name);
}

function urlCovers(owner: NonResourceRuleInfo, verb: string, url: string): boolean {
  if (!has(owner.verbs, '*') && !has(owner.verbs, verb)) return false;
  return owner.nonResourceURLs.some(
    (u) => u === '*' || u === url || (u.endsWith('*') && url.startsWith(u.slice(0, -1)))
  );
}

/** The parts of `wanted` the user does not hold, one line per missing rule (k8s Covers + the uncovered list). */
export function uncoveredRules(
  held: { resourceRules: ResourceRuleInfo[]; nonResourceRules: NonResourceRuleInfo[] },
  wanted: PolicyRule[]
): string[] {
  const missing: string[] = [];
  for (const r of wanted) {
    const verbs = r.verbs ?? [];
    for (const verb of verbs) {
      for (const group of r.apiGroups ?? []) {
        for (const resource of r.resources ?? []) {
          const names =
            r.resourceNames && r.resourceNames.length > 0 ? r.resourceNames : [undefined];
          for (const name of names) {
            if (!held.resourceRules.some((o) => covers(o, verb, group, resource, name))) {
              missing.push(
                `{APIGroups:[${JSON.stringify(group)}], Resources:[${JSON.stringify(resource)}]${name !== undefined ? `, ResourceNames:[${JSON.stringify(name)}]` : ''}, Verbs:[${JSON.stringify(verb)}]}`
              );
            }
          }
        }
      }
      for (const url of r.nonResourceURLs ?? []) {
        if (!held.nonResourceRules.some((o) => urlCovers(o, verb, url)))
          missing.push(
            `{NonResourceURLs:[${JSON.stringify(url)}], Verbs:[${JSON.stringify(verb)}]}`
          );
      }
    }
  }
  return missing;
}

export interface EscalationDeps {
  authorizer: Authorizer;
  reviewer: RuleReviewer;
  /** The stores of roles and clusterroles, to read the rules a binding refers to. */
  roles: Getter | undefined;
  clusterRoles: Getter | undefined;
}

const isMaster = (u: UserInfo): boolean => u.groups.includes('system:masters');

/** The escalation check of writes to RBAC kinds, reading the write's attributes only. */
export function rbacEscalationPrevention(deps: EscalationDeps): AdmissionPlugin {
  const allowedTo = async (
    user: UserInfo,
    verb: string,
    resource: string,
    namespace: string,
    name: string
  ): Promise<boolean> =>
    (
      await deps.authorizer.authorize({
        user,
        verb,
        isResourceRequest: true,
        path: '',
        apiGroup: rbacGroup,
        apiVersion: 'v1',
        resource,
        subresource: '',
        namespace,
        name,
      })
    ).decision === 'allow';
  const notHeld = async (
    user: UserInfo,
    namespace: string,
    rules: PolicyRule[]
  ): Promise<string[]> => uncoveredRules(await deps.reviewer.rulesReview(user, namespace), rules);
  const describe = (u: UserInfo): string => `user "${u.name}" (groups=${JSON.stringify(u.groups)})`;

  const validate = async (a: AdmissionAttributes): Promise<void> => {
    if (a.resource.group !== rbacGroup || a.operation === 'DELETE' || !a.object) return;
    const gr = { group: a.resource.group, resource: a.resource.resource };
    const obj = a.object;
    const old = a.oldObject;
    const name = a.name;
    const namespace = a.namespace;
    if (gr.resource === 'roles' || gr.resource === 'clusterroles') {
      const user = a.user;
      if (!user || isMaster(user)) return;
      const rules = (obj['rules'] as PolicyRule[] | null | undefined) ?? [];
      if (
        old &&
        JSON.stringify(old['rules'] ?? []) === JSON.stringify(rules) &&
        JSON.stringify(old['aggregationRule'] ?? null) ===
          JSON.stringify(obj['aggregationRule'] ?? null)
      )
        return;
      if (await allowedTo(user, 'escalate', gr.resource, namespace, name)) return;
      if (obj['aggregationRule']) {
        throw newForbidden(
          gr,
          name,
          'must have cluster-admin privileges or the escalate verb to use the aggregationRule'
        );
      }
      const missing = await notHeld(user, namespace, rules);
      if (missing.length > 0) {
        throw newForbidden(
          gr,
          name,
          `${describe(user)} is attempting to grant RBAC permissions not currently held:\n${missing.join('\n')}`
        );
      }
      return;
    }
    if (gr.resource === 'rolebindings' || gr.resource === 'clusterrolebindings') {
      const ref = (obj['roleRef'] ?? {}) as Partial<RoleRef>;
      if (old) return; // roleRef is immutable: what it grants was checked at create
      const user = a.user;
      if (!user || isMaster(user)) return;
      const roleResource = ref.kind === 'Role' ? 'roles' : 'clusterroles';
      if (await allowedTo(user, 'bind', roleResource, namespace, ref.name ?? '')) return;
      let rules: PolicyRule[] = [];
      const store = ref.kind === 'Role' ? deps.roles : deps.clusterRoles;
      try {
        const ctx = { namespace: ref.kind === 'Role' ? namespace : undefined };
        const role = await store!.get(ctx, ref.name ?? '', { consistency: 'MOST_RECENT' });
        rules = (role['rules'] as PolicyRule[] | null | undefined) ?? [];
      } catch (err) {
        if (!isNotFound(err)) throw err;
        throw newForbidden(
          gr,
          name,
          `${describe(user)} is attempting to grant RBAC permissions not currently held: ${ref.kind} "${ref.name ?? ''}" not found`
        );
      }
      const missing = await notHeld(user, namespace, rules);
      if (missing.length > 0) {
        throw newForbidden(
          gr,
          name,
          `${describe(user)} is attempting to grant RBAC permissions not currently held:\n${missing.join('\n')}`
        );
      }
    }
  };
  return {
    name: pluginName,
    handles: (op) => op === 'CREATE' || op === 'UPDATE',
    validate,
  };
}

/** Registers the plugin (upstream's Register). */
export function register(plugins: GatewayPlugins): void {
  plugins.register(pluginName, (d) => rbacEscalationPrevention(d));
}
