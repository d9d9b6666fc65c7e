#!/usr/bin/env node
// orch-health-probe: the probe of health-probe.ts as a command.
import { probe } from './health-probe.js';

process.exitCode = await probe(process.argv.slice(2), (line) => process.stdout.write(`${line}\n`));
