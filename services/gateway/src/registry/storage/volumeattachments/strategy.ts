// VolumeAttachments (k8s pkg/registry/storage/volumeattachment/strategy.go, pkg/apis/storage/
// validation ValidateVolumeAttachment / ValidateVolumeAttachmentUpdate): an attacher (a CSI
// driver name), exactly one of persistentVolumeName and inlineVolumeSpec, a node name; the spec
// is immutable; status (attached, metadata, errors) only through the status subresource.
import { fieldInvalid, fieldRequired, fieldTooLong, newPath } from '@orch/apimachinery/errors';
import type { FieldError } from '@orch/apimachinery/errors';
import type { ApiObject } from '@orch/apimachinery/meta';
import { isDNS1123Subdomain, sameJson } from '@orch/apimachinery/meta';
import { defaultStrategy } from '../../strategy.js';
import type { Strategy } from '../../strategy.js';
import { isObject, obj, str } from '../../unstructured.js';
import { validateCSIDriverName } from '../validate-csi-driver-name.js';

export const maxAttachedVolumeMetadataSize = 256 * 1024;
export const maxVolumeErrorMessageSize = 1024;

/** ValidateVolumeAttachment. */
export function validateVolumeAttachment(va: ApiObject): FieldError[] {
  const spec = obj(va['spec']);
  const p = newPath('spec');
  const errs = validateCSIDriverName(str(spec['attacher']), p.child('attacher'));
  const source = obj(spec['source']);
  const hasName = str(source['persistentVolumeName']) !== '';
  const hasInline = isObject(source['inlineVolumeSpec']);
  if (hasName === hasInline)
    errs.push(
      fieldRequired(
        p.child('source'),
        'must specify exactly one of inlineVolumeSpec and persistentVolumeName'
      )
    );
  if (hasName)
    for (const m of isDNS1123Subdomain(str(source['persistentVolumeName'])))
      errs.push(
        fieldInvalid(p.child('source', 'persistentVolumeName'), source['persistentVolumeName'], m)
      );
  const node = str(spec['nodeName']);
  if (!node) errs.push(fieldRequired(p.child('nodeName'), ''));
  else
    for (const m of isDNS1123Subdomain(node)) errs.push(fieldInvalid(p.child('nodeName'), node, m));
  return [...errs, ...validateVolumeAttachmentStatus(va)];
}

function validateVolumeAttachmentStatus(va: ApiObject): FieldError[] {
  const errs: FieldError[] = [];
  const status = obj(va['status']);
  let size = 0;
  for (const [k, v] of Object.entries(obj(status['attachmentMetadata'])))
    size += k.length + str(v).length;
  if (size > maxAttachedVolumeMetadataSize)
    errs.push(fieldTooLong(newPath('status', 'attachmentMetadata'), maxAttachedVolumeMetadataSize));
  for (const e of ['attachError', 'detachError']) {
    const message = str(obj(status[e])['message']);
    if (message.length > maxVolumeErrorMessageSize)
      errs.push(fieldTooLong(newPath('status', e, 'message'), maxVolumeErrorMessageSize));
  }
  return errs;
}

/** ValidateVolumeAttachmentUpdate: the spec never changes. */
export function validateVolumeAttachmentUpdate(next: ApiObject, old: ApiObject): FieldError[] {
  const errs = validateVolumeAttachment(next);
  if (!sameJson(next['spec'], old['spec']))
    errs.push(fieldInvalid(newPath('spec'), next['spec'], 'field is immutable'));
  return errs;
}

export const volumeAttachmentStrategy: Strategy = {
  ...defaultStrategy({ hasStatus: true }),
  validate: validateVolumeAttachment,
  validateUpdate: validateVolumeAttachmentUpdate,
};
