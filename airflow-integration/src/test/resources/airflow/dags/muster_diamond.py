"""A diamond of KubernetesPodOperator tasks and a mapped fan-out, as a data team writes one.

extract -> (clean, features) -> train[0..2] -> publish. `train` is mapped over three shards and
annotated as one gang for Muster; `muster.dev/duration` is how long `muster up`'s simulated kubelet
runs each pod. Nothing in it names Muster's scheduler: the pod_mutation_hook does that.
"""
import pendulum
from airflow.providers.cncf.kubernetes.operators.pod import KubernetesPodOperator
from airflow.sdk import DAG


def pod(task_id, seconds, **kwargs):
    return KubernetesPodOperator(
        task_id=task_id,
        name=task_id.replace("_", "-"),
        namespace="default",
        image="busybox:1.36",
        cmds=["sh", "-c", "sleep %d" % seconds],
        annotations={"muster.dev/duration": "%ds" % seconds},
        in_cluster=False,
        get_logs=False,
        **kwargs,
    )


with DAG(
    dag_id="muster_diamond",
    schedule=None,
    start_date=pendulum.datetime(2026, 1, 1, tz="UTC"),
    catchup=False,
    tags=["muster"],
) as dag:
    extract = pod("extract", 4, priority_weight=3, pool="default_pool", queue="etl")
    clean = pod("clean", 2, priority_weight=1)
    features = pod("features", 6, priority_weight=2)
    train = KubernetesPodOperator.partial(
        task_id="train",
        name="train",
        namespace="default",
        image="busybox:1.36",
        cmds=["sh", "-c"],
        annotations={"muster.dev/duration": "8s", "muster.dev/gang": "true"},
        in_cluster=False,
        get_logs=False,
        priority_weight=4,
        pool="default_pool",
    ).expand(arguments=[["sleep 8"], ["sleep 8"], ["sleep 8"]])
    publish = pod("publish", 1)

    extract >> [clean, features] >> train >> publish
