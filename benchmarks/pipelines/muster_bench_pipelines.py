"""Pipelines for benchmarks/pipelines/run --peer airflow: two long DAGs (a chain a -> b -> c) and four short
ones (one task s), every task a KubernetesPodOperator pod of one CPU that runs 20 s on muster up's
simulated kubelet (muster.dev/duration). With no earlier runs the Airflow bridge estimates each task at
its default minute, so a long run has three minutes left and a short one one.
"""
import pendulum
from airflow.providers.cncf.kubernetes.operators.pod import KubernetesPodOperator
from airflow.sdk import DAG
from kubernetes.client import models as k8s


def pod(task_id):
    return KubernetesPodOperator(
        task_id=task_id,
        name=task_id,
        namespace="default",
        image="busybox:1.36",
        cmds=["sh", "-c", "sleep 20"],
        annotations={"muster.dev/duration": "20s"},
        container_resources=k8s.V1ResourceRequirements(requests={"cpu": "1", "memory": "256Mi"}),
        in_cluster=False,
        get_logs=True,
        startup_timeout_seconds=900,
    )


for number in (1, 2):
    with DAG(dag_id="bench_long_%d" % number, schedule=None, start_date=pendulum.datetime(2026, 1, 1, tz="UTC"),
             catchup=False, tags=["muster-bench"]):
        pod("a") >> pod("b") >> pod("c")

for number in (1, 2, 3, 4):
    with DAG(dag_id="bench_short_%d" % number, schedule=None, start_date=pendulum.datetime(2026, 1, 1, tz="UTC"),
             catchup=False, tags=["muster-bench"]):
        pod("s")
