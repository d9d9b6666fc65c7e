// The decision cache: what is kept, for how long, and what ends it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AuthorizerFunc } from './authorizer.js';
import type { Attributes, AuthorizationResult } from '@orch/apimachinery/auth';
import { CachingAuthorizer } from './caching-authorizer.js';

const user = { name: 'alice', uid: '', groups: ['dev'], extra: {} };
const attrs = (over: Partial<Attributes> = {}): Attributes => ({
  user,
  verb: 'get',
  isResourceRequest: true,
  path: '/api/v1/namespaces/a/configmaps/x',
  apiGroup: '',
  apiVersion: 'v1',
  resource: 'configmaps',
  subresource: '',
  namespace: 'a',
  name: 'x',
  ...over,
});

/** An authorizer that allows get and denies the rest, deciding at policy revision `policy.at`. */
function counting(policy: { at: number }): { inner: AuthorizerFunc; calls: () => number } {
  let calls = 0;
  const inner = new AuthorizerFunc((a): AuthorizationResult => {
    calls++;
    return {
      decision: a.verb === 'get' ? 'allow' : 'deny',
      reason: '',
      policyRevisions: { rolebindings: policy.at, roles: policy.at },
    };
  });
  return { inner, calls: () => calls };
}

const kinds = ['roles', 'rolebindings'];

describe('CachingAuthorizer', () => {
  it('decides uncached until the policy is watched', async () => {
    const { inner, calls } = counting({ at: 10 });
    const c = new CachingAuthorizer(inner, { authorizedTtlMs: 60_000, unauthorizedTtlMs: 60_000 });
    await c.authorize(attrs());
    await c.authorize(attrs());
    assert.equal(calls(), 2);
    assert.equal(c.size, 0);
  });

  it('reuses a decision while no newer policy change is seen, and asks again after one', async () => {
    const policy = { at: 10 };
    const { inner, calls } = counting(policy);
    const c = new CachingAuthorizer(inner, { authorizedTtlMs: 60_000, unauthorizedTtlMs: 60_000 });
    c.watching(kinds, 10);
    assert.equal((await c.authorize(attrs())).decision, 'allow');
    assert.equal((await c.authorize(attrs())).decision, 'allow');
    assert.equal(calls(), 1);
    c.policyChanged('roles', 9); // older than what the decision stood on
    await c.authorize(attrs());
    assert.equal(calls(), 1);
    c.policyChanged('rolebindings', 11);
    policy.at = 11;
    await c.authorize(attrs());
    assert.equal(calls(), 2, 'a binding changed after the decision');
    await c.authorize(attrs());
    assert.equal(calls(), 2, 'the new decision stands on revision 11');
  });

  it('does not use a decision made on a policy older than what the gateway has seen', async () => {
    const { inner, calls } = counting({ at: 5 }); // an authorizer lagging behind
    const c = new CachingAuthorizer(inner, { authorizedTtlMs: 60_000, unauthorizedTtlMs: 60_000 });
    c.watching(kinds, 8);
    await c.authorize(attrs());
    await c.authorize(attrs());
    assert.equal(calls(), 2);
  });

  it('keys on every attribute and keeps allows and denials for their own TTL', async () => {
    const { inner, calls } = counting({ at: 1 });
    const c = new CachingAuthorizer(inner, { authorizedTtlMs: 60_000, unauthorizedTtlMs: 0 });
    c.watching(kinds, 1);
    await c.authorize(attrs());
    await c.authorize(attrs({ name: 'y' }));
    await c.authorize(attrs({ user: { ...user, groups: ['dev', 'ops'] } }));
    assert.equal(calls(), 3);
    await c.authorize(attrs({ verb: 'delete' }));
    await c.authorize(attrs({ verb: 'delete' }));
    assert.equal(calls(), 5, 'denials are not kept with a zero TTL');
  });

  it('forgets a decision after its TTL', async () => {
    const { inner, calls } = counting({ at: 1 });
    const c = new CachingAuthorizer(inner, { authorizedTtlMs: 20, unauthorizedTtlMs: 20 });
    c.watching(kinds, 1);
    await c.authorize(attrs());
    await new Promise((r) => setTimeout(r, 40));
    await c.authorize(attrs());
    assert.equal(calls(), 2);
  });

  it('drops everything when the watch is lost, and keeps at most maxEntries', async () => {
    const { inner, calls } = counting({ at: 1 });
    const c = new CachingAuthorizer(inner, {
      authorizedTtlMs: 60_000,
      unauthorizedTtlMs: 60_000,
      maxEntries: 2,
    });
    c.watching(kinds, 1);
    for (const name of ['a', 'b', 'c']) await c.authorize(attrs({ name }));
    assert.equal(c.size, 2);
    await c.authorize(attrs({ name: 'a' }));
    assert.equal(calls(), 4, 'the oldest entry was evicted');
    c.notWatching();
    assert.equal(c.size, 0);
    await c.authorize(attrs({ name: 'c' }));
    assert.equal(calls(), 5);
  });
});

describe('CachingAuthorizer and resource names', () => {
  it('keeps a decision that holds for any name once for every name, and a name-bound one per name', async () => {
    let calls = 0;
    const inner = new AuthorizerFunc((a): AuthorizationResult => {
      calls++;
      const bound = a.resource === 'configmaps';
      return {
        decision: bound && a.name !== 'allowed' ? 'no-opinion' : 'allow',
        reason: '',
        policyRevisions: { roles: 1 },
        nameIndependent: !bound,
      };
    });
    const c = new CachingAuthorizer(inner, { authorizedTtlMs: 60_000, unauthorizedTtlMs: 60_000 });
    c.watching(kinds, 1);
    for (const name of ['p1', 'p2', 'p3'])
      assert.equal((await c.authorize(attrs({ resource: 'pods', name }))).decision, 'allow');
    assert.equal(calls, 1, 'one decision for every pod name');
    assert.equal((await c.authorize(attrs({ name: 'allowed' }))).decision, 'allow');
    assert.equal(
      (await c.authorize(attrs({ name: 'other' }))).decision,
      'no-opinion',
      'a name-bound allow is not reused for another name'
    );
    assert.equal((await c.authorize(attrs({ name: 'allowed' }))).decision, 'allow');
    assert.equal((await c.authorize(attrs({ name: 'other' }))).decision, 'no-opinion');
    assert.equal(calls, 3);
  });
});
