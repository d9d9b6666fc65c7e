// The gateway's NATS connection, for the dashboards' NATS health: connected or not, and the
// messages and bytes it received (the watch stream) and sent, read from the client's counters
// when scraped. Upstream has no NATS; the names are orch's.
import type { NatsConnection } from 'nats';
import { Counter, Gauge } from 'prom-client';
import type { Registry } from 'prom-client';

export function registerNatsMetrics(registry: Registry, nats: () => NatsConnection): void {
  new Gauge({
    name: 'orch_gateway_nats_connected',
    help: '1 while the NATS connection is open, 0 once it is closed.',
    registers: [registry],
    collect() {
      this.set(nats().isClosed() ? 0 : 1);
    },
  });
  const counter = (name: string, help: string, read: () => number): void =>
    void new Counter({
      name,
      help,
      registers: [registry],
      collect() {
        this.reset();
        this.inc(read());
      },
    });
  counter(
    'orch_gateway_nats_received_messages_total',
    'Messages received from NATS.',
    () => nats().stats().inMsgs
  );
  counter(
    'orch_gateway_nats_received_bytes_total',
    'Bytes received from NATS.',
    () => nats().stats().inBytes
  );
  counter(
    'orch_gateway_nats_sent_messages_total',
    'Messages sent to NATS.',
    () => nats().stats().outMsgs
  );
}
