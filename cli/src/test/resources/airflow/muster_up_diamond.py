"""A diamond of KubernetesPodOperator tasks and a mapped fan-out, for `muster up --peer airflow`.

extract -> (clean, features) -> train[0..2] -> publish. `train` is mapped over three shards and
annotated as one gang for Muster; `muster.dev/duration` is how long `muster up`'s simulated kubelet
runs each pod. Nothing in it names Muster's scheduler: the pod_mutation_hook that `muster up` puts in
Airflow's config/ does that. Pods are kept after they finish (on_finish_action) so that a test can
read when each was bound. get_logs=True: the operator follows each pod's log through pods/log, as on a
cluster, and reads the simulated kubelet's lines.
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
    dag_id="muster_up_diamond",
    schedule=None,
    start_date=pendulum.datetime(2026, 1, 1, tz="UTC"),
    catchup=False,
    tags=["muster"],
) as dag:
    extract = pod("extract", 2, priority_weight=3)
    clean = pod("clean", 1, priority_weight=1)
    features = pod("features", 3, priority_weight=2)
    train = KubernetesPodOperator.partial(
        task_id="train",
        name="train",
        cmds=["sh", "-c"],
        annotations={"muster.dev/duration": "3s", "muster.dev/gang": "true"},
        priority_weight=4,
        **COMMON,
    ).expand(arguments=[["sleep 3"], ["sleep 3"], ["sleep 3"]])
    publish = pod("publish", 1)

    extract >> [clean, features] >> train >> publish
