// The named printers of CertificateSigningRequest's Table columns, as kubectl's server-side
// printCertificateSigningRequest and extractCSRStatus (k8s
// pkg/printers/internalversion/printers.go).
import type { TablePrinter } from '../types.js';
import { arr, at, humanDuration, str } from '../table-cells.js';

export const certificatesTablePrinters: Readonly<Record<string, TablePrinter>> = {
  csrSignerName: (o) => str(at(o, 'spec.signerName')) || '<none>',
  csrRequestedDuration: (o) => {
    const s = at(o, 'spec.expirationSeconds');
    return typeof s === 'number' ? humanDuration(s * 1000) : '<none>';
  },
  csrCondition: (o) => {
    const types = new Set(arr(at(o, 'status.conditions')).map((c) => str(c['type'])));
    let status = types.has('Denied') ? 'Denied' : types.has('Approved') ? 'Approved' : 'Pending';
    if (types.has('Failed')) status += ',Failed';
    if (str(at(o, 'status.certificate'))) status += ',Issued';
    return status;
  },
};
