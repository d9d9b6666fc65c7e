// fieldsV1 text, read and written byte for byte as upstream writes it. The fixtures are
// fieldsV1 written by upstream code, each cited where it is used.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse as parseYaml } from 'yaml';
import { keyByFields } from './element.js';
import { makePath } from './path.js';
import { Set } from './set.js';
import { deserializePathElement, serializePathElement } from './serialize-pe.js';
import { setFromFieldsV1, setFromJSON, setToFieldsV1, setToJSON } from './serialize.js';

// kubernetes-sigs/structured-merge-diff fieldpath/serialize_test.go, TestSerializeV1GoldenData:
// sets of every element type, in the order Set.ToJSON writes them.
const smdGolden = [
  `{"f:aaa":{},"f:aab":{},"f:aac":{},"f:aad":{},"f:aae":{},"f:aaf":{},"k:{\\"name\\":\\"first\\"}":{},"k:{\\"name\\":\\"second\\"}":{},"k:{\\"port\\":443,\\"protocol\\":\\"tcp\\"}":{},"k:{\\"port\\":443,\\"protocol\\":\\"udp\\"}":{},"v:1":{},"v:2":{},"v:3":{},"v:\\"aa\\"":{},"v:\\"ab\\"":{},"v:true":{},"i:1":{},"i:2":{},"i:3":{},"i:4":{}}`,
  `{"f:aaa":{"k:{\\"name\\":\\"second\\"}":{"v:3":{"f:aab":{}}},"v:3":{},"v:true":{}},"f:aab":{"f:aaa":{},"f:aaf":{"k:{\\"port\\":443,\\"protocol\\":\\"udp\\"}":{"k:{\\"port\\":443,\\"protocol\\":\\"tcp\\"}":{}}},"k:{\\"name\\":\\"first\\"}":{}},"f:aac":{"f:aaa":{"v:1":{}},"f:aac":{},"v:3":{"k:{\\"name\\":\\"second\\"}":{}}},"f:aad":{"f:aac":{"v:1":{}},"f:aaf":{"k:{\\"name\\":\\"first\\"}":{"k:{\\"name\\":\\"first\\"}":{}}},"i:1":{"i:1":{},"i:3":{"v:true":{}}}},"f:aae":{"f:aae":{},"k:{\\"port\\":443,\\"protocol\\":\\"tcp\\"}":{"k:{\\"port\\":443,\\"protocol\\":\\"udp\\"}":{}},"i:4":{"f:aaf":{}}},"f:aaf":{"i:1":{"f:aac":{}},"i:2":{},"i:3":{}},"k:{\\"name\\":\\"first\\"}":{"f:aad":{"f:aaf":{}}},"k:{\\"port\\":443,\\"protocol\\":\\"tcp\\"}":{"f:aaa":{"f:aad":{}}},"k:{\\"port\\":443,\\"protocol\\":\\"udp\\"}":{"f:aac":{},"k:{\\"name\\":\\"first\\"}":{"i:3":{}},"k:{\\"port\\":443,\\"protocol\\":\\"udp\\"}":{"i:4":{}}},"v:1":{"f:aac":{"i:4":{}},"f:aaf":{},"k:{\\"port\\":443,\\"protocol\\":\\"tcp\\"}":{}},"v:2":{"f:aad":{"f:aaf":{}},"i:1":{}},"v:3":{"f:aaa":{},"k:{\\"name\\":\\"first\\"}":{},"i:2":{}},"v:\\"aa\\"":{"f:aab":{"f:aaf":{}},"f:aae":{},"k:{\\"name\\":\\"first\\"}":{"f:aad":{}},"i:2":{}},"v:\\"ab\\"":{"f:aaf":{"i:4":{}},"k:{\\"port\\":443,\\"protocol\\":\\"tcp\\"}":{},"k:{\\"port\\":443,\\"protocol\\":\\"udp\\"}":{},"v:1":{"k:{\\"port\\":443,\\"protocol\\":\\"udp\\"}":{}},"i:1":{"f:aae":{"i:4":{}}}},"v:true":{"k:{\\"name\\":\\"second\\"}":{"f:aaa":{}},"i:2":{"k:{\\"port\\":443,\\"protocol\\":\\"tcp\\"}":{}}},"i:1":{"i:3":{"f:aaf":{}}},"i:2":{"f:aae":{},"k:{\\"port\\":443,\\"protocol\\":\\"tcp\\"}":{"v:1":{}}},"i:3":{"f:aab":{"v:true":{"v:\\"aa\\"":{}}},"f:aaf":{},"i:1":{}},"i:4":{"v:\\"aa\\"":{"f:aab":{"k:{\\"name\\":\\"second\\"}":{}}}}}`,
];

// kubernetes/kubernetes staging/src/k8s.io/apimachinery/pkg/util/managedfields/internal/
// fields_test.go, TestFieldsRoundTrip: a member with children holds "." first.
const k8sFieldsRoundTrip = `{"f:metadata":{".":{},"f:name":{}}}`;

// A kube-apiserver's own output: the managedFields of a pod created by `kubectl apply`, as the
// API server sent it in an AdmissionReview, logged in cloud-custodian/cloud-custodian
// docs/source/kubernetes/controllermode.rst.
export const kubectlPodFieldsV1 = `{"f:metadata":{"f:annotations":{".":{},"f:kubectl.kubernetes.io/last-applied-configuration":{}}},"f:spec":{"f:containers":{"k:{\\"name\\":\\"nginx\\"}":{".":{},"f:image":{},"f:imagePullPolicy":{},"f:name":{},"f:ports":{".":{},"k:{\\"containerPort\\":80,\\"protocol\\":\\"TCP\\"}":{".":{},"f:containerPort":{},"f:protocol":{}}},"f:resources":{},"f:terminationMessagePath":{},"f:terminationMessagePolicy":{}}},"f:dnsPolicy":{},"f:enableServiceLinks":{},"f:restartPolicy":{},"f:schedulerName":{},"f:securityContext":{},"f:terminationGracePeriodSeconds":{}}}`;

// Deployment managedFields exported from a cluster (kubeadm's Update and kube-controller-
// manager's status Update), weaveworks-experiments/kspan controllers/events/fixtures_test.go.
const kspanDeployment = `
managedFields:
- apiVersion: apps/v1
  fieldsType: FieldsV1
  fieldsV1:
    f:metadata:
      f:labels:
        .: {}
        f:k8s-app: {}
    f:spec:
      f:replicas: {}
      f:template:
        f:spec:
          f:containers:
            k:{"name":"coredns"}:
              .: {}
              f:args: {}
              f:image: {}
          f:dnsPolicy: {}
  manager: kubeadm
  operation: Update
- apiVersion: apps/v1
  fieldsType: FieldsV1
  fieldsV1:
    f:metadata:
      f:annotations:
        .: {}
        f:deployment.kubernetes.io/revision: {}
    f:status:
      f:availableReplicas: {}
      f:conditions:
        .: {}
        k:{"type":"Available"}:
          .: {}
        k:{"type":"Progressing"}:
          .: {}
  manager: kube-controller-manager
  operation: Update
`;

test('fieldsV1 round trip: structured-merge-diff golden data, byte for byte', () => {
  for (const text of smdGolden) assert.equal(setToJSON(setFromJSON(text)), text);
});

test('fieldsV1 round trip: k8s managedfields FieldsToSet/SetToFields', () => {
  const s = setFromJSON(k8sFieldsRoundTrip);
  assert.ok(s.has(makePath('metadata')) && s.has(makePath('metadata', 'name')));
  assert.equal(setToJSON(s), k8sFieldsRoundTrip);
  assert.equal(setToJSON(setFromJSON('{}')), '{}');
});

test('fieldsV1 round trip: a pod written by kube-apiserver', () => {
  const s = setFromJSON(kubectlPodFieldsV1);
  assert.ok(
    s.has(
      makePath(
        'spec',
        'containers',
        keyByFields('name', 'nginx'),
        'ports',
        keyByFields('containerPort', 80, 'protocol', 'TCP'),
        'protocol'
      )
    )
  );
  assert.ok(
    s.has(makePath('spec', 'containers', keyByFields('name', 'nginx'))),
    'the item is a member'
  );
  assert.ok(!s.has(makePath('spec', 'containers')), 'the list is not');
  assert.equal(setToJSON(s), kubectlPodFieldsV1);
  assert.equal(JSON.stringify(setToFieldsV1(s)), kubectlPodFieldsV1);
});

test('fieldsV1 round trip: deployment entries of kubeadm and kube-controller-manager (YAML)', () => {
  const doc = parseYaml(kspanDeployment) as { managedFields: { fieldsV1: unknown }[] };
  const kubeadm = setFromFieldsV1(doc.managedFields[0]?.fieldsV1);
  assert.equal(
    JSON.stringify(setToFieldsV1(kubeadm)),
    JSON.stringify(doc.managedFields[0]?.fieldsV1)
  );
  // The fixture's author trimmed the conditions' fields, leaving `.: {}` alone under each item:
  // read as the item being a member, which upstream writes as an empty leaf.
  const status = setFromFieldsV1(doc.managedFields[1]?.fieldsV1);
  assert.ok(status.has(makePath('status', 'conditions', keyByFields('type', 'Available'))));
  assert.equal(
    setToJSON(status),
    `{"f:metadata":{"f:annotations":{".":{},"f:deployment.kubernetes.io/revision":{}}},"f:status":{"f:availableReplicas":{},"f:conditions":{".":{},"k:{\\"type\\":\\"Available\\"}":{},"k:{\\"type\\":\\"Progressing\\"}":{}}}}`
  );
});

test('fieldsV1 reading is independent of key order, writing is canonical', () => {
  const shuffled = `{"f:b":{},"i:0":{},"k:{\\"protocol\\":\\"TCP\\",\\"port\\":80}":{"f:x":{},".":{}},"f:a":{"f:z":{},"f:y":{}}}`;
  assert.equal(
    setToJSON(setFromJSON(shuffled)),
    `{"f:a":{"f:y":{},"f:z":{}},"f:b":{},"k:{\\"port\\":80,\\"protocol\\":\\"TCP\\"}":{".":{},"f:x":{}},"i:0":{}}`
  );
});

test('fieldsV1: unknown element types are dropped, bad ones are errors', () => {
  // structured-merge-diff TestDropUnknown.
  assert.equal(setToJSON(setFromJSON(`{"f:aaa":{},"r:aab":{}}`)), `{"f:aaa":{}}`);
  assert.throws(
    () => setFromJSON(`{"k:{invalid json}":{"f:name":{},".":{}}}`),
    /fieldsV1: parsing path element/
  );
  assert.throws(() => setFromJSON(`{"f:a":[]}`), /expected an object at \/f:a/);
  assert.throws(() => setFromJSON(`{"i:x":{}}`), /not an integer/);
  assert.throws(() => setFromJSON(`[`), /fieldsV1:/);
});

test('path elements: text forms, with Go escapes for HTML characters', () => {
  const rows: [string, ReturnType<typeof deserializePathElement>][] = [
    ['f:spec', { fieldName: 'spec' }],
    ['k:{"name":"a<b"}', keyByFields('name', 'a<b')],
    ['v:"x"', { value: 'x' }],
    ['v:3', { value: 3 }],
    ['v:true', { value: true }],
    ['i:12', { index: 12 }],
  ];
  assert.equal(serializePathElement(keyByFields('name', 'a<b')), 'k:{"name":"a\\u003cb"}');
  for (const [text, pe] of rows) assert.deepEqual(deserializePathElement(text), pe);
  assert.equal(serializePathElement({ value: 'é\u0001' }), 'v:"é\\u0001"');
  assert.ok(new Set().empty());
});
