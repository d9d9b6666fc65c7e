// The log backend's legacy line (upstream's audit.EventString).
import type { AuditEvent } from '../event.js';

const q = (s: string): string => JSON.stringify(s);
const list = (l: readonly string[]): string => l.map(q).join(',');

export function legacyLine(ev: AuditEvent): string {
  let username = '<none>';
  let groups = '<none>';
  if (ev.user.username) {
    username = ev.user.username;
    if (ev.user.groups?.length) groups = list(ev.user.groups);
  }
  let as = '<self>';
  let asGroups = '<lookup>';
  if (ev.impersonatedUser) {
    as = ev.impersonatedUser.username;
    if (ev.impersonatedUser.groups) asGroups = list(ev.impersonatedUser.groups);
  }
  const namespace = ev.objectRef?.namespace || '<none>';
  const response = ev.responseStatus ? String(ev.responseStatus.code) : '<deferred>';
  const ip = ev.sourceIPs[0] ?? '<unknown>';
  return (
    `${ev.requestReceivedTimestamp} AUDIT: id=${q(ev.auditID)} stage=${q(ev.stage)} ip=${q(ip)} ` +
    `method=${q(ev.verb)} user=${q(username)} groups=${q(groups)} as=${q(as)} ` +
    `asgroups=${q(asGroups)} user-agent=${q(ev.userAgent)} namespace=${q(namespace)} ` +
    `uri=${q(ev.requestURI)} response="${response}"`
  );
}
