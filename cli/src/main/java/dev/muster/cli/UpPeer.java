package dev.muster.cli;

import static java.util.Objects.requireNonNull;

import dev.muster.peers.InstalledPeer;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * A real peer {@code muster up --peer NAME} installs (through {@code peers/install}) and runs against
 * the embedded API server, so a workflow engine's own controller can be tried on a laptop beside
 * Muster's bridge for it.
 */
enum UpPeer {
    /**
     * Argo's workflow controller, watching the {@code default} namespace, as {@code argo-integration}'s tests run it, and
     * Argo's executor ({@code argoexec}, the peer of that name), which the simulated kubelet runs as local processes for the
     * pods of resource templates, so the objects they name are made and waited for.
     */
    ARGO("argo", "Argo's workflow controller") {
        private static final String EXECUTOR = "argoexec";
        private static final String REQUEUE_TIME = "DEFAULT_REQUEUE_TIME";

        @Override
        List<String> companions() {
            return List.of(EXECUTOR);
        }

        @Override
        void attach(EmbeddedCluster cluster, Map<String, InstalledPeer> installed, Path kubeconfig) {
            cluster.runArgoExecutors(requireNonNull(installed.get(EXECUTOR), "BUG: the installer did not report " + EXECUTOR).executable(),
                    kubeconfig);
        }

        @Override
        List<String> command(Path executable, Path kubeconfig) {
            return List.of(executable.toString(), "--kubeconfig", kubeconfig.toString(), "--namespaced", "--managed-namespace", "default",
                    "--loglevel", "info");
        }

        /**
         * One replica, so no leader election; and the workflow queue's requeue time at 1 s, as Argo's own development
         * setup runs it, unless the user's environment sets it: Argo's default of 10 s puts ten seconds between a
         * workflow's steps, which on a laptop is most of a short pipeline's time.
         */
        @Override
        Map<String, String> environment() {
            return System.getenv().containsKey(REQUEUE_TIME) ? Map.of("LEADER_ELECTION_DISABLE", "true")
                    : Map.of("LEADER_ELECTION_DISABLE", "true", REQUEUE_TIME, "1s");
        }

        @Override
        void prepare(KubernetesClient client) {
            // its metrics and telemetry servers would take port 9090, which the user's machine may use
            if (client.configMaps().inNamespace("default").withName("workflow-controller-configmap").get() == null) {
                client.configMaps().inNamespace("default").resource(new ConfigMapBuilder()
                        .withNewMetadata().withName("workflow-controller-configmap").withNamespace("default").endMetadata()
                        .withData(Map.of("metricsConfig", "enabled: false\n", "telemetryConfig", "enabled: false\n")).build()).create();
            }
        }
    },
    /**
     * The Argo Server (Argo's API and UI) on {@link ArgoServerUp#URL}, over plain HTTP, for the {@code default} namespace, in
     * {@code --auth-mode server}: it acts as the kubeconfig's user, so a laptop's browser and the {@code argo} command need no
     * token. Argo's workflow admission resumes workflows through it ({@link ArgoServerUp}).
     */
    ARGO_SERVER("argo-server", "the Argo Server, Argo's API and UI, on " + ArgoServerUp.URL) {
        @Override
        List<String> command(Path executable, Path kubeconfig) {
            return List.of(executable.toString(), "server", "--kubeconfig", kubeconfig.toString(), "--namespaced", "--managed-namespace",
                    "default", "--auth-mode", "server", "--secure=false", "--port", String.valueOf(ArgoServerUp.PORT), "--loglevel", "info");
        }
    },
    /**
     * kube-controller-manager v1.34.4 with the controllers of the workloads the embedded server serves: batch/v1 Jobs
     * (and their TTL after finishing), CronJobs, Deployments and ReplicaSets. No leader election (one process) and no serving
     * port (nothing scrapes it here). The garbage collector is not among them on the embedded server, which deletes an
     * object's dependents itself; on a real kube-apiserver, which does not, it is, with the namespace controller (which
     * empties and removes a deleted namespace) and the serviceaccounts controller.
     */
    KUBE_CONTROLLER_MANAGER("kube-controller-manager", "kube-controller-manager's Job, CronJob, Deployment and ReplicaSet controllers") {
        private static final String WORKLOADS =
                "job-controller,cronjob-controller,ttl-after-finished-controller,deployment-controller,replicaset-controller";

        @Override
        List<String> command(Path executable, Path kubeconfig) {
            return command(executable, kubeconfig, ApiServerChoice.EMBEDDED);
        }

        @Override
        List<String> command(Path executable, Path kubeconfig, ApiServerChoice apiServer) {
            String controllers = switch (apiServer) {
                case EMBEDDED -> WORKLOADS;
                case REAL -> WORKLOADS + ",garbage-collector-controller,namespace-controller,serviceaccount-controller";
            };
            return List.of(executable.toString(), "--kubeconfig=" + kubeconfig, "--controllers=" + controllers,
                    "--leader-elect=false", "--secure-port=0");
        }
    },
    /** The Kubeflow spark-operator's controller with Muster as a batch scheduler; see {@link SparkOperatorPeer}. */
    SPARK_OPERATOR("spark-operator", "the Kubeflow spark-operator's controller") {
        @Override
        List<String> command(Path executable, Path kubeconfig) {
            return SparkOperatorPeer.command(executable, kubeconfig);
        }

        @Override
        void prepare(KubernetesClient client) {
            SparkOperatorPeer.prepare(client);
        }
    },
    /**
     * Apache Airflow 3 standalone, its KubernetesPodOperator pods sent to this cluster, read by the Airflow bridge ({@link AirflowUpPeer});
     * nothing to prepare in the cluster: its home is made before the cluster starts ({@code AirflowUpPeer.prepare}), since the bridge
     * needs its address and user.
     */
    AIRFLOW("airflow", "Apache Airflow standalone") {
        @Override
        List<String> command(Path executable, Path kubeconfig) {
            return AirflowUpPeer.command(executable, kubeconfig);
        }
    },
    /**
     * Kubeflow's training operator (TFJob, PyTorchJob) with {@code --gang-scheduler-name=volcano}, watching the
     * {@code default} namespace, as {@code kubeflow-bridge}'s tests run it: its metrics and health listeners off,
     * its webhook server on a free port, with the Secret and certificate files of {@link TrainingOperatorWebhook}.
     */
    TRAINING_OPERATOR("training-operator", "Kubeflow's training operator, gang-scheduling through Volcano PodGroups") {
        @Override
        List<String> command(Path executable, Path kubeconfig) {
            return List.of(executable.toString(), "--kubeconfig=" + kubeconfig, "--gang-scheduler-name=volcano",
                    "--enable-scheme=tfjob", "--enable-scheme=pytorchjob", "--namespace=" + TrainingOperatorWebhook.NAMESPACE,
                    "--metrics-bind-address=0", "--health-probe-bind-address=0",
                    "--webhook-server-port=" + TrainingOperatorWebhook.freePort());
        }

        @Override
        Map<String, String> environment() {
            return Map.of("MY_POD_NAMESPACE", TrainingOperatorWebhook.NAMESPACE);
        }

        @Override
        void prepare(KubernetesClient client) {
            TrainingOperatorWebhook.prepare(client);
        }
    };

    private final String peerName;
    private final String description;

    UpPeer(String peerName, String description) {
        this.peerName = peerName;
        this.description = description;
    }

    /** The name in {@code peers/install} and on the command line. */
    String peerName() {
        return peerName;
    }

    String description() {
        return description;
    }

    abstract List<String> command(Path executable, Path kubeconfig);

    /** The command against the given kind of API server; the same on both unless the peer says. */
    List<String> command(Path executable, Path kubeconfig, ApiServerChoice apiServer) {
        return command(executable, kubeconfig);
    }

    /** What the peer's process gets in its environment beyond this JVM's; nothing unless the peer says. */
    Map<String, String> environment() {
        return Map.of();
    }

    /** Other peers this one needs installed beside it; none unless the peer says. */
    List<String> companions() {
        return List.of();
    }

    /**
     * What the cluster itself needs of the installed peers before this one starts; nothing unless the peer says.
     *
     * @throws PeerException when the cluster cannot take what the peer needs
     */
    void attach(EmbeddedCluster cluster, Map<String, InstalledPeer> installed, Path kubeconfig) {
        // most peers only talk to the API server
    }

    /** What the peer needs in the cluster before it starts; nothing unless the peer says. */
    void prepare(KubernetesClient client) {
        // most peers need nothing made for them
    }

    /** Reads a {@code --peer} value; an unknown name lists the known ones. */
    static final class Converter implements ITypeConverter<UpPeer> {
        @Override
        public UpPeer convert(String value) {
            return Arrays.stream(values())
                    .filter(peer -> peer.peerName.equals(value.toLowerCase(Locale.ROOT)))
                    .findFirst()
                    .orElseThrow(() -> new TypeConversionException("unknown peer '" + value + "'; known: "
                            + String.join(", ", Arrays.stream(values()).map(UpPeer::peerName).toList())));
        }
    }
}
