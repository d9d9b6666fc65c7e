// A registry of known feature gates and their values, set once at start from `--feature-gates`
// (k8s.io/component-base/featuregate/feature_gate.go: FeatureSpec, Set, SetFromMap, Enabled,
// the AllAlpha and AllBeta pseudo-gates, and the same error and warning messages).
import { parseGoBool } from '../flags/index.js';

/** A gate's maturity (upstream's prerelease; GA is the empty string there). */
export type PreRelease = 'ALPHA' | 'BETA' | 'GA' | 'DEPRECATED';

export interface FeatureSpec {
  default: boolean;
  preRelease: PreRelease;
  /** The value cannot be changed from its default (GA gates awaiting removal). */
  lockToDefault?: boolean;
}

/** `AllAlpha` and `AllBeta` set every alpha (beta) gate not named on its own. */
export const allAlphaGate = 'AllAlpha';
export const allBetaGate = 'AllBeta';

export class FeatureGate {
  readonly #known = new Map<string, FeatureSpec>();
  readonly #enabled = new Map<string, boolean>();

  constructor(known: Readonly<Record<string, FeatureSpec>> = {}) {
    this.add(known);
  }

  /** Adds gates; adding a name twice with another spec is an error, as upstream's Add. */
  add(known: Readonly<Record<string, FeatureSpec>>): void {
    for (const [name, spec] of Object.entries(known)) {
      if (name === allAlphaGate || name === allBetaGate) {
        throw new Error(`cannot register feature gate ${name}: the name is reserved`);
      }
      const had = this.#known.get(name);
      if (had && JSON.stringify(had) !== JSON.stringify(spec)) {
        throw new Error(`feature gate ${JSON.stringify(name)} with different spec already exists`);
      }
      this.#known.set(name, spec);
    }
  }

  /**
   * Parses `A=true,B=false` (the flag's text) and applies it; returns the warnings to print at
   * start. Throws on the first problem with upstream's message.
   */
  set(value: string): string[] {
    const m = new Map<string, boolean>();
    for (const piece of value.split(',')) {
      const s = piece.trim();
      if (s === '') continue;
      const eq = s.indexOf('=');
      if (eq < 0) throw new Error(`missing bool value for ${s}`);
      const k = s.slice(0, eq).trim();
      const v = s.slice(eq + 1).trim();
      const b = parseGoBool(v);
      if (b === undefined) {
        throw new Error(
          `invalid value of ${k}=${v}, err: strconv.ParseBool: parsing "${v}": invalid syntax`
        );
      }
      m.set(k, b);
    }
    return this.setFromMap(m);
  }

  /** Applies name → value (upstream's SetFromMap): AllAlpha/AllBeta first, then each gate. */
  setFromMap(m: ReadonlyMap<string, boolean>): string[] {
    const warnings: string[] = [];
    const next = new Map(this.#enabled);
    for (const [all, stage] of [
      [allAlphaGate, 'ALPHA'],
      [allBetaGate, 'BETA'],
    ] as const) {
      const v = m.get(all);
      if (v === undefined) continue;
      for (const [name, spec] of this.#known) {
        if (spec.preRelease === stage && !spec.lockToDefault && !m.has(name)) next.set(name, v);
      }
    }
    for (const [name, v] of m) {
      if (name === allAlphaGate || name === allBetaGate) continue;
      const spec = this.#known.get(name);
      if (!spec) throw new Error(`unrecognized feature gate: ${name}`);
      if (spec.lockToDefault && spec.default !== v) {
        throw new Error(
          `cannot set feature gate ${name} to ${v}, feature is locked to ${spec.default}`
        );
      }
      next.set(name, v);
      if (spec.preRelease === 'DEPRECATED') {
        warnings.push(
          `Setting deprecated feature gate ${name}=${v}. It will be removed in a future release.`
        );
      } else if (spec.preRelease === 'GA') {
        warnings.push(
          `Setting GA feature gate ${name}=${v}. It will be removed in a future release.`
        );
      }
    }
    this.#enabled.clear();
    for (const [k, v] of next) this.#enabled.set(k, v);
    return warnings;
  }

  /** The gate's value; an unknown name is a programming error, as upstream's panic. */
  enabled(name: string): boolean {
    const v = this.#enabled.get(name);
    if (v !== undefined) return v;
    const spec = this.#known.get(name);
    if (!spec) throw new Error(`feature ${JSON.stringify(name)} is not registered in FeatureGate`);
    return spec.default;
  }

  /** The known gates with their specs, sorted by name. */
  known(): [string, FeatureSpec][] {
    return [...this.#known].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  }

  /** Upstream's KnownFeatures lines, for the flag's help. */
  knownFeatures(): string[] {
    const lines = [
      `${allAlphaGate}=true|false (ALPHA - default=false)`,
      `${allBetaGate}=true|false (BETA - default=false)`,
    ];
    for (const [name, spec] of this.known()) {
      if (spec.preRelease === 'GA' && spec.lockToDefault) continue;
      lines.push(`${name}=true|false (${spec.preRelease} - default=${spec.default})`);
    }
    return lines;
  }
}
