"""Muster's pod_mutation_hook for Airflow: every pod Airflow launches goes to Muster, in its group.

Put this file where Airflow finds its local settings (``$AIRFLOW_HOME/config/`` or any directory on
``PYTHONPATH``); if you already have an ``airflow_local_settings.py``, call ``muster_pod(pod)`` from
your own ``pod_mutation_hook``. No DAG changes: KubernetesPodOperator and the KubernetesExecutor both
pass their pods through ``pod_mutation_hook`` before creating them.

What it sets on a pod that carries Airflow's task labels (``dag_id``, ``task_id``, ``run_id``):

- ``spec.schedulerName``: ``$MUSTER_SCHEDULER_NAME`` (default ``muster``), unless the pod names a
  scheduler other than the default one;
- the annotation ``scheduling.k8s.io/group-name``: the PodGroup that Muster's Airflow bridge makes
  for the task instance. A mapped task whose pods carry ``muster.dev/gang: "true"`` shares one group
  over its map indexes. The name is the one ``AirflowGroupName`` computes in Java; keep them equal.
"""
import hashlib
import os

SCHEDULER_NAME = os.environ.get("MUSTER_SCHEDULER_NAME", "muster")
GROUP_ANNOTATION = "scheduling.k8s.io/group-name"
GANG_ANNOTATION = "muster.dev/gang"
_DEFAULT_SCHEDULERS = (None, "", "default-scheduler")


def group_name(labels, annotations):
    """The PodGroup name of a pod with Airflow's labels, or None for any other pod."""
    if not all(key in labels for key in ("dag_id", "task_id", "run_id")):
        return None
    parts = [labels["dag_id"], labels["task_id"], labels["run_id"], labels.get("try_number", "1")]
    gang = annotations.get(GANG_ANNOTATION) == "true" and "map_index" in labels
    if not gang:
        parts.append(labels.get("map_index", "-1"))
    digest = hashlib.sha256("\n".join(parts).encode("utf-8")).hexdigest()[:16]
    task = "".join(c if c.isascii() and c.isalnum() else "-" for c in labels["task_id"].lower()).strip("-")[:30].strip("-")
    return "airflow-%s-%s" % (task or "task", digest)


def muster_pod(pod):
    """Sets Muster's scheduler name and group annotation on an Airflow task pod; leaves others alone."""
    metadata = pod.metadata
    if metadata is None:
        return
    labels = metadata.labels or {}
    annotations = dict(metadata.annotations or {})
    name = group_name(labels, annotations)
    if name is None:
        return
    if pod.spec is not None and pod.spec.scheduler_name in _DEFAULT_SCHEDULERS:
        pod.spec.scheduler_name = SCHEDULER_NAME
    annotations.setdefault(GROUP_ANNOTATION, name)
    metadata.annotations = annotations


def pod_mutation_hook(pod):
    muster_pod(pod)
