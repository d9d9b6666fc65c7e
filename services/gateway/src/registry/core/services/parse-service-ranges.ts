// --service-cluster-ip-range and --service-node-port-range as upstream's kube-apiserver reads
// them (pkg/controlplane/apiserver/options ServiceIPRange validation): one CIDR, or two of
// different families (dual-stack), and a port range.
import { CidrRange, PortRange } from './service-ranges.js';
import type { ServiceRanges } from './service-allocator.js';

export function parseServiceRanges(cidrs = '10.0.0.0/24', ports = '30000-32767'): ServiceRanges {
  const parts = cidrs
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (parts.length === 0 || parts.length > 2) {
    throw new Error(
      '--service-cluster-ip-range: expected one CIDR, or two of different IP families'
    );
  }
  const clusterIPs = parts.map((p) => {
    try {
      return CidrRange.parse(p);
    } catch (err) {
      throw new Error(`--service-cluster-ip-range: ${(err as Error).message}`);
    }
  });
  if (clusterIPs.length === 2 && clusterIPs[0]?.family === clusterIPs[1]?.family) {
    throw new Error(
      '--service-cluster-ip-range[0] and --service-cluster-ip-range[1] must be of different IP family'
    );
  }
  let nodePorts: PortRange;
  try {
    nodePorts = PortRange.parse(ports);
  } catch (err) {
    throw new Error(`--service-node-port-range: ${(err as Error).message}`);
  }
  return { clusterIPs, nodePorts };
}
