package dev.muster.cli;

import java.nio.file.Path;
import java.util.List;

/** The text {@code muster up} prints once everything runs. */
final class UpUsage {
    private UpUsage() {}

    /** What runs, how to use it from kubectl, and what the API server keeps and lacks. */
    static String text(EmbeddedCluster cluster, SchedulerChoice scheduler, List<Bridge> bridges, Path kubeconfig) {
        if (scheduler == SchedulerChoice.NONE) {
            return """
                    muster up: %s with %s, and no scheduler: pods stay pending until one binds them.
                    Volcano's job controllers still run: a Job gets its PodGroup, and its pods once a scheduler admits it
                    (phase Inqueue), as Volcano's controller does; the simulated kubelet runs whatever is bound.

                      export KUBECONFIG=%s
                      kube-scheduler --kubeconfig "$KUBECONFIG"      # or any scheduler to try against it

                    %s"""
                    .formatted(cluster.server().description(), describe(cluster.nodes()), kubeconfig.toAbsolutePath(), closing(cluster));
        }
        return """
                muster up: %s with %s, scheduled by Muster.
                Muster is its only scheduler: it schedules pods whose spec.schedulerName is %s (the API server's default,
                for a pod that names none); muster.dev/duration: 30s makes one finish after 30 s.
                Volcano Jobs and JobFlows run too: kubectl apply -f examples/jobs/
                Bridges: %s.

                  export KUBECONFIG=%s
                  kubectl apply -f examples/up/training.yaml
                  kubectl get pods -o wide
                  kubectl get podgroups,queues

                %s"""
                .formatted(cluster.server().description(), describe(cluster.nodes()), orList(EmbeddedCluster.SCHEDULER_NAMES.asList()),
                        String.join("; ", bridges.stream().map(bridge -> bridge.commandName() + " (" + bridge.description() + ")").toList()),
                        kubeconfig.toAbsolutePath(), closing(cluster));
    }

    /** What the server keeps and lacks, and how to stop it. */
    private static String closing(EmbeddedCluster cluster) {
        return switch (cluster.server().choice()) {
            case EMBEDDED -> "Everything is in memory and unauthenticated, on 127.0.0.1 only. Ctrl-C stops it.";
            case REAL -> """
                    etcd keeps its data in a temporary directory, deleted at the end; both listen on 127.0.0.1 only.
                    No kube-controller-manager runs unless --peer kube-controller-manager: Muster keeps a default
                    ServiceAccount in each namespace (admission refuses pods without one), but a deleted object's
                    dependents stay and a deleted namespace stays Terminating without it. Ctrl-C stops everything.""";
        };
    }

    /** "a, b or c". */
    private static String orList(List<String> names) {
        return names.size() < 2 ? String.join("", names)
                : String.join(", ", names.subList(0, names.size() - 1)) + " or " + names.get(names.size() - 1);
    }

    private static String describe(List<String> nodes) {
        return switch (nodes.size()) {
            case 0 -> "no nodes";
            case 1 -> "1 simulated node (" + nodes.get(0) + ")";
            default -> nodes.size() + " simulated nodes (" + nodes.get(0) + " to " + nodes.get(nodes.size() - 1) + ")";
        };
    }
}
