// A file that rotates as lumberjack does (upstream's log backend uses it): a write that would
// pass maxSize renames the file to <name>-<UTC time>.<ext> and opens a new one; then backups
// beyond maxBackups (newest kept) or older than maxAgeDays are removed, and the rest gzipped
// when compress is on. Zero means no limit. Writes are synchronous: the log backend blocks.
import {
  closeSync,
  existsSync,
  fstatSync,
  openSync,
  readFileSync,
  readdirSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { gzipSync } from 'node:zlib';

export interface RotationOptions {
  /** Megabytes before rotation; 0: never. */
  maxSizeMb: number;
  /** Backups kept; 0: all. */
  maxBackups: number;
  /** Days a backup is kept; 0: forever. */
  maxAgeDays: number;
  compress: boolean;
}

/** lumberjack's backup time format, 2006-01-02T15-04-05.000, in UTC. */
const stamp = (d: Date): string => d.toISOString().replace(/:/g, '-').replace(/Z$/, '');
const stampRe = /^(\d{4}-\d\d-\d\dT\d\d)-(\d\d)-(\d\d\.\d{3})$/;

export class RotatingFile {
  readonly #path: string;
  readonly #opts: RotationOptions;
  #fd: number;
  #size: number;

  constructor(path: string, opts: RotationOptions) {
    this.#path = path;
    this.#opts = opts;
    this.#fd = openSync(path, 'a', 0o600);
    this.#size = fstatSync(this.#fd).size;
  }

  write(text: string): void {
    const buf = Buffer.from(text);
    const max = this.#opts.maxSizeMb * 1024 * 1024;
    if (max > 0 && this.#size > 0 && this.#size + buf.length > max) this.rotate();
    writeSync(this.#fd, buf);
    this.#size += buf.length;
  }

  rotate(now = new Date()): void {
    closeSync(this.#fd);
    const ext = extname(this.#path);
    const base = basename(this.#path, ext);
    renameSync(this.#path, join(dirname(this.#path), `${base}-${stamp(now)}${ext}`));
    this.#fd = openSync(this.#path, 'a', 0o600);
    this.#size = 0;
    this.#prune(now);
  }

  /** The backups, newest first. */
  backups(): { file: string; at: number }[] {
    const ext = extname(this.#path);
    const base = basename(this.#path, ext);
    const dir = dirname(this.#path);
    const out: { file: string; at: number }[] = [];
    for (const f of readdirSync(dir)) {
      if (!f.startsWith(`${base}-`)) continue;
      const rest = f.slice(base.length + 1);
      const middle = rest.endsWith(`${ext}.gz`)
        ? rest.slice(0, -(ext.length + 3))
        : rest.endsWith(ext)
          ? rest.slice(0, rest.length - ext.length)
          : undefined;
      const m = middle === undefined ? null : stampRe.exec(middle);
      if (m) out.push({ file: join(dir, f), at: Date.parse(`${m[1]}:${m[2]}:${m[3]}Z`) });
    }
    return out.sort((a, b) => b.at - a.at);
  }

  #prune(now: Date): void {
    const { maxBackups, maxAgeDays, compress } = this.#opts;
    const cutoff = now.getTime() - maxAgeDays * 24 * 3600 * 1000;
    this.backups().forEach(({ file, at }, i) => {
      if ((maxBackups > 0 && i >= maxBackups) || (maxAgeDays > 0 && at < cutoff)) {
        unlinkSync(file);
      } else if (compress && !file.endsWith('.gz') && existsSync(file)) {
        writeFileSync(`${file}.gz`, gzipSync(readFileSync(file)), { mode: statSync(file).mode });
        unlinkSync(file);
      }
    });
  }

  close(): void {
    closeSync(this.#fd);
  }
}
