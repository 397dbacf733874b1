"""The diamond of ../airflow/dags/muster_diamond.py for Airflow 2 (its imports), with a mapped
fan-out, for the REST API v1 client's tests. Parsed only; no run."""
import pendulum
from airflow import DAG
from airflow.operators.bash import BashOperator
from airflow.operators.empty import EmptyOperator

with DAG(
    dag_id="muster_diamond2",
    schedule=None,
    start_date=pendulum.datetime(2026, 1, 1, tz="UTC"),
    catchup=False,
) as dag:
    extract = EmptyOperator(task_id="extract", priority_weight=3, pool="default_pool", queue="etl")
    clean = EmptyOperator(task_id="clean", priority_weight=1)
    features = EmptyOperator(task_id="features", priority_weight=2)
    train = BashOperator.partial(task_id="train", priority_weight=4).expand(bash_command=["echo 0", "echo 1", "echo 2"])
    publish = EmptyOperator(task_id="publish")
    extract >> [clean, features] >> train >> publish
