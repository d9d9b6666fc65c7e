import { parseArgs } from 'node:util';

export interface FlagSpec {
  type: 'string' | 'boolean';
  multiple?: boolean;
  default?: string | boolean | string[];
  description: string;
}

export type FlagSpecs = Record<string, FlagSpec>;

/** A set of string flags named `K`: the type the shared flag sets return. */
export type StringFlags<K extends string> = {
  readonly [N in K]: {
    readonly type: 'string';
    readonly default?: string;
    readonly description: string;
  };
};

export type FlagValues<S extends FlagSpecs> = {
  [K in keyof S]: S[K]['type'] extends 'boolean'
    ? boolean
    : S[K]['multiple'] extends true
      ? string[]
      : string | undefined;
};

/** Parses `--flag=value` / `--flag value` arguments; `--help` prints the flags and exits. */
export function parseFlags<S extends FlagSpecs>(
  component: string,
  specs: S,
  argv: string[] = process.argv.slice(2)
): FlagValues<S> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`Usage: ${component} [flags]\n\nFlags:\n`);
    for (const [name, s] of Object.entries(specs)) {
      const def = s.default === undefined ? '' : ` (default ${JSON.stringify(s.default)})`;
      process.stdout.write(
        `  --${name}${s.type === 'string' ? ' string' : ''}\n      ${s.description}${def}\n`
      );
    }
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
    const { values } = parseArgs({ args: argv, options, strict: true, allowPositionals: false });
    return values as FlagValues<S>;
  } catch (err) {
    process.stderr.write(
      `${component}: ${(err as Error).message}\nRun with --help for the flags.\n`
    );
    process.exit(2);
  }
}
