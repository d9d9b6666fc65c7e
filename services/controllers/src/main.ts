#!/usr/bin/env node
// orch-controllers: controllers acting through the public API (namespace deletion today).
import { parseFlags } from '@orch/component-base/flags';
import { createLogger } from '@orch/component-base/logs';
import { onShutdown } from '@orch/component-base/shutdown';
import { RestClient, loadKubeconfig } from './client/rest-client.js';
import { NamespaceController } from './namespace/namespace-controller.js';

const flags = parseFlags('orch-controllers', {
  kubeconfig: { type: 'string', description: 'Kubeconfig with the API address and this component\'s client certificate.' },
});
if (!flags.kubeconfig) {
  process.stderr.write('orch-controllers: --kubeconfig is required\n');
  process.exit(2);
}
const log = createLogger('controllers');
const client = new RestClient(loadKubeconfig(flags.kubeconfig));
const namespaces = new NamespaceController(client, log);
void namespaces.run();
log.info('controllers running');
onShutdown(log, [() => namespaces.stop(), () => client.close()]);
