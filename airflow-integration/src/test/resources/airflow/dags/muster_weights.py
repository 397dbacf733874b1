"""Priority weights under every weight rule, on a diamond with fan-outs and a mapped task.

extract -> (clean, features, audit); (clean, features) -> train[0..2] -> (publish, archive). Each
task's weight_rule decides how Airflow sums its effective weight when it creates the task instance;
Muster's bridge must compute the same from the REST API's task graph. Nothing here runs: a run of
the paused DAG already has its task instances, with Airflow's weights.
"""
import pendulum
from airflow.providers.standard.operators.bash import BashOperator
from airflow.providers.standard.operators.empty import EmptyOperator
from airflow.sdk import DAG

with DAG(
    dag_id="muster_weights",
    schedule=None,
    start_date=pendulum.datetime(2026, 1, 1, tz="UTC"),
    catchup=False,
    is_paused_upon_creation=True,
) as dag:
    extract = EmptyOperator(task_id="extract", priority_weight=3)
    clean = EmptyOperator(task_id="clean", priority_weight=1, weight_rule="upstream")
    features = EmptyOperator(task_id="features", priority_weight=2, weight_rule="absolute")
    audit = EmptyOperator(task_id="audit", priority_weight=6, weight_rule="upstream")
    train = BashOperator.partial(task_id="train", priority_weight=4, weight_rule="downstream").expand(
        bash_command=["true", "true", "true"]
    )
    publish = EmptyOperator(task_id="publish", priority_weight=5, weight_rule="upstream")
    archive = EmptyOperator(task_id="archive", priority_weight=7, weight_rule="absolute")

    extract >> [clean, features, audit]
    [clean, features] >> train >> [publish, archive]
