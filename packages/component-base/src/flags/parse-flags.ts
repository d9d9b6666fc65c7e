import { parseArgs } from 'node:util';

export interface FlagSpec {
  type: 'string' | 'boolean';
  multiple?: boolean;
  default?: string | boolean | string[];
  description: string;
  /**
   * Marks the flag deprecated with upstream's usage message (pflag's MarkDeprecated): it still
   * works, each use prints `Flag --<name> has been deprecated, <message>` on stderr, and --help
   * no longer lists it.
   */
  deprecated?: string;
}

export type FlagSpecs = Record<string, FlagSpec>;

/** A set of string flags named `K`: the type the shared flag sets return. */
export type StringFlags<K extends string> = {
  readonly [N in K]: {
    readonly type: 'string';
    readonly default?: string;
    readonly description: string;
    readonly deprecated?: string;
  };
};

export type FlagValues<S extends FlagSpecs> = {
  [K in keyof S]: S[K]['type'] extends 'boolean'
    ? boolean
    : S[K]['multiple'] extends true
      ? string[]
      : string | undefined;
};

/** What --help prints: every flag but the deprecated ones (pflag hides them from usage). */
export function flagsHelp(component: string, specs: FlagSpecs): string {
  let text = `Usage: ${component} [flags]\n\nFlags:\n`;
  for (const [name, s] of Object.entries(specs)) {
    if (s.deprecated !== undefined) continue;
    const def = s.default === undefined ? '' : ` (default ${JSON.stringify(s.default)})`;
    text += `  --${name}${s.type === 'string' ? ' string' : ''}\n      ${s.description}${def}\n`;
  }
  return text;
}

/** pflag's line for each use of a deprecated flag among `names` (the flags given, in order). */
export function deprecatedFlagWarnings(specs: FlagSpecs, names: readonly string[]): string[] {
  return names.flatMap((name) => {
    const message = specs[name]?.deprecated;
    return message === undefined ? [] : [`Flag --${name} has been deprecated, ${message}`];
  });
}

/**
 * Parses `--flag=value` / `--flag value` arguments; `--help` prints the flags and exits; each use
 * of a deprecated flag prints its warning on stderr.
 */
export function parseFlags<S extends FlagSpecs>(
  component: string,
  specs: S,
  argv: string[] = process.argv.slice(2)
): FlagValues<S> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(flagsHelp(component, specs));
    process.exit(0);
  }
  const options: NonNullable<Parameters<typeof parseArgs>[0]>['options'] = {};
  for (const [name, s] of Object.entries(specs)) {
    options[name] = {
      type: s.type,
      ...(s.multiple ? { multiple: true } : {}),
      ...(s.default !== undefined ? { default: s.default } : {}),
    };
  }
  try {
    const { values, tokens } = parseArgs({
      args: argv,
      options,
      strict: true,
      allowPositionals: false,
      tokens: true,
    });
    const given = tokens.flatMap((t) => (t.kind === 'option' ? [t.name] : []));
    for (const line of deprecatedFlagWarnings(specs, given)) process.stderr.write(`${line}\n`);
    return values as FlagValues<S>;
  } catch (err) {
    process.stderr.write(
      `${component}: ${(err as Error).message}\nRun with --help for the flags.\n`
    );
    process.exit(2);
  }
}
