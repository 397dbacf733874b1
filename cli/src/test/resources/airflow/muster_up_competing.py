"""Two DAGs whose first tasks compete for one slot, for `muster up --peer airflow` (the dag plugin is in
Muster's default configuration, which orders them; `across-dags: longest-path` orders them the other way).

muster_up_long is a chain a -> b -> c; muster_up_short is the one task s. Their first tasks' pods
are ready together, each asking for the one CPU of the test's node labelled pool=solo. With no earlier runs each task
is estimated at the bridge's default minute, so the long run has three minutes left and the short one
one. Airflow's priority weights point the other way (s: 1; a: 15, its own 5 and its two downstream
tasks' 5 each), and a's pod is the older, so only the runs' remaining time puts s first. `muster.dev/duration` is how long `muster up`'s simulated
kubelet runs each pod; startup_timeout_seconds is long, as s's pod waits for a's. Pods are kept after
they finish so that a test can read when each was bound.
"""
import pendulum
from airflow.providers.cncf.kubernetes.operators.pod import KubernetesPodOperator
from airflow.sdk import DAG
from kubernetes.client import models as k8s

COMMON = dict(
    namespace="default",
    image="busybox:1.36",
    container_resources=k8s.V1ResourceRequirements(requests={"cpu": "1", "memory": "1Gi"}),
    in_cluster=False,
    get_logs=True,
    on_finish_action="keep_pod",
    startup_timeout_seconds=600,
    node_selector={"pool": "solo"},
)


def pod(task_id, seconds, **kwargs):
    return KubernetesPodOperator(
        task_id=task_id,
        name=task_id,
        cmds=["sh", "-c", "sleep %d" % seconds],
        annotations={"muster.dev/duration": "%ds" % seconds},
        **COMMON,
        **kwargs,
    )


with DAG(
    dag_id="muster_up_long",
    schedule=None,
    start_date=pendulum.datetime(2026, 1, 1, tz="UTC"),
    catchup=False,
    tags=["muster"],
):
    pod("a", 5, priority_weight=5) >> pod("b", 5, priority_weight=5) >> pod("c", 5, priority_weight=5)

with DAG(
    dag_id="muster_up_short",
    schedule=None,
    start_date=pendulum.datetime(2026, 1, 1, tz="UTC"),
    catchup=False,
    tags=["muster"],
):
    pod("s", 5, priority_weight=1)
