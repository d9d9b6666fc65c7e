// The plugins a process can build, by name (k8s.io/apiserver/pkg/admission's Plugins and
// Register): each plugin module registers its factory (`register(plugins)`), one file per
// process registers them all (upstream's RegisterAllAdmissionPlugins). A process registers
// only the plugins the one list places in it, each once.
import { allOrderedPlugins, isPlacedIn, pluginSpec } from './plugins.js';
import type { Placement, PluginName, PluginNameIn } from './plugins.js';

export interface RegisterOptions {
  /**
   * The plugin cannot be built without its configuration (--admission-control-config-file):
   * the process builds it only when configured.
   */
  needsConfiguration?: boolean;
}

interface Registration<F> extends RegisterOptions {
  factory: F;
}

/** The registered plugins of one process; `F` is the factory the process calls to build one. */
export class Plugins<P extends Placement, F> {
  readonly placement: P;
  readonly #registered = new Map<string, Registration<F>>();

  constructor(placement: P) {
    this.placement = placement;
  }

  /** Registers a plugin's factory; a name the list does not place here, or a second one, throws. */
  register(name: PluginNameIn<P>, factory: F, options: RegisterOptions = {}): void {
    if (!isPlacedIn(name, this.placement)) {
      const where = allOrderedPlugins.includes(name as PluginName)
        ? `runs in the ${pluginSpec(name as PluginName).placement}`
        : 'is not in the list of admission plugins';
      throw new Error(
        `admission plugin ${name} registered in the ${this.placement}, but it ${where}`
      );
    }
    if (this.#registered.has(name)) {
      throw new Error(`admission plugin ${name} registered twice`);
    }
    this.#registered.set(name, { factory, ...options });
  }

  /** The registered names, in the order the plugins run. */
  registered(): PluginNameIn<P>[] {
    return allOrderedPlugins.filter((n): n is PluginNameIn<P> => this.#registered.has(n));
  }

  has(name: string): name is PluginNameIn<P> {
    return this.#registered.has(name);
  }

  /** The factory of a registered plugin. */
  factory(name: PluginNameIn<P>): F | undefined {
    return this.#registered.get(name)?.factory;
  }

  needsConfiguration(name: string): boolean {
    return this.#registered.get(name)?.needsConfiguration === true;
  }
}
