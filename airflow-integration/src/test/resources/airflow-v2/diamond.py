from airflow.sdk import DAG
from airflow.providers.standard.operators.empty import EmptyOperator
from airflow.providers.standard.operators.python import PythonOperator
with DAG("diamond", schedule=None, catchup=False) as dag:
    a = EmptyOperator(task_id="a", priority_weight=5, pool="default_pool")
    b = EmptyOperator(task_id="b")
    c = EmptyOperator(task_id="c")
    d = EmptyOperator(task_id="d")
    fan = PythonOperator.partial(task_id="fan", python_callable=lambda x: x).expand(op_args=[[1], [2], [3]])
    a >> [b, c] >> d >> fan
