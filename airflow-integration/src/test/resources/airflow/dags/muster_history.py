"""A small DAG that really runs on the standalone's LocalExecutor, so that its runs leave task
instances with states, try numbers, map indexes and durations for the API to report."""
import pendulum
from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG

with DAG(
    dag_id="muster_history",
    schedule=None,
    start_date=pendulum.datetime(2026, 1, 1, tz="UTC"),
    catchup=False,
    is_paused_upon_creation=False,
) as dag:
    first = BashOperator(task_id="first", bash_command="sleep 1")
    shards = BashOperator.partial(task_id="shards").expand(bash_command=["echo 0", "echo 1", "echo 2"])
    last = BashOperator(task_id="last", bash_command="true")
    first >> shards >> last
