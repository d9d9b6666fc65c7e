"""The official Python client (Debian's python3-kubernetes) against a running suite.

Run by python-client.test.ts with a kubeconfig, a namespace and the service CIDR's prefix; prints
one JSON line per step ({"step": ..., "ok": true, ...}) and exits non-zero on the first failure,
so the Node test reports which call broke. Uses only the core group and apps/v1, whose names
are upstream's.
"""

import json
import sys
import threading
import time

from kubernetes import client, config, watch
from kubernetes.client.rest import ApiException


def report(step, **fields):
    print(json.dumps({"step": step, "ok": True, **fields}), flush=True)


def main():
    kubeconfig, ns, ip_prefix = sys.argv[1], sys.argv[2], sys.argv[3]
    api_client = config.new_client_from_config(config_file=kubeconfig)
    core = client.CoreV1Api(api_client)
    apps = client.AppsV1Api(api_client)

    core.create_namespace(client.V1Namespace(metadata=client.V1ObjectMeta(name=ns)))
    report("create namespace")

    # A watch opened before the writes sees them (the client sends watch=True, a bool that
    # upstream reads as true).
    events = []
    started = threading.Event()

    def watch_configmaps():
        w = watch.Watch()
        started.set()
        for ev in w.stream(core.list_namespaced_config_map, ns, timeout_seconds=30):
            events.append((ev["type"], ev["object"].metadata.name))
            if ev["type"] == "DELETED":
                w.stop()

    watcher = threading.Thread(target=watch_configmaps, daemon=True)
    watcher.start()
    started.wait()
    time.sleep(0.5)  # the watch request is sent once the generator runs

    cm = client.V1ConfigMap(metadata=client.V1ObjectMeta(name="py-cm"), data={"a": "1"})
    created = core.create_namespaced_config_map(ns, cm)
    assert created.metadata.resource_version, created
    report("create configmap", resourceVersion=created.metadata.resource_version)

    listed = core.list_namespaced_config_map(ns)
    assert [i.metadata.name for i in listed.items] == ["py-cm"], listed.items
    report("list configmaps", names=[i.metadata.name for i in listed.items])

    # A dict body is sent as a strategic merge patch by this client.
    patched = core.patch_namespaced_config_map("py-cm", ns, {"data": {"b": "2"}})
    assert patched.data == {"a": "1", "b": "2"}, patched.data
    report("patch configmap", data=patched.data)

    # A list body is a JSON patch.
    jp = core.patch_namespaced_config_map(
        "py-cm", ns, [{"op": "replace", "path": "/data/a", "value": "3"}]
    )
    assert jp.data["a"] == "3", jp.data
    report("json patch configmap", data=jp.data)

    core.delete_namespaced_config_map("py-cm", ns)
    report("delete configmap")
    watcher.join(timeout=30)
    assert ("ADDED", "py-cm") in events and ("DELETED", "py-cm") in events, events
    assert ("MODIFIED", "py-cm") in events, events
    report("watch configmaps", events=[f"{t} {n}" for t, n in events])

    # Services get cluster IPs from the gateway's range, a NodePort one a node port too.
    svc = client.V1Service(
        metadata=client.V1ObjectMeta(name="py-svc"),
        spec=client.V1ServiceSpec(
            selector={"app": "py"},
            ports=[client.V1ServicePort(port=80, target_port=8080)],
        ),
    )
    s = core.create_namespaced_service(ns, svc)
    assert s.spec.cluster_ip.startswith(ip_prefix), s.spec.cluster_ip
    assert s.spec.cluster_i_ps == [s.spec.cluster_ip], s.spec.cluster_i_ps
    report("create service", clusterIP=s.spec.cluster_ip)

    # Upstream always writes a Service's status.loadBalancer (an empty struct); clients read it.
    assert s.status is not None and s.status.load_balancer is not None, s.status
    assert s.status.load_balancer.ingress is None, s.status.load_balancer
    report("service status.loadBalancer", loadBalancer=s.status.load_balancer.to_dict())

    # A created Pod answers phase Pending and its QoS class (limits on cpu and memory, requests
    # defaulted from them: Guaranteed); deleting it answers the Pod.
    limits = {"cpu": "100m", "memory": "64Mi"}
    pod = client.V1Pod(
        metadata=client.V1ObjectMeta(name="py-pod"),
        spec=client.V1PodSpec(
            containers=[
                client.V1Container(
                    name="c",
                    image="nginx:1.27",
                    resources=client.V1ResourceRequirements(limits=limits),
                )
            ]
        ),
    )
    p = core.create_namespaced_pod(ns, pod)
    assert p.status is not None and p.status.phase == "Pending", p.status
    assert p.status.qos_class == "Guaranteed", p.status.qos_class
    report("pod status", phase=p.status.phase, qosClass=p.status.qos_class)
    deleted = core.delete_namespaced_pod("py-pod", ns)
    assert deleted.metadata.name == "py-pod" and deleted.kind == "Pod", deleted.metadata
    report("delete pod answers the pod", name=deleted.metadata.name)

    np = client.V1Service(
        metadata=client.V1ObjectMeta(name="py-np"),
        spec=client.V1ServiceSpec(type="NodePort", ports=[client.V1ServicePort(port=443)]),
    )
    n = core.create_namespaced_service(ns, np)
    assert n.spec.cluster_ip != s.spec.cluster_ip
    assert 30000 <= n.spec.ports[0].node_port <= 32767, n.spec.ports[0].node_port
    report("create nodeport service", clusterIP=n.spec.cluster_ip, nodePort=n.spec.ports[0].node_port)

    # Asking for a taken address is refused with upstream's 422 and message.
    try:
        core.create_namespaced_service(
            ns,
            client.V1Service(
                metadata=client.V1ObjectMeta(name="py-taken"),
                spec=client.V1ServiceSpec(
                    cluster_ip=s.spec.cluster_ip, ports=[client.V1ServicePort(port=80)]
                ),
            ),
        )
        raise AssertionError("a taken clusterIP was accepted")
    except ApiException as e:
        body = json.loads(e.body)
        assert e.status == 422, e.status
        assert "provided IP is already allocated" in body["message"], body["message"]
        report("taken clusterIP refused", status=e.status, message=body["message"])

    services = core.list_namespaced_service(ns)
    report("list services", names=sorted(i.metadata.name for i in services.items))
    core.delete_namespaced_service("py-svc", ns)
    report("delete service")

    # apps/v1: a deployment created, read back, scaled by a patch.
    dep = client.V1Deployment(
        metadata=client.V1ObjectMeta(name="py-dep"),
        spec=client.V1DeploymentSpec(
            replicas=1,
            selector=client.V1LabelSelector(match_labels={"app": "py"}),
            template=client.V1PodTemplateSpec(
                metadata=client.V1ObjectMeta(labels={"app": "py"}),
                spec=client.V1PodSpec(containers=[client.V1Container(name="c", image="nginx")]),
            ),
        ),
    )
    apps.create_namespaced_deployment(ns, dep)
    scaled = apps.patch_namespaced_deployment("py-dep", ns, {"spec": {"replicas": 3}})
    assert scaled.spec.replicas == 3, scaled.spec.replicas
    report("apps/v1 deployment patched", replicas=scaled.spec.replicas)


if __name__ == "__main__":
    try:
        main()
    except Exception as e:  # noqa: BLE001 - the test shows the failure
        print(json.dumps({"step": "failure", "ok": False, "error": repr(e)}), flush=True)
        sys.exit(1)
