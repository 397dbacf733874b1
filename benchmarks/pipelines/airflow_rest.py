"""The REST calls of benchmarks/pipelines/run --peer airflow on the Airflow of a muster up (API v2, JWT)."""
import json
import sys
import time
import urllib.parse
import urllib.request
from datetime import datetime
from pathlib import Path

LONG = ["bench_long_1", "bench_long_2"]
SHORT = ["bench_short_1", "bench_short_2", "bench_short_3", "bench_short_4"]


def main(kubeconfig, label):
    home = Path(kubeconfig).resolve().with_name(Path(kubeconfig).name + ".airflow")
    env = dict(line.split("=", 1) for line in (home / "muster-up.env").read_text().splitlines() if "=" in line)
    url = env["AIRFLOW__CORE__EXECUTION_API_SERVER_URL"].replace("/execution/", "")
    password = json.loads((home / "simple_auth_manager_passwords.json.generated").read_text())["muster"]

    def call(method, path, body=None, token=None):
        request = urllib.request.Request(url + path, method=method, data=None if body is None else json.dumps(body).encode(),
                                         headers={"Content-Type": "application/json", **({"Authorization": "Bearer " + token} if token else {})})
        with urllib.request.urlopen(request, timeout=60) as answer:
            return json.loads(answer.read())

    token = None
    deadline = time.time() + 900
    while True:
        try:
            token = call("POST", "/auth/token", {"username": "muster", "password": password})["access_token"]
            for dag in LONG + SHORT:
                call("GET", "/api/v2/dags/" + dag, token=token)
            break
        except Exception as problem:  # Airflow still starting or parsing the file
            if time.time() > deadline:
                sys.exit("airflow-pipelines: Airflow did not answer for all DAGs within 900 s: %s" % problem)
            time.sleep(5)
    for dag in LONG + SHORT:
        call("PATCH", "/api/v2/dags/" + dag, {"is_paused": False}, token)
    runs = {}
    for dag in LONG:
        runs[dag] = call("POST", "/api/v2/dags/%s/dagRuns" % dag, {"logical_date": None}, token)["dag_run_id"]
    time.sleep(3)
    for dag in SHORT:
        runs[dag] = call("POST", "/api/v2/dags/%s/dagRuns" % dag, {"logical_date": None}, token)["dag_run_id"]
    deadline = time.time() + 1200
    while True:
        token = call("POST", "/auth/token", {"username": "muster", "password": password})["access_token"]
        ended = {dag: call("GET", "/api/v2/dags/%s/dagRuns/%s" % (dag, urllib.parse.quote(run, safe="")), token=token) for dag, run in runs.items()}
        if all(run["state"] in ("success", "failed") for run in ended.values()):
            break
        if time.time() > deadline:
            sys.exit("airflow-pipelines: runs not ended within 1200 s: %s" % {dag: run["state"] for dag, run in ended.items()})
        time.sleep(3)

    def t(text):
        return datetime.fromisoformat(text.replace("Z", "+00:00"))

    seconds = {dag: (t(run["end_date"]) - t(run["queued_at"])).total_seconds() for dag, run in ended.items()}
    for dag in LONG + SHORT:
        print("%-12s %-14s %-8s %6.0f s" % (label, dag, ended[dag]["state"], seconds[dag]))
    print("%-12s average DAG run completion %.1f s over %d (long %.1f s, short %.1f s)" % (
        label, sum(seconds.values()) / len(seconds), len(seconds), sum(seconds[d] for d in LONG) / len(LONG),
        sum(seconds[d] for d in SHORT) / len(SHORT)))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
