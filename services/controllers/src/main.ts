#!/usr/bin/env node
// orch-controllers: controllers acting through the public API (namespace deletion today).
import { optionsOrExit } from '@orch/component-base/flags';
import { createLogger } from '@orch/component-base/logs';
import { runUntilSignal } from '@orch/component-base/run';
import { newControllersConfig } from './config.js';
import { controllersOptions } from './options.js';
import { ControllersServer } from './server.js';

const options = optionsOrExit(() => controllersOptions());
const log = createLogger('controllers', options.logLevel);
runUntilSignal(log, new ControllersServer(newControllersConfig(options, log)));
