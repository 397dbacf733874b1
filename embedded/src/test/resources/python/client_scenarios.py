"""What the official Kubernetes Python client observes of an API server, one JSON line per step.

Run by PythonClientRealApiServerTest against the embedded server and a real kube-apiserver:
    python client_scenarios.py KUBECONFIG NAMESPACE
Each server must be fresh in NAMESPACE; the lines of the two runs are compared.
"""
import json
import sys
import threading
import time

from kubernetes import client, config, watch
from kubernetes.client.rest import ApiException

kubeconfig, namespace = sys.argv[1], sys.argv[2]
core = client.CoreV1Api(config.new_client_from_config(config_file=kubeconfig))


def observe(step, value):
    print(json.dumps({"step": step, "value": value}, sort_keys=True), flush=True)


def refusal(call):
    try:
        call()
        return "no error"
    except ApiException as e:
        body = json.loads(e.body) if e.body else {}
        return {"code": e.status, "kind": body.get("kind"), "reason": body.get("reason"), "message": body.get("message")}


def names(raw_list):
    return sorted(item["metadata"]["name"] for item in raw_list["items"])


# a dict body without kind or apiVersion, as users write them: the server takes both from the path
created = core.create_namespaced_config_map(namespace, {"metadata": {"name": "py-settings", "labels": {"app": "py"}},
                                                        "data": {"a": "1"}}, _preload_content=False)
body = json.loads(created.data)
observe("create without kind", {"status": created.status, "kind": body.get("kind"), "apiVersion": body.get("apiVersion"),
                                "data": body.get("data")})
typed = core.create_namespaced_config_map(namespace, client.V1ConfigMap(
    metadata=client.V1ObjectMeta(name="py-typed", labels={"app": "py"}), data={"b": "2"}))
observe("create typed", {"name": typed.metadata.name, "uid set": bool(typed.metadata.uid),
                         "resourceVersion set": bool(typed.metadata.resource_version), "data": typed.data})

listed = json.loads(core.list_namespaced_config_map(namespace, label_selector="app=py", _preload_content=False).data)
observe("list", {"kind": listed["kind"], "apiVersion": listed["apiVersion"], "names": names(listed)})
since = listed["metadata"]["resourceVersion"]
observe("set-based selector", names(json.loads(core.list_namespaced_config_map(
    namespace, label_selector="app in (py),app notin (other)", _preload_content=False).data)))
observe("field selector", names(json.loads(core.list_namespaced_config_map(
    namespace, field_selector="metadata.name=py-typed", _preload_content=False).data)))

# a dict patch is sent as a strategic merge patch, a list as a JSON patch
observe("strategic merge patch", core.patch_namespaced_config_map("py-settings", namespace, {"data": {"c": "3"}}).data)
observe("json patch", core.patch_namespaced_config_map("py-settings", namespace,
                                                       [{"op": "replace", "path": "/data/a", "value": "10"}]).data)
typed.data = {"b": "20"}
observe("replace", core.replace_namespaced_config_map("py-typed", namespace, typed).data)
observe("replace with a stale resourceVersion", refusal(lambda: core.replace_namespaced_config_map("py-typed", namespace, typed)))

observe("get missing", refusal(lambda: core.read_namespaced_config_map("missing", namespace)))
observe("create existing", refusal(lambda: core.create_namespaced_config_map(namespace, {"metadata": {"name": "py-typed"}})))
observe("create in a missing namespace", refusal(lambda: core.create_namespaced_config_map("nowhere", {"metadata": {"name": "x"}})))
observe("unknown field selector", refusal(lambda: core.list_namespaced_config_map(namespace, field_selector="data.a=1")))
observe("invalid name", refusal(lambda: core.create_namespaced_config_map(namespace, {"metadata": {"name": "Not_A_Name"}})))

deleted = core.delete_namespaced_config_map("py-typed", namespace)
observe("delete", {"kind": deleted.kind, "status": deleted.status})

# Watch().stream from the list's resourceVersion: every change since, then the server ends the stream
replayed = [[event["type"], event["object"].metadata.name, event["object"].data]
            for event in watch.Watch().stream(core.list_namespaced_config_map, namespace, label_selector="app=py",
                                              resource_version=since, timeout_seconds=5)]
observe("watch from a resourceVersion", replayed)


# a live watch: the current objects as ADDED, then a create made while it streams (made once the watch
# has shown the current state, and the watch stopped once it shows the create, so no timing decides)
listed_current = threading.Event()


def create_later():
    if listed_current.wait(60):
        core.create_namespaced_config_map(namespace, {"metadata": {"name": "py-live", "labels": {"app": "py"}}})


writer = threading.Thread(target=create_later)
writer.start()
live = []
live_watch = watch.Watch()
for event in live_watch.stream(core.list_namespaced_config_map, namespace, label_selector="app=py", timeout_seconds=60):
    live.append([event["type"], event["object"].metadata.name])
    if event["object"].metadata.name == "py-settings":
        listed_current.set()
    if event["object"].metadata.name == "py-live":
        live_watch.stop()
listed_current.set()
writer.join()
observe("live watch", live)
