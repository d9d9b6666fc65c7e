import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';

import { freePort } from './free-port.js';
import { LaunchAbortedError, LaunchError, Launcher } from './launcher.js';
import type { LaunchedProcess } from './launcher.js';
import type { ProcessSpec, Readiness } from './process-spec.js';
import { runningProcessCount } from './processes.js';

/** A Node process running `script`, with the given readiness. */
function nodeProcess(
  name: string,
  script: string,
  ready: Readiness[],
  timeoutMs = 10_000
): ProcessSpec {
  return { name, role: 'test', command: process.execPath, args: ['-e', script], ready, timeoutMs };
}

/** An HTTP server on `port` answering 200 to everything, logging a line at start. */
function httpServer(name: string, port: number): ProcessSpec {
  const script = `
    require('node:http').createServer((req, res) => res.end('ok')).listen(${port}, '127.0.0.1',
      () => console.log('${name} listening'));
    process.on('SIGTERM', () => { console.log('${name} got SIGTERM'); process.exit(0); });`;
  return nodeProcess(name, script, [{ kind: 'http', url: `http://127.0.0.1:${port}/` }]);
}

describe('Launcher', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'orch-launcher-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
    assert.equal(runningProcessCount(), 0, 'no process left running');
  });

  it('starts stages in order, logs each to its file, stops them in reverse order', async () => {
    const lines: string[] = [];
    const launcher = new Launcher({ logDir: dir, say: (l) => lines.push(l) });
    const [a, b] = [await freePort(), await freePort()];
    await launcher.startStages([[httpServer('first', a)], [httpServer('second', b)]]);
    assert.deepEqual(
      lines.filter((l) => !l.startsWith('started')),
      ['first is ready', 'second is ready']
    );
    assert.deepEqual(
      launcher.processes.map((p) => p.name),
      ['first', 'second']
    );
    await launcher.stop();
    assert.deepEqual(lines.slice(-2), ['stopped second', 'stopped first']);
    for (const p of launcher.processes) assert.match(p.exitReason() ?? '', /exited with code 0/);
    const log = readFileSync(join(dir, 'first.log'), 'utf8');
    assert.match(log, /first listening\nfirst got SIGTERM/);

    // Started again: the previous log is kept beside the new one.
    const again = new Launcher({ logDir: dir });
    await again.startStage([httpServer('first', await freePort())]);
    await again.stop();
    assert.ok(existsSync(join(dir, 'first.log.1')));
    assert.match(readFileSync(join(dir, 'first.log.1'), 'utf8'), /first got SIGTERM/);
  });

  it('respawns a killed process with its same spec, in its place, its log appended', async () => {
    const launcher = new Launcher({ logDir: dir });
    const [a, b] = [await freePort(), await freePort()];
    await launcher.startStages([[httpServer('kept', a)], [httpServer('victim', b)]]);
    const victim = launcher.get('victim')!;
    assert.throws(() => launcher.respawn('victim'), /victim is still running/);
    await victim.stop('SIGKILL');
    assert.equal(victim.exitReason(), 'was killed by SIGKILL');
    const again = launcher.respawn('victim');
    assert.notEqual(again.pid, victim.pid);
    await launcher.waitReady(again);
    const res = await fetch(`http://127.0.0.1:${b}/`);
    assert.equal(await res.text(), 'ok', 'the same port again');
    assert.deepEqual(
      launcher.processes.map((p) => p.name),
      ['kept', 'victim']
    );
    assert.equal(launcher.get('victim'), again);
    await launcher.stop();
    const log = readFileSync(join(dir, 'victim.log'), 'utf8');
    assert.match(log, /victim listening\nvictim listening\nvictim got SIGTERM/);
  });

  it('starts a process again when it exits after it was ready, if its restart policy says so', async () => {
    const lines: string[] = [];
    const launcher = new Launcher({
      logDir: dir,
      say: (l) => lines.push(l),
      restartAfterExit: (spec) => spec.name === 'restarted',
    });
    const [a, b] = [await freePort(), await freePort()];
    await launcher.startStage([httpServer('restarted', a), httpServer('left', b)]);
    const first = launcher.get('restarted')!;
    process.kill(first.pid, 'SIGKILL');
    process.kill(launcher.get('left')!.pid, 'SIGKILL');
    const readyTwice = () => lines.filter((l) => l === 'restarted is ready').length === 2;
    for (const deadline = Date.now() + 10_000; !readyTwice() && Date.now() < deadline;) {
      await new Promise((r) => setTimeout(r, 20));
    }
    assert.notEqual(launcher.get('restarted'), first, 'a new process in its place');
    assert.equal(lines.filter((l) => l === 'restarted is ready').length, 2, lines.join('\n'));
    assert.ok(
      lines.includes('restarted was killed by SIGKILL: starting it again'),
      lines.join('\n')
    );
    assert.equal(await (await fetch(`http://127.0.0.1:${a}/`)).text(), 'ok', 'serving again');
    assert.equal(launcher.get('left')!.exitReason(), 'was killed by SIGKILL', 'not restarted');
    await launcher.stop();
    assert.equal(
      launcher.get('restarted')!.exitReason(),
      'exited with code 0',
      'stopped, not restarted'
    );
  });

  it('names a process that exits before it is ready, with the end of its log', async () => {
    const exited: LaunchedProcess[] = [];
    const launcher = new Launcher({ logDir: dir, onUnexpectedExit: (p) => exited.push(p) });
    const crash = `console.error('cannot start: bad flag'); process.exit(3)`;
    const spec = nodeProcess('crasher', crash, [
      { kind: 'http', url: `http://127.0.0.1:${await freePort()}/` },
    ]);
    await assert.rejects(launcher.startStage([spec]), (err: unknown) => {
      assert.ok(err instanceof LaunchError);
      assert.equal(err.processName, 'crasher');
      assert.match(err.message, /crasher exited with code 3 before it was ready/);
      assert.match(err.logTail, /cannot start: bad flag/);
      assert.equal(err.portInUse, false);
      return true;
    });
    assert.deepEqual(
      exited.map((p) => p.name),
      ['crasher']
    );
    await launcher.stop();
  });

  it('says when a process lost its port, so that the caller may start over on others', async () => {
    const launcher = new Launcher({ logDir: dir });
    const lose = `console.error('listen EADDRINUSE: address already in use'); process.exit(1)`;
    const spec = nodeProcess('loser', lose, [
      { kind: 'http', url: `http://127.0.0.1:${await freePort()}/` },
    ]);
    await assert.rejects(
      launcher.startStage([spec]),
      (err: unknown) => err instanceof LaunchError && err.portInUse
    );
    await launcher.stop();
  });

  it('reports a process exiting after start, and not those it stops itself', async () => {
    const exited: string[] = [];
    const launcher = new Launcher({
      logDir: dir,
      onUnexpectedExit: (p) => exited.push(`${p.name} ${p.exitReason()}`),
    });
    const [victim] = await launcher.startStage([httpServer('victim', await freePort())]);
    await launcher.startStage([httpServer('bystander', await freePort())]);
    victim!.child.kill('SIGKILL');
    await victim!.exited;
    assert.deepEqual(exited, ['victim was killed by SIGKILL']);
    assert.equal(launcher.firstExited()?.name, 'victim');
    await launcher.stop();
    assert.deepEqual(exited, ['victim was killed by SIGKILL']);
  });

  it('fails a process that is not ready in time, and stops waiting when stopped', async () => {
    const launcher = new Launcher({ logDir: dir });
    const never: Readiness[] = [{ kind: 'http', url: `http://127.0.0.1:${await freePort()}/` }];
    const idle = `console.log('idling'); setInterval(() => undefined, 1000)`;
    await assert.rejects(
      launcher.startStage([nodeProcess('slow', idle, never, 500)]),
      /slow was not ready after 0.5 s/
    );
    const waiting = assert.rejects(
      launcher.startStage([nodeProcess('waiting', idle, never)]),
      LaunchAbortedError
    );
    await new Promise((r) => setTimeout(r, 200));
    await launcher.stop();
    await waiting;
    assert.equal(
      launcher.processes.every((p) => p.exitReason() !== undefined),
      true
    );
  });

  it('kills a process that does not stop within the grace period', async () => {
    const lines: string[] = [];
    const launcher = new Launcher({ logDir: dir, stopGraceMs: 300, say: (l) => lines.push(l) });
    // Ready only once it ignores SIGTERM: it listens after installing the handler, so a slow
    // start cannot let the SIGTERM arrive first.
    const port = await freePort();
    const stubborn = `process.on('SIGTERM', () => undefined);
      require('node:http').createServer((req, res) => res.end('ok')).listen(${port}, '127.0.0.1');`;
    const [p] = await launcher.startStage([
      nodeProcess('stubborn', stubborn, [{ kind: 'http', url: `http://127.0.0.1:${port}/` }]),
    ]);
    await launcher.stop();
    assert.equal(p!.exitReason(), 'was killed by SIGKILL');
    assert.ok(lines.includes('stubborn did not stop within 0.3 s: SIGKILL'));
  });

  it('takes a process without endpoint as ready once it has run for a while', async () => {
    const launcher = new Launcher({ logDir: dir });
    const idle = 'setInterval(() => undefined, 1000)';
    const quiet = nodeProcess('quiet', idle, [{ kind: 'running', forMs: 300 }]);
    const [p] = await launcher.startStage([quiet]);
    assert.equal(p!.exitReason(), undefined);
    await launcher.stop();
    const early = nodeProcess('early', 'process.exit(0)', [{ kind: 'running', forMs: 2000 }]);
    const second = new Launcher({ logDir: dir });
    await assert.rejects(
      second.startStage([early]),
      /early exited with code 0 before it was ready/
    );
    await second.stop();
  });
});
