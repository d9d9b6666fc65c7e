// Over 600 lines on purpose: the checks are one table in upstream's ID order, each a page of
// upstream's check_*.go, sharing the container and security-context readers above it.
// The Pod Security Standards checks (k8s.io/pod-security-admission/policy, check_*.go): each
// check has upstream's ID, level and reason, and a detail in upstream's words. A level's checks
// at a version are the baseline checks in ID order, then (for restricted) the restricted ones
// in ID order, as upstream's registry orders them; a check that a restricted one overrides is
// left out at restricted. Versions gate what changed between releases (allowed sysctls,
// SELinux types, the restricted checks added in 1.22 and 1.23, the Windows exemption of 1.25,
// the probe and lifecycle host check of 1.34).

/** The levels, most permissive first. */
export const levels = ['privileged', 'baseline', 'restricted'] as const;
export type Level = (typeof levels)[number];

/** A policy version: `latest` or a minor version of 1 (`v1.N`). */
export type Version = 'latest' | number;

/** The newest version the checks know (what `latest` means). */
export const latestMinor = 34;

export interface CheckResult {
  /** Upstream's ForbiddenReason. */
  reason: string;
  /** Upstream's ForbiddenDetail ('' when none). */
  detail: string;
}

/** The pod's fields a check reads; plain JSON. */
type Obj = Record<string, unknown>;

export interface PodView {
  metadata: Obj;
  spec: Obj;
}

interface Check {
  id: string;
  level: 'baseline' | 'restricted';
  /** The first minor version the check applies from. */
  since: number;
  /** Baseline check ids this one replaces at restricted. */
  overrides?: string[];
  run(pod: PodView, minor: number): CheckResult | undefined;
}

const obj = (v: unknown): Obj | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined;
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** `"a", "b"` (upstream's joinQuote). */
export function joinQuote(items: readonly unknown[]): string {
  return items.map((i) => JSON.stringify(String(i))).join(', ');
}

const pluralize = (one: string, many: string, n: number): string => (n === 1 ? one : many);

const containerLists = ['initContainers', 'containers', 'ephemeralContainers'] as const;

/** Every container of the pod (upstream's visitContainers: init, regular, ephemeral). */
function containers(spec: Obj): Obj[] {
  const out: Obj[] = [];
  for (const list of containerLists) {
    for (const c of arr(spec[list])) {
      const o = obj(c);
      if (o) out.push(o);
    }
  }
  return out;
}

const nameOf = (c: Obj): string => (typeof c['name'] === 'string' ? c['name'] : '');
const sc = (c: Obj): Obj | undefined => obj(c['securityContext']);
const podSc = (spec: Obj): Obj | undefined => obj(spec['securityContext']);

/** "pod and containers "a", "b"" / "pod" / "container "a"" (upstream's setter lists). */
function setters(pod: boolean, names: string[]): string {
  const parts: string[] = [];
  if (pod) parts.push('pod');
  if (names.length > 0) {
    parts.push(`${pluralize('container', 'containers', names.length)} ${joinQuote(names)}`);
  }
  return parts.join(' and ');
}

/** spec.os.name windows: some restricted checks do not apply from 1.25. */
const isWindows = (pod: PodView, minor: number): boolean =>
  minor >= 25 && obj(pod.spec['os'])?.['name'] === 'windows';

/** Pods in a user namespace (hostUsers: false) are exempt from the root checks (1.33+, KEP-127). */
const inUserNamespace = (pod: PodView, minor: number): boolean =>
  minor >= 33 && pod.spec['hostUsers'] === false;

const baselineCapabilities = new Set([
  'AUDIT_WRITE',
  'CHOWN',
  'DAC_OVERRIDE',
  'FOWNER',
  'FSETID',
  'KILL',
  'MKNOD',
  'NET_BIND_SERVICE',
  'SETFCAP',
  'SETGID',
  'SETPCAP',
  'SETUID',
  'SYS_CHROOT',
]);

const sysctlsByVersion: [number, string[]][] = [
  [
    0,
    [
      'kernel.shm_rmid_forced',
      'net.ipv4.ip_local_port_range',
      'net.ipv4.tcp_syncookies',
      'net.ipv4.ping_group_range',
      'net.ipv4.ip_unprivileged_port_start',
    ],
  ],
  [27, ['net.ipv4.ip_local_reserved_ports']],
  [
    29,
    [
      'net.ipv4.tcp_keepalive_time',
      'net.ipv4.tcp_fin_timeout',
      'net.ipv4.tcp_keepalive_intvl',
      'net.ipv4.tcp_keepalive_probes',
    ],
  ],
  [32, ['net.ipv4.tcp_rmem', 'net.ipv4.tcp_wmem']],
];

const restrictedVolumeTypes = new Set([
  'configMap',
  'csi',
  'downwardAPI',
  'emptyDir',
  'ephemeral',
  'persistentVolumeClaim',
  'projected',
  'secret',
]);

const checks: Check[] = [
  {
    id: 'appArmorProfile',
    level: 'baseline',
    since: 0,
    run(pod) {
      const bad: string[] = [];
      const forbidden = (p: unknown): boolean => {
        const t = obj(p)?.['type'];
        return t !== undefined && t !== 'RuntimeDefault' && t !== 'Localhost';
      };
      if (forbidden(podSc(pod.spec)?.['appArmorProfile'])) {
        bad.push('pod must not set securityContext.appArmorProfile.type to "Unconfined"');
      }
      const names = containers(pod.spec)
        .filter((c) => forbidden(sc(c)?.['appArmorProfile']))
        .map(nameOf);
      if (names.length > 0) {
        bad.push(
          `${pluralize('container', 'containers', names.length)} ${joinQuote(names)} must not set securityContext.appArmorProfile.type to "Unconfined"`
        );
      }
      const annotations = obj(pod.metadata['annotations']) ?? {};
      const prefix = 'container.apparmor.security.beta.orch.io/';
      const badAnnotations = Object.entries(annotations)
        .filter(
          ([k, v]) =>
            k.startsWith(prefix) && v !== 'runtime/default' && !String(v).startsWith('localhost/')
        )
        .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
        .sort();
      bad.push(...badAnnotations);
      if (bad.length === 0) return undefined;
      return {
        reason: pluralize('forbidden AppArmor profile', 'forbidden AppArmor profiles', bad.length),
        detail: bad.join(', '),
      };
    },
  },
  {
    id: 'capabilities_baseline',
    level: 'baseline',
    since: 0,
    run(pod) {
      const names: string[] = [];
      const caps = new Set<string>();
      for (const c of containers(pod.spec)) {
        let bad = false;
        for (const cap of arr(obj(sc(c)?.['capabilities'])?.['add'])) {
          if (!baselineCapabilities.has(String(cap))) {
            bad = true;
            caps.add(String(cap));
          }
        }
        if (bad) names.push(nameOf(c));
      }
      if (names.length === 0) return undefined;
      return {
        reason: 'non-default capabilities',
        detail: `${pluralize('container', 'containers', names.length)} ${joinQuote(names)} must not include ${joinQuote([...caps].sort())} in securityContext.capabilities.add`,
      };
    },
  },
  {
    id: 'hostNamespaces',
    level: 'baseline',
    since: 0,
    run(pod) {
      const set = ['hostNetwork', 'hostPID', 'hostIPC'].filter((f) => pod.spec[f] === true);
      if (set.length === 0) return undefined;
      return { reason: 'host namespaces', detail: set.map((f) => `${f}=true`).join(', ') };
    },
  },
  {
    id: 'hostPathVolumes',
    level: 'baseline',
    since: 0,
    run(pod) {
      const names = arr(pod.spec['volumes'])
        .map(obj)
        .filter((v): v is Obj => !!v && v['hostPath'] !== undefined)
        .map(nameOf);
      if (names.length === 0) return undefined;
      return { reason: 'hostPath volumes', detail: joinQuote(names) };
    },
  },
  {
    id: 'hostPorts',
    level: 'baseline',
    since: 0,
    run(pod) {
      const names: string[] = [];
      const ports = new Set<number>();
      for (const c of containers(pod.spec)) {
        let bad = false;
        for (const p of arr(c['ports'])) {
          const hp = obj(p)?.['hostPort'];
          if (typeof hp === 'number' && hp !== 0) {
            bad = true;
            ports.add(hp);
          }
        }
        if (bad) names.push(nameOf(c));
      }
      if (names.length === 0) return undefined;
      const sorted = [...ports].sort((a, b) => a - b);
      return {
        reason: 'hostPort',
        detail: `${pluralize('container', 'containers', names.length)} ${joinQuote(names)} ${pluralize('uses', 'use', names.length)} ${pluralize('hostPort', 'hostPorts', sorted.length)} ${sorted.join(', ')}`,
      };
    },
  },
  {
    id: 'hostProbesAndHostLifecycle',
    level: 'baseline',
    since: 34,
    run(pod) {
      const names = new Set<string>();
      const hosts = new Set<string>();
      const look = (c: Obj, handler: unknown): void => {
        for (const kind of ['httpGet', 'tcpSocket']) {
          const host = obj(obj(handler)?.[kind])?.['host'];
          if (typeof host === 'string' && host !== '') {
            names.add(nameOf(c));
            hosts.add(host);
          }
        }
      };
      for (const c of containers(pod.spec)) {
        for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe']) look(c, c[probe]);
        const lifecycle = obj(c['lifecycle']);
        look(c, lifecycle?.['postStart']);
        look(c, lifecycle?.['preStop']);
      }
      if (names.size === 0) return undefined;
      const n = [...names].sort();
      const h = [...hosts].sort();
      return {
        reason: 'probe or lifecycle host',
        detail: `${pluralize('container', 'containers', n.length)} ${joinQuote(n)} ${pluralize('uses', 'use', n.length)} ${pluralize('probe or lifecycle host', 'probe or lifecycle hosts', h.length)} ${joinQuote(h)}`,
      };
    },
  },
  {
    id: 'privileged',
    level: 'baseline',
    since: 0,
    run(pod) {
      const names = containers(pod.spec)
        .filter((c) => sc(c)?.['privileged'] === true)
        .map(nameOf);
      if (names.length === 0) return undefined;
      return {
        reason: 'privileged',
        detail: `${pluralize('container', 'containers', names.length)} ${joinQuote(names)} must not set securityContext.privileged=true`,
      };
    },
  },
  {
    id: 'procMount',
    level: 'baseline',
    since: 0,
    run(pod, minor) {
      // From 1.35 a pod in a user namespace may unmask /proc (upstream's procMount_1_35); the
      // check here is the 1.0 one for every version.
      void minor;
      const names: string[] = [];
      const values = new Set<string>();
      for (const c of containers(pod.spec)) {
        const pm = sc(c)?.['procMount'];
        if (pm !== undefined && pm !== 'Default') {
          names.push(nameOf(c));
          values.add(String(pm));
        }
      }
      if (names.length === 0) return undefined;
      return {
        reason: 'procMount',
        detail: `${pluralize('container', 'containers', names.length)} ${joinQuote(names)} must not set securityContext.procMount to ${joinQuote([...values].sort())}`,
      };
    },
  },
  {
    id: 'seLinuxOptions',
    level: 'baseline',
    since: 0,
    run(pod, minor) {
      const types = new Set(['', 'container_t', 'container_init_t', 'container_kvm_t']);
      if (minor >= 31) types.add('container_engine_t');
      let podBad = false;
      const names: string[] = [];
      const badTypes = new Set<string>();
      let badUser = false;
      let badRole = false;
      const look = (opts: unknown): boolean => {
        const o = obj(opts);
        if (!o) return false;
        let bad = false;
        const t = typeof o['type'] === 'string' ? o['type'] : '';
        if (!types.has(t)) {
          badTypes.add(t);
          bad = true;
        }
        if (o['user']) {
          badUser = true;
          bad = true;
        }
        if (o['role']) {
          badRole = true;
          bad = true;
        }
        return bad;
      };
      if (look(podSc(pod.spec)?.['seLinuxOptions'])) podBad = true;
      for (const c of containers(pod.spec))
        if (look(sc(c)?.['seLinuxOptions'])) names.push(nameOf(c));
      if (!podBad && names.length === 0) return undefined;
      const what: string[] = [];
      if (badTypes.size > 0) {
        what.push(
          `${pluralize('type', 'types', badTypes.size)} ${joinQuote([...badTypes].sort())}`
        );
      }
      if (badUser) what.push('user may not be set');
      if (badRole) what.push('role may not be set');
      return {
        reason: 'seLinuxOptions',
        detail: `${setters(podBad, names)} set forbidden securityContext.seLinuxOptions: ${what.join('; ')}`,
      };
    },
  },
  {
    id: 'seccompProfile_baseline',
    level: 'baseline',
    since: 0,
    run(pod) {
      const unconfined = (s: Obj | undefined): boolean =>
        obj(s?.['seccompProfile'])?.['type'] === 'Unconfined';
      const podBad = unconfined(podSc(pod.spec));
      const names = containers(pod.spec)
        .filter((c) => unconfined(sc(c)))
        .map(nameOf);
      if (!podBad && names.length === 0) return undefined;
      return {
        reason: 'seccompProfile',
        detail: `${setters(podBad, names)} must not set securityContext.seccompProfile.type to "Unconfined"`,
      };
    },
  },
  {
    id: 'sysctls',
    level: 'baseline',
    since: 0,
    run(pod, minor) {
      const allowed = new Set(sysctlsByVersion.filter(([v]) => v <= minor).flatMap(([, s]) => s));
      const bad = arr(podSc(pod.spec)?.['sysctls'])
        .map((s) => String(obj(s)?.['name'] ?? ''))
        .filter((n) => !allowed.has(n));
      if (bad.length === 0) return undefined;
      return { reason: 'forbidden sysctls', detail: bad.join(', ') };
    },
  },
  {
    id: 'windowsHostProcess',
    level: 'baseline',
    since: 0,
    run(pod) {
      const hp = (s: Obj | undefined): boolean =>
        obj(s?.['windowsOptions'])?.['hostProcess'] === true;
      const podBad = hp(podSc(pod.spec));
      const names = containers(pod.spec)
        .filter((c) => hp(sc(c)))
        .map(nameOf);
      if (!podBad && names.length === 0) return undefined;
      return {
        reason: 'hostProcess',
        detail: `${setters(podBad, names)} must not set securityContext.windowsOptions.hostProcess=true`,
      };
    },
  },
  {
    id: 'allowPrivilegeEscalation',
    level: 'restricted',
    since: 8,
    run(pod, minor) {
      if (isWindows(pod, minor)) return undefined;
      const names = containers(pod.spec)
        .filter((c) => sc(c)?.['allowPrivilegeEscalation'] !== false)
        .map(nameOf);
      if (names.length === 0) return undefined;
      return {
        reason: 'allowPrivilegeEscalation != false',
        detail: `${pluralize('container', 'containers', names.length)} ${joinQuote(names)} must set securityContext.allowPrivilegeEscalation=false`,
      };
    },
  },
  {
    id: 'capabilities_restricted',
    level: 'restricted',
    since: 22,
    overrides: ['capabilities_baseline'],
    run(pod, minor) {
      if (isWindows(pod, minor)) return undefined;
      const missingDropAll: string[] = [];
      const adding: string[] = [];
      const caps = new Set<string>();
      for (const c of containers(pod.spec)) {
        const capabilities = obj(sc(c)?.['capabilities']);
        if (!capabilities) {
          missingDropAll.push(nameOf(c));
          continue;
        }
        if (!arr(capabilities['drop']).includes('ALL')) missingDropAll.push(nameOf(c));
        let bad = false;
        for (const cap of arr(capabilities['add'])) {
          if (cap !== 'NET_BIND_SERVICE') {
            bad = true;
            caps.add(String(cap));
          }
        }
        if (bad) adding.push(nameOf(c));
      }
      const details: string[] = [];
      if (missingDropAll.length > 0) {
        details.push(
          `${pluralize('container', 'containers', missingDropAll.length)} ${joinQuote(missingDropAll)} must set securityContext.capabilities.drop=["ALL"]`
        );
      }
      if (adding.length > 0) {
        details.push(
          `${pluralize('container', 'containers', adding.length)} ${joinQuote(adding)} must not include ${joinQuote([...caps].sort())} in securityContext.capabilities.add`
        );
      }
      if (details.length === 0) return undefined;
      return { reason: 'unrestricted capabilities', detail: details.join('; ') };
    },
  },
  {
    id: 'restrictedVolumes',
    level: 'restricted',
    since: 0,
    overrides: ['hostPathVolumes'],
    run(pod) {
      const names: string[] = [];
      const types = new Set<string>();
      for (const v of arr(pod.spec['volumes'])) {
        const o = obj(v);
        if (!o) continue;
        const kinds = Object.keys(o).filter((k) => k !== 'name');
        const bad = kinds.filter((k) => !restrictedVolumeTypes.has(k));
        if (bad.length > 0) {
          names.push(nameOf(o));
          for (const b of bad) types.add(b);
        }
      }
      if (names.length === 0) return undefined;
      return {
        reason: 'restricted volume types',
        detail: `${pluralize('volume', 'volumes', names.length)} ${joinQuote(names)} ${pluralize('uses', 'use', names.length)} restricted volume ${pluralize('type', 'types', types.size)} ${joinQuote([...types].sort())}`,
      };
    },
  },
  {
    id: 'runAsNonRoot',
    level: 'restricted',
    since: 0,
    run(pod, minor) {
      if (inUserNamespace(pod, minor)) return undefined;
      const badSetters: string[] = [];
      let podNonRoot = false;
      const p = podSc(pod.spec)?.['runAsNonRoot'];
      if (p === false) badSetters.push('pod');
      else if (p === true) podNonRoot = true;
      const explicit: string[] = [];
      const implicit: string[] = [];
      for (const c of containers(pod.spec)) {
        const v = sc(c)?.['runAsNonRoot'];
        if (v !== undefined && v !== null) {
          if (v === false) explicit.push(nameOf(c));
        } else if (!podNonRoot) {
          implicit.push(nameOf(c));
        }
      }
      if (explicit.length > 0) {
        badSetters.push(
          `${pluralize('container', 'containers', explicit.length)} ${joinQuote(explicit)}`
        );
      }
      if (badSetters.length > 0) {
        return {
          reason: 'runAsNonRoot != true',
          detail: `${badSetters.join(' and ')} must not set securityContext.runAsNonRoot=false`,
        };
      }
      if (implicit.length > 0) {
        return {
          reason: 'runAsNonRoot != true',
          detail: `pod or ${pluralize('container', 'containers', implicit.length)} ${joinQuote(implicit)} must set securityContext.runAsNonRoot=true`,
        };
      }
      return undefined;
    },
  },
  {
    id: 'runAsUser',
    level: 'restricted',
    since: 23,
    run(pod, minor) {
      if (inUserNamespace(pod, minor)) return undefined;
      const podBad = podSc(pod.spec)?.['runAsUser'] === 0;
      const names = containers(pod.spec)
        .filter((c) => sc(c)?.['runAsUser'] === 0)
        .map(nameOf);
      if (!podBad && names.length === 0) return undefined;
      return {
        reason: 'runAsUser=0',
        detail: `${setters(podBad, names)} must not set runAsUser=0`,
      };
    },
  },
  {
    id: 'seccompProfile_restricted',
    level: 'restricted',
    since: 19,
    overrides: ['seccompProfile_baseline'],
    run(pod, minor) {
      if (isWindows(pod, minor)) return undefined;
      const valid = (t: unknown): boolean => t === 'RuntimeDefault' || t === 'Localhost';
      const badSetters: string[] = [];
      const badValues = new Set<string>();
      let podSet = false;
      const ps = obj(podSc(pod.spec)?.['seccompProfile']);
      if (ps) {
        if (!valid(ps['type'])) {
          badSetters.push('pod');
          badValues.add(String(ps['type'] ?? ''));
        } else podSet = true;
      }
      const explicit: string[] = [];
      const implicit: string[] = [];
      for (const c of containers(pod.spec)) {
        const cs = obj(sc(c)?.['seccompProfile']);
        if (cs) {
          if (!valid(cs['type'])) {
            explicit.push(nameOf(c));
            badValues.add(String(cs['type'] ?? ''));
          }
        } else if (!podSet) implicit.push(nameOf(c));
      }
      if (explicit.length > 0) {
        badSetters.push(
          `${pluralize('container', 'containers', explicit.length)} ${joinQuote(explicit)}`
        );
      }
      if (badSetters.length > 0) {
        return {
          reason: 'seccompProfile',
          detail: `${badSetters.join(' and ')} must not set securityContext.seccompProfile.type to ${joinQuote([...badValues].sort())}`,
        };
      }
      if (implicit.length > 0) {
        return {
          reason: 'seccompProfile',
          detail: `pod or ${pluralize('container', 'containers', implicit.length)} ${joinQuote(implicit)} must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"`,
        };
      }
      return undefined;
    },
  },
];

const byId = (a: Check, b: Check): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** The minor version a policy version stands for. */
export const minorOf = (v: Version): number => (v === 'latest' ? latestMinor : v);

/** The checks of a level at a version, in upstream's order. */
function checksFor(level: Level, minor: number): Check[] {
  if (level === 'privileged') return [];
  const baseline = checks.filter((c) => c.level === 'baseline' && c.since <= minor).sort(byId);
  if (level === 'baseline') return baseline;
  const restricted = checks.filter((c) => c.level === 'restricted' && c.since <= minor).sort(byId);
  const overridden = new Set(restricted.flatMap((c) => c.overrides ?? []));
  return [...baseline.filter((c) => !overridden.has(c.id)), ...restricted];
}

/** The failed checks of a pod against a level and version (empty: allowed). */
export function evaluatePod(level: Level, version: Version, pod: PodView): CheckResult[] {
  const minor = minorOf(version);
  const out: CheckResult[] = [];
  for (const c of checksFor(level, minor)) {
    const r = c.run(pod, minor);
    if (r) out.push(r);
  }
  return out;
}

/** `reason (detail), reason` (upstream's aggregateCheckResults.ForbiddenDetail). */
export function describeResults(results: readonly CheckResult[]): string {
  return results.map((r) => (r.detail ? `${r.reason} (${r.detail})` : r.reason)).join(', ');
}

/** `reason, reason` (the per-pod warning of a namespace label change). */
export function reasonsOf(results: readonly CheckResult[]): string {
  return [...new Set(results.map((r) => r.reason))].join(', ');
}
